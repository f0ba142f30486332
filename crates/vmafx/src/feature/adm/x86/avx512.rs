//! ADM's AVX-512 table: the AVX-512 twins of every stage (`avx512_*`).

use super::super::kernels::Kernels;
use super::{
    avx512_cm, avx512_decouple, avx512_decouple123, avx512_den, avx512_dwt, avx512_dwt123,
    avx512_weight,
};
use crate::cpu::CpuLevel;

/// The AVX-512 kernels. The dispatch hands them out only when the processor has AVX-512
/// (the VNNI level runs them too).
pub(in crate::feature::adm) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx512,
    dwt0_u8: avx512_dwt::level0::<u8>,
    dwt0_u16: avx512_dwt::level0::<u16>,
    dwt1: avx512_dwt123::level1,
    dwt: avx512_dwt123::level,
    den0_row: avx512_den::cubes0_row,
    den123_row: avx512_den::cubes123_row,
    weight0: avx512_weight::weight0,
    weight123: avx512_weight::weight123,
    decouple0: avx512_decouple::scale0,
    cm0_row: avx512_cm::scale0_row_avx512,
    cm123_row: avx512_cm::scale123_row_avx512,
    decouple123: avx512_decouple123::scale123,
};
