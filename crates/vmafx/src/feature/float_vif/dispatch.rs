//! float_vif's statistic kernel per CPU level (scalar in [`super::kernels`], AVX2 and
//! AVX-512 in `x86/`); its convolutions are the shared float ones
//! (`crate::feature::float_conv::dispatch`).
//!
//! The vector kernel computes each pixel's terms in the scalar operation order (the
//! `f64` steps in `f64` lanes) and adds them to the row sums one lane at a time, left to
//! right, so the sums are the scalar ones bit for bit.

use super::kernels::VifKernels;
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::kernel_tables;

#[cfg(test)]
pub(crate) mod checkasm;

kernel_tables!(pub(crate) static VIF_KERNELS: Dispatch<VifKernels> =
    VifKernels::SCALAR; x86_64: x86::avx2::KERNELS, x86::avx512::KERNELS);
