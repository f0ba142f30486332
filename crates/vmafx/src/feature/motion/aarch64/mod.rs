//! motion's aarch64 kernels: NEON twins of the scalar passes, listed in the tables of
//! `super::dispatch`.

pub(super) mod neon;
