//! psnr_hvs's x86-64 kernels: an AVX2 twin of the scalar 8x8 DCT, listed in the tables of
//! `super::dispatch`.

pub(super) mod avx2;
