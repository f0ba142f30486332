//! NEON row kernels of contrast masking, scale 0 (`i16` bands) and scales 1..3 (`i32`):
//! one loop generic over the band type, four interior columns a step.
//!
//! The threshold is a wrapping 32-bit lane sum of the eight neighbours' activity and the
//! centre term, as in the scalar twins: at scale 0 `|masker| / 15` in Q12 kept to 16 bits
//! (every term fits 16 bits signed), at scales 1..3 in Q32 (a 64-bit product). The source
//! is weighted as the scale's scalar twin does (a wrapping 32-bit product at scale 0, whose
//! threshold is shifted up; 64-bit products at scales 1..3), and `|x| - threshold` taken
//! with wrap-around. The square of the non-negative difference is an unsigned 64-bit
//! product (`umull`), rounded, shifted and truncated to 32 bits (`xtn`, as `as i32`); its
//! product with the difference is a signed 64-bit one (`smull`), shifted arithmetically as
//! `wrapping_shr` does (the count taken modulo 64), and summed with wrap-around.

use std::arch::aarch64::*;

use super::super::cm::{
    scale0_row, scale123_row, Masking, Row0, Row123, ONE_BY_15_Q12, ONE_BY_15_Q32, ROUND_CENTER,
    SHIFT_SQ0, SHIFT_SUB0,
};
use super::super::cnum::half_of_shift;
use super::neon_weight::{scaled_abs_q32, weighted123};

/// The scale-0 row kernel (see [`scale0_row`]) with NEON.
pub(crate) fn scale0_row_neon(m: &Masking<'_, i16>, r: &Row0) -> [i64; 3] {
    row(m, r)
}

/// The scale-1..3 row kernel (see [`scale123_row`]) with NEON.
pub(crate) fn scale123_row_neon(m: &Masking<'_, i32>, r: &Row123) -> [i64; 3] {
    row(m, r)
}

/// Where a masking row lies in its bands.
struct Layout {
    stride: usize,
    w: usize,
    /// The rows above, at and below.
    rows: (usize, usize, usize),
    left: usize,
    right: usize,
}

/// What the scales' row kernels differ in, by band type.
trait Scale: Sized {
    /// The row's parameters.
    type Row;
    /// The scalar twin.
    fn scalar(m: &Masking<'_, Self>, r: &Self::Row) -> [i64; 3];
    /// Where the row lies.
    fn layout(r: &Self::Row) -> Layout;
    /// The row's columns `left..right` only.
    fn part(r: &Self::Row, left: usize, right: usize) -> Self::Row;
    /// Four values at `row[j..]` as `i32` lanes.
    ///
    /// # Safety
    /// `row` must hold `j + 4` values, and NEON must be present.
    unsafe fn load4(row: &[Self], j: usize) -> int32x4_t;
    /// The threshold's centre term of four masker values.
    ///
    /// # Safety
    /// NEON must be present.
    unsafe fn centre(masker: int32x4_t) -> int32x4_t;
    /// `max(|weighted source| - threshold, 0)` of orientation `t`.
    ///
    /// # Safety
    /// NEON must be present.
    unsafe fn excess(source: int32x4_t, thr: int32x4_t, r: &Self::Row, t: usize) -> int32x4_t;
    /// The squares of two non-negative differences of orientation `t`, rounded, shifted
    /// and truncated to 32 bits.
    ///
    /// # Safety
    /// NEON must be present.
    unsafe fn square(x: uint32x2_t, t: usize) -> int32x2_t;
    /// The cube's shift of orientation `t`.
    fn shift_cub(r: &Self::Row, t: usize) -> u32;
}

impl Scale for i16 {
    type Row = Row0;
    fn scalar(m: &Masking<'_, i16>, r: &Row0) -> [i64; 3] {
        scale0_row(m, r)
    }
    fn layout(r: &Row0) -> Layout {
        Layout {
            stride: r.stride,
            w: r.w,
            rows: r.rows,
            left: r.left,
            right: r.right,
        }
    }
    fn part(r: &Row0, left: usize, right: usize) -> Row0 {
        Row0 { left, right, ..*r }
    }
    #[inline(always)]
    unsafe fn load4(row: &[i16], j: usize) -> int32x4_t {
        // SAFETY: the caller promises `row[j..j + 4]` and NEON.
        unsafe { vmovl_s16(vld1_s16(row.as_ptr().add(j))) }
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn centre(masker: int32x4_t) -> int32x4_t {
        // (|masker| / 15 in Q12, rounded), kept to 16 bits.
        let c = vmlaq_n_s32(vdupq_n_s32(2048), vabsq_s32(masker), ONE_BY_15_Q12);
        vmovl_s16(vmovn_s32(vshrq_n_s32::<12>(c)))
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn excess(source: int32x4_t, thr: int32x4_t, r: &Row0, t: usize) -> int32x4_t {
        let x = vmulq_n_s32(source, r.rf[t] as i32);
        let shifted = vshlq_s32(thr, vdupq_n_s32(SHIFT_SUB0[t] as i32));
        vmaxq_s32(vsubq_s32(vabsq_s32(x), shifted), vdupq_n_s32(0))
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn square(x: uint32x2_t, t: usize) -> int32x2_t {
        let sq = vmlal_u32(vdupq_n_u64(1 << (SHIFT_SQ0[t] - 1)), x, x);
        let sq = vshlq_u64(sq, vdupq_n_s64(-(SHIFT_SQ0[t] as i64)));
        vreinterpret_s32_u32(vmovn_u64(sq))
    }
    fn shift_cub(r: &Row0, t: usize) -> u32 {
        r.shift_cub[t]
    }
}

impl Scale for i32 {
    type Row = Row123;
    fn scalar(m: &Masking<'_, i32>, r: &Row123) -> [i64; 3] {
        scale123_row(m, r)
    }
    fn layout(r: &Row123) -> Layout {
        Layout {
            stride: r.stride,
            w: r.w,
            rows: r.rows,
            left: r.left,
            right: r.right,
        }
    }
    fn part(r: &Row123, left: usize, right: usize) -> Row123 {
        Row123 { left, right, ..*r }
    }
    #[inline(always)]
    unsafe fn load4(row: &[i32], j: usize) -> int32x4_t {
        // SAFETY: the caller promises `row[j..j + 4]` and NEON.
        unsafe { vld1q_s32(row.as_ptr().add(j)) }
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn centre(masker: int32x4_t) -> int32x4_t {
        scaled_abs_q32(masker, ONE_BY_15_Q32, ROUND_CENTER)
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn excess(source: int32x4_t, thr: int32x4_t, r: &Row123, t: usize) -> int32x4_t {
        let x = weighted123(source, r.rf[t]);
        vmaxq_s32(vsubq_s32(vabsq_s32(x), thr), vdupq_n_s32(0))
    }
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn square(x: uint32x2_t, _: usize) -> int32x2_t {
        let sq = vshrq_n_u64::<30>(vmlal_u32(vdupq_n_u64(1 << 29), x, x));
        vreinterpret_s32_u32(vmovn_u64(sq))
    }
    fn shift_cub(r: &Row123, _: usize) -> u32 {
        r.shift_cub
    }
}

/// One masking row: the vector loop over the interior columns, the scalar twin over the
/// rest (or over all, where the bands do not hold the rows).
fn row<'a, T: Scale>(m: &Masking<'a, T>, r: &T::Row) -> [i64; 3] {
    let l = T::layout(r);
    // Vector columns need both neighbours inside the row.
    let start = l.left.max(1);
    let stop = l.right.min(l.w.saturating_sub(1));
    let (up, i, down) = l.rows;
    let need = up
        .max(i)
        .max(down)
        .checked_mul(l.stride)
        .and_then(|o| o.checked_add(l.w));
    let held = m
        .source
        .iter()
        .chain(m.masker)
        .chain(m.activity)
        .map(|b| b.len())
        .min();
    if l.stride < l.w || start + 4 > stop || need.is_none() || need > held {
        return T::scalar(m, r);
    }
    let at = |b: &'a [Vec<T>; 3], y: usize| -> [&'a [T]; 3] {
        [0, 1, 2].map(|t| &b[t][y * l.stride..][..l.w])
    };
    let rows = Rows {
        activity: [at(m.activity, up), at(m.activity, i), at(m.activity, down)],
        masker: at(m.masker, i),
        source: at(m.source, i),
    };
    // SAFETY: NEON was detected before this kernel was listed; every row was sliced to
    // `w` values, and columns `start - 1 ..= stop` lie within them (`stop < w`).
    let (mut inner, end) = unsafe { columns::<T>(&rows, r, start, stop) };
    // The scalar twin takes the columns the vector loop left.
    for (left, right) in [(l.left, start), (end, l.right)] {
        if left < right {
            let part = T::scalar(m, &T::part(r, left, right));
            for t in 0..3 {
                inner[t] = inner[t].wrapping_add(part[t]);
            }
        }
    }
    inner
}

/// The rows one masking row reads, each `w` long: activity above, at and below the row
/// (per orientation), the masker and the source at the row.
struct Rows<'a, T> {
    activity: [[&'a [T]; 3]; 3],
    masker: [&'a [T]; 3],
    source: [&'a [T]; 3],
}

/// The sums of columns `start..end` (four a step, `end <= stop`) and `end`.
///
/// # Safety
/// Every row must hold columns `start - 1 ..= stop`, `start >= 1`, and NEON must be
/// present.
#[target_feature(enable = "neon")]
unsafe fn columns<T: Scale>(
    rows: &Rows<'_, T>,
    r: &T::Row,
    start: usize,
    stop: usize,
) -> ([i64; 3], usize) {
    let mut acc = [vdupq_n_s64(0); 3];
    let shifts = [0, 1, 2].map(|t| T::shift_cub(r, t));
    let cub_rounds = shifts.map(|cub| vdupq_n_s64(half_of_shift(cub) as i64));
    let cub_shifts = shifts.map(|cub| vdupq_n_s64(-((cub & 63) as i64)));
    let mut j = start;
    while j + 4 <= stop {
        let mut thr = vdupq_n_s32(0);
        for t in 0..3 {
            let [a_up, a_mid, a_down] = rows.activity.map(|a| a[t]);
            // SAFETY: columns j - 1 ..= j + 4 <= stop lie in every row (the caller).
            unsafe {
                for y in [a_up, a_down] {
                    thr = vaddq_s32(thr, T::load4(y, j - 1));
                    thr = vaddq_s32(thr, T::load4(y, j));
                    thr = vaddq_s32(thr, T::load4(y, j + 1));
                }
                thr = vaddq_s32(thr, T::load4(a_mid, j - 1));
                thr = vaddq_s32(thr, T::load4(a_mid, j + 1));
                thr = vaddq_s32(thr, T::centre(T::load4(rows.masker[t], j)));
            }
        }
        for t in 0..3 {
            // SAFETY: as above.
            let x = unsafe { T::excess(T::load4(rows.source[t], j), thr, r, t) };
            let xu = vreinterpretq_u32_s32(x);
            for h in 0..2 {
                let (xs, xu2) = if h == 0 {
                    (vget_low_s32(x), vget_low_u32(xu))
                } else {
                    (vget_high_s32(x), vget_high_u32(xu))
                };
                // SAFETY: NEON is present (the caller).
                let sq = unsafe { T::square(xu2, t) };
                let cube = vmlal_s32(cub_rounds[t], sq, xs);
                acc[t] = vaddq_s64(acc[t], vshlq_s64(cube, cub_shifts[t]));
            }
        }
        j += 4;
    }
    let sum = |v: int64x2_t| vgetq_lane_s64::<0>(v).wrapping_add(vgetq_lane_s64::<1>(v));
    (acc.map(sum), j)
}
