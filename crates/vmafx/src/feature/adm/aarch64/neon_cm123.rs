//! NEON row kernel of scale-1..3 contrast masking: four interior columns a step.
//!
//! The threshold is a wrapping 32-bit lane sum of the eight neighbours' activity and the
//! centre term (`|masker| / 15` in Q32, a 64-bit product); the source is weighted with
//! 64-bit products as in the CSF weighting. The masked cube is then the scale-0 kernel's
//! (`umull` square, `smull` cube, arithmetic shift modulo 64, wrapping sums).

use std::arch::aarch64::*;

use super::super::cm::{scale123_row, Masking, Row123, ONE_BY_15_Q32, ROUND_CENTER};
use super::super::cnum::half_of_shift;
use super::neon_weight::{scaled_abs_q32, weighted123};

/// The scale-1..3 row kernel (see [`scale123_row`]) with NEON.
pub(crate) fn scale123_row_neon<'a>(m: &Masking<'a, i32>, r: &Row123) -> [i64; 3] {
    // Vector columns need both neighbours inside the row.
    let start = r.left.max(1);
    let stop = r.right.min(r.w.saturating_sub(1));
    let (up, i, down) = r.rows;
    let need = up
        .max(i)
        .max(down)
        .checked_mul(r.stride)
        .and_then(|o| o.checked_add(r.w));
    let held = m
        .source
        .iter()
        .chain(m.masker)
        .chain(m.activity)
        .map(|b| b.len())
        .min();
    if r.stride < r.w || start + 4 > stop || need.is_none() || need > held {
        return scale123_row(m, r);
    }
    let row = |b: &'a [Vec<i32>; 3], y: usize| -> [&'a [i32]; 3] {
        [0, 1, 2].map(|t| &b[t][y * r.stride..y * r.stride + r.w])
    };
    let rows = Rows {
        activity: [
            row(m.activity, up),
            row(m.activity, i),
            row(m.activity, down),
        ],
        masker: row(m.masker, i),
        source: row(m.source, i),
    };
    // SAFETY: NEON was detected before this kernel was listed; every row was sliced to
    // `w` values, and columns `start - 1 ..= stop` lie within them (`stop < w`).
    let (mut inner, end) = unsafe { columns(&rows, r, start, stop) };
    // The scalar twin takes the columns the vector loop left.
    for (left, right) in [(r.left, start), (end, r.right)] {
        if left < right {
            let part = scale123_row(m, &Row123 { left, right, ..*r });
            for t in 0..3 {
                inner[t] = inner[t].wrapping_add(part[t]);
            }
        }
    }
    inner
}

/// The rows one masking row reads, each `w` long: activity above, at and below the row
/// (per orientation), the masker and the source at the row.
struct Rows<'a> {
    activity: [[&'a [i32]; 3]; 3],
    masker: [&'a [i32]; 3],
    source: [&'a [i32]; 3],
}

/// Four values at `row[j..]`.
///
/// # Safety
/// `row` must hold `j + 4` values, and NEON must be present.
#[inline(always)]
unsafe fn load4(row: &[i32], j: usize) -> int32x4_t {
    // SAFETY: the caller promises `row[j..j + 4]` and NEON.
    unsafe { vld1q_s32(row.as_ptr().add(j)) }
}

/// The sums of columns `start..end` (four a step, `end <= stop`) and `end`.
///
/// # Safety
/// Every row must hold columns `start - 1 ..= stop`, `start >= 1`, and NEON must be
/// present.
#[target_feature(enable = "neon")]
unsafe fn columns(rows: &Rows<'_>, r: &Row123, start: usize, stop: usize) -> ([i64; 3], usize) {
    let mut acc = [vdupq_n_s64(0); 3];
    let cub_round = vdupq_n_s64(half_of_shift(r.shift_cub) as i64);
    let cub_shift = vdupq_n_s64(-((r.shift_cub & 63) as i64));
    let sq_round = vdupq_n_u64(1 << 29);
    let mut j = start;
    while j + 4 <= stop {
        let mut thr = vdupq_n_s32(0);
        for t in 0..3 {
            let [a_up, a_mid, a_down] = rows.activity.map(|a| a[t]);
            // SAFETY: columns j - 1 ..= j + 4 <= stop lie in every row (the caller).
            unsafe {
                for y in [a_up, a_down] {
                    thr = vaddq_s32(thr, load4(y, j - 1));
                    thr = vaddq_s32(thr, load4(y, j));
                    thr = vaddq_s32(thr, load4(y, j + 1));
                }
                thr = vaddq_s32(thr, load4(a_mid, j - 1));
                thr = vaddq_s32(thr, load4(a_mid, j + 1));
                let c = load4(rows.masker[t], j);
                thr = vaddq_s32(thr, scaled_abs_q32(c, ONE_BY_15_Q32, ROUND_CENTER));
            }
        }
        for t in 0..3 {
            // SAFETY: as above.
            let s = unsafe { load4(rows.source[t], j) };
            let x = weighted123(s, r.rf[t]);
            let x = vmaxq_s32(vsubq_s32(vabsq_s32(x), thr), vdupq_n_s32(0));
            let xu = vreinterpretq_u32_s32(x);
            for h in 0..2 {
                let (xs, xu2) = if h == 0 {
                    (vget_low_s32(x), vget_low_u32(xu))
                } else {
                    (vget_high_s32(x), vget_high_u32(xu))
                };
                let sq = vshrq_n_u64::<30>(vmlal_u32(sq_round, xu2, xu2));
                let sq = vreinterpret_s32_u32(vmovn_u64(sq));
                let cube = vmlal_s32(cub_round, sq, xs);
                acc[t] = vaddq_s64(acc[t], vshlq_s64(cube, cub_shift));
            }
        }
        j += 4;
    }
    let sum = |v: int64x2_t| vgetq_lane_s64::<0>(v).wrapping_add(vgetq_lane_s64::<1>(v));
    (acc.map(sum), j)
}
