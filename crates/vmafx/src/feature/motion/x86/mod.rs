//! motion's x86-64 kernels: AVX2, AVX-512 by 32-bit multiplies and AVX-512 VNNI twins of
//! the scalar passes, each file with its table (`KERNELS`), which `super::dispatch` lists.

pub(super) mod avx2;
pub(super) mod avx2_words;
pub(super) mod avx512;
pub(super) mod avx512_vnni;
