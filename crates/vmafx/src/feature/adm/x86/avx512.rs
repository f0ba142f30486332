//! ADM's AVX-512 table: the AVX-512 twins of the cube sums, the decoupling and the
//! contrast masking (`avx512_*`), and the AVX2 kernels of the DWT (every level) and of the
//! CSF weighting. Those stream whole bands through memory with little arithmetic a
//! sample, and their AVX-512 twins were no faster on an Intel Xeon (as many samples in a
//! profile, or more) nor on an AMD Zen 4 (the AVX2 ones in this table: level 0 and the
//! weighting, adm alone 0.986, vmaf_v0.6.1 1080p 8-bit 1.000 and 10-bit 0.987; levels
//! 1..3, adm alone 0.988 and at 2160p 0.981, vmaf_v0.6.1 0.999 and 10-bit 1.004), so they
//! were dropped (PERFORMANCE.md, Rounds 17 and 18).

use super::super::kernels::Kernels;
use super::{
    avx2_dwt, avx2_dwt123, avx2_weight, avx512_cm, avx512_decouple, avx512_decouple123, avx512_den,
};
use crate::cpu::CpuLevel;

/// The AVX-512 kernels. The dispatch hands them out only when the processor has AVX-512
/// (the VNNI level runs them too).
pub(in crate::feature::adm) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx512,
    dwt0_u8: avx2_dwt::level0::<u8>,
    dwt0_u16: avx2_dwt::level0::<u16>,
    dwt1: avx2_dwt123::level1,
    dwt: avx2_dwt123::level,
    den0_row: avx512_den::cubes0_row,
    den123_row: avx512_den::cubes123_row,
    weight0: avx2_weight::weight0,
    weight123: avx2_weight::weight123,
    decouple0: avx512_decouple::scale0,
    cm0_row: avx512_cm::scale0_row_avx512,
    cm123_row: avx512_cm::scale123_row_avx512,
    decouple123: avx512_decouple123::scale123,
};
