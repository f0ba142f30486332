//! The ADM denominator of one scale: the CSF-weighted energy (3-norm) of the reference
//! detail bands over the scored region, plus a noise floor.

use std::ops::Range;

use super::border::{scored, Region};
use super::cnum::{ceil_u32, half_of_shift};

/// The noise-floor term: (area · noise weight)^(1/3) in float.
pub(super) fn noise_floor(area: i32, noise_weight: f64) -> f32 {
    ((area as f64 * noise_weight) as f32).powf(1.0f32 / 3.0f32)
}

/// Sums the three orientations' 3-norms (in float) from their fixed-point cube sums.
fn combine(accum: [u64; 3], shift: f64, factors: [f32; 3], floor: f32) -> f32 {
    let mut total = 0.0f32;
    for t in 0..3 {
        let csf = (accum[t] as f64 / shift) * (factors[t] as f64).powf(3.0);
        total += (csf as f32).powf(1.0f32 / 3.0f32) + floor;
    }
    total
}

/// The shifts and roundings of one scale-1..3 cube sum.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cube {
    /// Shift of the square.
    pub shift_sq: u32,
    /// Rounding added to the square.
    pub round_sq: u64,
    /// Shift of the cube (C's shift: taken modulo 64).
    pub shift_cub: u32,
    /// Rounding added to the cube.
    pub round_cub: u64,
}

/// A row's wrapping sum of `|x|^3` at scale 0.
pub(super) type Row0Fn = fn(&[i16]) -> u64;

/// A row's wrapping sum of the rounded, shifted cubes at scales 1..3.
pub(super) type Row123Fn = fn(&[i32], Cube) -> u64;

/// One scale-0 row: the wrapping sum of `|x|^3` (`|x|` as `u16`).
pub(super) fn cubes0_row(row: &[i16]) -> u64 {
    let mut inner = 0u64;
    for &x in row {
        let a = (x as i32).unsigned_abs() as u16 as u64;
        inner = inner.wrapping_add(a * a * a);
    }
    inner
}

/// One scale-1..3 row: the wrapping sum of `((|x|^2 + r) >> s) · |x|`, rounded and shifted.
pub(super) fn cubes123_row(row: &[i32], c: Cube) -> u64 {
    let mut inner = 0u64;
    for &x in row {
        inner = inner.wrapping_add(cube123(x, c));
    }
    inner
}

/// The rounded, shifted cube of one scale-1..3 value.
#[inline]
pub(super) fn cube123(x: i32, c: Cube) -> u64 {
    let a = x.unsigned_abs() as u64;
    let sq = a.wrapping_mul(a).wrapping_add(c.round_sq) >> c.shift_sq;
    sq.wrapping_mul(a)
        .wrapping_add(c.round_cub)
        .wrapping_shr(c.shift_cub)
}

/// The scale-0 denominator summed a run of rows at a time: the cube sums are integers
/// added row by row in picture order, so any split into runs gives the same total.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sum0 {
    region: Region,
    shift: u32,
    round: u64,
    accum: [u64; 3],
}

impl Sum0 {
    /// An empty sum over the scored region of `w` x `h` bands.
    pub(super) fn new(w: usize, h: usize) -> Self {
        let region = scored(w, h);
        let shift = ((region.area() as f64).log2() - 20.0).ceil() as i32;
        let shift = shift.max(0) as u32;
        let round = if shift > 0 { 1u64 << (shift - 1) } else { 0 };
        Sum0 {
            region,
            shift,
            round,
            accum: [0; 3],
        }
    }

    /// Adds the scored rows among `rows` of `bands` (whole bands of row stride `stride`),
    /// each summed by `cubes`.
    pub(super) fn add_rows(
        &mut self,
        bands: &[Vec<i16>; 3],
        stride: usize,
        rows: Range<usize>,
        cubes: Row0Fn,
    ) {
        let r = self.region;
        for i in rows.start.max(r.top)..rows.end.min(r.bottom) {
            for (acc, band) in self.accum.iter_mut().zip(bands) {
                let inner = cubes(&band[i * stride + r.left..i * stride + r.right]);
                *acc = acc.wrapping_add(inner.wrapping_add(self.round) >> self.shift);
            }
        }
    }

    /// The denominator, with the CSF weights `factors`.
    pub(super) fn total(&self, factors: [f32; 3], noise_weight: f64) -> f32 {
        let unit = 2f64.powf((18 - self.shift as i32) as f64);
        let floor = noise_floor(self.region.area(), noise_weight);
        combine(self.accum, unit, factors, floor)
    }
}

/// Scale 0 (`i16` bands of `w` x `h`), each row summed by `cubes` (the whole-band form of [`Sum0`],
/// which the strip tests compare against).
#[cfg(test)]
pub(super) fn scale0(
    bands: &[Vec<i16>; 3],
    stride: usize,
    (w, h): (usize, usize),
    factors: [f32; 3],
    noise_weight: f64,
    cubes: Row0Fn,
) -> f32 {
    let mut sum = Sum0::new(w, h);
    sum.add_rows(bands, stride, 0..h, cubes);
    sum.total(factors, noise_weight)
}

/// Scales 1..3 (`i32` bands of `w` x `h`), each row summed by `cubes`.
pub(super) fn scale123(
    bands: &[Vec<i32>; 3],
    (scale, stride): (usize, usize),
    (w, h): (usize, usize),
    factors: [f32; 3],
    noise_weight: f64,
    cubes: Row123Fn,
) -> f32 {
    const SHIFT_SQ: [u32; 3] = [31, 30, 31];
    const TO_FLOAT: [u32; 3] = [32, 27, 23];
    let shift_sq = SHIFT_SQ[scale - 1];
    // libvmaf adds 1 << shift here, not half of it.
    let round_sq = 1u64 << shift_sq;
    let r = scored(w, h);
    let shift_cub = ceil_u32(((r.right - r.left) as f64).log2());
    let round_cub = half_of_shift(shift_cub) as u64;
    let shift_acc = ceil_u32(((r.bottom - r.top) as f64).log2());
    let round_acc = half_of_shift(shift_acc) as u64;
    let c = Cube {
        shift_sq,
        round_sq,
        shift_cub,
        round_cub,
    };
    let mut accum = [0u64; 3];
    for i in r.top..r.bottom {
        for t in 0..3 {
            let row = &bands[t][i * stride..];
            let inner = cubes(&row[r.left..r.right], c);
            accum[t] = accum[t].wrapping_add(inner.wrapping_add(round_acc).wrapping_shr(shift_acc));
        }
    }
    let exp = TO_FLOAT[scale - 1]
        .wrapping_sub(shift_acc)
        .wrapping_sub(shift_cub);
    combine(
        accum,
        2f64.powf(exp as f64),
        factors,
        noise_floor(r.area(), noise_weight),
    )
}
