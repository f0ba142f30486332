//! cambi's x86-64 kernels: AVX2 and AVX-512 twins of the scalar c-value row and histogram
//! update (and, AVX2 only, of the pooling statistics), each file with its table
//! (`KERNELS`), which `super::dispatch` lists.

pub(super) mod avx2;
pub(super) mod avx512;
