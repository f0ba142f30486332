//! vif's NEON down-sampling kernels: the vertical filter of the next scale (four or eight
//! columns a step) and the horizontal filter at every second column (four outputs a
//! step, the even columns read with de-interleaving loads).
//!
//! Every sum wraps at 32 bits as the scalar one does (`mla` is modular), and each product
//! `c·x` of a 16-bit tap and a sample of at most 16 bits fits 32 bits. The rounding term
//! is added with wrap-around before the shift, as in the scalar code (not a rounding
//! shift, which would not wrap), and the results are truncated to 16 bits.

use std::arch::aarch64::*;

use super::super::planes::Rows;
use super::super::stats::{StatScratch, VerticalShift};
use super::super::subsample::{
    down_horizontal_columns, down_vertical_columns, vertical_down_with, DownScratch,
};
use super::super::tables::{MAX_HALF, TAPS};
use super::neon::{vertical_u16, vertical_u8};

/// A sample type the down-sampler reads, widened to 32-bit lanes eight at a time.
pub(crate) trait DownSample: Copy + Into<u32> {
    /// `acc + c·x` over eight samples at `p`, in two halves.
    ///
    /// # Safety
    /// `p` must point at eight readable samples, and NEON must be present.
    unsafe fn mla8(acc: [uint32x4_t; 2], p: *const Self, c: u16) -> [uint32x4_t; 2];
}

impl DownSample for u8 {
    #[inline(always)]
    unsafe fn mla8(acc: [uint32x4_t; 2], p: *const u8, c: u16) -> [uint32x4_t; 2] {
        // SAFETY: the caller promises eight samples at `p` and NEON.
        unsafe {
            let x = vmovl_u8(vld1_u8(p));
            [
                vmlal_n_u16(acc[0], vget_low_u16(x), c),
                vmlal_high_n_u16(acc[1], x, c),
            ]
        }
    }
}

impl DownSample for u16 {
    #[inline(always)]
    unsafe fn mla8(acc: [uint32x4_t; 2], p: *const u16, c: u16) -> [uint32x4_t; 2] {
        // SAFETY: the caller promises eight samples at `p` and NEON.
        unsafe {
            let x = vld1q_u16(p);
            [
                vmlal_n_u16(acc[0], vget_low_u16(x), c),
                vmlal_high_n_u16(acc[1], x, c),
            ]
        }
    }
}

/// The NEON vertical down-sampling filter (see [`super::super::subsample::down_vertical`]).
pub(crate) fn down_vertical<T: DownSample>(
    src: &Rows<'_, T>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) {
    // SAFETY: this function is only in a table made after NEON was detected.
    let done = unsafe { down_vertical_neon(src, y, width, next_scale, shift, s) };
    down_vertical_columns(src, y, done, width, next_scale, shift, s);
}

/// Columns `0..8·k` of the vertical down-sampling filter; returns how many were done.
#[target_feature(enable = "neon")]
unsafe fn down_vertical_neon<T: DownSample>(
    src: &Rows<'_, T>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) -> usize {
    if !(1..=16).contains(&shift) {
        return 0;
    }
    let taps = TAPS[next_scale];
    let half = taps.len() / 2;
    let rows: Vec<&[T]> = (0..taps.len())
        .map(|k| src.row(y - half as isize + k as isize))
        .collect();
    if rows.iter().any(|r| r.len() < width) {
        return 0;
    }
    let round = vdupq_n_u32(1 << (shift - 1));
    let neg_shift = vdupq_n_s32(-(shift as i32));
    let body = s.convol.body_mut();
    let mut j = 0;
    while j + 8 <= width {
        let mut acc = [vdupq_n_u32(0); 2];
        for (r, &c) in rows.iter().zip(taps) {
            // SAFETY: every row holds `width >= j + 8` samples (checked above).
            acc = unsafe { T::mla8(acc, r.as_ptr().add(j), c) };
        }
        for (h, a) in acc.into_iter().enumerate() {
            let v = vshlq_u32(vaddq_u32(a, round), neg_shift);
            let v = vmovl_u16(vmovn_u32(v));
            // SAFETY: the body holds at least `width >= j + 8` columns.
            unsafe { vst1q_u32(body.as_mut_ptr().add(j + 4 * h), v) };
        }
        j += 8;
    }
    j
}

/// The NEON horizontal down-sampling filter (see
/// [`super::super::subsample::down_horizontal`]).
pub(crate) fn down_horizontal(conv: &[u32], next_scale: usize, out: &mut [u16]) {
    // SAFETY: this function is only in a table made after NEON was detected.
    let done = unsafe { down_horizontal_neon(conv, next_scale, out) };
    down_horizontal_columns(conv, next_scale, done, out);
}

/// Outputs `0..4·k` of the horizontal down-sampling filter; returns how many were done.
#[target_feature(enable = "neon")]
fn down_horizontal_neon(conv: &[u32], next_scale: usize, out: &mut [u16]) -> usize {
    let taps = TAPS[next_scale];
    let first = MAX_HALF - taps.len() / 2;
    let round = vdupq_n_u32(32768);
    let mut ox = 0;
    // Outputs ox..ox+4 read (de-interleaved) conv[at + k .. at + k + 8] for each tap k.
    while ox + 4 <= out.len() && first + 2 * ox + taps.len() - 1 + 8 <= conv.len() {
        let at = first + 2 * ox;
        let mut acc = vdupq_n_u32(0);
        for (k, &c) in taps.iter().enumerate() {
            // SAFETY: conv holds `at + k + 8` values (the loop condition).
            let pair = unsafe { vld2q_u32(conv.as_ptr().add(at + k)) };
            acc = vmlaq_n_u32(acc, pair.0, c as u32);
        }
        let v = vmovn_u32(vshrq_n_u32::<16>(vaddq_u32(acc, round)));
        // SAFETY: out holds `ox + 4` samples (the loop condition).
        unsafe { vst1_u16(out.as_mut_ptr().add(ox), v) };
        ox += 4;
    }
    ox
}

/// The NEON fused statistic and down-sampling pass over 8-bit pictures.
#[allow(clippy::too_many_arguments)]
pub(crate) fn vertical_down_u8(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    d: &mut DownScratch,
) {
    let k = (
        vertical_u8 as super::super::stats::VerticalFn<u8>,
        down_vertical::<u8> as super::super::subsample::DownVerticalFn<u8>,
    );
    vertical_down_with(k, reference, distorted, y, width, scale, shift, s, d);
}

/// The NEON fused statistic and down-sampling pass over 16-bit words.
#[allow(clippy::too_many_arguments)]
pub(crate) fn vertical_down_u16(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    d: &mut DownScratch,
) {
    let k = (
        vertical_u16 as super::super::stats::VerticalFn<u16>,
        down_vertical::<u16> as super::super::subsample::DownVerticalFn<u16>,
    );
    vertical_down_with(k, reference, distorted, y, width, scale, shift, s, d);
}
