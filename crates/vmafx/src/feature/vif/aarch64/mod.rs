//! vif's aarch64 kernels: NEON twins of the scalar row loops, listed in the tables of
//! `super::dispatch`.

pub(super) mod neon;
pub(super) mod neon_down;
