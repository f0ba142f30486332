//! AVX-512 motion kernels: sixteen columns (or windows) a step, the last partial step by
//! masked loads and stores, so no scalar tail is left.
//!
//! The arithmetic is the AVX2 kernels' (see `super::super::dispatch`): symmetric taps, and the
//! `high·256 + low` split wherever the scalar code sums in 64 bits. Masked-off lanes load
//! zeros, which filter to zero and add nothing to a sum.

use std::arch::x86_64::*;

use super::super::kernel::{edges_abs_sum, horizontal_abs_sum, MotionSample, FILTER};
use super::super::kernels::Kernels;
use crate::cpu::CpuLevel;

/// The AVX-512 kernels by 32-bit multiplies, for processors without VNNI. The dispatch
/// hands them out only when the processor has AVX-512.
pub(in crate::feature::motion) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx512,
    vertical_u8,
    vertical_u16,
    abs_sum,
    words: Some(words::WORDS),
};

super::words_by::words_table!(
    "avx512f,avx512bw",
    crate::feature::motion::x86::lanes::Avx512
);

/// Whether every row holds at least `n` samples (else the scalar twin is used, which
/// reports the mistake the way the reference does).
pub(super) fn rows_hold<T>(rows: &[&[T]; 5], n: usize) -> bool {
    rows.iter().all(|r| r.len() >= n)
}

/// The lanes `0..n` of sixteen (`n` at most 16).
pub(super) fn lanes(n: usize) -> __mmask16 {
    (((1u32 << n) - 1) & 0xffff) as __mmask16
}

/// Sixteen bytes at `p` (only the lanes in `m` unless all are), as `i32` lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn load_u8(p: *const u8, m: __mmask16) -> __m512i {
    // SAFETY: the caller guarantees the lanes in `m` are readable; a full mask takes the
    // plain load, which the widening can fold.
    _mm512_cvtepu8_epi32(unsafe {
        if m == 0xffff {
            _mm_loadu_si128(p as *const __m128i)
        } else {
            _mm_maskz_loadu_epi8(m, p as *const i8)
        }
    })
}

/// Sixteen `u16` at `p` (only the lanes in `m` unless all are), as `i32` lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) unsafe fn load_u16(p: *const u16, m: __mmask16) -> __m512i {
    // SAFETY: as in `load_u8`.
    _mm512_cvtepu16_epi32(unsafe {
        if m == 0xffff {
            _mm256_loadu_si256(p as *const __m256i)
        } else {
            _mm256_maskz_loadu_epi16(m, p as *const i16)
        }
    })
}

/// Sixteen `i32` at `p` (only the lanes in `m` unless all are).
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn load_i32(p: *const i32, m: __mmask16) -> __m512i {
    // SAFETY: as in `load_u8`.
    unsafe {
        if m == 0xffff {
            _mm512_loadu_si512(p as *const _)
        } else {
            _mm512_maskz_loadu_epi32(m, p)
        }
    }
}

/// Stores the lanes of `v` in `m` at `p`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn store_i32(p: *mut i32, m: __mmask16, v: __m512i) {
    // SAFETY: the caller guarantees the lanes in `m` are writable.
    unsafe {
        if m == 0xffff {
            _mm512_storeu_si512(p as *mut _, v)
        } else {
            _mm512_mask_storeu_epi32(p, m, v)
        }
    }
}

/// Symmetric taps as vectors.
#[inline]
#[target_feature(enable = "avx512f")]
fn taps() -> [__m512i; 3] {
    [
        _mm512_set1_epi32(FILTER[0]),
        _mm512_set1_epi32(FILTER[1]),
        _mm512_set1_epi32(FILTER[2]),
    ]
}

/// `f0·(x0+x4) + f1·(x1+x3) + f2·x2` in 32-bit lanes.
#[inline]
#[target_feature(enable = "avx512f")]
fn tap_sum(x: [__m512i; 5], f: [__m512i; 3]) -> __m512i {
    let a = _mm512_mullo_epi32(f[0], _mm512_add_epi32(x[0], x[4]));
    let b = _mm512_mullo_epi32(f[1], _mm512_add_epi32(x[1], x[3]));
    let c = _mm512_mullo_epi32(f[2], x[2]);
    _mm512_add_epi32(_mm512_add_epi32(a, b), c)
}

/// `(Σ f·x + round) >> shift` for inputs of up to 17 bits signed and `shift >= 8`, by the
/// high/low split (`rest` is `shift - 8`).
#[inline]
#[target_feature(enable = "avx512f")]
fn split_filter(x: [__m512i; 5], f: [__m512i; 3], round: __m512i, rest: __m128i) -> __m512i {
    let low_mask = _mm512_set1_epi32(255);
    let hi = x.map(|v| _mm512_srai_epi32::<8>(v));
    let lo = x.map(|v| _mm512_and_si512(v, low_mask));
    let a = tap_sum(hi, f);
    let b = _mm512_add_epi32(tap_sum(lo, f), round);
    _mm512_sra_epi32(_mm512_add_epi32(a, _mm512_srai_epi32::<8>(b)), rest)
}

/// The AVX-512 vertical pass over 8-bit samples.
pub(crate) fn vertical_u8(prev: [&[u8]; 5], cur: [&[u8]; 5], shift: u32, out: &mut [i32]) -> bool {
    let n = out.len();
    if !(1..=16).contains(&shift) || !rows_hold(&prev, n) || !rows_hold(&cur, n) {
        return <u8 as MotionSample>::vertical(prev, cur, shift, out);
    }
    // SAFETY: this function is only in a table made after AVX-512 (F, BW, VL) was
    // detected, and every row was just checked to hold the `n` samples the kernel reads.
    unsafe { vertical_u8_avx512(&prev, &cur, shift, out) };
    out.iter().any(|&v| v != 0)
}

/// All `n` columns of the 8-bit vertical pass.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn vertical_u8_avx512(prev: &[&[u8]; 5], cur: &[&[u8]; 5], shift: u32, out: &mut [i32]) {
    let n = out.len();
    let f = taps();
    let round = _mm512_set1_epi32(1 << (shift - 1));
    let count = _mm_cvtsi32_si128(shift as i32);
    let mut j = 0;
    while j < n {
        let m = lanes((n - j).min(16));
        let mut x = [_mm512_setzero_si512(); 5];
        for (k, v) in x.iter_mut().enumerate() {
            // SAFETY: rows hold at least n samples (checked by the caller) and the mask
            // keeps the loads below n.
            let (p, c) = unsafe {
                (
                    load_u8(prev[k].as_ptr().add(j), m),
                    load_u8(cur[k].as_ptr().add(j), m),
                )
            };
            *v = _mm512_sub_epi32(p, c);
        }
        let v = _mm512_sra_epi32(_mm512_add_epi32(tap_sum(x, f), round), count);
        // SAFETY: out holds n values and the mask keeps the store below n.
        unsafe { store_i32(out.as_mut_ptr().add(j), m, v) };
        j += 16;
    }
}

/// The AVX-512 vertical pass over 9..16-bit samples.
pub(crate) fn vertical_u16(
    prev: [&[u16]; 5],
    cur: [&[u16]; 5],
    shift: u32,
    out: &mut [i32],
) -> bool {
    let n = out.len();
    if !(8..=16).contains(&shift) || !rows_hold(&prev, n) || !rows_hold(&cur, n) {
        return <u16 as MotionSample>::vertical(prev, cur, shift, out);
    }
    // SAFETY: as in `vertical_u8`: AVX-512 was detected, and the rows hold `n` samples.
    unsafe { vertical_u16_avx512(&prev, &cur, shift, out) };
    out.iter().any(|&v| v != 0)
}

/// All `n` columns of the 16-bit vertical pass.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn vertical_u16_avx512(prev: &[&[u16]; 5], cur: &[&[u16]; 5], shift: u32, out: &mut [i32]) {
    let n = out.len();
    let f = taps();
    let round = _mm512_set1_epi32(1 << (shift - 1));
    let rest = _mm_cvtsi32_si128(shift as i32 - 8);
    let mut j = 0;
    while j < n {
        let m = lanes((n - j).min(16));
        let mut x = [_mm512_setzero_si512(); 5];
        for (k, v) in x.iter_mut().enumerate() {
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
        let v = split_filter(x, f, round, rest);
        // SAFETY: out holds n values and the mask keeps the store below n.
        unsafe { store_i32(out.as_mut_ptr().add(j), m, v) };
        j += 16;
    }
}

/// The AVX-512 horizontal pass and absolute sum of one row buffer.
pub(crate) fn abs_sum(row: &[i32]) -> u32 {
    // SAFETY: AVX-512 (F) was detected before this kernel was listed; `abs_sum_with`
    // passes rows of at least five values.
    abs_sum_with(row, |r| unsafe { windows_abs_sum_avx512(r) })
}

/// The frame of every vector `abs_sum`: `windows` sums the full windows of a row of at
/// least five values, the edges are added here, and rows too short or holding values the
/// split cannot take (`None`; the vertical pass never makes them) go to the scalar twin.
pub(super) fn abs_sum_with(row: &[i32], windows: impl FnOnce(&[i32]) -> Option<u32>) -> u32 {
    if row.len() < 5 {
        return horizontal_abs_sum(row);
    }
    match windows(row) {
        Some(sum) => sum.wrapping_add(edges_abs_sum(row)),
        None => horizontal_abs_sum(row),
    }
}

/// The wrapping sum of `|window output|` over all `len - 4` full windows; `None` if a
/// value of the row is outside -2^16..2^16.
#[target_feature(enable = "avx512f")]
unsafe fn windows_abs_sum_avx512(row: &[i32]) -> Option<u32> {
    let f = taps();
    let round = _mm512_set1_epi32(1 << 15);
    let rest = _mm_cvtsi32_si128(8);
    // SAFETY: the caller's contract (AVX-512 present, at least five values).
    unsafe { windows_abs_sum_by(row, |x| split_filter(*x, f, round, rest)) }
}

/// The wrapping sum of `|filter(x)|` over all `len - 4` full windows of `row`, sixteen a
/// step, where `x[k]` holds the values `k` places after each window's first; `None` if a
/// value of the row is outside -2^16..2^16 (the range the filters' split takes).
///
/// # Safety
/// AVX-512 (F), and `row` holds at least five values.
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn windows_abs_sum_by(
    row: &[i32],
    filter: impl Fn(&[__m512i; 5]) -> __m512i,
) -> Option<u32> {
    let windows = row.len() - (FILTER.len() - 1);
    let mut acc = _mm512_setzero_si512();
    let (mut low, mut high) = (_mm512_setzero_si512(), _mm512_setzero_si512());
    let mut s = 0;
    while s < windows {
        // Windows s..s+c read row[s..s+c+4], which x[0] and x[4] cover.
        let m = lanes((windows - s).min(16));
        let mut x = [_mm512_setzero_si512(); 5];
        for (k, v) in x.iter_mut().enumerate() {
            // SAFETY: lane l < c reads row[s + k + l] with s + k + l < s + c + 4 <= len.
            *v = unsafe { load_i32(row.as_ptr().add(s + k), m) };
        }
        // Every value but the last four is some window's first (with fewer than four
        // windows, the first and last values of each do not cover the row).
        low = _mm512_min_epi32(low, x[0]);
        high = _mm512_max_epi32(high, x[0]);
        acc = _mm512_add_epi32(acc, _mm512_abs_epi32(filter(&x)));
        s += 16;
    }
    let out_of_range = _mm512_cmplt_epi32_mask(low, _mm512_set1_epi32(-(1 << 16)))
        | _mm512_cmpgt_epi32_mask(high, _mm512_set1_epi32((1 << 16) - 1));
    let fits = |v: &i32| (-(1 << 16)..1 << 16).contains(v);
    if out_of_range != 0 || !row[windows..].iter().all(fits) {
        return None;
    }
    // The lane sums wrap at 32 bits, as the scalar sum does.
    Some(_mm512_reduce_add_epi32(acc) as u32)
}
