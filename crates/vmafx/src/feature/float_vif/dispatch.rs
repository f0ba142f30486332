//! float_vif's statistic kernel per CPU level (scalar in [`super::kernel`], AVX2 and
//! AVX-512 in `x86/`); its convolutions are the shared float ones
//! (`crate::feature::float_common::dispatch`).
//!
//! The vector kernel computes each pixel's terms in the scalar operation order (the
//! `f64` steps in `f64` lanes) and adds them to the row sums one lane at a time, left to
//! right, so the sums are the scalar ones bit for bit.

use super::kernel::{stat_row, StatParams};
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::{kernel_tables, CpuLevel, KernelTable};

#[cfg(test)]
pub(crate) mod checkasm;

/// One row of the statistic: `(mu1, mu2, xx, yy, xy rows, constants) -> (num, den)`.
pub type StatRowFn = fn([&[f32]; 5], &StatParams) -> (f32, f32);

/// The kernels of float_vif's own stages.
#[derive(Debug, Clone, Copy)]
pub struct VifKernels {
    /// The level these kernels were written for.
    pub level: CpuLevel,
    /// One row of the statistic, summed left to right.
    pub stat_row: StatRowFn,
}

impl VifKernels {
    /// The scalar reference kernels.
    pub const SCALAR: VifKernels = VifKernels {
        level: CpuLevel::Scalar,
        stat_row,
    };
}

impl KernelTable for VifKernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}

kernel_tables!(pub(crate) static VIF_KERNELS: Dispatch<VifKernels> =
    VifKernels::SCALAR; x86_64: x86::avx2::KERNELS, x86::avx512::KERNELS);
