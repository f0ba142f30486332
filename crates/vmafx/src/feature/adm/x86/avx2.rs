//! ADM's AVX2 table: the AVX2 twins of every stage (`avx2_*`).

use super::super::kernels::Kernels;
use super::{
    avx2_cm, avx2_decouple, avx2_decouple123, avx2_den, avx2_dwt, avx2_dwt123, avx2_weight,
};
use crate::cpu::CpuLevel;

/// The AVX2 kernels. The dispatch hands them out only when the processor has AVX2.
pub(in crate::feature::adm) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx2,
    dwt0_u8: avx2_dwt::level0::<u8>,
    dwt0_u16: avx2_dwt::level0::<u16>,
    dwt1: avx2_dwt123::level1,
    dwt: avx2_dwt123::level,
    decouple0: avx2_decouple::scale0,
    decouple123: avx2_decouple123::scale123,
    den0_row: avx2_den::cubes0_row,
    den123_row: avx2_den::cubes123_row,
    weight0: avx2_weight::weight0,
    weight123: avx2_weight::weight123,
    cm0_row: avx2_cm::scale0_row_avx2,
    cm123_row: avx2_cm::scale123_row_avx2,
};
