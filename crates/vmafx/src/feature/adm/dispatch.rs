//! The ADM kernel table per CPU level (rav1e-style function pointers chosen in `init`),
//! and the vector kernels behind it. Every kernel gives exactly its scalar twin's values.

#[cfg(test)]
pub(crate) mod checkasm;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cm_widths;
#[cfg(test)]
mod tests_decouple0;
#[cfg(test)]
mod tests_decouple123_widths;
#[cfg(test)]
mod tests_den_widths;
#[cfg(test)]
mod tests_dwt_widths;
#[cfg(test)]
mod tests_weight_widths;

use super::bands::Bands;
use super::border::Region;
use super::cm::{self, Row0Fn, Row123Fn};
use super::decouple::{self, Decouple};
use super::den;
use super::dwt::{self, Taps};
use super::weight::{self, Weighted};
#[cfg(target_arch = "x86_64")]
use super::x86::{
    avx2, avx2_cm, avx2_decouple, avx2_decouple123, avx2_den, avx2_dwt, avx512_cm, avx512_decouple,
    avx512_decouple123, avx512_den, avx512_dwt, avx512_dwt123, avx512_weight,
};
use crate::cpu::{kernel_tables, CpuLevel, KernelTable};

/// Level 0 of the DWT (see [`dwt::level0`]) over one sample type.
pub type Dwt0Fn<S> = fn(&[S], usize, &Taps, u32, &mut [i32], &mut Bands<i16>, usize);

/// The scale-0 CSF weighting (see [`weight::scale0`]).
pub type Weight0Fn = fn(&[Vec<i16>; 3], Weighted<'_, i16>, usize, Region, [u16; 3]);

/// DWT levels 1..3 (see [`dwt::level`]) of a low band of `S`.
pub type DwtFn<S> = fn(&[S], usize, &Taps, usize, &mut [i64], &mut Bands<i32>, usize);

/// Scale-0 decoupling (see [`decouple::scale0`]).
pub type Decouple0Fn = fn(Decouple<'_, i16>, usize, Region, f64);

/// Scale-1..3 decoupling (see [`decouple::scale123`]).
pub type Decouple123Fn = fn(Decouple<'_, i32>, usize, Region, f64);

/// The scale-1..3 CSF weighting (see [`weight::scale123`]).
pub type Weight123Fn = fn(&[Vec<i32>; 3], Weighted<'_, i32>, usize, Region, [u32; 3]);

/// The kernels one ADM instance runs.
#[derive(Debug, Clone, Copy)]
pub struct Kernels {
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
    /// The tables of the levels above scalar this CPU runs (what the twin tests compare).
    #[cfg(test)]
    pub(crate) fn simd_levels() -> Vec<Kernels> {
        KERNELS
            .runnable()
            .filter(|k| k.level != CpuLevel::Scalar)
            .collect()
    }

    /// The scalar reference kernels.
    pub const SCALAR: Kernels = Kernels {
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

    /// The kernels of `wanted`, lowered to what this CPU runs. AVX-512 has its own kernels
    /// at every stage; the VNNI level runs them too.
    #[cfg(test)]
    pub fn for_level(wanted: CpuLevel) -> Kernels {
        KERNELS.pick(wanted)
    }

    /// The AVX-512 kernels. Only a table made after AVX-512 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX512: Kernels = Kernels {
        level: CpuLevel::Avx512,
        dwt0_u8: avx512_dwt::level0::<u8>,
        dwt0_u16: avx512_dwt::level0::<u16>,
        dwt1: avx512_dwt123::level1,
        dwt: avx512_dwt123::level,
        den0_row: avx512_den::cubes0_row,
        den123_row: avx512_den::cubes123_row,
        weight0: avx512_weight::weight0,
        weight123: avx512_weight::weight123,
        decouple0: avx512_decouple::scale0,
        cm0_row: avx512_cm::scale0_row_avx512,
        cm123_row: avx512_cm::scale123_row_avx512,
        decouple123: avx512_decouple123::scale123,
    };

    /// The AVX2 kernels. Only a table made after AVX2 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX2: Kernels = Kernels {
        level: CpuLevel::Avx2,
        dwt0_u8: avx2_dwt::level0::<u8>,
        dwt0_u16: avx2_dwt::level0::<u16>,
        dwt1: avx2_dwt::level::<i16>,
        dwt: avx2_dwt::level::<i32>,
        decouple0: avx2_decouple::scale0,
        decouple123: avx2_decouple123::scale123,
        den0_row: avx2_den::cubes0_row,
        den123_row: avx2_den::cubes123_row,
        weight0: avx2::weight0,
        weight123: avx2::weight123,
        cm0_row: avx2_cm::scale0_row_avx2,
        cm123_row: avx2_cm::scale123_row_avx2,
    };
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: Kernels::AVX2, Kernels::AVX512);
