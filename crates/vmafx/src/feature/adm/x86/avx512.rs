//! ADM's AVX-512 table: the AVX-512 twins of most stages (`avx512_*`), and the AVX2
//! kernels of DWT level 0 and of the CSF weighting. Those two stream whole bands through
//! memory with little arithmetic a sample, and their AVX-512 twins were no faster on an
//! Intel Xeon (as many samples in a profile, or more) nor on an AMD Zen 4 (the AVX2 ones
//! in this table: adm alone 0.986, vmaf_v0.6.1 1080p 8-bit 1.000 and 10-bit 0.987),
//! so they were dropped (PERFORMANCE.md, Round 17).

use super::super::kernels::Kernels;
use super::{
    avx2_dwt, avx2_weight, avx512_cm, avx512_decouple, avx512_decouple123, avx512_den,
    avx512_dwt123,
};
use crate::cpu::CpuLevel;

/// The AVX-512 kernels. The dispatch hands them out only when the processor has AVX-512
/// (the VNNI level runs them too).
pub(in crate::feature::adm) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx512,
    dwt0_u8: avx2_dwt::level0::<u8>,
    dwt0_u16: avx2_dwt::level0::<u16>,
    dwt1: avx512_dwt123::level1,
    dwt: avx512_dwt123::level,
    den0_row: avx512_den::cubes0_row,
    den123_row: avx512_den::cubes123_row,
    weight0: avx2_weight::weight0,
    weight123: avx2_weight::weight123,
    decouple0: avx512_decouple::scale0,
    cm0_row: avx512_cm::scale0_row_avx512,
    cm123_row: avx512_cm::scale123_row_avx512,
    decouple123: avx512_decouple123::scale123,
};
