//! The SpEED kernel table per CPU level (the kernels are in `x86/`).
//!
//! The covariance sum of two 5x5-neighbourhood offsets in libvmaf's AVX-512 order: two
//! chains of eight double-precision fused multiply-add lanes over 16 columns, then one
//! over 8, a plain (unfused) scalar tail per row, the lanes reduced pairwise. Each lane's
//! arithmetic is the same at every level, so every table gives the scalar one's bits.
//! The AVX2 kernel holds each eight-lane chain as two four-lane halves, and falls back to
//! the scalar reference on the rare AVX2 processor without fused multiply-add.

use super::estimate::{cov_sum_avx512_order, CovSumFn};
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::{kernel_tables, CpuLevel, KernelTable};

#[cfg(test)]
pub(crate) mod checkasm;

/// The kernels one SpEED instance runs, chosen once from the CPU level.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kernels {
    /// The level these kernels were written for.
    pub level: CpuLevel,
    /// The covariance sum of two offsets.
    pub cov_sum: CovSumFn,
}

impl Kernels {
    /// The scalar reference kernels.
    pub(super) const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        cov_sum: cov_sum_avx512_order,
    };

    /// The AVX2 kernels. Only a table made after AVX2 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX2: Kernels = Kernels {
        level: CpuLevel::Avx2,
        cov_sum: x86::avx2::cov_sum,
    };

    /// The AVX-512 kernels. Only a table made after AVX-512 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX512: Kernels = Kernels {
        level: CpuLevel::Avx512,
        cov_sum: x86::avx512::cov_sum,
    };
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: Kernels::AVX2, Kernels::AVX512);
