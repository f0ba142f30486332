//! motion's AVX2 kernels (see `super::super::dispatch` for the arithmetic).

use std::arch::x86_64::*;

use super::super::kernel::{edges_abs_sum, horizontal_abs_sum, window_abs, MotionSample, FILTER};
use super::super::kernels::Kernels;
use crate::cpu::CpuLevel;

/// The AVX2 kernels. The dispatch hands them out only when the processor has AVX2.
pub(in crate::feature::motion) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx2,
    vertical_u8,
    vertical_u16,
    abs_sum,
    words: Some(words::WORDS),
};

super::words_by::words_table!("avx2", crate::feature::motion::x86::lanes::Avx2);

/// Symmetric taps as vectors.
#[inline(always)]
fn taps() -> [__m256i; 3] {
    // SAFETY: AVX is implied by AVX2, which every caller is compiled for and which
    // the dispatch checked at run time before handing the table out.
    unsafe {
        [
            _mm256_set1_epi32(FILTER[0]),
            _mm256_set1_epi32(FILTER[1]),
            _mm256_set1_epi32(FILTER[2]),
        ]
    }
}

/// `f0·(x0+x4) + f1·(x1+x3) + f2·x2` in 32-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn tap_sum(x: [__m256i; 5], f: [__m256i; 3]) -> __m256i {
    let a = _mm256_mullo_epi32(f[0], _mm256_add_epi32(x[0], x[4]));
    let b = _mm256_mullo_epi32(f[1], _mm256_add_epi32(x[1], x[3]));
    let c = _mm256_mullo_epi32(f[2], x[2]);
    _mm256_add_epi32(_mm256_add_epi32(a, b), c)
}

/// Whether any value of `out` is nonzero.
fn any_nonzero(out: &[i32]) -> bool {
    out.iter().any(|&v| v != 0)
}

/// Whether every row holds at least `n` samples (else the scalar twin is used, which
/// reports the mistake the way the reference does).
fn rows_hold<T>(rows: &[&[T]; 5], n: usize) -> bool {
    rows.iter().all(|r| r.len() >= n)
}

/// The AVX2 vertical pass over 8-bit samples.
pub(crate) fn vertical_u8(prev: [&[u8]; 5], cur: [&[u8]; 5], shift: u32, out: &mut [i32]) -> bool {
    let n = out.len();
    if !(1..=16).contains(&shift) || !rows_hold(&prev, n) || !rows_hold(&cur, n) {
        return <u8 as MotionSample>::vertical(prev, cur, shift, out);
    }
    // SAFETY: this function is only in a table made after AVX2 was detected, and
    // every row was just checked to hold the `n` samples the kernel reads.
    let done = unsafe { vertical_u8_avx2(&prev, &cur, shift, out) };
    let (p, c) = (prev.map(|s| &s[done..]), cur.map(|s| &s[done..]));
    <u8 as MotionSample>::vertical(p, c, shift, &mut out[done..]);
    any_nonzero(out)
}

/// Columns `0..8·k` of the 8-bit vertical pass; returns how many were done.
#[target_feature(enable = "avx2")]
unsafe fn vertical_u8_avx2(
    prev: &[&[u8]; 5],
    cur: &[&[u8]; 5],
    shift: u32,
    out: &mut [i32],
) -> usize {
    let n = out.len();
    let f = taps();
    let round = _mm256_set1_epi32(1 << (shift - 1));
    let count = _mm_cvtsi32_si128(shift as i32);
    let mut j = 0;
    while j + 8 <= n {
        let mut x = [_mm256_setzero_si256(); 5];
        for (k, v) in x.iter_mut().enumerate() {
            // SAFETY: rows hold at least n >= j + 8 samples (checked by the caller);
            // the 8-byte loads are unaligned-safe.
            let (p, c) = unsafe {
                (
                    _mm_loadl_epi64(prev[k].as_ptr().add(j) as *const __m128i),
                    _mm_loadl_epi64(cur[k].as_ptr().add(j) as *const __m128i),
                )
            };
            *v = _mm256_sub_epi32(_mm256_cvtepu8_epi32(p), _mm256_cvtepu8_epi32(c));
        }
        let acc = _mm256_add_epi32(tap_sum(x, f), round);
        let v = _mm256_sra_epi32(acc, count);
        // SAFETY: out holds n >= j + 8 values.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(j) as *mut __m256i, v) };
        j += 8;
    }
    j
}

/// The AVX2 vertical pass over 9..16-bit samples.
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
    // SAFETY: as in `vertical_u8`: AVX2 was detected, and the rows hold `n` samples.
    let done = unsafe { vertical_u16_avx2(&prev, &cur, shift, out) };
    let (p, c) = (prev.map(|s| &s[done..]), cur.map(|s| &s[done..]));
    <u16 as MotionSample>::vertical(p, c, shift, &mut out[done..]);
    any_nonzero(out)
}

/// `(Σ f·x + round) >> shift` for inputs of up to 17 bits signed and `shift >= 8`,
/// by the high/low split.
#[inline]
#[target_feature(enable = "avx2")]
fn split_filter(x: [__m256i; 5], f: [__m256i; 3], round: __m256i, rest: __m128i) -> __m256i {
    let low_mask = _mm256_set1_epi32(255);
    let mut hi = x;
    let mut lo = x;
    for k in 0..5 {
        hi[k] = _mm256_srai_epi32::<8>(x[k]);
        lo[k] = _mm256_and_si256(x[k], low_mask);
    }
    let a = tap_sum(hi, f);
    let b = _mm256_add_epi32(tap_sum(lo, f), round);
    _mm256_sra_epi32(_mm256_add_epi32(a, _mm256_srai_epi32::<8>(b)), rest)
}

/// Columns `0..8·k` of the 16-bit vertical pass; returns how many were done.
#[target_feature(enable = "avx2")]
unsafe fn vertical_u16_avx2(
    prev: &[&[u16]; 5],
    cur: &[&[u16]; 5],
    shift: u32,
    out: &mut [i32],
) -> usize {
    let n = out.len();
    let f = taps();
    let round = _mm256_set1_epi32(1 << (shift - 1));
    let rest = _mm_cvtsi32_si128(shift as i32 - 8);
    let mut j = 0;
    while j + 8 <= n {
        let mut x = [_mm256_setzero_si256(); 5];
        for (k, v) in x.iter_mut().enumerate() {
            // SAFETY: rows hold at least n >= j + 8 samples (checked by the caller).
            let (p, c) = unsafe {
                (
                    _mm_loadu_si128(prev[k].as_ptr().add(j) as *const __m128i),
                    _mm_loadu_si128(cur[k].as_ptr().add(j) as *const __m128i),
                )
            };
            *v = _mm256_sub_epi32(_mm256_cvtepu16_epi32(p), _mm256_cvtepu16_epi32(c));
        }
        let v = split_filter(x, f, round, rest);
        // SAFETY: out holds n >= j + 8 values.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(j) as *mut __m256i, v) };
        j += 8;
    }
    j
}

/// The AVX2 horizontal pass and absolute sum of one row buffer.
pub(crate) fn abs_sum(row: &[i32]) -> u32 {
    let w = row.len();
    if w < 5 + 8 {
        return horizontal_abs_sum(row);
    }
    // SAFETY: AVX2 was detected before this kernel was listed; the row holds w >= 13.
    let Some((mut sum, done)) = (unsafe { windows_abs_sum_avx2(row) }) else {
        // Values the vertical pass cannot make (the split needs 17 bits).
        return horizontal_abs_sum(row);
    };
    sum = sum.wrapping_add(edges_abs_sum(row));
    for win in row[done..].windows(FILTER.len()) {
        sum = sum.wrapping_add(window_abs(win));
    }
    sum
}

/// The wrapping sum of `|window output|` over windows `0..8·k`, and where the
/// remaining windows start; `None` if a value it read is outside -2^16..2^16.
#[target_feature(enable = "avx2")]
unsafe fn windows_abs_sum_avx2(row: &[i32]) -> Option<(u32, usize)> {
    let w = row.len();
    let f = taps();
    let round = _mm256_set1_epi32(1 << 15);
    let rest = _mm_cvtsi32_si128(8);
    let mut acc = _mm256_setzero_si256();
    let (mut low, mut high) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    let mut s = 0;
    // Windows s..s+8 read row[s..s+12], which x[0] and x[4] cover.
    while s + 12 <= w {
        let mut x = [_mm256_setzero_si256(); 5];
        for (k, v) in x.iter_mut().enumerate() {
            // SAFETY: s + k + 8 <= s + 12 <= w.
            *v = unsafe { _mm256_loadu_si256(row.as_ptr().add(s + k) as *const __m256i) };
        }
        low = _mm256_min_epi32(low, _mm256_min_epi32(x[0], x[4]));
        high = _mm256_max_epi32(high, _mm256_max_epi32(x[0], x[4]));
        let v = split_filter(x, f, round, rest);
        acc = _mm256_add_epi32(acc, _mm256_abs_epi32(v));
        s += 8;
    }
    let out_of_range = _mm256_or_si256(
        _mm256_cmpgt_epi32(_mm256_set1_epi32(-(1 << 16)), low),
        _mm256_cmpgt_epi32(high, _mm256_set1_epi32((1 << 16) - 1)),
    );
    if _mm256_testz_si256(out_of_range, out_of_range) == 0 {
        return None;
    }
    let mut lanes = [0u32; 8];
    // SAFETY: lanes has room for 8 values.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, acc) };
    let sum = lanes.iter().fold(0u32, |a, &b| a.wrapping_add(b));
    Some((sum, s))
}
