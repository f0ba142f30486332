//! SpEED's x86-64 kernel: the AVX-512 twin of the covariance sum, listed in the table of
//! `super::dispatch`.

pub(super) mod avx512;
