//! The IQA steps' x86-64 kernels: written once over the vector width ([`rows`]) and
//! instantiated as the AVX2 and AVX-512 tables.

pub(super) mod avx2;
pub(super) mod avx512;
mod rows;
