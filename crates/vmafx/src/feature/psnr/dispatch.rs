//! The psnr kernel tables per CPU level (scalar in [`super::kernels`]; `avx2` and `avx512`
//! in `x86/`).
//!
//! Every kernel gives the scalar twin's integer exactly: 8-bit rows are summed in wrapping
//! 32-bit lanes (addition modulo 2^32 does not depend on the order, so the lanes' wrapping
//! sum is the scalar row sum), deeper samples in 64-bit lanes (no wrap at all).

use super::kernels::Kernels;
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::kernel_tables;

#[cfg(test)]
pub(crate) mod checkasm;

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: x86::avx2::KERNELS, x86::avx512::KERNELS);
