//! The psnr_hvs kernel tables per CPU level (scalar in [`super::kernels`], the AVX2 DCT in
//! `x86/avx2.rs`; the AVX-512 levels run it too). The DCT is integer arithmetic in wrapping
//! 32-bit lanes, so the vector kernel gives the scalar block exactly.

use super::kernels::Kernels;
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::kernel_tables;

#[cfg(test)]
pub(crate) mod checkasm;

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: x86::avx2::KERNELS);
