//! psnr's x86-64 kernels: AVX2 and AVX-512 twins of the scalar SSE, listed in the tables of
//! `super::dispatch`.

pub(super) mod avx2;
pub(super) mod avx512;
