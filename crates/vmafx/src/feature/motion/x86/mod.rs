//! motion's x86-64 kernels: AVX2, AVX-512 by 32-bit multiplies and AVX-512 VNNI twins of
//! the scalar passes, each file with its table (`KERNELS`), which `super::dispatch` lists;
//! the 16-bit pipeline's kernels and the `i32` row passes once over the vector width
//! (`lanes`, `words_by`, `rows32_by`).

pub(super) mod avx2;
pub(super) mod avx512;
pub(super) mod avx512_vnni;
mod lanes;
mod rows32_by;
mod words_by;
