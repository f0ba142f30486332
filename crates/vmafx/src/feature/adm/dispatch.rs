//! The ADM kernel tables per CPU level (function pointers chosen in `init`): the scalar
//! one in [`super::kernels`], the vector ones in `x86/` and `aarch64/`. Every kernel gives exactly its
//! scalar twin's values.

#[cfg(test)]
pub(crate) mod checkasm;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cm_widths;
#[cfg(test)]
mod tests_decouple0;
#[cfg(test)]
mod tests_decouple123_widths;
#[cfg(test)]
mod tests_den_widths;
#[cfg(test)]
mod tests_dwt_widths;
#[cfg(test)]
mod tests_weight_widths;

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

    /// The kernels of `wanted`, lowered to what this CPU runs. AVX-512 has its own kernels
    /// at every stage; the VNNI level runs them too.
    pub(super) fn for_level(wanted: CpuLevel) -> Kernels {
        KERNELS.pick(wanted)
    }
}
