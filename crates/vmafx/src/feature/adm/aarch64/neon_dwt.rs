//! NEON levels of the ADM DWT: the vertical passes eight (level 0) or four (levels 1..3)
//! columns a step, the horizontal passes four outputs a step whose interior taps
//! (`2j-1 .. 2j+2`) are read with de-interleaving loads; the scalar twin does the
//! mirrored edges and the columns left over.
//!
//! Level 0 wraps at 32 bits as the scalar code does (`mul`/`mla` are modular), shifts
//! arithmetically and truncates to 16 bits (`xtn`) as `as i16`. Levels 1..3 take 64-bit
//! products of 32-bit values (`smull`/`smlal`), as the scalar `i64` sums, and truncate to
//! 32 bits as `as i32`.

use std::arch::aarch64::*;

use super::super::bands::Bands;
use super::super::dwt::{self, level0_edges, level0_vertical, level_edges, level_vertical};
use super::super::dwt::{Taps, HI, HORIZONTAL, LO, LO_SUM, VERTICAL};

/// A sample type whose eight consecutive values load as two `i32x4` halves.
pub(crate) trait Load8: Copy + Into<i32> {
    /// Eight samples from `p`, widened.
    ///
    /// # Safety
    /// `p` must be valid for reading eight samples, and NEON must be present.
    unsafe fn load8(p: *const Self) -> [int32x4_t; 2];
}

impl Load8 for u8 {
    #[inline(always)]
    unsafe fn load8(p: *const u8) -> [int32x4_t; 2] {
        // SAFETY: the caller promises eight readable bytes and NEON.
        unsafe {
            let x = vmovl_u8(vld1_u8(p));
            [
                vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(x))),
                vreinterpretq_s32_u32(vmovl_high_u16(x)),
            ]
        }
    }
}

impl Load8 for u16 {
    #[inline(always)]
    unsafe fn load8(p: *const u16) -> [int32x4_t; 2] {
        // SAFETY: the caller promises eight readable samples and NEON.
        unsafe {
            let x = vld1q_u16(p);
            [
                vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(x))),
                vreinterpretq_s32_u32(vmovl_high_u16(x)),
            ]
        }
    }
}

/// The four source rows of one output row, each `w` long (sliced, so an index the
/// reference would not reach panics here as it would there).
fn source_rows<'a, S>(src: &'a [S], stride: usize, rows: &[usize; 4], w: usize) -> [&'a [S]; 4] {
    rows.map(|r| &src[r * stride..r * stride + w])
}

/// Whether the taps are the standard ones of a `w`-wide input (what the vector
/// horizontal loops assume for their interior outputs).
fn standard_cols(t: &Taps) -> bool {
    t.cols.len() == t.w.div_ceil(2)
        && t.cols.iter().enumerate().all(|(j, c)| {
            let first = 2 * j as isize - 1;
            j == 0 || 2 * j + 2 >= t.w || c.iter().zip(0..).all(|(&x, k)| x as isize == first + k)
        })
}

/// DWT level 0 (see [`dwt::level0`]) with NEON.
pub(crate) fn level0<S: Load8>(
    src: &[S],
    stride: usize,
    t: &Taps,
    bpc: u32,
    tmp: &mut [i32],
    out: &mut Bands<i16>,
    out_stride: usize,
) {
    if !(1..=16).contains(&bpc) || !standard_cols(t) || tmp.len() < 2 * t.w {
        return dwt::level0(src, stride, t, bpc, tmp, out, out_stride);
    }
    let w = t.w;
    let (lo, hi) = tmp[..2 * w].split_at_mut(w);
    dwt::each_output_row(t, out, out_stride, |rows, _, bands| {
        let r = source_rows(src, stride, rows, w);
        // SAFETY: NEON was detected before this kernel was listed; every row holds `w`
        // samples, as `lo` and `hi` hold `w` values.
        let done = unsafe { vertical0(r, bpc, lo, hi) };
        level0_vertical(src, stride, rows, bpc, lo, hi, done);
        let [a, v, h, d] = bands;
        // SAFETY: as above; the band rows hold an output column each.
        let end = unsafe { horizontal0(lo, hi, [&mut *a, &mut *v, &mut *h, &mut *d]) };
        level0_edges(lo, hi, &t.cols, [a, v, h, d], end);
    });
}

/// The level-0 vertical pass over columns `0..8·k`; returns where the scalar loop resumes.
#[target_feature(enable = "neon")]
unsafe fn vertical0<S: Load8>(r: [&[S]; 4], bpc: u32, lo: &mut [i32], hi: &mut [i32]) -> usize {
    let w = lo.len().min(hi.len());
    let round = 1i32 << (bpc - 1);
    let bias = vdupq_n_s32(round.wrapping_sub(LO_SUM.wrapping_mul(round)));
    let round = vdupq_n_s32(round);
    let shift = vdupq_n_s32(-(bpc as i32));
    let mut j = 0;
    while j + 8 <= w && r.iter().all(|row| row.len() >= j + 8) {
        // SAFETY: every row holds `j + 8` samples (the loop condition).
        let s = r.map(|row| unsafe { S::load8(row.as_ptr().add(j)) });
        for half in 0..2 {
            let (mut l, mut g) = (bias, round);
            for k in 0..4 {
                l = vmlaq_n_s32(l, s[k][half], LO[k]);
                g = vmlaq_n_s32(g, s[k][half], HI[k]);
            }
            let narrow = |x: int32x4_t| vmovl_s16(vmovn_s32(vshlq_s32(x, shift)));
            // SAFETY: `lo` and `hi` hold `w >= j + 8` values.
            unsafe {
                vst1q_s32(lo.as_mut_ptr().add(j + 4 * half), narrow(l));
                vst1q_s32(hi.as_mut_ptr().add(j + 4 * half), narrow(g));
            }
        }
        j += 8;
    }
    j
}

/// `(Σ f[k]·x[k] + 2^15) >> 16` of four outputs, truncated to 16 bits; `x` are the four
/// taps' lanes.
#[inline]
#[target_feature(enable = "neon")]
fn filter0(x: [int32x4_t; 4], f: &[i32; 4]) -> int16x4_t {
    let mut acc = vdupq_n_s32(32768);
    for k in 0..4 {
        acc = vmlaq_n_s32(acc, x[k], f[k]);
    }
    vmovn_s32(vshrq_n_s32::<16>(acc))
}

/// The four taps of outputs `j..j+4` of `row` (interior: `2j-1 .. 2j+2` each).
///
/// # Safety
/// `row` must hold `2j + 9` values, `j >= 1`, and NEON must be present.
#[inline(always)]
unsafe fn taps4(row: &[i32], j: usize) -> [int32x4_t; 4] {
    // SAFETY: the caller promises `row[2j-1 .. 2j+9]`.
    unsafe {
        let a = vld2q_s32(row.as_ptr().add(2 * j - 1));
        let b = vld2q_s32(row.as_ptr().add(2 * j + 1));
        [a.0, a.1, b.0, b.1]
    }
}

/// The level-0 horizontal pass over the interior outputs `1..end`, four a step; returns
/// `end`.
#[target_feature(enable = "neon")]
unsafe fn horizontal0(lo: &[i32], hi: &[i32], bands: [&mut [i16]; 4]) -> usize {
    let n = bands.iter().map(|b| b.len()).min().unwrap_or(0);
    let w = lo.len().min(hi.len());
    let [a, v, h, d] = bands;
    let mut j = 1;
    while j + 4 <= n && 2 * j + 9 <= w {
        // SAFETY: both rows hold `2j + 9` values and `j >= 1` (the loop condition); the
        // bands hold `n >= j + 4` values.
        unsafe {
            let (l, g) = (taps4(lo, j), taps4(hi, j));
            vst1_s16(a.as_mut_ptr().add(j), filter0(l, &LO));
            vst1_s16(v.as_mut_ptr().add(j), filter0(l, &HI));
            vst1_s16(h.as_mut_ptr().add(j), filter0(g, &LO));
            vst1_s16(d.as_mut_ptr().add(j), filter0(g, &HI));
        }
        j += 4;
    }
    j
}

/// A band value type of levels 1..3 whose four consecutive values load as `i32x4`.
pub(crate) trait Load4: Copy + Into<i64> {
    /// Four values from `p`, widened to 32 bits.
    ///
    /// # Safety
    /// `p` must be valid for reading four values, and NEON must be present.
    unsafe fn load4(p: *const Self) -> int32x4_t;
}

impl Load4 for i16 {
    #[inline(always)]
    unsafe fn load4(p: *const i16) -> int32x4_t {
        // SAFETY: the caller promises four readable values and NEON.
        unsafe { vmovl_s16(vld1_s16(p)) }
    }
}

impl Load4 for i32 {
    #[inline(always)]
    unsafe fn load4(p: *const i32) -> int32x4_t {
        // SAFETY: the caller promises four readable values and NEON.
        unsafe { vld1q_s32(p) }
    }
}

/// DWT level `scale` (1..=3, see [`dwt::level`]) with NEON.
pub(crate) fn level<S: Load4>(
    src: &[S],
    stride: usize,
    t: &Taps,
    scale: usize,
    tmp: &mut [i64],
    out: &mut Bands<i32>,
    out_stride: usize,
) {
    if !(1..=3).contains(&scale) || !standard_cols(t) || tmp.len() < 2 * t.w {
        return dwt::level(src, stride, t, scale, tmp, out, out_stride);
    }
    let w = t.w;
    let (lo, hi) = tmp[..2 * w].split_at_mut(w);
    dwt::each_output_row(t, out, out_stride, |rows, _, bands| {
        let r = source_rows(src, stride, rows, w);
        // SAFETY: NEON was detected before this kernel was listed; every row holds `w`
        // values, as `lo` and `hi` do.
        let done = unsafe { vertical(r, scale, lo, hi) };
        level_vertical(src, stride, rows, scale, lo, hi, done);
        let [a, v, h, d] = bands;
        // SAFETY: as above; the band rows hold an output column each.
        let end = unsafe { horizontal(lo, hi, scale, [&mut *a, &mut *v, &mut *h, &mut *d]) };
        level_edges(lo, hi, &t.cols, scale, [a, v, h, d], end);
    });
}

/// `(Σ f[k]·x[k] + add) >> shift` of two 64-bit lanes from the 32-bit halves `x`,
/// truncated to 32 bits.
#[inline]
#[target_feature(enable = "neon")]
fn filter64(x: [int32x2_t; 4], f: &[i32; 4], add: int64x2_t, shift: int64x2_t) -> int32x2_t {
    let mut acc = add;
    for k in 0..4 {
        acc = vmlal_n_s32(acc, x[k], f[k]);
    }
    vmovn_s64(vshlq_s64(acc, shift))
}

/// The vertical pass of levels 1..3 over columns `0..4·k`; returns where the scalar loop
/// resumes.
#[target_feature(enable = "neon")]
unsafe fn vertical<S: Load4>(r: [&[S]; 4], scale: usize, lo: &mut [i64], hi: &mut [i64]) -> usize {
    let w = lo.len().min(hi.len());
    let (add, shift) = VERTICAL[scale - 1];
    let add = vdupq_n_s64(add);
    let shift = vdupq_n_s64(-(shift as i64));
    let mut j = 0;
    while j + 4 <= w && r.iter().all(|row| row.len() >= j + 4) {
        // SAFETY: every row holds `j + 4` values (the loop condition).
        let s = r.map(|row| unsafe { S::load4(row.as_ptr().add(j)) });
        let low = s.map(|x| vget_low_s32(x));
        let high = s.map(|x| vget_high_s32(x));
        for (dst, f) in [(&mut *lo, &LO), (&mut *hi, &HI)] {
            let a = vmovl_s32(filter64(low, f, add, shift));
            let b = vmovl_s32(filter64(high, f, add, shift));
            // SAFETY: `lo` and `hi` hold `w >= j + 4` values.
            unsafe {
                vst1q_s64(dst.as_mut_ptr().add(j), a);
                vst1q_s64(dst.as_mut_ptr().add(j + 2), b);
            }
        }
        j += 4;
    }
    j
}

/// The taps of outputs `j, j+1` of `row` (interior: `2j-1 .. 2j+2` each), as 32-bit
/// halves (the values fit 32 bits).
///
/// # Safety
/// `row` must hold `2j + 5` values, `j >= 1`, and NEON must be present.
#[inline(always)]
unsafe fn taps2(row: &[i64], j: usize) -> [int32x2_t; 4] {
    // SAFETY: the caller promises `row[2j-1 .. 2j+5]`.
    unsafe {
        let a = vld2q_s64(row.as_ptr().add(2 * j - 1));
        let b = vld2q_s64(row.as_ptr().add(2 * j + 1));
        [a.0, a.1, b.0, b.1].map(|x| vmovn_s64(x))
    }
}

/// The horizontal pass of levels 1..3 over the interior outputs `1..end`, two a step;
/// returns `end`.
#[target_feature(enable = "neon")]
unsafe fn horizontal(lo: &[i64], hi: &[i64], scale: usize, bands: [&mut [i32]; 4]) -> usize {
    let n = bands.iter().map(|b| b.len()).min().unwrap_or(0);
    let w = lo.len().min(hi.len());
    let (add, shift) = HORIZONTAL[scale - 1];
    let add = vdupq_n_s64(add);
    let shift = vdupq_n_s64(-(shift as i64));
    let [a, v, h, d] = bands;
    let mut j = 1;
    while j + 2 <= n && 2 * j + 5 <= w {
        // SAFETY: both rows hold `2j + 5` values and `j >= 1` (the loop condition); the
        // bands hold `n >= j + 2` values.
        unsafe {
            let (l, g) = (taps2(lo, j), taps2(hi, j));
            vst1_s32(a.as_mut_ptr().add(j), filter64(l, &LO, add, shift));
            vst1_s32(v.as_mut_ptr().add(j), filter64(l, &HI, add, shift));
            vst1_s32(h.as_mut_ptr().add(j), filter64(g, &LO, add, shift));
            vst1_s32(d.as_mut_ptr().add(j), filter64(g, &HI, add, shift));
        }
        j += 2;
    }
    j
}
