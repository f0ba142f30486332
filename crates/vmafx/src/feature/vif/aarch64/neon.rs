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
//! Horizontal pass: every sum in 32-bit lanes with same-width multiply-adds (`mla`), which
//! emulators such as qemu run inline where they call out for each widening one: the mean
//! sums wrap at 32 bits as the scalar ones do, the moments are filtered as their 16-bit
//! halves (each half's sum is exact in 32 bits) and joined into the rounded 16-bit shift.

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

/// Columns `0..16·k` of the 8-bit vertical pass; returns how many were done.
///
/// Sixteen columns a step in 32-bit lanes: a 16-byte load read as four 32-bit lanes holds
/// columns `4i + g` in byte `g` of lane `i`, so a shift and a mask give the columns of one
/// group `g` ([`byte_group`]); each group's five sums are filtered with same-width
/// multiply-adds ([`group_sums`]) and the four groups are stored interleaved (`st4`), which
/// is column order again.
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
    let coef: Vec<uint32x4_t> = taps.iter().map(|&c| vdupq_n_u32(c as u32)).collect();
    let mean_shift = vdupq_n_s32(-(shift.mean as i32));
    let moment_shift = vdupq_n_s32(-(shift.moment as i32));
    let low16 = vdupq_n_u32(0xFFFF);
    let body = |r: &mut super::super::planes::PaddedRow| r.body_mut().as_mut_ptr();
    let dst = [
        body(&mut s.mu1),
        body(&mut s.mu2),
        body(&mut s.ref_sq),
        body(&mut s.dis_sq),
        body(&mut s.ref_dis),
    ];
    let mut j = 0;
    while j + 16 <= width {
        // SAFETY: every row holds `width >= j + 16` samples (checked above).
        let groups = unsafe {
            [
                group_sums::<0>(&rows, &coef, j),
                group_sums::<1>(&rows, &coef, j),
                group_sums::<2>(&rows, &coef, j),
                group_sums::<3>(&rows, &coef, j),
            ]
        };
        for (i, &p) in dst.iter().enumerate() {
            let v = groups.map(|g| {
                if i < 2 {
                    // The mean, rounded and kept to 16 bits.
                    vandq_u32(vrshlq_u32(g[i], mean_shift), low16)
                } else {
                    vrshlq_u32(g[i], moment_shift)
                }
            });
            // SAFETY: each body holds at least `width >= j + 16` columns.
            unsafe { vst4q_u32(p.add(j), uint32x4x4_t(v[0], v[1], v[2], v[3])) };
        }
        j += 16;
    }
    j
}

/// Byte `G` of each 32-bit lane of `v`, as a 32-bit lane.
#[inline(always)]
fn byte_group<const G: usize>(v: uint8x16_t) -> uint32x4_t {
    // SAFETY: NEON is baseline on aarch64; these are register operations.
    unsafe {
        let v = vreinterpretq_u32_u8(v);
        let v = match G {
            0 => v,
            1 => vshrq_n_u32::<8>(v),
            2 => vshrq_n_u32::<16>(v),
            _ => vshrq_n_u32::<24>(v),
        };
        vandq_u32(v, vdupq_n_u32(0xFF))
    }
}

/// The window's five sums (`Σ c·a`, `Σ c·b`, `Σ c·a²`, `Σ c·b²`, `Σ c·a·b`) for the
/// columns `j + 4i + G` (`i` in 0..4), in 32-bit lanes: each below `65536·255² < 2^32`.
///
/// # Safety
/// Every row holds at least `j + 16` samples.
#[inline(always)]
unsafe fn group_sums<const G: usize>(
    rows: &[(&[u8], &[u8])],
    coef: &[uint32x4_t],
    j: usize,
) -> [uint32x4_t; 5] {
    // SAFETY: NEON is baseline on aarch64; each load reads samples j..j + 16, which the
    // caller guarantees.
    unsafe {
        let mut acc = [vdupq_n_u32(0); 5];
        for (&(r, d), &c) in rows.iter().zip(coef) {
            let mut a = byte_group::<G>(vld1q_u8(r.as_ptr().add(j)));
            let mut b = byte_group::<G>(vld1q_u8(d.as_ptr().add(j)));
            // Hides that the samples fit 8 bits: knowing it, the compiler turns the
            // 32-bit products below back into widening 16-bit ones, which take more
            // instructions here (and a helper call each under emulators). No instruction.
            std::arch::asm!("/* {0:v} {1:v} */", inout(vreg) a, inout(vreg) b,
                options(pure, nomem, nostack, preserves_flags));
            let (aa, bb, ab) = (vmulq_u32(a, a), vmulq_u32(b, b), vmulq_u32(a, b));
            for (sum, v) in acc.iter_mut().zip([a, b, aa, bb, ab]) {
                *sum = vmlaq_u32(*sum, c, v);
            }
        }
        acc
    }
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
    let done = unsafe {
        match scale {
            0 => horizontal_neon::<17>(s, width, scale, gain_limit, sums),
            1 => horizontal_neon::<9>(s, width, scale, gain_limit, sums),
            2 => horizontal_neon::<5>(s, width, scale, gain_limit, sums),
            _ => horizontal_neon::<3>(s, width, scale, gain_limit, sums),
        }
    };
    horizontal_columns(s, done, width, scale, gain_limit, sums);
}

/// The symmetric filter `coef` over the four positions `j..j + 4` of the row at `p`, in
/// wrapping 32-bit lanes: each pair of mirrored taps takes one product, and wrapping sums
/// give the same bits as the scalar sum in any grouping.
///
/// # Safety
/// `p` is valid for reads of `j + N + 3` values. (Without `target_feature`, so that it is
/// always inlined: NEON is part of the aarch64 baseline.)
#[inline(always)]
unsafe fn symmetric4<const N: usize>(
    coef: &[uint32x4_t; N],
    p: *const u32,
    j: usize,
) -> uint32x4_t {
    // SAFETY: NEON is baseline on aarch64; j + k + 4 and j + N - 1 - k + 4 are at most
    // j + N + 3, the caller's bound.
    unsafe {
        let mut acc = vdupq_n_u32(0);
        for (k, &c) in coef.iter().take(N / 2).enumerate() {
            let pair = vaddq_u32(vld1q_u32(p.add(j + k)), vld1q_u32(p.add(j + N - 1 - k)));
            acc = vmlaq_u32(acc, c, pair);
        }
        vmlaq_u32(acc, coef[N / 2], vld1q_u32(p.add(j + N / 2)))
    }
}

/// `(sum + 32768) >> 16` of the filter of a moment row from the filters of its high and
/// low 16-bit halves, in 32-bit lanes: the taps sum to 2^16, so each half's filter is below
/// `2^32 - 2^16` (exact), the full sum is `hi * 2^16 + lo`, and its rounded shift is
/// `hi + ((lo + 32768) >> 16)`, below 2^32.
///
/// # Safety
/// Both rows are valid for reads of `j + N + 3` values.
#[inline(always)]
unsafe fn moment4<const N: usize>(
    coef: &[uint32x4_t; N],
    (hi, lo): (*const u32, *const u32),
    j: usize,
) -> uint32x4_t {
    // SAFETY: the caller's bounds; NEON is baseline on aarch64.
    unsafe {
        let (h, l) = (symmetric4(coef, hi, j), symmetric4(coef, lo, j));
        vsraq_n_u32::<16>(h, vaddq_u32(l, vdupq_n_u32(32768)))
    }
}

/// Splits `src` into its high and low 16-bit halves.
fn split_halves(src: &[u32], hi: &mut [u32], lo: &mut [u32]) {
    for ((&x, h), l) in src.iter().zip(hi.iter_mut()).zip(lo.iter_mut()) {
        *h = x >> 16;
        *l = x & 0xFFFF;
    }
}

/// Columns `0..4·k` of the horizontal pass with the `N`-tap filter of `scale`; returns how
/// many were done. All sums run in 32-bit lanes (same-width multiply-adds): the means wrap
/// there as the scalar sums do, the moments are filtered as 16-bit halves ([`moment4`]).
/// Each pixel is then scored by the scalar code from its means and rounded moments.
#[target_feature(enable = "neon")]
fn horizontal_neon<const N: usize>(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) -> usize {
    let table = log2_table();
    let taps: &[u16; N] = TAPS[scale]
        .try_into()
        .expect("filter length matches the scale");
    let first = MAX_HALF - N / 2;
    let n4 = width / 4 * 4;
    // Output columns 0..n4 read columns first..first + n4 + N - 1 of the padded rows.
    let len = n4 + N - 1;
    let span = first..first + len;
    {
        let [xh, xl, yh, yl, zh, zl] = &mut s.halves;
        split_halves(
            &s.ref_sq.padded()[span.clone()],
            &mut xh[..len],
            &mut xl[..len],
        );
        split_halves(
            &s.dis_sq.padded()[span.clone()],
            &mut yh[..len],
            &mut yl[..len],
        );
        split_halves(
            &s.ref_dis.padded()[span.clone()],
            &mut zh[..len],
            &mut zl[..len],
        );
    }
    let (m1, m2) = (&s.mu1.padded()[span.clone()], &s.mu2.padded()[span]);
    let [xh, xl, yh, yl, zh, zl] = &s.halves;
    let (xh, xl, yh, yl, zh, zl) = (
        &xh[..len],
        &xl[..len],
        &yh[..len],
        &yl[..len],
        &zh[..len],
        &zl[..len],
    );
    let coef: [uint32x4_t; N] = std::array::from_fn(|k| vdupq_n_u32(taps[k] as u32));
    let mut j = 0;
    while j < n4 {
        let mut lanes = [[0u32; 4]; 5];
        // SAFETY: every row slice holds len = n4 + N - 1 >= j + N + 3 values; each array
        // of `lanes` has room for the four stored.
        unsafe {
            let a1 = symmetric4(&coef, m1.as_ptr(), j);
            let a2 = symmetric4(&coef, m2.as_ptr(), j);
            let xx = moment4(&coef, (xh.as_ptr(), xl.as_ptr()), j);
            let yy = moment4(&coef, (yh.as_ptr(), yl.as_ptr()), j);
            let xy = moment4(&coef, (zh.as_ptr(), zl.as_ptr()), j);
            for (dst, v) in lanes.iter_mut().zip([a1, a2, xx, yy, xy]) {
                vst1q_u32(dst.as_mut_ptr(), v);
            }
        }
        let [l1, l2, lx, ly, lz] = lanes;
        for lane in 0..4 {
            sums.add_moments(
                table,
                gain_limit,
                l1[lane],
                l2[lane],
                [lx[lane], ly[lane], lz[lane]],
            );
        }
        j += 4;
    }
    n4
}
