//! Contrast masking: the ADM numerator of one scale.
//!
//! Each CSF-weighted value of the source bands is reduced by a masking threshold (the
//! activity of the masker in the 3x3 neighbourhood over all three orientations, the centre
//! counted at half weight) and its 3-norm is taken over the scored region. Neighbours past
//! the top or left edge mirror (-1 reads 1); past the bottom or right edge they repeat the
//! last row or column, as libvmaf's border cases do.
//!
//! For the detail-loss measure the source is the restored band and the masker the additive
//! one; for AIM the roles swap.

use std::ops::Range;

use super::border::{scored, Region};
use super::cnum::{ceil_u32, half_of_shift};
use super::den::noise_floor;

/// The bands one masking sum reads.
pub(super) struct Masking<'a, T> {
    /// Bands whose masked energy is measured (h, v, d).
    pub source: &'a [Vec<T>; 3],
    /// CSF-weighted masker bands.
    pub masker: &'a [Vec<T>; 3],
    /// Masking activity of the masker.
    pub activity: &'a [Vec<T>; 3],
}

/// Neighbour rows or columns of `i` over `n`: (before, after).
pub(super) fn around(i: usize, n: usize) -> (usize, usize) {
    (
        if i == 0 { 1 } else { i - 1 },
        if i + 1 == n { i } else { i + 1 },
    )
}

/// The masking threshold at (i, j): the eight neighbours' activity plus the centre's term.
#[allow(clippy::too_many_arguments)]
fn threshold<T: Copy + Into<i64>>(
    activity: &[Vec<T>; 3],
    masker: &[Vec<T>; 3],
    center: impl Fn(i64) -> i32,
    stride: usize,
    (up, i, down): (usize, usize, usize),
    (l, j, r): (usize, usize, usize),
) -> i32 {
    let mut thr = 0i32;
    for t in 0..3 {
        let f = &activity[t];
        let at = |y: usize, x: usize| f[y * stride + x].into() as i32;
        let mut sum = 0i32;
        for y in [up, down] {
            for x in [l, j, r] {
                sum = sum.wrapping_add(at(y, x));
            }
        }
        sum = sum.wrapping_add(at(i, l)).wrapping_add(at(i, r));
        sum = sum.wrapping_add(center(masker[t][i * stride + j].into()));
        thr = thr.wrapping_add(sum);
    }
    thr
}

/// The masked cube of one value: max(|x| - thr, 0)^3 with libvmaf's rounding shifts.
fn masked_cube(x: i32, thr: i32, sq: (i64, u32), cub: (i64, u32)) -> i64 {
    let x = x.wrapping_abs().wrapping_sub(thr).max(0);
    let x_sq = ((x as i64 * x as i64 + sq.0) >> sq.1) as i32;
    (x_sq as i64 * x as i64 + cub.0).wrapping_shr(cub.1)
}

/// Sums the three orientations' 3-norms plus the noise floor.
fn combine(f_accum: [f32; 3], floor: f32) -> f32 {
    let mut total = 0.0f32;
    for a in f_accum {
        total += a.powf(1.0f32 / 3.0f32) + floor;
    }
    total
}

/// Scale-0 squaring shifts, and the threshold's shifts, per orientation.
pub(super) const SHIFT_SQ0: [u32; 3] = [29, 29, 30];
pub(super) const SHIFT_SUB0: [u32; 3] = [10, 10, 12];
/// 1/15 in Q12, the centre's weight at scale 0.
pub(super) const ONE_BY_15_Q12: i32 = 8738;

/// One row of the scale-0 masking sum: which row, its neighbours, which columns, and the
/// constants of the scale.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row0 {
    /// Band row stride.
    pub stride: usize,
    /// Band width.
    pub w: usize,
    /// The row, and the rows above and below it (mirrored or repeated at the edges).
    pub rows: (usize, usize, usize),
    /// First column.
    pub left: usize,
    /// One past the last column.
    pub right: usize,
    /// Fixed-point weights.
    pub rf: [u16; 3],
    /// Cube shifts per orientation.
    pub shift_cub: [u32; 3],
}

/// A scale-0 row kernel: the three orientations' wrapping sums of masked cubes.
pub(super) type Row0Fn = fn(&Masking<'_, i16>, &Row0) -> [i64; 3];

/// The scale-0 masked cube of `source · rf` at band position `p` against threshold `thr`.
#[inline]
pub(super) fn cube0(source: i16, rf: u16, thr: i32, t: usize, shift_cub: u32) -> i64 {
    let x = (source as i32).wrapping_mul(rf as i32);
    let sq = (1i64 << (SHIFT_SQ0[t] - 1), SHIFT_SQ0[t]);
    let cub = (half_of_shift(shift_cub) as i64, shift_cub);
    masked_cube(x, thr.wrapping_shl(SHIFT_SUB0[t]), sq, cub)
}

/// The scale-0 centre term of the threshold.
#[inline]
pub(super) fn center0(v: i64) -> i32 {
    ((ONE_BY_15_Q12 as i64 * v.abs() + 2048) >> 12) as i16 as i32
}

/// The scalar row kernel of scale 0 (the reference twin).
pub(super) fn scale0_row(m: &Masking<'_, i16>, r: &Row0) -> [i64; 3] {
    let (up, i, down) = r.rows;
    let mut inner = [0i64; 3];
    for j in r.left..r.right {
        let (lc, rc) = around(j, r.w);
        let thr = threshold(
            m.activity,
            m.masker,
            center0,
            r.stride,
            (up, i, down),
            (lc, j, rc),
        );
        for (t, sum) in inner.iter_mut().enumerate() {
            let x = m.source[t][i * r.stride + j];
            *sum = sum.wrapping_add(cube0(x, r.rf[t], thr, t, r.shift_cub[t]));
        }
    }
    inner
}

/// The scale-0 masking sum taken a run of rows at a time: each row's integer sums are
/// shifted and added in picture order, so any split into runs gives the same total.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sum0 {
    w: usize,
    h: usize,
    rf: [u16; 3],
    region: Region,
    shift_cub: [u32; 3],
    shift_inner: u32,
    accum: [i64; 3],
}

impl Sum0 {
    /// An empty sum over the scored region of `w` x `h` bands, with the scale-0
    /// fixed-point weights `rf`.
    pub(super) fn new((w, h): (usize, usize), rf: [u16; 3]) -> Self {
        let lw = (w as f64).log2();
        Sum0 {
            w,
            h,
            rf,
            region: scored(w, h),
            shift_cub: [ceil_u32(lw - 4.0), ceil_u32(lw - 4.0), ceil_u32(lw - 3.0)],
            shift_inner: ceil_u32((h as f64).log2()),
            accum: [0; 3],
        }
    }

    /// Adds the scored rows among `rows` (band rows of the picture); the bands of `m`
    /// start at picture row `first` and hold every row the 3x3 neighbourhoods read.
    pub(super) fn add_rows(
        &mut self,
        m: &Masking<'_, i16>,
        stride: usize,
        rows: Range<usize>,
        first: usize,
        row: Row0Fn,
    ) {
        let r = self.region;
        let round_inner = half_of_shift(self.shift_inner) as i64;
        for i in rows.start.max(r.top)..rows.end.min(r.bottom) {
            let (up, down) = around(i, self.h);
            let ctx = Row0 {
                stride,
                w: self.w,
                rows: (up - first, i - first, down - first),
                left: r.left,
                right: r.right,
                rf: self.rf,
                shift_cub: self.shift_cub,
            };
            let inner = row(m, &ctx);
            for (acc, v) in self.accum.iter_mut().zip(inner) {
                *acc = acc.wrapping_add(v.wrapping_add(round_inner).wrapping_shr(self.shift_inner));
            }
        }
    }

    /// The masking sum: the three 3-norms plus the noise floor.
    pub(super) fn total(&self, noise_weight: f64) -> f32 {
        const BASE: [u32; 3] = [52, 52, 57];
        let f_accum: [f32; 3] = std::array::from_fn(|t| {
            let exp = BASE[t]
                .wrapping_sub(self.shift_cub[t])
                .wrapping_sub(self.shift_inner);
            (self.accum[t] as f64 / 2f64.powf(exp as f64)) as f32
        });
        combine(f_accum, noise_floor(self.region.area(), noise_weight))
    }
}

/// Scale 0 (`i16` bands of `w` x `h`), with the scale-0 fixed-point weights `rf`; each
/// row's sums come from `row` (the scalar [`scale0_row`] or a vector twin); the
/// whole-band form of [`Sum0`], which the strip tests compare against.
#[cfg(test)]
pub(super) fn scale0(
    m: Masking<'_, i16>,
    stride: usize,
    (w, h): (usize, usize),
    rf: [u16; 3],
    noise_weight: f64,
    row: Row0Fn,
) -> f32 {
    let mut sum = Sum0::new((w, h), rf);
    sum.add_rows(&m, stride, 0..h, 0, row);
    sum.total(noise_weight)
}

/// 1/15 in Q32, the centre's weight at scales 1..3.
pub(super) const ONE_BY_15_Q32: i64 = 286331153;
/// As in the weighting: libvmaf's rounding term is 1u << 31 in an int32_t, i.e. -2^31.
pub(super) const ROUND_CENTER: i64 = i32::MIN as i64;

/// One row of a scale-1..3 masking sum (as [`Row0`], with that scale's constants).
#[derive(Debug, Clone, Copy)]
pub(super) struct Row123 {
    /// Band row stride.
    pub stride: usize,
    /// Band width.
    pub w: usize,
    /// The row, and the rows above and below it.
    pub rows: (usize, usize, usize),
    /// First column.
    pub left: usize,
    /// One past the last column.
    pub right: usize,
    /// Fixed-point weights.
    pub rf: [u32; 3],
    /// Cube shift.
    pub shift_cub: u32,
}

/// A scale-1..3 row kernel: the three orientations' wrapping sums of masked cubes.
pub(super) type Row123Fn = fn(&Masking<'_, i32>, &Row123) -> [i64; 3];

/// The scale-1..3 centre term of the threshold.
#[inline]
pub(super) fn center123(v: i64) -> i32 {
    ((ONE_BY_15_Q32 * v.abs() + ROUND_CENTER) >> 32) as i32
}

/// The scalar row kernel of scales 1..3 (the reference twin).
pub(super) fn scale123_row(m: &Masking<'_, i32>, r: &Row123) -> [i64; 3] {
    let (up, i, down) = r.rows;
    let sq = (1i64 << 29, 30);
    let cub = (half_of_shift(r.shift_cub) as i64, r.shift_cub);
    let mut inner = [0i64; 3];
    for j in r.left..r.right {
        let (lc, rc) = around(j, r.w);
        let thr = threshold(
            m.activity,
            m.masker,
            center123,
            r.stride,
            (up, i, down),
            (lc, j, rc),
        );
        for (t, sum) in inner.iter_mut().enumerate() {
            let src = m.source[t][i * r.stride + j] as i64;
            let x = ((src * r.rf[t] as i64 + (1 << 27)) >> 28) as i32;
            *sum = sum.wrapping_add(masked_cube(x, thr, sq, cub));
        }
    }
    inner
}

/// Scales 1..3 (`i32` bands of `w` x `h`), with that scale's fixed-point weights `rf`;
/// each row's sums come from `row` (the scalar [`scale123_row`] or a vector twin).
#[allow(clippy::too_many_arguments)]
pub(super) fn scale123(
    m: Masking<'_, i32>,
    scale: usize,
    stride: usize,
    (w, h): (usize, usize),
    rf: [u32; 3],
    noise_weight: f64,
    row: Row123Fn,
) -> f32 {
    const BASE: [u32; 3] = [45, 39, 36];
    let shift_cub = ceil_u32((w as f64).log2());
    let shift_inner = ceil_u32((h as f64).log2());
    let round_inner = half_of_shift(shift_inner) as i64;
    let exp = BASE[scale - 1]
        .wrapping_sub(shift_cub)
        .wrapping_sub(shift_inner);
    let final_shift = 2f64.powf(exp as f64) as f32;
    let r = scored(w, h);
    let mut accum = [0i64; 3];
    for i in r.top..r.bottom {
        let (up, down) = around(i, h);
        let ctx = Row123 {
            stride,
            w,
            rows: (up, i, down),
            left: r.left,
            right: r.right,
            rf,
            shift_cub,
        };
        let inner = row(&m, &ctx);
        for t in 0..3 {
            accum[t] =
                accum[t].wrapping_add(inner[t].wrapping_add(round_inner).wrapping_shr(shift_inner));
        }
    }
    let f_accum: [f32; 3] = std::array::from_fn(|t| accum[t] as f32 / final_shift);
    combine(f_accum, noise_floor(r.area(), noise_weight))
}
