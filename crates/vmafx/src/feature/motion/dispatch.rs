//! The motion kernel table per CPU level (the kernels are in `x86/`: `avx2`, `avx512` and
//! `avx512_vnni`, and in `aarch64/`: `neon`).
//!
//! Each kernel gives exactly the scalar twin's integers. The 5-tap filter is symmetric, so
//! a column costs three multiplies: `f0·(x0+x4) + f1·(x1+x3) + f2·x2`. Where the scalar
//! code needs 64-bit sums (16-bit differences, and every horizontal pass), the vector code
//! stays in 32-bit lanes by splitting each input into `high·256 + low` (`low` in 0..256):
//! both partial sums fit 25 bits, and for a shift `s >= 8`,
//! `(256·A + B + round) >> s == (A + ((B + round) >> 8)) >> (s - 8)` exactly.

#[cfg(target_arch = "aarch64")]
use super::aarch64;
use super::kernel::{horizontal_abs_sum, MotionSample};
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::{kernel_tables, CpuLevel, KernelTable};

#[cfg(test)]
pub(crate) mod checkasm;
#[cfg(test)]
mod tests;

/// A vertical pass over five rows of previous and current samples (see
/// [`MotionSample::vertical`]); returns whether any output is nonzero.
pub type VerticalFn<T> = fn([&[T]; 5], [&[T]; 5], u32, &mut [i32]) -> bool;

/// The kernels one motion instance runs, chosen once from the CPU level.
#[derive(Debug, Clone, Copy)]
pub struct Kernels {
    /// The level these kernels were written for (what the dispatch and the checker read).
    pub level: CpuLevel,
    /// Vertical pass over 8-bit samples.
    pub vertical_u8: VerticalFn<u8>,
    /// Vertical pass over 9..16-bit samples.
    pub vertical_u16: VerticalFn<u16>,
    /// Horizontal pass and absolute sum of one row buffer (wrapping at 32 bits).
    pub abs_sum: fn(&[i32]) -> u32,
}

impl Kernels {
    /// The scalar reference kernels.
    pub const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        vertical_u8: <u8 as MotionSample>::vertical,
        vertical_u16: <u16 as MotionSample>::vertical,
        abs_sum: horizontal_abs_sum,
    };

    /// The AVX-512 kernels by 32-bit multiplies, for processors without VNNI. Only a
    /// table made after AVX-512 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    pub(super) const AVX512: Kernels = Kernels {
        level: CpuLevel::Avx512,
        vertical_u8: x86::avx512::vertical_u8,
        vertical_u16: x86::avx512::vertical_u16,
        abs_sum: x86::avx512::abs_sum,
    };

    /// The AVX-512 kernels by 16-bit multiply-adds. Only a table made after AVX-512 and
    /// its Ice Lake extensions (VNNI) were detected may be called.
    #[cfg(target_arch = "x86_64")]
    pub(super) const AVX512_VNNI: Kernels = Kernels {
        level: CpuLevel::Avx512Vnni,
        vertical_u8: x86::avx512_vnni::vertical_u8,
        vertical_u16: x86::avx512_vnni::vertical_u16,
        abs_sum: x86::avx512_vnni::abs_sum,
    };

    /// The AVX2 kernels. Only a table made after AVX2 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX2: Kernels = Kernels {
        level: CpuLevel::Avx2,
        vertical_u8: x86::avx2::vertical_u8,
        vertical_u16: x86::avx2::vertical_u16,
        abs_sum: x86::avx2::abs_sum,
    };

    /// The NEON kernels. Only a table made after NEON was detected may be called.
    #[cfg(target_arch = "aarch64")]
    const NEON: Kernels = Kernels {
        level: CpuLevel::Neon,
        vertical_u8: aarch64::neon::vertical_u8,
        vertical_u16: aarch64::neon::vertical_u16,
        abs_sum: aarch64::neon::abs_sum,
    };
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: Kernels::AVX2, Kernels::AVX512, Kernels::AVX512_VNNI;
    aarch64: Kernels::NEON);
