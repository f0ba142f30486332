//! vif's x86-64 kernels: AVX2 (`avx2*`) and AVX-512 VNNI (`avx512*`) twins of the scalar
//! row loops, listed in the tables of `super::dispatch`.

pub(super) mod avx2;
pub(super) mod avx2_madd;
pub(super) mod avx2_score;
pub(super) mod avx512;
pub(super) mod avx512_down;
pub(super) mod avx512_vertical;
