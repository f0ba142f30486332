//! vif's aarch64 kernels: NEON twins of the scalar row loops, listed in the tables of
//! `super::dispatch`.

pub(super) mod neon;
pub(super) mod neon_down;

use super::kernels::Kernels;
use crate::cpu::CpuLevel;

/// The NEON kernels. The dispatch hands them out only when the processor has NEON.
pub(in crate::feature::vif) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Neon,
    vertical_u8: neon::vertical_u8,
    vertical_u16: neon::vertical_u16,
    horizontal: neon::horizontal,
    deferred_u8: super::stats::no_deferred::<u8>,
    deferred_u16: super::stats::no_deferred::<u16>,
    // No NEON twins: the scalar ones read the rows the NEON vertical passes write.
    horizontal_keep: super::split::horizontal_keep,
    horizontal_dis: super::split::horizontal_dis,
    down_vertical_u8: neon_down::down_vertical::<u8>,
    down_vertical_u16: neon_down::down_vertical::<u16>,
    down_horizontal: neon_down::down_horizontal,
    vertical_down_u8: neon_down::vertical_down_u8,
    vertical_down_u16: neon_down::vertical_down_u16,
};
