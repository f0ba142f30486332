//! cambi's x86-64 kernels: the c-value row and the histogram kernels written once over the
//! vector width (`runs_by`, over `lanes`), and the AVX2 pooling statistics; `avx2` and
//! `avx512` each make a table (`KERNELS`) of them, which `super::dispatch` lists.

pub(super) mod avx2;
pub(super) mod avx512;
mod lanes;
mod runs_by;
