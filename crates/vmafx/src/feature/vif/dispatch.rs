//! The kernel table of `vif`: its row loops at the chosen CPU level.
//!
//! Each entry is the scalar twin in `stats.rs` / `subsample.rs` or a SIMD kernel giving
//! the same bits. [`Kernels::for_level`] picks them once, in `init`, from
//! [`crate::cpu::level`] (which `VMAFX_CPU=scalar|avx2|avx512` lowers); a level the
//! processor lacks is lowered to one it has, so a table only ever holds kernels the
//! processor can run. There are AVX2 kernels and, at the AVX-512 VNNI level, AVX-512
//! ones (`avx512*`; scale 3's horizontal pass, whose taps pass 2^15, stays on AVX2); the
//! plain AVX-512 level has no table of its own and runs AVX2. On aarch64 there is a NEON
//! table (`aarch64/`).

#[cfg(test)]
pub(crate) mod checkasm;
#[cfg(test)]
mod tests;

#[cfg(target_arch = "aarch64")]
use super::aarch64::{neon, neon_down};
use super::stats::{horizontal, vertical, HorizontalFn, VerticalFn};
use super::subsample::{down_horizontal, down_vertical, vertical_down};
use super::subsample::{DownHorizontalFn, DownVerticalFn, VerticalDownFn};
use super::tables::log2_table;
#[cfg(target_arch = "x86_64")]
use super::x86::{avx2, avx512};
use crate::cpu::{kernel_tables, CpuLevel, KernelTable};
use std::sync::OnceLock;

/// The log2 table widened to 32-bit entries for gathers: all 65536 of them, so any 16-bit
/// index is in bounds.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) fn log2_table_i32() -> &'static [i32; 65536] {
    static TABLE: OnceLock<Box<[i32; 65536]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([0i32; 65536]);
        for (dst, &v) in t.iter_mut().zip(log2_table()) {
            *dst = v as i32;
        }
        t
    })
}

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: avx2::KERNELS, avx512::KERNELS; aarch64: Kernels::NEON);

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}

/// `vif`'s kernels for one CPU level.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kernels {
    /// The level the kernels were written for.
    pub level: CpuLevel,
    /// Vertical statistic pass over 8-bit pictures.
    pub vertical_u8: VerticalFn<u8>,
    /// Vertical statistic pass over 16-bit words.
    pub vertical_u16: VerticalFn<u16>,
    /// Horizontal statistic pass and per-pixel score.
    pub horizontal: HorizontalFn,
    /// Vertical down-sampling filter over 8-bit pictures.
    pub down_vertical_u8: DownVerticalFn<u8>,
    /// Vertical down-sampling filter over 16-bit words.
    pub down_vertical_u16: DownVerticalFn<u16>,
    /// Horizontal down-sampling filter and decimation.
    pub down_horizontal: DownHorizontalFn,
    /// Vertical statistic pass over 8-bit pictures fused with the vertical down-sampling
    /// filter of the same row.
    pub vertical_down_u8: VerticalDownFn<u8>,
    /// Vertical statistic pass over 16-bit words fused with the vertical down-sampling
    /// filter of the same row.
    pub vertical_down_u16: VerticalDownFn<u16>,
}

impl Kernels {
    /// The portable kernels.
    pub(super) const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        vertical_u8: vertical::<u8>,
        vertical_u16: vertical::<u16>,
        horizontal,
        down_vertical_u8: down_vertical::<u8>,
        down_vertical_u16: down_vertical::<u16>,
        down_horizontal,
        vertical_down_u8: vertical_down::<u8>,
        vertical_down_u16: vertical_down::<u16>,
    };

    /// The NEON kernels. Only a table made after NEON was detected may be called.
    #[cfg(target_arch = "aarch64")]
    const NEON: Kernels = Kernels {
        level: CpuLevel::Neon,
        vertical_u8: neon::vertical_u8,
        vertical_u16: neon::vertical_u16,
        horizontal: neon::horizontal,
        down_vertical_u8: neon_down::down_vertical::<u8>,
        down_vertical_u16: neon_down::down_vertical::<u16>,
        down_horizontal: neon_down::down_horizontal,
        vertical_down_u8: neon_down::vertical_down_u8,
        vertical_down_u16: neon_down::vertical_down_u16,
    };

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
