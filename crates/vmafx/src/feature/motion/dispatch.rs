//! The motion kernel tables per CPU level (scalar in [`super::kernels`]; `avx2`, `avx512`
//! and `avx512_vnni` in `x86/`).
//!
//! Each kernel gives exactly the scalar twin's integers. The 5-tap filter is symmetric, so
//! a column costs three multiplies: `f0·(x0+x4) + f1·(x1+x3) + f2·x2`. Where the scalar
//! code needs 64-bit sums (16-bit differences, and every horizontal pass), the vector code
//! stays in 32-bit lanes by splitting each input into `high·256 + low` (`low` in 0..256):
//! both partial sums fit 25 bits, and for a shift `s >= 8`,
//! `(256·A + B + round) >> s == (A + ((B + round) >> 8)) >> (s - 8)` exactly.

#[cfg(target_arch = "aarch64")]
use super::aarch64;
use super::kernels::Kernels;
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::kernel_tables;

#[cfg(test)]
pub(crate) mod checkasm;
#[cfg(test)]
mod tests;

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> = Kernels::SCALAR;
    x86_64: x86::avx2::KERNELS, x86::avx512::KERNELS, x86::avx512_vnni::KERNELS;
    aarch64: aarch64::neon::KERNELS);
