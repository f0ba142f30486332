//! ADM's aarch64 kernels: NEON twins of the scalar row loops (`neon_*`), gathered into
//! the table that `super::dispatch` lists.
//!
//! NEON runs every stage (the DWT, decoupling, weighting, the denominator's cubes and
//! contrast masking) but the decoupling of scales 1..3 (a quarter of the positions and
//! less), which keeps its scalar twin in the table: a NEON twin was bit-exact but slower
//! under qemu (docs/PERFORMANCE.md, aarch64).

mod neon_cm;
mod neon_decouple;
mod neon_den;
mod neon_dwt;
mod neon_weight;

use super::decouple;
use super::kernels::Kernels;
use crate::cpu::CpuLevel;

/// The NEON kernels. The dispatch hands them out only when the processor has NEON.
pub(in crate::feature::adm) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Neon,
    dwt0_u8: neon_dwt::level0::<u8>,
    dwt0_u16: neon_dwt::level0::<u16>,
    dwt1: neon_dwt::level::<i16>,
    dwt: neon_dwt::level::<i32>,
    decouple0: neon_decouple::scale0,
    decouple123: decouple::scale123,
    den0_row: neon_den::cubes0_row,
    den123_row: neon_den::cubes123_row,
    weight0: neon_weight::weight0,
    weight123: neon_weight::weight123,
    cm0_row: neon_cm::scale0_row_neon,
    cm123_row: neon_cm::scale123_row_neon,
};
