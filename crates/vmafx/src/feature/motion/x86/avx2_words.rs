//! motion's AVX2 kernels of the 16-bit row pipeline (see `super::super::words` for the
//! ranges), sixteen columns (or windows) a step; a row's last partial step is a full step
//! moved back to end at the row's end, whose repeated columns write the same values again
//! (or, in the horizontal sum, are masked off).
//!
//! Both filters multiply words with `vpmaddwd`, which sums two neighbouring words' products
//! into a 32-bit lane. The vertical pass interleaves the symmetric row sums `d0+d4` and
//! `d1+d3` (taps `f0, f1`) and the centre row with ones (taps `f2` and the rounding half).
//! The horizontal pass needs no interleave: the lane of word pair `m` of the row loaded at
//! offset `s` holds values `s+2m, s+2m+1`, so windows `s+2m` (even) take the loads at
//! offsets 0, 2 and 4 with taps `(f0, f1)`, `(f2, f1)`, `(f0, 0)`, and windows `s+2m+1`
//! (odd) those at 1, 3 and 4 with `(f0, f1)`, `(f2, f1)`, `(0, f0)`.

use std::arch::x86_64::*;

use super::super::kernel::{edges_abs_sum, FILTER};
use super::super::words::{self, Words};

/// The AVX2 kernels of the 16-bit pipeline (listed in `super::avx2::KERNELS`).
pub(in crate::feature::motion) const WORDS: Words = Words {
    diff_u8,
    diff_u16,
    vertical,
    abs_sum,
};

/// Sixteen columns a step.
const STEP: usize = 16;

/// Two words as one lane: `lo` in the low (even) word, `hi` in the high one.
const fn pair(lo: i32, hi: i32) -> i32 {
    (hi << 16) | (lo & 0xffff)
}

/// The start of each step over `n` values (`n >= STEP`): `0, 16, ...`, the last moved
/// back to `n - 16`.
fn steps(n: usize) -> impl Iterator<Item = usize> {
    (0..n).step_by(STEP).map(move |j| j.min(n - STEP))
}

/// The AVX2 differences of 8-bit rows.
pub(crate) fn diff_u8(prev: &[u8], cur: &[u8], out: &mut [i16]) -> bool {
    let n = out.len();
    if n < STEP || prev.len() < n || cur.len() < n {
        return words::diff_u8(prev, cur, out);
    }
    // SAFETY: AVX2 was detected before this table was listed; n >= 16, and every row
    // was just checked to hold n samples.
    unsafe { diff_u8_avx2(prev, cur, out) };
    true
}

/// All `n >= 16` differences of rows holding at least `n` samples.
#[target_feature(enable = "avx2")]
unsafe fn diff_u8_avx2(prev: &[u8], cur: &[u8], out: &mut [i16]) {
    for j in steps(out.len()) {
        // SAFETY: j + 16 <= n, which the rows hold (the caller's contract).
        unsafe {
            let p = _mm256_cvtepu8_epi16(_mm_loadu_si128(prev.as_ptr().add(j).cast()));
            let c = _mm256_cvtepu8_epi16(_mm_loadu_si128(cur.as_ptr().add(j).cast()));
            _mm256_storeu_si256(out.as_mut_ptr().add(j).cast(), _mm256_sub_epi16(p, c));
        }
    }
}

/// The AVX2 differences of 9..16-bit rows.
pub(crate) fn diff_u16(prev: &[u16], cur: &[u16], out: &mut [i16]) -> bool {
    let n = out.len();
    if n < STEP || prev.len() < n || cur.len() < n {
        return words::diff_u16(prev, cur, out);
    }
    // SAFETY: as in `diff_u8`.
    unsafe { diff_u16_avx2(prev, cur, out) }
}

/// All `n >= 16` differences of rows holding at least `n` samples; whether every sample
/// is below 2^14.
#[target_feature(enable = "avx2")]
unsafe fn diff_u16_avx2(prev: &[u16], cur: &[u16], out: &mut [i16]) -> bool {
    let mut seen = _mm256_setzero_si256();
    for j in steps(out.len()) {
        // SAFETY: j + 16 <= n, which the rows hold (the caller's contract).
        unsafe {
            let p = _mm256_loadu_si256(prev.as_ptr().add(j).cast());
            let c = _mm256_loadu_si256(cur.as_ptr().add(j).cast());
            seen = _mm256_or_si256(seen, _mm256_or_si256(p, c));
            _mm256_storeu_si256(out.as_mut_ptr().add(j).cast(), _mm256_sub_epi16(p, c));
        }
    }
    _mm256_testz_si256(seen, _mm256_set1_epi16(-(1 << 14))) != 0
}

/// The AVX2 vertical pass over difference rows.
pub(crate) fn vertical(d: [&[i16]; 5], shift: u32, out: &mut [i16]) -> u16 {
    let n = out.len();
    if n < STEP || !(1..=15).contains(&shift) || d.iter().any(|r| r.len() < n) {
        return words::vertical(d, shift, out);
    }
    // SAFETY: AVX2 was detected before this table was listed; n >= 16, and every row
    // was just checked to hold n values.
    unsafe { vertical_avx2(&d, shift, out) }
}

/// All `n >= 16` columns of the vertical pass, rows holding at least `n` values and
/// `shift` in `1..=15`.
#[target_feature(enable = "avx2")]
unsafe fn vertical_avx2(d: &[&[i16]; 5], shift: u32, out: &mut [i16]) -> u16 {
    let outer = _mm256_set1_epi32(pair(FILTER[0], FILTER[1]));
    // The rounding half (at most 2^14) is the tap of a word of ones.
    let centre = _mm256_set1_epi32(pair(FILTER[2], 1 << (shift - 1)));
    let ones = _mm256_set1_epi16(1);
    let count = _mm_cvtsi32_si128(shift as i32);
    let mut top = _mm256_setzero_si256();
    for j in steps(out.len()) {
        // SAFETY: j + 16 <= n, which every row holds (the caller's contract).
        let x: [__m256i; 5] =
            std::array::from_fn(|k| unsafe { _mm256_loadu_si256(d[k].as_ptr().add(j).cast()) });
        // Differences below 2^14: the pair sums fit a word.
        let a = _mm256_add_epi16(x[0], x[4]);
        let b = _mm256_add_epi16(x[1], x[3]);
        let half = |ab: __m256i, c1: __m256i| {
            let s = _mm256_add_epi32(_mm256_madd_epi16(ab, outer), _mm256_madd_epi16(c1, centre));
            _mm256_sra_epi32(s, count)
        };
        // Columns 0..4 and 8..12 (lo), 4..8 and 12..16 (hi): the pack puts them back in
        // order.
        let lo = half(
            _mm256_unpacklo_epi16(a, b),
            _mm256_unpacklo_epi16(x[2], ones),
        );
        let hi = half(
            _mm256_unpackhi_epi16(a, b),
            _mm256_unpackhi_epi16(x[2], ones),
        );
        let v = _mm256_packs_epi32(lo, hi);
        #[cfg(test)]
        let v = if crate::cpu::dispatch::planted() {
            _mm256_add_epi16(
                v,
                _mm256_setr_epi16(0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            )
        } else {
            v
        };
        top = _mm256_max_epu16(top, _mm256_abs_epi16(v));
        // SAFETY: out holds n >= j + 16 values.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(j).cast(), v) };
    }
    let mut lanes = [0u16; 16];
    // SAFETY: lanes has room for sixteen words.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), top) };
    // A -32768 reads 32768 here: saturate it as the scalar pass does.
    lanes.iter().fold(0, |m, &v| m.max(v)).min(i16::MAX as u16)
}

/// The AVX2 horizontal pass and absolute sum of an `i16` row.
pub(crate) fn abs_sum(row: &[i16]) -> u32 {
    if row.len() < STEP + FILTER.len() - 1 {
        return words::abs_sum(row);
    }
    // SAFETY: AVX2 was detected before this table was listed; the row holds at least
    // twenty values, so at least sixteen full windows.
    let windows = unsafe { windows_abs_sum_avx2(row) };
    windows.wrapping_add(edges_abs_sum(row))
}

/// The wrapping sum of `|window output|` over all `len - 4 >= 16` full windows.
#[target_feature(enable = "avx2")]
unsafe fn windows_abs_sum_avx2(row: &[i16]) -> u32 {
    let windows = row.len() - (FILTER.len() - 1);
    let (f0, f1, f2) = (FILTER[0], FILTER[1], FILTER[2]);
    let first = _mm256_set1_epi32(pair(f0, f1));
    let middle = _mm256_set1_epi32(pair(f2, f1));
    let last_even = _mm256_set1_epi32(pair(f0, 0));
    let last_odd = _mm256_set1_epi32(pair(0, f0));
    let round = _mm256_set1_epi32(1 << 15);
    // Each lane's window, from its step's first.
    let even_at = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
    let odd_at = _mm256_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15);
    let mut acc = _mm256_setzero_si256();
    let mut done = 0;
    for s in steps(windows) {
        // SAFETY: windows s..s+16 read row[s..s+20], and s + 16 <= windows = len - 4.
        let x: [__m256i; 5] =
            std::array::from_fn(|k| unsafe { _mm256_loadu_si256(row.as_ptr().add(s + k).cast()) });
        let sum = |a: __m256i, b: __m256i, c: __m256i, last: __m256i| {
            let t = _mm256_add_epi32(_mm256_madd_epi16(a, first), _mm256_madd_epi16(b, middle));
            let t = _mm256_add_epi32(t, _mm256_madd_epi16(c, last));
            _mm256_abs_epi32(_mm256_srai_epi32::<16>(_mm256_add_epi32(t, round)))
        };
        let mut even = sum(x[0], x[2], x[4], last_even);
        let mut odd = sum(x[1], x[3], x[4], last_odd);
        if s < done {
            // The last step moved back: windows before `done` are already summed.
            let seen = _mm256_set1_epi32((done - s) as i32 - 1);
            even = _mm256_and_si256(even, _mm256_cmpgt_epi32(even_at, seen));
            odd = _mm256_and_si256(odd, _mm256_cmpgt_epi32(odd_at, seen));
        }
        acc = _mm256_add_epi32(acc, _mm256_add_epi32(even, odd));
        done = s + STEP;
    }
    let mut lanes = [0u32; 8];
    // SAFETY: lanes has room for eight values.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), acc) };
    // The lane sums wrap at 32 bits, as the scalar sum does.
    lanes.iter().fold(0u32, |a, &b| a.wrapping_add(b))
}
