//! cambi's x86-64 kernels: AVX2 and AVX-512 twins of the scalar c-value row and histogram
//! update (and, AVX2 only, of the pooling statistics), listed in the tables of
//! `super::dispatch`.

pub(super) mod avx2;
pub(super) mod avx512;
