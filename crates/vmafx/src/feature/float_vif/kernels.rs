//! float_vif's kernel table type: the statistic's row kernel signature and the scalar
//! table (the kernel in [`super::stat`]). The tables per CPU level are in `x86/`, listed
//! by [`super::dispatch`].

use super::stat::{stat_row, StatParams};
use crate::cpu::{CpuLevel, KernelTable};

/// One row of the statistic: `(mu1, mu2, xx, yy, xy rows, constants) -> (num, den)`.
pub(crate) type StatRowFn = fn([&[f32]; 5], &StatParams) -> (f32, f32);

/// The kernels of float_vif's own stages.
#[derive(Debug, Clone, Copy)]
pub(crate) struct VifKernels {
    /// The level these kernels were written for.
    pub level: CpuLevel,
    /// One row of the statistic, summed left to right.
    pub stat_row: StatRowFn,
}

impl VifKernels {
    /// The scalar reference kernels.
    pub(crate) const SCALAR: VifKernels = VifKernels {
        level: CpuLevel::Scalar,
        stat_row,
    };
}

impl KernelTable for VifKernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}
