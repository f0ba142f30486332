//! motion's NEON kernels, four columns a step.
//!
//! The vertical pass sums each tap pair first (`x0+x4`, `x1+x3`, as the taps are
//! symmetric) and multiplies with widening multiply-adds: 8-bit differences and their
//! pair sums fit 16 bits and the products 32, exactly as the scalar `i32` sum; deeper
//! samples widen to 64-bit products, as the scalar `i64` sum. The horizontal pass reads any
//! `i32` and so multiplies every tap into 64 bits. Rounding right shifts (`srshl`,
//! `srshr`) add the half before shifting without overflow, which is the scalar
//! `(acc + round) >> shift`; the `i64 -> i32` narrowing truncates as `as i32` does, and
//! the absolute values add with 32-bit wrap-around as the scalar sum does (in any order,
//! since addition modulo 2^32 is associative).

use std::arch::aarch64::*;

use super::super::kernel::{edges_abs_sum, MotionSample, FILTER};
use super::super::kernels::Kernels;
use crate::cpu::CpuLevel;

/// The NEON kernels. The dispatch hands them out only when the processor has NEON.
pub(in crate::feature::motion) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Neon,
    vertical_u8,
    vertical_u16,
    abs_sum,
    words: None,
};

/// Whether every row holds at least `n` samples (else the scalar twin is used, which
/// reports the mistake the way the reference does).
fn rows_hold<T>(rows: &[&[T]; 5], n: usize) -> bool {
    rows.iter().all(|r| r.len() >= n)
}

/// The NEON vertical pass over 8-bit samples.
pub(crate) fn vertical_u8(prev: [&[u8]; 5], cur: [&[u8]; 5], shift: u32, out: &mut [i32]) -> bool {
    let n = out.len();
    if !(1..=16).contains(&shift) || !rows_hold(&prev, n) || !rows_hold(&cur, n) {
        return <u8 as MotionSample>::vertical(prev, cur, shift, out);
    }
    // SAFETY: this function is only in a table made after NEON was detected, and every
    // row was just checked to hold the `n` samples the kernel reads.
    let (done, any) = unsafe { vertical_u8_neon(&prev, &cur, shift, out) };
    let (p, c) = (prev.map(|s| &s[done..]), cur.map(|s| &s[done..]));
    <u8 as MotionSample>::vertical(p, c, shift, &mut out[done..]) | any
}

/// Columns `0..8·k` of the 8-bit vertical pass; returns how many were done and whether
/// any output was nonzero.
#[target_feature(enable = "neon")]
unsafe fn vertical_u8_neon(
    prev: &[&[u8]; 5],
    cur: &[&[u8]; 5],
    shift: u32,
    out: &mut [i32],
) -> (usize, bool) {
    let n = out.len();
    let neg_shift = vdupq_n_s32(-(shift as i32));
    let mut any = vdupq_n_s32(0);
    let mut j = 0;
    while j + 8 <= n {
        let mut d = [vdupq_n_s16(0); 5];
        for (k, v) in d.iter_mut().enumerate() {
            // SAFETY: rows hold at least n >= j + 8 samples (checked by the caller).
            let (p, c) = unsafe {
                (
                    vld1_u8(prev[k].as_ptr().add(j)),
                    vld1_u8(cur[k].as_ptr().add(j)),
                )
            };
            // The wrapped 16-bit difference is the signed one (within ±255).
            *v = vreinterpretq_s16_u16(vsubl_u8(p, c));
        }
        let outer = vaddq_s16(d[0], d[4]);
        let inner = vaddq_s16(d[1], d[3]);
        let halves = [
            (vget_low_s16(outer), vget_low_s16(inner), vget_low_s16(d[2])),
            (
                vget_high_s16(outer),
                vget_high_s16(inner),
                vget_high_s16(d[2]),
            ),
        ];
        for (h, (o, i, c)) in halves.into_iter().enumerate() {
            let acc = vmull_n_s16(o, FILTER[0] as i16);
            let acc = vmlal_n_s16(acc, i, FILTER[1] as i16);
            let acc = vmlal_n_s16(acc, c, FILTER[2] as i16);
            let v = vrshlq_s32(acc, neg_shift);
            #[cfg(test)]
            let v = if crate::cpu::dispatch::planted() {
                vaddq_s32(v, vsetq_lane_s32::<3>(1, vdupq_n_s32(0)))
            } else {
                v
            };
            any = vorrq_s32(any, v);
            // SAFETY: out holds n >= j + 8 values.
            unsafe { vst1q_s32(out.as_mut_ptr().add(j + 4 * h), v) };
        }
        j += 8;
    }
    (j, vmaxvq_u32(vreinterpretq_u32_s32(any)) != 0)
}

/// The NEON vertical pass over 9..16-bit samples.
pub(crate) fn vertical_u16(
    prev: [&[u16]; 5],
    cur: [&[u16]; 5],
    shift: u32,
    out: &mut [i32],
) -> bool {
    let n = out.len();
    if !(1..=16).contains(&shift) || !rows_hold(&prev, n) || !rows_hold(&cur, n) {
        return <u16 as MotionSample>::vertical(prev, cur, shift, out);
    }
    // SAFETY: as in `vertical_u8`: NEON was detected, and the rows hold `n` samples.
    let (done, any) = unsafe { vertical_u16_neon(&prev, &cur, shift, out) };
    let (p, c) = (prev.map(|s| &s[done..]), cur.map(|s| &s[done..]));
    <u16 as MotionSample>::vertical(p, c, shift, &mut out[done..]) | any
}

/// Columns `0..4·k` of the 16-bit vertical pass; returns how many were done and whether
/// any output was nonzero.
#[target_feature(enable = "neon")]
unsafe fn vertical_u16_neon(
    prev: &[&[u16]; 5],
    cur: &[&[u16]; 5],
    shift: u32,
    out: &mut [i32],
) -> (usize, bool) {
    let n = out.len();
    let neg_shift = vdupq_n_s64(-(shift as i64));
    let mut any = vdupq_n_s32(0);
    let mut j = 0;
    while j + 4 <= n {
        let mut d = [vdupq_n_s32(0); 5];
        for (k, v) in d.iter_mut().enumerate() {
            // SAFETY: rows hold at least n >= j + 4 samples (checked by the caller).
            let (p, c) = unsafe {
                (
                    vld1_u16(prev[k].as_ptr().add(j)),
                    vld1_u16(cur[k].as_ptr().add(j)),
                )
            };
            // The wrapped 32-bit difference is the signed one (within ±65535).
            *v = vreinterpretq_s32_u32(vsubl_u16(p, c));
        }
        // Pair sums fit 18 bits; their products need 64.
        let outer = vaddq_s32(d[0], d[4]);
        let inner = vaddq_s32(d[1], d[3]);
        let lo = vmull_n_s32(vget_low_s32(outer), FILTER[0]);
        let lo = vmlal_n_s32(lo, vget_low_s32(inner), FILTER[1]);
        let lo = vmlal_n_s32(lo, vget_low_s32(d[2]), FILTER[2]);
        let hi = vmull_high_n_s32(outer, FILTER[0]);
        let hi = vmlal_high_n_s32(hi, inner, FILTER[1]);
        let hi = vmlal_high_n_s32(hi, d[2], FILTER[2]);
        let v = vcombine_s32(
            vmovn_s64(vrshlq_s64(lo, neg_shift)),
            vmovn_s64(vrshlq_s64(hi, neg_shift)),
        );
        any = vorrq_s32(any, v);
        // SAFETY: out holds n >= j + 4 values.
        unsafe { vst1q_s32(out.as_mut_ptr().add(j), v) };
        j += 4;
    }
    (j, vmaxvq_u32(vreinterpretq_u32_s32(any)) != 0)
}

/// The NEON horizontal pass and absolute sum of one row buffer.
pub(crate) fn abs_sum(row: &[i32]) -> u32 {
    let w = row.len();
    if w < FILTER.len() {
        return super::super::kernel::horizontal_abs_sum(row);
    }
    // SAFETY: NEON was detected before this kernel was listed; the row holds w >= 5.
    let (sum, done) = unsafe { windows_abs_sum_neon(row) };
    let mut sum = sum.wrapping_add(edges_abs_sum(row));
    for win in row[done..].windows(FILTER.len()) {
        sum = sum.wrapping_add(super::super::kernel::window_abs(win));
    }
    sum
}

/// The wrapping sum of `|window output|` over windows `0..4·k` (window `s` reads
/// `row[s..s+5]`), and where the remaining windows start.
#[target_feature(enable = "neon")]
unsafe fn windows_abs_sum_neon(row: &[i32]) -> (u32, usize) {
    let w = row.len();
    let mut acc = vdupq_n_u32(0);
    let mut s = 0;
    // Windows s..s+4 read row[s..s+8].
    while s + 8 <= w {
        let mut lo = vdupq_n_s64(0);
        let mut hi = vdupq_n_s64(0);
        for (k, &f) in FILTER.iter().enumerate() {
            // SAFETY: s + k + 4 <= s + 8 <= w.
            let x = unsafe { vld1q_s32(row.as_ptr().add(s + k)) };
            lo = vmlal_n_s32(lo, vget_low_s32(x), f);
            hi = vmlal_high_n_s32(hi, x, f);
        }
        let v = vcombine_s32(
            vmovn_s64(vrshrq_n_s64::<16>(lo)),
            vmovn_s64(vrshrq_n_s64::<16>(hi)),
        );
        // |i32::MIN| wraps to itself, whose bits are 2^31 as `unsigned_abs` gives.
        acc = vaddq_u32(acc, vreinterpretq_u32_s32(vabsq_s32(v)));
        s += 4;
    }
    (vaddvq_u32(acc), s)
}
