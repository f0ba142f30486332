//! NEON scale-1..3 decoupling: four positions a step.
//!
//! A step runs only where every reference and distorted value of the three bands lies
//! below 2^26 in magnitude (else the scalar twin does those four positions). There the
//! angle test's 64-bit dot products and squares stay below 2^53, exact in `f64`, so their
//! rounding to `f32` (`fcvtn`) is the scalar `i64 as f32`; that test and the gain limit
//! are scale 0's. The divisor's leading 15 bits come from `clz` and a rounding shift
//! (`urshl`); the reciprocal is read lane by lane (NEON has no gather) at the signed
//! index, which folds in the sign as the antisymmetric table does. The gain's rounding
//! shift by `15 + s` is per lane (`srshl` with a negative count), the restored value a
//! rounding narrowing shift (`rshrn`, truncating to 32 bits as `as i32`).

use std::arch::aarch64::*;

use super::super::border::Region;
use super::super::decouple::{self, cos_sq_one_degree, fits, reciprocals, scale123_at, Decouple};
use super::neon_decouple::{limit, max64, min64, within};

/// Values at or above this magnitude go to the scalar twin.
const VECTOR_RANGE: u32 = 1 << 26;

/// Scale-1..3 decoupling (see [`decouple::scale123`]) with NEON.
pub(crate) fn scale123(mut b: Decouple<'_, i32>, stride: usize, region: Region, egl: f64) {
    if !fits(&b, stride, region) {
        return decouple::scale123(b, stride, region, egl);
    }
    let div = reciprocals();
    let cos_sq = cos_sq_one_degree();
    for i in region.top..region.bottom {
        let row = i * stride;
        let mut j = region.left;
        while j + 4 <= region.right {
            // SAFETY: NEON was detected before this kernel was listed; `fits` checked that
            // every band holds this row's columns up to `right > j + 3`.
            let done = unsafe { step(&mut b, row + j, egl, div, cos_sq) };
            if !done {
                for p in row + j..row + j + 4 {
                    scale123_at(&mut b, p, egl, div, cos_sq);
                }
            }
            j += 4;
        }
        for p in row + j..row + region.right {
            scale123_at(&mut b, p, egl, div, cos_sq);
        }
    }
}

/// The low and high pairs of four `i32` lanes, widened to `i64`.
#[inline]
#[target_feature(enable = "neon")]
fn widen(x: int32x4_t) -> [int64x2_t; 2] {
    [vmovl_s32(vget_low_s32(x)), vmovl_high_s32(x)]
}

/// The gain `k` of four positions: `clamp(round(div(o) · d / 2^(15+s)), 0, 32768)`, and
/// 32768 where `o` is 0 (`|o| < 2^26`).
#[inline]
#[target_feature(enable = "neon")]
fn gain(o: int32x4_t, d: int32x4_t, div: &[i32]) -> int32x4_t {
    let abs = vreinterpretq_u32_s32(vabsq_s32(o));
    // The bits past the leading 15 (none below 2^15), dropped with rounding.
    let lz = vreinterpretq_s32_u32(vclzq_u32(abs));
    let shift = vmaxq_s32(vsubq_s32(vdupq_n_s32(17), lz), vdupq_n_s32(0));
    let msb = vreinterpretq_s32_u32(vrshlq_u32(abs, vnegq_s32(shift)));
    let signed = vbslq_s32(vcltzq_s32(o), vnegq_s32(msb), msb);
    let mut idx = [0i32; 4];
    // SAFETY: `idx` has room for four values.
    unsafe { vst1q_s32(idx.as_mut_ptr(), vaddq_s32(signed, vdupq_n_s32(32768))) };
    // msb <= 32768, so every index lies in 0..=65536, inside the 65537-entry table.
    let r = idx.map(|i| div[i as usize]);
    // SAFETY: `r` holds four values.
    let r = unsafe { vld1q_s32(r.as_ptr()) };
    let down = widen(vnegq_s32(vaddq_s32(shift, vdupq_n_s32(15))));
    let (zero, cap) = (vdupq_n_s64(0), vdupq_n_s64(32768));
    let clamped =
        |q: int64x2_t, by: int64x2_t| vmovn_s64(min64(max64(vrshlq_s64(q, by), zero), cap));
    let k = vcombine_s32(
        clamped(vmull_s32(vget_low_s32(r), vget_low_s32(d)), down[0]),
        clamped(vmull_high_s32(r, d), down[1]),
    );
    vbslq_s32(vceqzq_s32(o), vdupq_n_s32(32768), k)
}

/// Four positions from `p`; false (nothing written) where a value is out of range.
///
/// # Safety
/// Every band must hold `p + 4` values, and NEON must be present.
#[target_feature(enable = "neon")]
unsafe fn step(b: &mut Decouple<'_, i32>, p: usize, egl: f64, div: &[i32], cos_sq: f32) -> bool {
    // SAFETY: every band holds `p + 4` values (the caller).
    let (o, d) = unsafe {
        (
            b.reference.map(|r| vld1q_s32(r.as_ptr().add(p))),
            b.distorted.map(|r| vld1q_s32(r.as_ptr().add(p))),
        )
    };
    // |i32::MIN| stays negative, so its top bit is caught too.
    let any = o.iter().chain(&d).fold(vdupq_n_u32(0), |acc, &x| {
        vorrq_u32(acc, vreinterpretq_u32_s32(vabsq_s32(x)))
    });
    if vmaxvq_u32(any) >= VECTOR_RANGE {
        return false;
    }
    let cos_sq = vdupq_n_f64(cos_sq as f64);
    let egl = vdupq_n_f64(egl);
    let (oh, ov, dh, dv) = (widen(o[0]), widen(o[1]), widen(d[0]), widen(d[1]));
    let angle = vcombine_u32(
        vmovn_u64(within(cos_sq, [oh[0], ov[0]], [dh[0], dv[0]])),
        vmovn_u64(within(cos_sq, [oh[1], ov[1]], [dh[1], dv[1]])),
    );
    // The gain limit (in `f64` lanes) only where a lane is within the angle.
    let any_angle = vmaxvq_u32(angle) != 0;
    for t in 0..3 {
        let k = gain(o[t], d[t], div);
        // (k·o + 2^14) >> 15 of the exact 64-bit product, truncated to 32 bits.
        let rst = vcombine_s32(
            vrshrn_n_s64::<15>(vmull_s32(vget_low_s32(k), vget_low_s32(o[t]))),
            vrshrn_n_s64::<15>(vmull_high_s32(k, o[t])),
        );
        let rst = if any_angle {
            vbslq_s32(angle, limit(rst, k, o[t], d[t], egl), rst)
        } else {
            rst
        };
        let add = vsubq_s32(d[t], rst);
        // SAFETY: as for the loads.
        unsafe {
            vst1q_s32(b.restored[t].as_mut_ptr().add(p), rst);
            vst1q_s32(b.additive[t].as_mut_ptr().add(p), add);
        }
    }
    true
}
