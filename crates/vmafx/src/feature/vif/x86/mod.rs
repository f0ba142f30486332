//! vif's x86-64 kernels: AVX2 (`avx2*`) and AVX-512 VNNI (`avx512*`) twins of the scalar
//! row loops; `avx2` and `avx512` each export a table (`KERNELS`), which `super::dispatch` lists.

pub(super) mod avx2;
pub(super) mod avx2_down;
pub(super) mod avx2_down_u8;
pub(super) mod avx2_down_words;
pub(super) mod avx2_horizontal;
pub(super) mod avx2_lanes32;
pub(super) mod avx2_madd;
pub(super) mod avx2_score;
pub(super) mod avx2_score_loads;
pub(super) mod avx2_split;
pub(super) mod avx2_vertical;
pub(super) mod avx2_vertical64;
pub(super) mod avx2_vertical_u16;
pub(super) mod avx2_vertical_u8;
pub(super) mod avx2_vertical_words;
pub(super) mod avx512;
pub(super) mod avx512_down;
pub(super) mod avx512_score;
pub(super) mod avx512_split;
pub(super) mod avx512_vertical;
