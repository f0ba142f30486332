//! motion's 16-bit row pipeline: the same blurred SAD as the `i32` row passes of
//! [`super::kernel`], for tables that have a faster way through 16-bit lanes.
//!
//! Each input row's difference `prev - cur` is made once (not once per output row that
//! reads it) and kept as `i16`; each output row's vertical pass reads five such rows and
//! writes `i16` values; the horizontal pass reads those. The ranges that make it exact:
//! with samples below 2^14 a difference and the sum of two fit 16 bits and the vertical
//! tap sum 32; a vertical output `v` is written as `i16` (saturated), and the pass reports
//! the largest `|v|` (saturated at 32767), so a row whose values do not all fit 16 bits is
//! seen and taken by the `i32` row passes; the horizontal tap sum of any `i16` row fits 32
//! bits (`65536 · 32768 = 2^31` at most, with the rounding half still in range).
//! These are the scalar twins; SIMD tables list their own in [`Words`].

// Only the x86-64 tables have a 16-bit pipeline (and fall back to these twins); elsewhere
// the twins serve the checker's tests alone.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use super::kernel::{horizontal_abs_sum, DiffFn, FILTER};

/// The vertical pass over five rows of differences (each below 2^14 in magnitude) with
/// `shift` in `1..=15`: writes `(Σ f·d + 2^(shift-1)) >> shift` saturated to `i16`, and
/// returns the largest `|value|` saturated at 32767 (0: the row adds nothing; 32767: a
/// value may not fit, the row must take the `i32` passes).
pub(super) type VerticalWordsFn = fn([&[i16]; 5], u32, &mut [i16]) -> u16;

/// The largest `|v|` a row may hold for its `i16` form to be exact.
pub(super) const WORD_LIMIT: u16 = 32766;

/// The 16-bit pipeline's kernels of one table.
#[derive(Debug, Clone, Copy)]
pub(super) struct Words {
    /// Differences of 8-bit rows.
    pub diff_u8: DiffFn<u8>,
    /// Differences of 9..16-bit rows.
    pub diff_u16: DiffFn<u16>,
    /// The vertical pass over difference rows.
    pub vertical: VerticalWordsFn,
    /// The horizontal pass and absolute sum (wrapping at 32 bits) of an `i16` row.
    pub abs_sum: fn(&[i16]) -> u32,
}

impl Words {
    /// The scalar twins, the reference the checker holds SIMD entries to.
    #[cfg(test)]
    pub(super) const SCALAR: Words = Words {
        diff_u8,
        diff_u16,
        vertical,
        abs_sum,
    };
}

/// Scalar differences of 8-bit rows (always in range).
pub(super) fn diff_u8(prev: &[u8], cur: &[u8], out: &mut [i16]) -> bool {
    for ((o, &p), &c) in out.iter_mut().zip(prev).zip(cur) {
        *o = p as i16 - c as i16;
    }
    true
}

/// Scalar differences of 9..16-bit rows, wrapping to `i16`.
pub(super) fn diff_u16(prev: &[u16], cur: &[u16], out: &mut [i16]) -> bool {
    let mut seen = 0u16;
    for ((o, &p), &c) in out.iter_mut().zip(prev).zip(cur) {
        seen |= p | c;
        *o = p.wrapping_sub(c) as i16;
    }
    seen < 1 << 14
}

/// Scalar vertical pass over difference rows.
pub(super) fn vertical(d: [&[i16]; 5], shift: u32, out: &mut [i16]) -> u16 {
    let round = 1i64 << (shift - 1);
    let mut top = 0u16;
    for (j, o) in out.iter_mut().enumerate() {
        let acc: i64 = (0..5).map(|k| FILTER[k] as i64 * d[k][j] as i64).sum();
        let v = (acc + round) >> shift;
        *o = v.clamp(i16::MIN as i64, i16::MAX as i64) as i16;
        top = top.max(v.unsigned_abs().min(i16::MAX as u64) as u16);
    }
    top
}

/// Scalar horizontal pass of an `i16` row (the `i32` pass's arithmetic).
pub(super) fn abs_sum(row: &[i16]) -> u32 {
    horizontal_abs_sum(row)
}
