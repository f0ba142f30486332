//! ADM's kernel table type, the kernels' signatures and the scalar table (the twins in
//! `dwt.rs`, `decouple.rs`, `den.rs`, `weight.rs` and `cm.rs`). The tables per CPU level
//! are in `x86/`, listed by [`super::dispatch`].

use super::bands::Bands;
use super::border::Region;
use super::cm::{self, Row0Fn, Row123Fn};
use super::decouple::{self, Decouple};
use super::den;
use super::dwt::{self, Taps};
use super::weight::{self, Weighted};
use crate::cpu::{CpuLevel, KernelTable};

/// Level 0 of the DWT (see [`dwt::level0`]) over one sample type.
pub(super) type Dwt0Fn<S> = fn(&[S], usize, &Taps, u32, &mut [i32], &mut Bands<i16>, usize);

/// The scale-0 CSF weighting (see [`weight::scale0`]).
pub(super) type Weight0Fn = fn(&[Vec<i16>; 3], Weighted<'_, i16>, usize, Region, [u16; 3]);

/// DWT levels 1..3 (see [`dwt::level`]) of a low band of `S`.
pub(super) type DwtFn<S> = fn(&[S], usize, &Taps, usize, &mut [i64], &mut Bands<i32>, usize);

/// Scale-0 decoupling (see [`decouple::scale0`]).
pub(super) type Decouple0Fn = fn(Decouple<'_, i16>, usize, Region, f64);

/// Scale-1..3 decoupling (see [`decouple::scale123`]).
pub(super) type Decouple123Fn = fn(Decouple<'_, i32>, usize, Region, f64);

/// The scale-1..3 CSF weighting (see [`weight::scale123`]).
pub(super) type Weight123Fn = fn(&[Vec<i32>; 3], Weighted<'_, i32>, usize, Region, [u32; 3]);

/// The kernels one ADM instance runs.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kernels {
    /// The level these kernels were written for (what the dispatch and the checker read).
    pub level: CpuLevel,
    /// DWT level 0 of 8-bit pictures.
    pub dwt0_u8: Dwt0Fn<u8>,
    /// DWT level 0 of 9..16-bit pictures.
    pub dwt0_u16: Dwt0Fn<u16>,
    /// DWT level 1, of the scale-0 (`i16`) low band.
    pub dwt1: DwtFn<i16>,
    /// DWT levels 2 and 3 (and 1 of an `i32` band).
    pub dwt: DwtFn<i32>,
    /// Scale-0 decoupling.
    pub decouple0: Decouple0Fn,
    /// Scale-1..3 decoupling.
    pub decouple123: Decouple123Fn,
    /// One row of the scale-0 denominator's cube sum.
    pub den0_row: den::Row0Fn,
    /// One row of the scale-1..3 denominator's cube sum.
    pub den123_row: den::Row123Fn,
    /// Scale-0 weighting.
    pub weight0: Weight0Fn,
    /// Scale-1..3 weighting.
    pub weight123: Weight123Fn,
    /// One row of scale-0 contrast masking.
    pub cm0_row: Row0Fn,
    /// One row of scale-1..3 contrast masking.
    pub cm123_row: Row123Fn,
}

impl Default for Kernels {
    fn default() -> Self {
        Kernels::SCALAR
    }
}

impl Kernels {
    /// The scalar reference kernels.
    pub(super) const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        dwt0_u8: dwt::level0::<u8>,
        dwt0_u16: dwt::level0::<u16>,
        dwt1: dwt::level::<i16>,
        dwt: dwt::level::<i32>,
        decouple0: decouple::scale0,
        decouple123: decouple::scale123,
        den0_row: den::cubes0_row,
        den123_row: den::cubes123_row,
        weight0: weight::scale0,
        weight123: weight::scale123,
        cm0_row: cm::scale0_row,
        cm123_row: cm::scale123_row,
    };
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}
