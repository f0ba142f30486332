//! vif's AVX2 horizontal entry: the 16-bit multiply-add pass (`avx2_madd`) at scales 0..2,
//! and at scale 3, whose taps pass 15 bits, a pass in 32-bit lanes.

use std::arch::x86_64::*;

use super::avx2_lanes32::{load8_at, taps_of};
use super::avx2_score::square;
use super::avx2_score_loads::ScoreSums;
use crate::feature::vif::stats::{horizontal_columns, StatScratch, Sums};
use crate::feature::vif::tables::MAX_HALF;

/// The horizontal pass of `scale` over columns `0..width`.
pub(super) fn horizontal(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) {
    // Scales 0..2 have taps below 2^15, as the 16-bit multiply-adds need.
    if scale <= 2 {
        return super::avx2_madd::horizontal(s, width, scale, gain_limit, sums);
    }
    // Scale 3, the last, has three taps.
    debug_assert_eq!(scale, 3);
    // SAFETY: this table is only handed out when the processor has AVX2.
    unsafe { horizontal_avx2::<3>(s, width, scale, gain_limit, sums) }
}

/// The symmetric filter `coef` over the eight positions `j..j + 8` of `r`, in wrapping
/// 32-bit lanes: each pair of mirrored taps takes one product. Wrapping sums give the
/// same bits as the scalar sum in any grouping.
///
/// # Safety
/// AVX2, and `j + N + 7 <= r.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn symmetric8<const N: usize>(coef: &[__m256i; N], r: &[u32], j: usize) -> __m256i {
    let p = r.as_ptr();
    let mut acc = _mm256_setzero_si256();
    for (k, &c) in coef.iter().take(N / 2).enumerate() {
        // SAFETY: j + k + 8 and j + N - 1 - k + 8 are at most j + N + 7 <= r.len().
        let pair =
            unsafe { _mm256_add_epi32(load8_at(p.add(j + k)), load8_at(p.add(j + N - 1 - k))) };
        acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(c, pair));
    }
    // SAFETY: as above, for the centre tap.
    let centre = unsafe { load8_at(p.add(j + N / 2)) };
    _mm256_add_epi32(acc, _mm256_mullo_epi32(coef[N / 2], centre))
}

/// `(sum + 32768) >> 16` of the filter of a moment row (32-bit values), from the filters
/// of its high and low 16-bit halves. The taps sum to 2^16, so each half's filter is below
/// `2^16 * 2^16 - 2^16` and fits a 32-bit lane unwrapped; the full sum is
/// `hi * 2^16 + lo`, whose rounded shift is `hi + ((lo + 32768) >> 16)`, below 2^32.
///
/// # Safety
/// AVX2, and `j + N + 7` at most the length of both halves.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn moment8<const N: usize>(
    coef: &[__m256i; N],
    (hi, lo): (&[u32], &[u32]),
    j: usize,
) -> __m256i {
    // SAFETY: the caller's bounds are those of `symmetric8`; AVX2 is enabled here.
    let (h, l) = unsafe { (symmetric8(coef, hi, j), symmetric8(coef, lo, j)) };
    let l = _mm256_srli_epi32::<16>(_mm256_add_epi32(l, _mm256_set1_epi32(32768)));
    _mm256_add_epi32(h, l)
}

/// Splits `src` into its high and low 16-bit halves.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn split_halves(src: &[u32], hi: &mut [u32], lo: &mut [u32]) {
    for ((&x, h), l) in src.iter().zip(hi.iter_mut()).zip(lo.iter_mut()) {
        *h = x >> 16;
        *l = x & 0xFFFF;
    }
}

/// The horizontal pass of scale 3 (taps past 15 bits) in 32-bit lanes, sixteen columns a
/// step as two halves of eight, scored as the madd pass's pixels are
/// (`avx2_score_loads`); the last columns by the scalar code.
#[target_feature(enable = "avx2")]
unsafe fn horizontal_avx2<const N: usize>(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) {
    let mut acc = ScoreSums::new(gain_limit);
    let taps = taps_of::<N>(scale);
    let first = MAX_HALF - N / 2;
    let n16 = width / 16 * 16;
    // Output columns 0..n16 read columns first..first + n16 + N - 1 of the padded rows.
    let len = n16 + N - 1;
    let span = first..first + len;
    {
        let [xh, xl, yh, yl, zh, zl] = &mut s.halves;
        // SAFETY: AVX2 is enabled here.
        unsafe {
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
    }
    let (m1, m2) = (&s.mu1.padded()[span.clone()], &s.mu2.padded()[span]);
    let [xh, xl, yh, yl, zh, zl] = &s.halves;
    let (xx, yy, xy) = (
        (&xh[..len], &xl[..len]),
        (&yh[..len], &yl[..len]),
        (&zh[..len], &zl[..len]),
    );
    let mut coef = [_mm256_setzero_si256(); N];
    for (k, &c) in taps.iter().enumerate() {
        coef[k] = _mm256_set1_epi32(c as i32);
    }
    let zero = _mm256_setzero_si256();
    for j in (0..n16).step_by(16) {
        let at = [j, j + 8];
        // The filter of a moment row over the eight columns from `at`, less the rounded
        // product of two means: a sigma.
        let sigma = |row, at, a, b| {
            // SAFETY: AVX2 is enabled here; at + N + 7 <= n16 + N - 1 = len, the length of
            // every row slice.
            unsafe { _mm256_sub_epi32(moment8(&coef, row, at), square(a, b)) }
        };
        // SAFETY: as above.
        let means = at.map(|at| unsafe { (symmetric8(&coef, m1, at), symmetric8(&coef, m2, at)) });
        let sigma1 = [0, 1].map(|h| sigma(xx, at[h], means[h].0, means[h].0));
        let sigma2 = [0, 1].map(|h| sigma(yy, at[h], means[h].1, means[h].1));
        let sigma2 = sigma2.map(|v| _mm256_max_epi32(v, zero));
        acc.add16(sigma1, sigma2, || {
            [0, 1].map(|h| sigma(xy, at[h], means[h].0, means[h].1))
        });
    }
    let totals = acc.totals();
    sums.add_totals(totals[0], totals[1], totals[2], totals[3]);
    horizontal_columns(s, n16, width, scale, gain_limit, sums);
}
