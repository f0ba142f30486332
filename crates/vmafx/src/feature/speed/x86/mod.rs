//! SpEED's x86-64 kernels: the AVX2 and AVX-512 twins of the covariance sum, listed in the
//! table of `super::dispatch`.

pub(super) mod avx2;
pub(super) mod avx512;
