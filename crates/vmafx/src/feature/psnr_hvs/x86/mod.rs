//! psnr_hvs's x86-64 kernels: an AVX2 twin of the scalar 8x8 DCT, each file with its
//! table (`KERNELS`), which `super::dispatch` lists.

pub(super) mod avx2;
