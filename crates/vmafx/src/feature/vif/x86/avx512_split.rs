//! AVX-512 (VNNI) twins of the split horizontal pass (`split.rs`): the fused pass of
//! `avx512` that also keeps the reference's `mu1` and `sigma1_sq`, and the distorted
//! side's pass, which filters three of the five rows and scores against the kept values,
//! dropping the denominator's sums (the kept side's stand). The filters and the scoring
//! are `avx512_score`'s; the kept values are stored in column order (the filters give even
//! and odd columns apart).

use std::arch::x86_64::*;

use super::avx2_score_loads::ScoreSums;
use super::avx512_score::{mean32, moment32, score32, square, tap_pairs, words_of};
use crate::feature::vif::split::{horizontal_dis_columns, horizontal_keep_columns};
use crate::feature::vif::stats::{StatScratch, Sums};
use crate::feature::vif::tables::TAPS;

/// The fused pass keeping `mu1` and `sigma1_sq` of columns `0..width`.
pub(super) fn horizontal_keep(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
    mu1: &mut [u32],
    sigma1: &mut [i32],
) {
    // SAFETY: this table is only handed out when the processor has AVX-512 and VNNI.
    unsafe {
        match TAPS[scale].len() {
            17 => keep_avx512::<17, 9>(s, width, scale, gain_limit, sums, mu1, sigma1),
            9 => keep_avx512::<9, 5>(s, width, scale, gain_limit, sums, mu1, sigma1),
            5 => keep_avx512::<5, 3>(s, width, scale, gain_limit, sums, mu1, sigma1),
            _ => {
                // No vertical kernel of this table writes words at this scale.
                debug_assert_eq!(s.words_done, 0);
                horizontal_keep_columns(s, 0, width, scale, gain_limit, sums, mu1, sigma1)
            }
        }
    }
}

/// The distorted side's pass against the kept `mu1` and `sigma1_sq` of columns
/// `0..width`.
pub(super) fn horizontal_dis(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
    mu1: &[u32],
    sigma1: &[i32],
) {
    // SAFETY: as for `horizontal_keep`.
    unsafe {
        match TAPS[scale].len() {
            17 => dis_avx512::<17, 9>(s, width, scale, gain_limit, sums, mu1, sigma1),
            9 => dis_avx512::<9, 5>(s, width, scale, gain_limit, sums, mu1, sigma1),
            5 => dis_avx512::<5, 3>(s, width, scale, gain_limit, sums, mu1, sigma1),
            _ => {
                debug_assert_eq!(s.words_done, 0);
                horizontal_dis_columns(s, 0, width, scale, gain_limit, sums, mu1, sigma1)
            }
        }
    }
}

/// The lanes that put (even columns, odd columns) of sixteen each back in column order:
/// the first sixteen columns, then the next sixteen.
#[inline]
#[target_feature(enable = "avx512f")]
fn interleave_indices() -> [__m512i; 2] {
    [
        _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23),
        _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31),
    ]
}

/// The lanes that take sixteen columns in order, twice, apart into (even, odd).
#[inline]
#[target_feature(enable = "avx512f")]
fn split_indices() -> [__m512i; 2] {
    [
        _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30),
        _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31),
    ]
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512bw,avx512vl,avx512vnni")]
unsafe fn keep_avx512<const N: usize, const P: usize>(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
    mu1: &mut [u32],
    sigma1: &mut [i32],
) {
    let n32 = words_of::<N>(s, width, false);
    let (mu1, sigma1) = (&mut mu1[..width], &mut sigma1[..width]);
    let pairs = tap_pairs::<P>(TAPS[scale]);
    let zero = _mm512_setzero_si512();
    let mut acc = ScoreSums::new(gain_limit);
    let order = interleave_indices();
    let [m1, m2, xh, xl, yh, yl, zh, zl] = &s.words;
    for j in (0..n32).step_by(32) {
        // SAFETY: the features are enabled here; every word array holds the row's padded
        // length plus 32, at least j + 2P + 30 <= n32 + N - 1.
        unsafe {
            let (a1, a2) = (mean32(&pairs, m1, j), mean32(&pairs, m2, j));
            let xx = moment32(&pairs, xh, xl, j);
            let yy = moment32(&pairs, yh, yl, j);
            let sig1 = [0, 1].map(|i| _mm512_sub_epi32(xx[i], square(a1[i], a1[i])));
            let sigma2 = [0, 1]
                .map(|i| _mm512_max_epi32(_mm512_sub_epi32(yy[i], square(a2[i], a2[i])), zero));
            let sigma12 = || {
                let xy = moment32(&pairs, zh, zl, j);
                [0, 1].map(|i| _mm512_sub_epi32(xy[i], square(a1[i], a2[i])))
            };
            score32(sig1, sigma2, sigma12, &mut acc);
            for (k, idx) in order.into_iter().enumerate() {
                let m = _mm512_permutex2var_epi32(a1[0], idx, a1[1]);
                let v = _mm512_permutex2var_epi32(sig1[0], idx, sig1[1]);
                let at = j + 16 * k;
                let (dm, dv) = (&mut mu1[at..at + 16], &mut sigma1[at..at + 16]);
                // SAFETY: each holds the 64 bytes written (unaligned stores).
                _mm512_storeu_si512(dm.as_mut_ptr() as *mut _, m);
                _mm512_storeu_si512(dv.as_mut_ptr() as *mut _, v);
            }
        }
    }
    let [num_log, den_log, num_flat, den_flat] = acc.totals();
    sums.add_totals(num_log, den_log, num_flat, den_flat);
    horizontal_keep_columns(s, n32, width, scale, gain_limit, sums, mu1, sigma1);
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512bw,avx512vl,avx512vnni")]
unsafe fn dis_avx512<const N: usize, const P: usize>(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
    mu1: &[u32],
    sigma1: &[i32],
) {
    let n32 = words_of::<N>(s, width, true);
    let (mu1, sigma1) = (&mu1[..width], &sigma1[..width]);
    let pairs = tap_pairs::<P>(TAPS[scale]);
    let zero = _mm512_setzero_si512();
    let mut acc = ScoreSums::new(gain_limit);
    let apart = split_indices();
    let [_, m2, _, _, yh, yl, zh, zl] = &s.words;
    for j in (0..n32).step_by(32) {
        // SAFETY: as in `keep_avx512`; the kept rows hold columns j..j + 32 <= width
        // (unaligned loads).
        unsafe {
            let kept = |p: *const u32| {
                let (a, b) = (
                    _mm512_loadu_si512(p.add(j) as *const _),
                    _mm512_loadu_si512(p.add(j + 16) as *const _),
                );
                apart.map(|idx| _mm512_permutex2var_epi32(a, idx, b))
            };
            let (a1, sig1) = (kept(mu1.as_ptr()), kept(sigma1.as_ptr() as *const u32));
            let a2 = mean32(&pairs, m2, j);
            let yy = moment32(&pairs, yh, yl, j);
            let sigma2 = [0, 1]
                .map(|i| _mm512_max_epi32(_mm512_sub_epi32(yy[i], square(a2[i], a2[i])), zero));
            let sigma12 = || {
                let xy = moment32(&pairs, zh, zl, j);
                [0, 1].map(|i| _mm512_sub_epi32(xy[i], square(a1[i], a2[i])))
            };
            score32(sig1, sigma2, sigma12, &mut acc);
        }
    }
    // The denominator's sums are the kept side's (the first rendition's pass took them).
    let [num_log, _, num_flat, _] = acc.totals();
    sums.add_totals(num_log, 0, num_flat, 0);
    horizontal_dis_columns(s, n32, width, scale, gain_limit, sums, mu1, sigma1);
}
