//! The AVX2 horizontal statistic pass by 16-bit multiply-adds (`vpmaddwd`), sixteen
//! columns a step, for the scales whose taps fit 15 bits (0..2).
//!
//! The five scratch rows are first rewritten as 16-bit words less 32768: the means (below
//! 2^16) whole, the moments (32-bit) as their high and low halves. A filter over such a
//! row is `sum(c * w) = sum(c * v) - 2^31` (the taps sum to 2^16), so adding 2^31 back
//! gives the scalar code's wrapping 32-bit sum exactly; every partial sum stays within
//! `i32`. Each multiply-add takes two neighbouring taps: loads from the even and the odd
//! column give the even and the odd outputs. The pixels' scores are summed in integers,
//! so scoring them in that order gives the scalar sums.

use std::arch::x86_64::*;

use super::avx2_score::square;
use super::avx2_score_loads::{flat_masks, ScoreSums};
use crate::feature::vif::stats::{horizontal_columns, StatScratch, Sums};
use crate::feature::vif::tables::{tap_pair, MAX_HALF, SIGMA_NSQ, TAPS};

/// The horizontal pass of `scale` (0..=2) over columns `0..width`.
pub(super) fn horizontal(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) {
    // SAFETY: the AVX2 table, which calls this, is only handed out when the processor has
    // AVX2.
    unsafe {
        match TAPS[scale].len() {
            17 => horizontal_avx2::<17, 9>(s, width, scale, gain_limit, sums),
            9 => horizontal_avx2::<9, 5>(s, width, scale, gain_limit, sums),
            _ => horizontal_avx2::<5, 3>(s, width, scale, gain_limit, sums),
        }
    }
}

/// `v - 32768` of the low 16 bits of `v`, as a signed word.
#[inline]
fn biased(v: u32) -> i16 {
    (v as u16 ^ 0x8000) as i16
}

/// Writes `src` as biased words: whole into `lo` when `hi` is `None`, else its high half
/// into `hi` and its low half into `lo`.
#[target_feature(enable = "avx2")]
pub(super) fn to_words(src: &[u32], hi: Option<&mut [i16]>, lo: &mut [i16]) {
    for (d, &v) in lo.iter_mut().zip(src) {
        *d = biased(v);
    }
    if let Some(hi) = hi {
        for (d, &v) in hi.iter_mut().zip(src) {
            *d = biased(v >> 16);
        }
    }
}

/// Taps `2p` and `2p + 1` as a pair of words in every 32-bit lane (0 past the last tap).
#[target_feature(enable = "avx2")]
pub(super) fn tap_pairs<const P: usize>(taps: &[u16]) -> [__m256i; P] {
    std::array::from_fn(|p| _mm256_set1_epi32(tap_pair(taps, 2 * p as isize)))
}

/// The filter over sixteen outputs from `w[at]` on: (even outputs, odd outputs), each the
/// sum less 2^31 (see the module note). The odd outputs take the same tap pairs over the
/// words one column later, so the nine pairs stay in registers.
///
/// # Safety
/// AVX2, and `w` readable up to `at + 2 * P + 15` (exclusive).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn filter16<const P: usize>(
    pairs: &[__m256i; P],
    w: &[i16],
    at: usize,
) -> [__m256i; 2] {
    let p = w.as_ptr();
    let (mut even, mut odd) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    for (k, &c) in pairs.iter().enumerate() {
        // SAFETY: at + 2k + 17 <= at + 2P + 15 words are readable (unaligned loads).
        let (e, o) = unsafe {
            (
                _mm256_loadu_si256(p.add(at + 2 * k) as *const __m256i),
                _mm256_loadu_si256(p.add(at + 2 * k + 1) as *const __m256i),
            )
        };
        even = _mm256_add_epi32(even, _mm256_madd_epi16(e, c));
        odd = _mm256_add_epi32(odd, _mm256_madd_epi16(o, c));
    }
    [even, odd]
}

/// Rewrites columns `first..first + len` of the scratch rows as biased words into
/// `s.words`: the distorted side's rows (`mu2`, `dis²`, `ref·dis`) always, the reference's
/// (`mu1`, `ref²`) when `reference`. Where the vertical kernel wrote the words itself
/// (`s.words_done` columns from word `half`, see `avx2_vertical_u8`), only the padding
/// on either side is rewritten; `words_done` is taken (left 0).
#[target_feature(enable = "avx2")]
pub(super) fn rows_to_words(s: &mut StatScratch, first: usize, len: usize, reference: bool) {
    let half = MAX_HALF - first;
    let done = std::mem::take(&mut s.words_done);
    debug_assert!(done == 0 || half + done <= len);
    let spans = if done == 0 {
        [0..len, len..len]
    } else {
        [0..half, half + done..len]
    };
    for r in spans {
        let span = first + r.start..first + r.end;
        let [m1, m2, xh, xl, yh, yl, zh, zl] = &mut s.words;
        if reference {
            to_words(&s.mu1.padded()[span.clone()], None, &mut m1[r.clone()]);
            to_words(
                &s.ref_sq.padded()[span.clone()],
                Some(&mut xh[r.clone()]),
                &mut xl[r.clone()],
            );
        }
        to_words(&s.mu2.padded()[span.clone()], None, &mut m2[r.clone()]);
        for (row, hi, lo) in [(&s.dis_sq, yh, yl), (&s.ref_dis, zh, zl)] {
            to_words(
                &row.padded()[span.clone()],
                Some(&mut hi[r.clone()]),
                &mut lo[r.clone()],
            );
        }
    }
}

/// The filtered mean sums of sixteen outputs from `w[at]` on (even, odd): the scalar
/// code's wrapping 32-bit sums (2^31 added back, see the module note).
///
/// # Safety
/// As [`filter16`].
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn mean16<const P: usize>(
    pairs: &[__m256i; P],
    w: &[i16],
    at: usize,
) -> [__m256i; 2] {
    let bias = _mm256_set1_epi32(i32::MIN);
    // SAFETY: the caller's.
    unsafe { filter16(pairs, w, at) }.map(|v| _mm256_add_epi32(v, bias))
}

/// The rounded 16-bit shift of a moment's filter over sixteen outputs (even, odd), from
/// the filters of its high and low halves: `hi + ((lo + 32768) >> 16)` (see `moment8` in
/// the 32-bit kernel), that is the high half's filter with 2^31 added back (as a mean's,
/// [`mean16`]) plus the low half's share ([`moment_low`]).
///
/// # Safety
/// As [`filter16`], for both `hi` and `lo`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn moment16<const P: usize>(
    pairs: &[__m256i; P],
    hi: &[i16],
    lo: &[i16],
    at: usize,
) -> [__m256i; 2] {
    // SAFETY: the caller's.
    let (h, l) = unsafe { (mean16(pairs, hi, at), moment_low(pairs, lo, at)) };
    [0, 1].map(|i| _mm256_add_epi32(h[i], l[i]))
}

/// The low half's share of [`moment16`], `(filter + 2^31 + 32768) >> 16`, in `0..=2^16`.
///
/// # Safety
/// As [`filter16`].
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn moment_low<const P: usize>(pairs: &[__m256i; P], lo: &[i16], at: usize) -> [__m256i; 2] {
    let (bias, half) = (_mm256_set1_epi32(i32::MIN), _mm256_set1_epi32(32768));
    // SAFETY: the caller's.
    unsafe { filter16(pairs, lo, at) }
        .map(|v| _mm256_srli_epi32::<16>(_mm256_add_epi32(_mm256_add_epi32(v, bias), half)))
}

/// What one step of the horizontal pass did with its sixteen pixels.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Scored them, all flat.
    Flat,
    /// Scored them, some not flat.
    Scored,
    /// Left them to the deferred pass (some not flat, and a `ref·dis` block missing).
    Left,
}

/// Filters and scores the sixteen outputs from column `j` on, reading `words`; where a
/// pixel is not flat and `missing()`, leaves them unscored.
///
/// # Safety
/// AVX2, and every word array readable up to `j + 2P + 15` (exclusive).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn step16<const P: usize>(
    words: &[Vec<i16>; 8],
    pairs: &[__m256i; P],
    j: usize,
    acc: &mut ScoreSums,
    missing: impl FnOnce() -> bool,
) -> Step {
    let [m1, m2, xh, xl, yh, yl, zh, zl] = words;
    let zero = _mm256_setzero_si256();
    // SAFETY: the caller's, for every filter below.
    unsafe {
        let mean = |w: &[i16]| mean16(pairs, w, j);
        let (a1, a2) = (mean(m1), mean(m2));
        let yy = moment16(pairs, yh, yl, j);
        let sigma2 =
            [0, 1].map(|i| _mm256_max_epi32(_mm256_sub_epi32(yy[i], square(a2[i], a2[i])), zero));
        // `sigma1_sq` less the low half's share (0..=2^16) first: below SIGMA_NSQ - 2^16
        // in every lane, each pixel is flat whatever that share is, and the low half's
        // filter is not needed (57% of the scale-0 steps on the 1080p pair).
        // The high half's filter with 2^31 added back, as a mean's is.
        let high = mean16(pairs, xh, j);
        let part = [0, 1].map(|i| _mm256_sub_epi32(high[i], square(a1[i], a1[i])));
        let bound = _mm256_set1_epi32(SIGMA_NSQ - 65536 - 1);
        let unsure = _mm256_or_si256(
            _mm256_cmpgt_epi32(part[0], bound),
            _mm256_cmpgt_epi32(part[1], bound),
        );
        if _mm256_testz_si256(unsure, unsure) == 1 {
            acc.add16_flat(sigma2);
            return Step::Flat;
        }
        let low = moment_low(pairs, xl, j);
        let sigma1 = [0, 1].map(|i| _mm256_add_epi32(part[i], low[i]));
        let masks = flat_masks(sigma1);
        let all_flat = masks.1 == [0, 0];
        if !all_flat && missing() {
            return Step::Left;
        }
        acc.add16_masked(masks, sigma1, sigma2, || {
            let xy = moment16(pairs, zh, zl, j);
            [0, 1].map(|i| _mm256_sub_epi32(xy[i], square(a1[i], a2[i])))
        });
        if all_flat {
            Step::Flat
        } else {
            Step::Scored
        }
    }
}

#[target_feature(enable = "avx2")]
unsafe fn horizontal_avx2<const N: usize, const P: usize>(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) {
    let first = MAX_HALF - N / 2;
    let n16 = width / 16 * 16;
    // Output columns 0..n16 read columns first..first + n16 + N - 1 of the padded rows
    // (one more, under the zero tap: the word arrays are a vector longer than the rows).
    let len = n16 + N - 1;
    rows_to_words(s, first, len, true);
    let pairs = tap_pairs::<P>(TAPS[scale]);
    let mut acc = ScoreSums::new(gain_limit);
    s.xy.begin_horizontal(n16 / 16);
    for (t, j) in (0..n16).step_by(16).enumerate() {
        // SAFETY: AVX2 is enabled here; every word array holds the row's padded length
        // plus 32, more than j + 2P + 15 <= n16 + N.
        let done = unsafe { step16(&s.words, &pairs, j, &mut acc, || s.xy.missing(t)) };
        if done != Step::Flat {
            s.xy.not_flat(t, j, done == Step::Left);
        }
    }
    s.xy.end_horizontal();
    let totals = acc.totals();
    sums.add_totals(totals[0], totals[1], totals[2], totals[3]);
    horizontal_columns(s, n16, width, scale, gain_limit, sums);
}

/// Scores the steps (first columns `steps`) that the horizontal pass of `scale` left,
/// once the deferred pass has written the `ref·dis` words they read.
pub(super) fn score_steps(
    s: &StatScratch,
    steps: &[usize],
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) {
    // SAFETY: the AVX2 table, which calls this, is only handed out when the processor has
    // AVX2.
    unsafe {
        match TAPS[scale].len() {
            17 => score_steps_avx2::<9>(s, steps, scale, gain_limit, sums),
            9 => score_steps_avx2::<5>(s, steps, scale, gain_limit, sums),
            _ => score_steps_avx2::<3>(s, steps, scale, gain_limit, sums),
        }
    }
}

#[target_feature(enable = "avx2")]
unsafe fn score_steps_avx2<const P: usize>(
    s: &StatScratch,
    steps: &[usize],
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) {
    let pairs = tap_pairs::<P>(TAPS[scale]);
    let mut acc = ScoreSums::new(gain_limit);
    for &j in steps {
        // SAFETY: as in `horizontal_avx2`: the steps are ones it took.
        unsafe { step16(&s.words, &pairs, j, &mut acc, || false) };
    }
    let totals = acc.totals();
    sums.add_totals(totals[0], totals[1], totals[2], totals[3]);
}
