//! The CAMBI kernel table per CPU level (the kernels are in `x86/`: `avx2` and `avx512`).
//!
//! The c-value kernels score eight (AVX2) or sixteen (AVX-512) columns of a row at once:
//! the counts of a column's own level and of the levels `d + 1` above and below are
//! gathered from the level-major histograms (lanes whose step is not visible, or whose
//! level is outside the histograms, gather nothing and count as zero), and each lane
//! follows the scalar kernel's arithmetic: the wrapping 32-bit product
//! `weight * p0 * p`, converted to single precision, times the gathered reciprocal (a
//! plain multiply, no fused multiply-add), the largest kept.

use super::cvalues::{c_value_row, CValueRowFn};
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
}

impl Kernels {
    /// The scalar reference kernels.
    pub const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        c_value_row,
    };

    /// The AVX2 kernels. Only a table made after AVX2 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX2: Kernels = Kernels {
        level: CpuLevel::Avx2,
        c_value_row: x86::avx2::c_value_row,
    };

    /// The AVX-512 kernels. Only a table made after AVX-512 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX512: Kernels = Kernels {
        level: CpuLevel::Avx512,
        c_value_row: x86::avx512::c_value_row,
    };
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: Kernels::AVX2, Kernels::AVX512);
