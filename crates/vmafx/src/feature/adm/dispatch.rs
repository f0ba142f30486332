//! The ADM kernel tables per CPU level (function pointers chosen in `init`): the scalar
//! one in [`super::kernels`], the vector ones in `x86/` and `aarch64/`. Every kernel gives exactly its
//! scalar twin's values.

#[cfg(test)]
pub(crate) mod checkasm;
#[cfg(test)]
mod tests;

#[cfg(target_arch = "aarch64")]
use super::aarch64;
use super::kernels::Kernels;
#[cfg(target_arch = "x86_64")]
use super::x86::{avx2, avx512};
use crate::cpu::kernel_tables;
#[cfg(test)]
use crate::cpu::CpuLevel;

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: avx2::KERNELS, avx512::KERNELS; aarch64: aarch64::KERNELS);

#[cfg(test)]
impl Kernels {
    /// The tables of the levels above scalar this CPU runs (what the twin tests compare).
    pub(crate) fn simd_levels() -> Vec<Kernels> {
        KERNELS
            .runnable()
            .filter(|k| k.level != CpuLevel::Scalar)
            .collect()
    }
}
