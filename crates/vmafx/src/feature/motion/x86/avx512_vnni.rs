//! AVX-512 motion kernels by 16-bit multiply-adds (`vpdpwssd`, AVX-512 VNNI): sixteen
//! columns (or windows) a step, thirty-two for vertical passes whose differences fit a
//! word (8-bit samples, or deeper ones below 2^14), the last partial step masked. The
//! horizontal pass is `super::rows32_by`'s, with this file's filter.
//!
//! The taps fit signed 16 bits, so the symmetric pairs of a 32-bit lane's five inputs are
//! summed first and the two sums put in the lane's two words: one multiply-add of that lane
//! with the taps `(f0, f1)` gives `f0·(x0+x4) + f1·(x1+x3)`, and a second one of the centre
//! value (in the low word) with the taps `(f2, 0)` adds `f2·x2`. Where the scalar code sums
//! in 64 bits, the paired sums (at most 18 bits signed) are split into `high·256 + low`
//! before they are put into words: every high part and every low part fits a word, both
//! partial sums fit 32 bits, and for a shift `s >= 8`,
//! `(256·A + B + round) >> s == (A + ((B + round) >> 8)) >> (s - 8)` exactly.

use std::arch::x86_64::*;

use super::super::kernel::FILTER;
use super::super::kernels::Kernels;
use super::lanes::Avx512;
use super::rows32_by::{abs_sum_with, vertical_with, windows_abs_sum};
use crate::cpu::vnni::dpwssd;
use crate::cpu::CpuLevel;

/// The AVX-512 kernels by 16-bit multiply-adds. The dispatch hands them out only when the
/// processor has AVX-512 and its Ice Lake extensions (VNNI).
pub(in crate::feature::motion) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx512Vnni,
    vertical_u8,
    vertical_u16,
    abs_sum,
    words: Some(super::avx512::words::WORDS),
};

/// The lanes `0..n` of sixteen (`n` at most 16).
fn lanes(n: usize) -> __mmask16 {
    (((1u32 << n) - 1) & 0xffff) as __mmask16
}

/// Sixteen `u16` at `p` (only the lanes in `m` unless all are), as `i32` lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn load_u16(p: *const u16, m: __mmask16) -> __m512i {
    // SAFETY: the caller guarantees the lanes in `m` are readable; a full mask takes the
    // plain load, which the widening can fold.
    _mm512_cvtepu16_epi32(unsafe {
        if m == 0xffff {
            _mm256_loadu_si256(p as *const __m256i)
        } else {
            _mm256_maskz_loadu_epi16(m, p as *const i16)
        }
    })
}

/// Stores the lanes of `v` in `m` at `p`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn store_i32(p: *mut i32, m: __mmask16, v: __m512i) {
    // SAFETY: the caller guarantees the lanes in `m` are writable.
    unsafe {
        if m == 0xffff {
            _mm512_storeu_si512(p as *mut _, v)
        } else {
            _mm512_mask_storeu_epi32(p, m, v)
        }
    }
}

/// The word mask of the high word of every 32-bit lane.
const HIGH_WORDS: __mmask32 = 0xaaaa_aaaa;

/// The outer tap pair `(f0, f1)` in the (low, high) words of every lane, and the centre
/// tap `(f2, 0)`.
#[inline]
#[target_feature(enable = "avx512f")]
fn word_taps() -> (__m512i, __m512i) {
    (
        _mm512_set1_epi32((FILTER[1] << 16) | FILTER[0]),
        _mm512_set1_epi32(FILTER[2]),
    )
}

/// A lane of two words: the low 16 bits of `lo`'s lane and of `hi`'s lane.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn words(lo: __m512i, hi: __m512i) -> __m512i {
    _mm512_mask_blend_epi16(HIGH_WORDS, lo, _mm512_slli_epi32::<16>(hi))
}

/// `(f0·a + f1·b + f2·c + round) >> shift` for `a`, `b` of up to 18 bits signed, `c` of up
/// to 17 and `shift >= 8` (`rest` is `shift - 8`), by the high/low split.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
fn split_tap_sum(a: __m512i, b: __m512i, c: __m512i, round: __m512i, rest: __m128i) -> __m512i {
    let (outer, centre) = word_taps();
    // High words: bits 8..24 of `a` and of `b` are `a >> 8` and `b >> 8`, which fit.
    let high_pair = _mm512_mask_blend_epi16(
        HIGH_WORDS,
        _mm512_srai_epi32::<8>(a),
        _mm512_slli_epi32::<8>(b),
    );
    let low_pair = _mm512_and_si512(words(a, b), _mm512_set1_epi32(0x00ff_00ff));
    let high = dpwssd(
        dpwssd(_mm512_setzero_si512(), high_pair, outer),
        _mm512_srai_epi32::<8>(c),
        centre,
    );
    let low = dpwssd(
        dpwssd(round, low_pair, outer),
        _mm512_and_si512(c, _mm512_set1_epi32(255)),
        centre,
    );
    _mm512_sra_epi32(_mm512_add_epi32(high, _mm512_srai_epi32::<8>(low)), rest)
}

/// The VNNI vertical pass over 8-bit samples.
pub(crate) fn vertical_u8(prev: [&[u8]; 5], cur: [&[u8]; 5], shift: u32, out: &mut [i32]) -> bool {
    vertical_with((prev, cur), shift, out, (0, 1..=16), |p, c, s, o| {
        // SAFETY: this function is only in a table made after AVX-512 (F, BW, VL) and VNNI
        // were detected, and every row was checked to hold the samples it reads.
        unsafe { vertical_u8_vnni(p, c, s, o) }
    })
}

/// Thirty-two bytes at `p` (only the lanes in `m` unless all are), as `i16` lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn load_u8_words(p: *const u8, m: __mmask32) -> __m512i {
    // SAFETY: the caller guarantees the lanes in `m` are readable; a full mask takes the
    // plain load, which the widening can fold.
    _mm512_cvtepu8_epi16(unsafe {
        if m == u32::MAX {
            _mm256_loadu_si256(p as *const __m256i)
        } else {
            _mm256_maskz_loadu_epi8(m, p as *const i8)
        }
    })
}

/// The mask of the first `min(left, 32)` of thirty-two lanes.
fn lanes32(left: usize) -> __mmask32 {
    if left >= 32 {
        u32::MAX
    } else {
        (1u32 << left) - 1
    }
}

/// Filters thirty-two columns of differences `d` (one row per entry, in 16-bit lanes, with
/// pair sums that fit a word), stores `(sum + round) >> count` for the columns in `m` at
/// `out`, and ORs the results into `any`.
///
/// # Safety
/// The lanes of `m` must be writable at `out`; the lanes outside it must hold zero
/// differences (their outputs then leave `any` alone).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vnni")]
unsafe fn filter_words(
    d: &[__m512i; 5],
    round: __m512i,
    count: __m128i,
    out: *mut i32,
    m: __mmask32,
    any: &mut __m512i,
) {
    let (outer, centre) = word_taps();
    // Quadwords (four columns each) in the order 0, 4, 1, 5, 2, 6, 3, 7: then the
    // interleave of the low (high) halves of every 128-bit block holds columns 0..16
    // (16..32) in order.
    let order = _mm512_set_epi64(7, 3, 6, 2, 5, 1, 4, 0);
    let zero = _mm512_setzero_si512();
    let a = _mm512_permutexvar_epi64(order, _mm512_add_epi16(d[0], d[4]));
    let b = _mm512_permutexvar_epi64(order, _mm512_add_epi16(d[1], d[3]));
    let c = _mm512_permutexvar_epi64(order, d[2]);
    let first = dpwssd(
        dpwssd(round, _mm512_unpacklo_epi16(a, b), outer),
        _mm512_unpacklo_epi16(c, zero),
        centre,
    );
    let second = dpwssd(
        dpwssd(round, _mm512_unpackhi_epi16(a, b), outer),
        _mm512_unpackhi_epi16(c, zero),
        centre,
    );
    let (first, second) = (
        _mm512_sra_epi32(first, count),
        _mm512_sra_epi32(second, count),
    );
    *any = _mm512_or_si512(*any, _mm512_or_si512(first, second));
    let (m0, m1) = (m as __mmask16, (m >> 16) as __mmask16);
    // SAFETY: the caller guarantees the lanes of `m` are writable.
    unsafe {
        store_i32(out, m0, first);
        if m1 != 0 {
            store_i32(out.add(16), m1, second);
        }
    }
}

/// All `n` columns of the 8-bit vertical pass, thirty-two a step in 16-bit lanes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vnni")]
unsafe fn vertical_u8_vnni(
    prev: &[&[u8]; 5],
    cur: &[&[u8]; 5],
    shift: u32,
    out: &mut [i32],
) -> bool {
    let n = out.len();
    let round = _mm512_set1_epi32(1 << (shift - 1));
    let count = _mm_cvtsi32_si128(shift as i32);
    let mut any = _mm512_setzero_si512();
    let mut j = 0;
    while j < n {
        let m = lanes32(n - j);
        let mut d = [_mm512_setzero_si512(); 5];
        for (k, v) in d.iter_mut().enumerate() {
            // SAFETY: rows hold at least n samples (checked by the caller) and the mask
            // keeps the loads below n.
            let (p, c) = unsafe {
                (
                    load_u8_words(prev[k].as_ptr().add(j), m),
                    load_u8_words(cur[k].as_ptr().add(j), m),
                )
            };
            // 8-bit differences and their pair sums fit a word.
            *v = _mm512_sub_epi16(p, c);
        }
        // SAFETY: out holds n values and the mask keeps the stores below n; masked-off
        // lanes loaded zeros.
        unsafe { filter_words(&d, round, count, out.as_mut_ptr().add(j), m, &mut any) };
        j += 32;
    }
    _mm512_test_epi32_mask(any, any) != 0
}

/// Thirty-two `u16` at `p` (only the lanes in `m` unless all are).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn load_u16_words(p: *const u16, m: __mmask32) -> __m512i {
    // SAFETY: the caller guarantees the lanes in `m` are readable.
    unsafe {
        if m == u32::MAX {
            _mm512_loadu_si512(p as *const _)
        } else {
            _mm512_maskz_loadu_epi16(m, p as *const i16)
        }
    }
}

/// All `n` columns of the 16-bit vertical pass, thirty-two a step in 16-bit lanes, if
/// every sample is below 2^14 (so differences and their pair sums fit a word, and the
/// tap sum 32 bits); `None` if one is not (the outputs are then unfinished).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vnni")]
unsafe fn vertical_u16_words(
    prev: &[&[u16]; 5],
    cur: &[&[u16]; 5],
    shift: u32,
    out: &mut [i32],
) -> Option<bool> {
    let n = out.len();
    let round = _mm512_set1_epi32(1 << (shift - 1));
    let count = _mm_cvtsi32_si128(shift as i32);
    let mut any = _mm512_setzero_si512();
    let mut seen = _mm512_setzero_si512();
    let mut j = 0;
    while j < n {
        let m = lanes32(n - j);
        let mut d = [_mm512_setzero_si512(); 5];
        for (k, v) in d.iter_mut().enumerate() {
            // SAFETY: rows hold at least n samples (checked by the caller) and the mask
            // keeps the loads below n.
            let (p, c) = unsafe {
                (
                    load_u16_words(prev[k].as_ptr().add(j), m),
                    load_u16_words(cur[k].as_ptr().add(j), m),
                )
            };
            seen = _mm512_or_si512(seen, _mm512_or_si512(p, c));
            *v = _mm512_sub_epi16(p, c);
        }
        // SAFETY: out holds n values and the mask keeps the stores below n; masked-off
        // lanes loaded zeros.
        unsafe { filter_words(&d, round, count, out.as_mut_ptr().add(j), m, &mut any) };
        j += 32;
    }
    let wide = _mm512_test_epi16_mask(seen, _mm512_set1_epi16(-(1 << 14)));
    (wide == 0).then(|| _mm512_test_epi32_mask(any, any) != 0)
}

/// The VNNI vertical pass over 9..16-bit samples.
pub(crate) fn vertical_u16(
    prev: [&[u16]; 5],
    cur: [&[u16]; 5],
    shift: u32,
    out: &mut [i32],
) -> bool {
    vertical_with((prev, cur), shift, out, (0, 8..=16), |p, c, s, o| {
        // SAFETY: as in `vertical_u8`: AVX-512 and VNNI were detected, and the rows hold
        // the samples read.
        unsafe {
            match vertical_u16_words(p, c, s, o) {
                Some(any) => any,
                // A sample of 2^14 or more: the full-range kernel.
                None => vertical_u16_vnni(p, c, s, o),
            }
        }
    })
}

/// All `n` columns of the 16-bit vertical pass, sixteen a step, for any samples.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vnni")]
unsafe fn vertical_u16_vnni(
    prev: &[&[u16]; 5],
    cur: &[&[u16]; 5],
    shift: u32,
    out: &mut [i32],
) -> bool {
    let n = out.len();
    let round = _mm512_set1_epi32(1 << (shift - 1));
    let rest = _mm_cvtsi32_si128(shift as i32 - 8);
    let mut any = _mm512_setzero_si512();
    let mut j = 0;
    while j < n {
        let m = lanes((n - j).min(16));
        let mut d = [_mm512_setzero_si512(); 5];
        for (k, v) in d.iter_mut().enumerate() {
            // SAFETY: rows hold at least n samples (checked by the caller) and the mask
            // keeps the loads below n.
            let (p, c) = unsafe {
                (
                    load_u16(prev[k].as_ptr().add(j), m),
                    load_u16(cur[k].as_ptr().add(j), m),
                )
            };
            *v = _mm512_sub_epi32(p, c);
        }
        let a = _mm512_add_epi32(d[0], d[4]);
        let b = _mm512_add_epi32(d[1], d[3]);
        let v = split_tap_sum(a, b, d[2], round, rest);
        // Masked-off columns filter zeros, to zero: they leave the flag alone.
        any = _mm512_or_si512(any, v);
        // SAFETY: out holds n values and the mask keeps the store below n.
        unsafe { store_i32(out.as_mut_ptr().add(j), m, v) };
        j += 16;
    }
    _mm512_test_epi32_mask(any, any) != 0
}

/// The VNNI horizontal pass and absolute sum of one row buffer.
pub(crate) fn abs_sum(row: &[i32]) -> u32 {
    // SAFETY: AVX-512 (F, BW) and VNNI were detected before this kernel was listed;
    // `abs_sum_with` passes rows of at least sixteen full windows.
    abs_sum_with(row, 16, |r| unsafe { windows_abs_sum_vnni(r) })
}

/// The wrapping sum of `|window output|` over all `len - 4 >= 16` full windows; `None` if
/// a value of the row is outside -2^16..2^16.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn windows_abs_sum_vnni(row: &[i32]) -> Option<u32> {
    let round = _mm512_set1_epi32(1 << 15);
    let rest = _mm_cvtsi32_si128(8);
    let filter = |x: &[__m512i; 5]| {
        let a = _mm512_add_epi32(x[0], x[4]);
        let b = _mm512_add_epi32(x[1], x[3]);
        split_tap_sum(a, b, x[2], round, rest)
    };
    // SAFETY: the caller's contract (AVX-512 and VNNI present, at least sixteen windows).
    unsafe { windows_abs_sum::<Avx512>(row, filter) }
}
