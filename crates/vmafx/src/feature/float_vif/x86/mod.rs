//! float_vif's x86-64 kernels: the statistic written once over the vector width
//! ([`stat`]) and its AVX2 and AVX-512 tables.

pub(super) mod avx2;
pub(super) mod avx512;
mod stat;
