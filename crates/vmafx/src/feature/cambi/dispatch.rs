//! The CAMBI kernel table per CPU level (the kernels are in `x86/`: `avx2` and `avx512`).
//!
//! The c-value kernels score only the row's runs (found as the row entered the window),
//! eight (AVX2) or sixteen (AVX-512) columns of one run a step: one level, so the counts
//! of the run's level and of the levels `d + 1` above and below are each one load of
//! neighbouring counts (levels outside the histograms count as zero), and the visible
//! steps are known for the whole run; the other columns are left as they arrive (zero).
//! Each lane follows the scalar kernel's
//! arithmetic: the wrapping 32-bit product `weight * p0 * p`, converted to single
//! precision, times the gathered reciprocal (a plain multiply, no fused multiply-add),
//! the largest kept; a step where no lane has a count at its levels is skipped (it
//! scores zero).
//!
//! The run-finding kernels scan thirty-two columns of a row entering the window a step:
//! which samples count (masked, level inside the histograms) and where a run of one level
//! starts or the one before ends, each a bit of a 32-bit mask (AVX-512 compare masks; AVX2
//! compares packed to bytes and gathered by `movemask`), the columns found by counting
//! trailing zeros. The row's runs are kept until it leaves. The run-adding kernels add
//! each run at once: its window sum over the columns it reaches, `min(y + 1, run) - max(y -
//! 2 pad, 0)` at offset `y`, in saturating 16-bit lanes (zero past the last window), to
//! whole vectors of counts (sixteen or thirty-two), wrapping as the scalar adds do. The
//! pooling-statistics kernel (AVX2, also in the AVX-512 table) reads eight values a step
//! with unsigned 32-bit minimum and maximum of their bits, and continues the scalar
//! kernel's eight double-precision running sums lane for lane from the statistics it is
//! given (a row of c-values at a time), so every total is the same bits.

use super::cvalues::{
    add_runs, c_value_row, scan_runs, AddRunsFn, CValueRowFn, HistogramKernels, ScanRunsFn,
};
use super::pooling::{pool_groups, PoolStatsFn};
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::{kernel_tables, CpuLevel, KernelTable};

#[cfg(test)]
pub(crate) mod checkasm;

/// The kernels one cambi instance runs, chosen once from the CPU level.
#[derive(Debug, Clone, Copy)]
pub struct Kernels {
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
    pub const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        c_value_row,
        scan_runs,
        add_runs,
        pool_stats: pool_groups,
    };

    /// The AVX2 kernels. Only a table made after AVX2 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX2: Kernels = Kernels {
        level: CpuLevel::Avx2,
        c_value_row: x86::avx2::c_value_row,
        scan_runs: x86::avx2::scan_runs,
        add_runs: x86::avx2::add_runs,
        pool_stats: x86::avx2::pool_stats,
    };

    /// The AVX-512 kernels. Only a table made after AVX-512 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX512: Kernels = Kernels {
        level: CpuLevel::Avx512,
        c_value_row: x86::avx512::c_value_row,
        scan_runs: x86::avx512::scan_runs,
        add_runs: x86::avx512::add_runs,
        // The pooling statistics are bound by memory: the AVX2 kernel.
        pool_stats: x86::avx2::pool_stats,
    };
}

impl Kernels {
    /// The histogram kernels, as the c-value pass takes them.
    pub fn histograms(&self) -> HistogramKernels {
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

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: Kernels::AVX2, Kernels::AVX512);
