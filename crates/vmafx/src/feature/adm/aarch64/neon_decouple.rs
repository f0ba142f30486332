//! NEON scale-0 decoupling: four positions a step.
//!
//! The reciprocal is read from the table lane by lane (NEON has no gather); the gain `k`
//! is a 64-bit product (`smull`) rounded, shifted and clamped in 64-bit lanes. The
//! one-degree test runs in `f64` lanes with the scalar twin's conversions and operation
//! order: the integer dot products (below 2^32) convert exactly to `f64`, whose rounding
//! to `f32` (`fcvtn`) is the scalar `as f32`. The gain limit is C's `x < t ? x : t` /
//! `x > t ? x : t` as compare-and-select, and the `f64` to `i16` cast saturates
//! (`fcvtzs`, then saturating narrowing), as Rust's `as i16` does.

use std::arch::aarch64::*;

use super::super::border::Region;
use super::super::decouple::{self, cos_sq_one_degree, reciprocals, scale0_at, Decouple};

/// Scale-0 decoupling (see [`decouple::scale0`]) with NEON.
pub(crate) fn scale0(mut b: Decouple<'_, i16>, stride: usize, region: Region, egl: f64) {
    if region.top >= region.bottom || region.left >= region.right {
        return;
    }
    if region.right > stride {
        return decouple::scale0(b, stride, region, egl);
    }
    let div = reciprocals();
    let cos_sq = cos_sq_one_degree();
    for i in region.top..region.bottom {
        let (from, to) = (i * stride + region.left, i * stride + region.right);
        let rows = Rows {
            reference: b.reference.map(|v| &v[from..to]),
            distorted: b.distorted.map(|v| &v[from..to]),
        };
        let [r0, r1, r2] = &mut b.restored;
        let [a0, a1, a2] = &mut b.additive;
        let restored = [&mut r0[from..to], &mut r1[from..to], &mut r2[from..to]];
        let additive = [&mut a0[from..to], &mut a1[from..to], &mut a2[from..to]];
        // SAFETY: NEON was detected before this kernel was listed; every slice holds the
        // row's `to - from` positions.
        let done = unsafe { row0(&rows, restored, additive, egl, div, cos_sq) };
        for j in from + done..to {
            scale0_at(&mut b, j, egl, div, cos_sq);
        }
    }
}

/// One row's input bands, sliced to the region's columns.
struct Rows<'a> {
    reference: [&'a [i16]; 3],
    distorted: [&'a [i16]; 3],
}

/// Four `i16` at `p` as `i32` lanes.
///
/// # Safety
/// `p` must be valid for reading four values, and NEON must be present.
#[inline(always)]
unsafe fn load4(p: *const i16) -> int32x4_t {
    // SAFETY: the caller promises four readable values and NEON.
    unsafe { vmovl_s16(vld1_s16(p)) }
}

/// An `i64` pair as exact `f64`s rounded to `f32` and back to `f64`, divided by 4096
/// (`(x as f32) as f64 / 4096.0`).
#[inline]
#[target_feature(enable = "neon")]
fn f32_scaled(x: int64x2_t) -> float64x2_t {
    let as_f32 = vcvt_f32_f64(vcvtq_f64_s64(x));
    // Scaling by a power of two is exact, as the division by 4096 is.
    vmulq_f64(vcvt_f64_f32(as_f32), vdupq_n_f64(1.0 / 4096.0))
}

/// The one-degree test of two positions (64-bit lanes of the orientation values).
#[inline]
#[target_feature(enable = "neon")]
fn within(cos_sq: float64x2_t, o: [int64x2_t; 2], d: [int64x2_t; 2]) -> uint64x2_t {
    let dot = vaddq_s64(mul64(o[0], d[0]), mul64(o[1], d[1]));
    let o_sq = vaddq_s64(mul64(o[0], o[0]), mul64(o[1], o[1]));
    let t_sq = vaddq_s64(mul64(d[0], d[0]), mul64(d[1], d[1]));
    let dp = f32_scaled(dot);
    let rhs = vmulq_f64(vmulq_f64(cos_sq, f32_scaled(o_sq)), f32_scaled(t_sq));
    vandq_u64(
        vcgeq_f64(dp, vdupq_n_f64(0.0)),
        vcgeq_f64(vmulq_f64(dp, dp), rhs),
    )
}

/// The product of 64-bit lanes holding 32-bit values.
#[inline]
#[target_feature(enable = "neon")]
fn mul64(a: int64x2_t, b: int64x2_t) -> int64x2_t {
    vmull_s32(vmovn_s64(a), vmovn_s64(b))
}

/// Decouples positions `0..4·k` of one row; returns how many were done.
#[target_feature(enable = "neon")]
unsafe fn row0(
    rows: &Rows<'_>,
    restored: [&mut [i16]; 3],
    additive: [&mut [i16]; 3],
    egl: f64,
    div: &[i32],
    cos_sq: f32,
) -> usize {
    let n = rows
        .reference
        .iter()
        .chain(&rows.distorted)
        .map(|r| r.len())
        .chain(restored.iter().chain(&additive).map(|r| r.len()))
        .min()
        .unwrap_or(0);
    if div.len() < 65537 {
        return 0;
    }
    let cos_sq = vdupq_n_f64(cos_sq as f64);
    let egl = vdupq_n_f64(egl);
    let mut j = 0;
    while j + 4 <= n {
        // SAFETY: every slice holds `n >= j + 4` values (the loop condition).
        let (o, d) = unsafe {
            (
                rows.reference.map(|r| load4(r.as_ptr().add(j))),
                rows.distorted.map(|r| load4(r.as_ptr().add(j))),
            )
        };
        let halves = |v: [int32x4_t; 3], hi: bool| {
            v.map(|x| {
                if hi {
                    vmovl_high_s32(x)
                } else {
                    vmovl_s32(vget_low_s32(x))
                }
            })
        };
        let (o_lo, o_hi, d_lo, d_hi) = (
            halves(o, false),
            halves(o, true),
            halves(d, false),
            halves(d, true),
        );
        let angle = vcombine_u32(
            vmovn_u64(within(cos_sq, [o_lo[0], o_lo[1]], [d_lo[0], d_lo[1]])),
            vmovn_u64(within(cos_sq, [o_hi[0], o_hi[1]], [d_hi[0], d_hi[1]])),
        );
        for t in 0..3 {
            let mut lanes = [0i32; 4];
            // SAFETY: `lanes` has room for four values.
            unsafe { vst1q_s32(lanes.as_mut_ptr(), o[t]) };
            // Every `o + 32768` lies in 0..=65535, inside the 65537-entry table.
            let r = lanes.map(|x| div[(x + 32768) as usize]);
            // SAFETY: `r` holds four values.
            let r = unsafe { vld1q_s32(r.as_ptr()) };
            let round = vdupq_n_s64(16384);
            let k = |r: int32x2_t, d: int32x2_t| {
                let q = vshrq_n_s64::<15>(vmlal_s32(round, r, d));
                let q = min64(max64(q, vdupq_n_s64(0)), vdupq_n_s64(32768));
                vmovn_s64(q)
            };
            let k = vcombine_s32(
                k(vget_low_s32(r), vget_low_s32(d[t])),
                k(vget_high_s32(r), vget_high_s32(d[t])),
            );
            let zero = vceqzq_s32(o[t]);
            let k = vbslq_s32(zero, vdupq_n_s32(32768), k);
            // k·o fits 31 bits; the result is truncated to 16 bits.
            let rst = vshrq_n_s32::<15>(vmlaq_s32(vdupq_n_s32(16384), k, o[t]));
            let rst = vmovl_s16(vmovn_s32(rst));
            let limited = limit(rst, k, o[t], d[t], egl);
            let rst = vbslq_s32(angle, limited, rst);
            let add = vmovn_s32(vsubq_s32(d[t], rst));
            // SAFETY: the output rows hold `n >= j + 4` values.
            unsafe {
                vst1_s16(restored[t].as_mut_ptr().add(j), vmovn_s32(rst));
                vst1_s16(additive[t].as_mut_ptr().add(j), add);
            }
        }
        j += 4;
    }
    j
}

/// The gain limit of four positions (see `decouple::limit_gain`), cast to `i16` with
/// saturation and widened back.
#[inline]
#[target_feature(enable = "neon")]
fn limit(rst: int32x4_t, k: int32x4_t, o: int32x4_t, d: int32x4_t, egl: float64x2_t) -> int32x4_t {
    let half = |rst: int32x2_t, k: int32x2_t, o: int32x2_t, d: int32x2_t| {
        let r = vcvtq_f64_s64(vmovl_s32(rst));
        let t = vcvtq_f64_s64(vmovl_s32(d));
        let x = vmulq_f64(r, egl);
        let min = vbslq_f64(vcltq_f64(x, t), x, t);
        let max = vbslq_f64(vcgtq_f64(x, t), x, t);
        let k_pos = vcgtzq_s64(vmovl_s32(k));
        let o64 = vmovl_s32(o);
        let up = vandq_u64(k_pos, vcgtzq_s64(o64));
        let down = vandq_u64(k_pos, vcltzq_s64(o64));
        let v = vbslq_f64(up, min, vbslq_f64(down, max, r));
        vqmovn_s64(vcvtq_s64_f64(v))
    };
    let v = vcombine_s32(
        half(
            vget_low_s32(rst),
            vget_low_s32(k),
            vget_low_s32(o),
            vget_low_s32(d),
        ),
        half(
            vget_high_s32(rst),
            vget_high_s32(k),
            vget_high_s32(o),
            vget_high_s32(d),
        ),
    );
    vmovl_s16(vqmovn_s32(v))
}

/// `max` of 64-bit signed lanes (NEON has no such instruction).
#[inline]
#[target_feature(enable = "neon")]
fn max64(a: int64x2_t, b: int64x2_t) -> int64x2_t {
    vbslq_s64(vcgtq_s64(a, b), a, b)
}

/// `min` of 64-bit signed lanes.
#[inline]
#[target_feature(enable = "neon")]
fn min64(a: int64x2_t, b: int64x2_t) -> int64x2_t {
    vbslq_s64(vcltq_s64(a, b), a, b)
}
