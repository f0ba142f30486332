//! NEON CSF weighting. Scale 0: eight positions a step in 32-bit lanes, the scalar twin's
//! arithmetic (the product of a 16-bit weight and a 16-bit value fits 32 bits; the
//! results are truncated to 16 bits as `as i16`). Scales 1..3: four positions a step,
//! the products in 64-bit lanes as the scalar `i64` ones. The scalar code finishes each
//! row.

use std::arch::aarch64::*;

use super::super::border::Region;
use super::super::weight::{self, Weighted, ONE_BY_30_Q32, ROUND_ACTIVITY};

/// Scale-0 CSF weighting (see [`weight::scale0`]) with NEON.
pub(crate) fn weight0(
    src: &[Vec<i16>; 3],
    out: Weighted<'_, i16>,
    stride: usize,
    region: Region,
    rf: [u16; 3],
) {
    const SHIFT: [i32; 3] = [15, 15, 17];
    const ROUND: [i32; 3] = [16384, 16384, 65535];
    if region.top >= region.bottom || region.left >= region.right {
        return;
    }
    if region.right > stride {
        return weight::scale0(src, out, stride, region, rf);
    }
    weight::each_row(src, out, stride, region, |t, s, c, act| {
        // SAFETY: NEON was detected before this kernel was listed; the three slices hold
        // the row's values each.
        let done = unsafe { weight0_row(s, c, act, rf[t] as i32, ROUND[t], SHIFT[t]) };
        weight::scale0_row(&s[done..], &mut c[done..], &mut act[done..], t, rf[t]);
    });
}

/// One row of the scale-0 weighting, eight at a time; returns how many were done.
#[target_feature(enable = "neon")]
unsafe fn weight0_row(
    src: &[i16],
    csf: &mut [i16],
    activity: &mut [i16],
    rf: i32,
    round: i32,
    shift: i32,
) -> usize {
    let n = src.len().min(csf.len()).min(activity.len());
    let round = vdupq_n_s32(round);
    let shift = vdupq_n_s32(-shift);
    let half = vdupq_n_s32(2048);
    let mut j = 0;
    while j + 8 <= n {
        // SAFETY: `src` holds `n >= j + 8` values.
        let x = unsafe { vld1q_s16(src.as_ptr().add(j)) };
        let step = |x: int16x4_t| {
            let v = vmlaq_n_s32(round, vmovl_s16(x), rf);
            let w = vmovn_s32(vshlq_s32(v, shift));
            // |w| / 30 in Q12, rounded, kept to 16 bits.
            let a = vmlaq_n_s32(half, vabsq_s32(vmovl_s16(w)), 4369);
            (w, vmovn_s32(vshrq_n_s32::<12>(a)))
        };
        let (w0, a0) = step(vget_low_s16(x));
        let (w1, a1) = step(vget_high_s16(x));
        // SAFETY: `csf` and `activity` hold `n >= j + 8` values.
        unsafe {
            vst1q_s16(csf.as_mut_ptr().add(j), vcombine_s16(w0, w1));
            vst1q_s16(activity.as_mut_ptr().add(j), vcombine_s16(a0, a1));
        }
        j += 8;
    }
    j
}

/// `((rf · s + 2^27) >> 28) as i32` of four lanes, the scale-1..3 weighting of `s` by the
/// 32-bit unsigned weight `rf`: a signed 64-bit product (`smull` of `rf` read as `i32`,
/// plus `s · 2^32` where that reading was negative), rounded, shifted and truncated.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn weighted123(s: int32x4_t, rf: u32) -> int32x4_t {
    let half = |s: int32x2_t| {
        let p = vmull_n_s32(s, rf as i32);
        let p = if rf >= 1 << 31 {
            vaddq_s64(p, vshlq_n_s64::<32>(vmovl_s32(s)))
        } else {
            p
        };
        vmovn_s64(vshrq_n_s64::<28>(vaddq_s64(p, vdupq_n_s64(1 << 27))))
    };
    vcombine_s32(half(vget_low_s32(s)), half(vget_high_s32(s)))
}

/// `((m · |w| + ROUND) >> 32) as i32` of four lanes: `|w|` (as `u32`, so `|i32::MIN|` is
/// 2^31) times the Q32 constant `m < 2^31` is below 2^63 (`umull`), then the signed
/// rounding term and an arithmetic shift.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn scaled_abs_q32(w: int32x4_t, m: i64, round: i64) -> int32x4_t {
    let a = vreinterpretq_u32_s32(vabsq_s32(w));
    let half = |a: uint32x2_t| {
        let p = vreinterpretq_s64_u64(vmull_n_u32(a, m as u32));
        vmovn_s64(vshrq_n_s64::<32>(vaddq_s64(p, vdupq_n_s64(round))))
    };
    vcombine_s32(half(vget_low_u32(a)), half(vget_high_u32(a)))
}

/// Scale-1..3 CSF weighting (see [`weight::scale123`]) with NEON.
pub(crate) fn weight123(
    src: &[Vec<i32>; 3],
    out: Weighted<'_, i32>,
    stride: usize,
    region: Region,
    rf: [u32; 3],
) {
    if region.top >= region.bottom || region.left >= region.right {
        return;
    }
    if region.right > stride {
        return weight::scale123(src, out, stride, region, rf);
    }
    weight::each_row(src, out, stride, region, |t, s, c, act| {
        // SAFETY: NEON was detected before this kernel was listed; the three slices hold
        // the row's values each.
        let done = unsafe { weight123_row(s, c, act, rf[t]) };
        weight::scale123_row(&s[done..], &mut c[done..], &mut act[done..], rf[t]);
    });
}

/// One row of the scale-1..3 weighting, four at a time; returns how many were done.
#[target_feature(enable = "neon")]
unsafe fn weight123_row(src: &[i32], csf: &mut [i32], activity: &mut [i32], rf: u32) -> usize {
    let n = src.len().min(csf.len()).min(activity.len());
    let mut j = 0;
    while j + 4 <= n {
        // SAFETY: `src` holds `n >= j + 4` values.
        let x = unsafe { vld1q_s32(src.as_ptr().add(j)) };
        let w = weighted123(x, rf);
        let a = scaled_abs_q32(w, ONE_BY_30_Q32, ROUND_ACTIVITY);
        // SAFETY: `csf` and `activity` hold `n >= j + 4` values.
        unsafe {
            vst1q_s32(csf.as_mut_ptr().add(j), w);
            vst1q_s32(activity.as_mut_ptr().add(j), a);
        }
        j += 4;
    }
    j
}
