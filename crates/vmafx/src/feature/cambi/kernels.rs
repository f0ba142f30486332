//! CAMBI's kernel table type and its scalar table (the kernels in `cvalues.rs` and
//! `pooling.rs`). The tables per CPU level are in `x86/`, listed by [`super::dispatch`].

use super::cvalues::{
    add_runs, c_value_row, scan_runs, AddRunsFn, CValueRowFn, HistogramKernels, ScanRunsFn,
};
use super::pooling::{pool_groups, PoolStatsFn};
use crate::cpu::{CpuLevel, KernelTable};

/// The kernels one cambi instance runs, chosen once from the CPU level.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kernels {
    /// The level these kernels were written for (what the dispatch and the checker read).
    pub level: CpuLevel,
    /// The c-values of one row.
    pub c_value_row: CValueRowFn,
    /// The runs of one level of a row entering the window.
    pub scan_runs: ScanRunsFn,
    /// A row's runs added to or taken from the histograms.
    pub add_runs: AddRunsFn,
    /// The pooling's exactness statistics of whole groups of eight c-values.
    pub pool_stats: PoolStatsFn,
}

impl Kernels {
    /// The scalar reference kernels.
    pub(super) const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        c_value_row,
        scan_runs,
        add_runs,
        pool_stats: pool_groups,
    };

    /// The histogram kernels, as the c-value pass takes them.
    pub(super) fn histograms(&self) -> HistogramKernels {
        HistogramKernels {
            scan_runs: self.scan_runs,
            add_runs: self.add_runs,
        }
    }
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}
