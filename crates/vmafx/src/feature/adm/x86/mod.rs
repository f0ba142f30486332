//! ADM's x86-64 kernels: AVX2 (`avx2_*`) and AVX-512 (`avx512_*`) twins of the scalar row
//! loops, gathered into the tables of `avx2` and `avx512` for `super::dispatch` to list
//! (the AVX-512 table takes the DWT and the weighting from the AVX2 kernels).

pub(super) mod avx2;
mod avx2_cm;
mod avx2_decouple;
mod avx2_decouple123;
mod avx2_den;
mod avx2_dwt;
mod avx2_dwt123;
mod avx2_weight;
pub(super) mod avx512;
mod avx512_cm;
mod avx512_decouple;
mod avx512_decouple123;
mod avx512_den;
mod dwt_rows;
