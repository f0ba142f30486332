//! ADM's x86-64 kernels: AVX2 (`avx2*`) and AVX-512 (`avx512*`) twins of the scalar row
//! loops, listed in the tables of `super::dispatch`.

pub(super) mod avx2;
pub(super) mod avx2_cm;
pub(super) mod avx2_decouple;
pub(super) mod avx2_decouple123;
pub(super) mod avx2_den;
pub(super) mod avx2_dwt;
pub(super) mod avx512_cm;
pub(super) mod avx512_decouple;
pub(super) mod avx512_decouple123;
pub(super) mod avx512_den;
pub(super) mod avx512_dwt;
pub(super) mod avx512_dwt123;
pub(super) mod avx512_weight;
