//! vif's NEON statistic kernels, four columns a step: the vertical sums and the horizontal
//! filter are vectors; each pixel is then scored by the scalar code (its log2 look-ups and
//! double-precision gain), so only the integer sums need to match, and they are exact.
//!
//! Vertical pass over 8-bit samples: the taps sum to 65536, so every sum of the window,
//! `Σ c·a` and the moments `Σ c·a·b` with `a, b <= 255`, is below `65536·255² < 2^32`:
//! 32-bit lanes hold them exactly, with `a·b` (at most 255², 16 bits) made first and
//! multiplied by the tap with a widening multiply-add. Deeper words widen the moments to
//! 64 bits (`c·a` fits 32 bits, times `b` 48). The scalar code's mean wraps at 32 bits as
//! these lanes do; the rounding shifts (`urshl`) add the half without overflow, as the
//! scalar `u64` arithmetic does, and the narrowing moves truncate as `as u16` / `as u32`.
//!
//! Horizontal pass: the mean sums wrap at 32 bits (`mla`), the moment sums are 64-bit
//! widening multiply-adds of 32-bit moments by 16-bit taps, as the scalar `u64` sums.

use std::arch::aarch64::*;

use super::super::planes::Rows;
use super::super::stats::{
    horizontal_columns, mirror_scratch, vertical_columns, StatScratch, Sums, VerticalShift,
};
use super::super::tables::{log2_table, MAX_HALF, TAPS};

/// The NEON vertical pass over 8-bit pictures (see [`super::super::stats::vertical`]).
pub(crate) fn vertical_u8(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) {
    // SAFETY: this function is only in a table made after NEON was detected.
    let done = unsafe { vertical_u8_neon(reference, distorted, y, width, scale, shift, s) };
    vertical_columns(reference, distorted, y, done, width, scale, shift, s);
    mirror_scratch(s, width, scale);
}

/// Columns `0..8·k` of the 8-bit vertical pass; returns how many were done.
#[target_feature(enable = "neon")]
#[allow(clippy::too_many_arguments)]
unsafe fn vertical_u8_neon(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) -> usize {
    let taps = TAPS[scale];
    let half = taps.len() / 2;
    let rows: Vec<(&[u8], &[u8])> = (0..taps.len())
        .map(|k| {
            let row = y as isize - half as isize + k as isize;
            (reference.row(row), distorted.row(row))
        })
        .collect();
    if rows.iter().any(|(r, d)| r.len() < width || d.len() < width) {
        return 0;
    }
    let mean_shift = vdupq_n_s32(-(shift.mean as i32));
    let moment_shift = vdupq_n_s32(-(shift.moment as i32));
    let mut j = 0;
    while j + 8 <= width {
        let mut acc = [[vdupq_n_u32(0); 2]; 5];
        for (&(r, d), &c) in rows.iter().zip(taps) {
            // SAFETY: both rows hold `width >= j + 8` samples (checked above).
            let (a, b) = unsafe { (vld1_u8(r.as_ptr().add(j)), vld1_u8(d.as_ptr().add(j))) };
            let (aa, bb, ab) = (vmull_u8(a, a), vmull_u8(b, b), vmull_u8(a, b));
            let (a, b) = (vmovl_u8(a), vmovl_u8(b));
            for (sum, v) in acc.iter_mut().zip([a, b, aa, bb, ab]) {
                sum[0] = vmlal_n_u16(sum[0], vget_low_u16(v), c);
                sum[1] = vmlal_high_n_u16(sum[1], v, c);
            }
        }
        let body = |r: &mut super::super::planes::PaddedRow| r.body_mut().as_mut_ptr();
        let dst = [
            body(&mut s.mu1),
            body(&mut s.mu2),
            body(&mut s.ref_sq),
            body(&mut s.dis_sq),
            body(&mut s.ref_dis),
        ];
        for (i, (sum, &p)) in acc.iter().zip(&dst).enumerate() {
            for (h, &v) in sum.iter().enumerate() {
                let v = if i < 2 {
                    // The mean, rounded and kept to 16 bits.
                    vmovl_u16(vmovn_u32(vrshlq_u32(v, mean_shift)))
                } else {
                    vrshlq_u32(v, moment_shift)
                };
                // SAFETY: each body holds at least `width >= j + 8` columns.
                unsafe { vst1q_u32(p.add(j + 4 * h), v) };
            }
        }
        j += 8;
    }
    j
}

/// The NEON vertical pass over 16-bit words (see [`super::super::stats::vertical`]).
pub(crate) fn vertical_u16(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) {
    // SAFETY: this function is only in a table made after NEON was detected.
    let done = unsafe { vertical_u16_neon(reference, distorted, y, width, scale, shift, s) };
    vertical_columns(reference, distorted, y, done, width, scale, shift, s);
    mirror_scratch(s, width, scale);
}

/// Columns `0..4·k` of the 16-bit vertical pass; returns how many were done.
#[target_feature(enable = "neon")]
#[allow(clippy::too_many_arguments)]
unsafe fn vertical_u16_neon(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) -> usize {
    let taps = TAPS[scale];
    let half = taps.len() / 2;
    let rows: Vec<(&[u16], &[u16])> = (0..taps.len())
        .map(|k| {
            let row = y as isize - half as isize + k as isize;
            (reference.row(row), distorted.row(row))
        })
        .collect();
    if rows.iter().any(|(r, d)| r.len() < width || d.len() < width) {
        return 0;
    }
    let mean_shift = vdupq_n_s32(-(shift.mean as i32));
    let moment_shift = vdupq_n_s64(-(shift.moment as i64));
    let mut j = 0;
    while j + 4 <= width {
        let (mut m1, mut m2) = (vdupq_n_u32(0), vdupq_n_u32(0));
        let mut mom = [[vdupq_n_u64(0); 2]; 3];
        for (&(r, d), &c) in rows.iter().zip(taps) {
            // SAFETY: both rows hold `width >= j + 4` samples (checked above).
            let (a, b) = unsafe { (vld1_u16(r.as_ptr().add(j)), vld1_u16(d.as_ptr().add(j))) };
            // c·a and c·b fit 32 bits; the mean sums wrap there as the scalar ones do.
            let (ca, cb) = (vmull_n_u16(a, c), vmull_n_u16(b, c));
            m1 = vaddq_u32(m1, ca);
            m2 = vaddq_u32(m2, cb);
            let (a, b) = (vmovl_u16(a), vmovl_u16(b));
            for (sum, (x, z)) in mom.iter_mut().zip([(ca, a), (cb, b), (ca, b)]) {
                sum[0] = vmlal_u32(sum[0], vget_low_u32(x), vget_low_u32(z));
                sum[1] = vmlal_high_u32(sum[1], x, z);
            }
        }
        let mean = |v: uint32x4_t| vmovl_u16(vmovn_u32(vrshlq_u32(v, mean_shift)));
        let moment = |v: [uint64x2_t; 2]| {
            vcombine_u32(
                vmovn_u64(vrshlq_u64(v[0], moment_shift)),
                vmovn_u64(vrshlq_u64(v[1], moment_shift)),
            )
        };
        // SAFETY: each body holds at least `width >= j + 4` columns.
        unsafe {
            vst1q_u32(s.mu1.body_mut().as_mut_ptr().add(j), mean(m1));
            vst1q_u32(s.mu2.body_mut().as_mut_ptr().add(j), mean(m2));
            vst1q_u32(s.ref_sq.body_mut().as_mut_ptr().add(j), moment(mom[0]));
            vst1q_u32(s.dis_sq.body_mut().as_mut_ptr().add(j), moment(mom[1]));
            vst1q_u32(s.ref_dis.body_mut().as_mut_ptr().add(j), moment(mom[2]));
        }
        j += 4;
    }
    j
}

/// The NEON horizontal pass (see [`super::super::stats::horizontal`]).
pub(crate) fn horizontal(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) {
    // SAFETY: this function is only in a table made after NEON was detected.
    let done = unsafe { horizontal_neon(s, width, scale, gain_limit, sums) };
    horizontal_columns(s, done, width, scale, gain_limit, sums);
}

/// Columns `0..4·k` of the horizontal pass; returns how many were done.
#[target_feature(enable = "neon")]
fn horizontal_neon(
    s: &StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) -> usize {
    let table = log2_table();
    let taps = TAPS[scale];
    let first = MAX_HALF - taps.len() / 2;
    let (m1, m2) = (s.mu1.padded(), s.mu2.padded());
    let (xx, yy, xy) = (s.ref_sq.padded(), s.dis_sq.padded(), s.ref_dis.padded());
    // The last window of column `j + 3` ends at `first + j + 3 + taps.len()`.
    let end = [m1, m2, xx, yy, xy]
        .iter()
        .map(|r| r.len())
        .min()
        .unwrap_or(0);
    let mut j = 0;
    while j + 4 <= width && first + j + 3 + taps.len() <= end {
        let (mut a1, mut a2) = (vdupq_n_u32(0), vdupq_n_u32(0));
        let mut mom = [[vdupq_n_u64(0); 2]; 3];
        for (k, &c) in taps.iter().enumerate() {
            let i = first + j + k;
            // SAFETY: every row holds `end >= i + 4` values (the loop condition).
            let (v1, v2, vx, vy, vz) = unsafe {
                (
                    vld1q_u32(m1.as_ptr().add(i)),
                    vld1q_u32(m2.as_ptr().add(i)),
                    vld1q_u32(xx.as_ptr().add(i)),
                    vld1q_u32(yy.as_ptr().add(i)),
                    vld1q_u32(xy.as_ptr().add(i)),
                )
            };
            let c32 = c as u32;
            a1 = vmlaq_n_u32(a1, v1, c32);
            a2 = vmlaq_n_u32(a2, v2, c32);
            for (sum, v) in mom.iter_mut().zip([vx, vy, vz]) {
                sum[0] = vmlal_n_u32(sum[0], vget_low_u32(v), c32);
                sum[1] = vmlal_high_n_u32(sum[1], v, c32);
            }
        }
        let (mut l1, mut l2) = ([0u32; 4], [0u32; 4]);
        let mut l = [[0u64; 4]; 3];
        // SAFETY: every array has room for the lanes stored.
        unsafe {
            vst1q_u32(l1.as_mut_ptr(), a1);
            vst1q_u32(l2.as_mut_ptr(), a2);
            for (dst, sum) in l.iter_mut().zip(&mom) {
                vst1q_u64(dst.as_mut_ptr(), sum[0]);
                vst1q_u64(dst.as_mut_ptr().add(2), sum[1]);
            }
        }
        for lane in 0..4 {
            sums.add_pixel(
                table, gain_limit, l1[lane], l2[lane], l[0][lane], l[1][lane], l[2][lane],
            );
        }
        j += 4;
    }
    j
}
