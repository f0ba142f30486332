//! The IQA steps' kernel tables per CPU level (scalar in [`super::kernels`], AVX2 and
//! AVX-512 in `x86/`), used by float_ssim and float_ms_ssim.
//!
//! The vector code widens each lane's `f32` product to `f64` and adds it in the scalar
//! tap order, so every output has the scalar bits.

use super::kernels::IqaKernels;
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::kernel_tables;

#[cfg(test)]
pub(crate) mod checkasm;

kernel_tables!(pub(crate) static IQA_KERNELS: Dispatch<IqaKernels> =
    IqaKernels::SCALAR; x86_64: x86::avx2::KERNELS, x86::avx512::KERNELS);
