//! NEON scale-0 CSF weighting: eight positions a step in 32-bit lanes, the scalar twin's
//! arithmetic (the product of a 16-bit weight and a 16-bit value fits 32 bits; the
//! results are truncated to 16 bits as `as i16`); the scalar code finishes each row.

use std::arch::aarch64::*;

use super::super::border::Region;
use super::super::weight::{self, Weighted};

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
    for t in 0..3 {
        for i in region.top..region.bottom {
            let (a, b) = (i * stride + region.left, i * stride + region.right);
            let (s, c, act) = (
                &src[t][a..b],
                &mut out.csf[t][a..b],
                &mut out.activity[t][a..b],
            );
            // SAFETY: NEON was detected before this kernel was listed; the three slices
            // hold `b - a` values each.
            let done = unsafe { weight0_row(s, c, act, rf[t] as i32, ROUND[t], SHIFT[t]) };
            weight::scale0_row(&s[done..], &mut c[done..], &mut act[done..], t, rf[t]);
        }
    }
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
