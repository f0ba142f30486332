//! The float convolution's kernel tables per CPU level (scalar in [`super::kernels`],
//! AVX2 and AVX-512 in `x86/`), shared by float_vif, float_motion and float_adm.
//!
//! Every table gives the scalar rows' bits: the vector code sums each column's taps in
//! the same order, a multiply then an add per tap, never fused.

use super::kernels::ConvKernels;
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::kernel_tables;

#[cfg(test)]
pub(crate) mod checkasm;

kernel_tables!(pub(crate) static CONV_KERNELS: Dispatch<ConvKernels> =
    ConvKernels::SCALAR; x86_64: x86::avx2::KERNELS, x86::avx512::KERNELS);
