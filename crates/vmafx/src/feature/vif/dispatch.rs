//! The kernel tables of `vif` (its row loops) per CPU level: the scalar one in
//! [`super::kernels`], the SIMD ones in `x86/`.
//!
//! Each entry is the scalar twin in `stats.rs` / `subsample.rs` or a SIMD kernel giving
//! the same bits. [`Kernels::for_level`] picks them once, in `init`, from
//! [`crate::cpu::level`] (which `VMAFX_CPU=scalar|avx2|avx512` lowers); a level the
//! processor lacks is lowered to one it has, so a table only ever holds kernels the
//! processor can run. There are AVX2 kernels and, at the AVX-512 VNNI level, AVX-512
//! ones (`avx512*`; scale 3's horizontal pass, whose taps pass 2^15, stays on AVX2); the
//! plain AVX-512 level has no table of its own and runs AVX2.

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

impl Kernels {
    /// The kernels for `level`, lowered to what this processor supports.
    #[cfg(test)]
    pub(super) fn for_level(level: CpuLevel) -> Kernels {
        KERNELS.pick(level)
    }

    /// The kernels for the current [`crate::cpu::level`].
    pub(super) fn current() -> Kernels {
        KERNELS.current()
    }
}
