//! AVX2 twins of the split horizontal pass (`split.rs`) at scales 0..2, on the 16-bit
//! multiply-adds of `avx2_madd`: the fused pass that also keeps the reference's `mu1`
//! and `sigma1_sq`, and the distorted side's pass, which filters three of the five rows
//! and scores against the kept values. The scoring is `avx2_score_loads`' whole; the
//! distorted side's pass drops the denominator's sums it gives (the first rendition's
//! stand). The kept values are stored in column order (the filters give even and odd
//! columns apart).

use std::arch::x86_64::*;

use super::avx2_madd::{mean16, moment16, rows_to_words, tap_pairs};
use super::avx2_score::square;
use super::avx2_score_loads::ScoreSums;
use crate::feature::vif::split::{horizontal_dis_columns, horizontal_keep_columns};
use crate::feature::vif::stats::{StatScratch, Sums};
use crate::feature::vif::tables::{MAX_HALF, TAPS};

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
    let k = (&mut *mu1, &mut *sigma1);
    // SAFETY: the AVX2 table, which lists this kernel, is only handed out when the
    // processor has AVX2.
    unsafe {
        match TAPS[scale].len() {
            17 => split_avx2::<17, 9, true>(s, width, scale, gain_limit, sums, Kept::Write(k)),
            9 => split_avx2::<9, 5, true>(s, width, scale, gain_limit, sums, Kept::Write(k)),
            5 => split_avx2::<5, 3, true>(s, width, scale, gain_limit, sums, Kept::Write(k)),
            _ => horizontal_keep_columns(s, 0, width, scale, gain_limit, sums, mu1, sigma1),
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
    let k = Kept::Read(mu1, sigma1);
    // SAFETY: as for `horizontal_keep`.
    unsafe {
        match TAPS[scale].len() {
            17 => split_avx2::<17, 9, false>(s, width, scale, gain_limit, sums, k),
            9 => split_avx2::<9, 5, false>(s, width, scale, gain_limit, sums, k),
            5 => split_avx2::<5, 3, false>(s, width, scale, gain_limit, sums, k),
            _ => horizontal_dis_columns(s, 0, width, scale, gain_limit, sums, mu1, sigma1),
        }
    }
}

/// The reference's kept values of a row: written by the first rendition, read by the
/// next.
enum Kept<'a> {
    Write((&'a mut [u32], &'a mut [i32])),
    Read(&'a [u32], &'a [i32]),
}

/// Sixteen columns (even, odd) back in column order: the first eight, the next eight.
#[inline]
#[target_feature(enable = "avx2")]
fn in_order(even: __m256i, odd: __m256i) -> [__m256i; 2] {
    let (lo, hi) = (
        _mm256_unpacklo_epi32(even, odd),
        _mm256_unpackhi_epi32(even, odd),
    );
    [
        _mm256_permute2x128_si256::<0x20>(lo, hi),
        _mm256_permute2x128_si256::<0x31>(lo, hi),
    ]
}

/// Sixteen columns from `p` (readable), apart into (even, odd).
///
/// # Safety
/// AVX2, and sixteen lanes from `p` readable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn apart(p: *const u32) -> [__m256i; 2] {
    let idx = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    // SAFETY: the caller's (unaligned loads).
    let (a, b) = unsafe {
        (
            _mm256_loadu_si256(p as *const __m256i),
            _mm256_loadu_si256(p.add(8) as *const __m256i),
        )
    };
    let (a, b) = (
        _mm256_permutevar8x32_epi32(a, idx),
        _mm256_permutevar8x32_epi32(b, idx),
    );
    [
        _mm256_permute2x128_si256::<0x20>(a, b),
        _mm256_permute2x128_si256::<0x31>(a, b),
    ]
}

#[target_feature(enable = "avx2")]
unsafe fn split_avx2<const N: usize, const P: usize, const KEEP: bool>(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
    mut kept: Kept<'_>,
) {
    let first = MAX_HALF - N / 2;
    let n16 = width / 16 * 16;
    let len = n16 + N - 1;
    rows_to_words(s, first, len, KEEP);
    let pairs = tap_pairs::<P>(TAPS[scale]);
    let mut acc = ScoreSums::new(gain_limit);
    let zero = _mm256_setzero_si256();
    let [m1, m2, xh, xl, yh, yl, zh, zl] = &s.words;
    for j in (0..n16).step_by(16) {
        // SAFETY: AVX2 is enabled here; every word array holds the row's padded length
        // plus 32, more than j + 2P + 15 <= n16 + N; the kept rows hold columns
        // j..j + 16 <= width.
        unsafe {
            let mean = |w: &[i16]| mean16(&pairs, w, j);
            let moment = |hi: &[i16], lo: &[i16]| moment16(&pairs, hi, lo, j);
            let (a1, sig1) = match &mut kept {
                Kept::Read(m, v) => {
                    assert!(j + 16 <= m.len() && j + 16 <= v.len());
                    let (m, v) = (m[j..].as_ptr(), v[j..].as_ptr() as *const u32);
                    (apart(m), apart(v))
                }
                Kept::Write(_) => {
                    let (a1, xx) = (mean(m1), moment(xh, xl));
                    let sig = [0, 1].map(|i| _mm256_sub_epi32(xx[i], square(a1[i], a1[i])));
                    (a1, sig)
                }
            };
            if let Kept::Write((m, v)) = &mut kept {
                for (k, (a, b)) in in_order(a1[0], a1[1])
                    .into_iter()
                    .zip(in_order(sig1[0], sig1[1]))
                    .enumerate()
                {
                    let at = j + 8 * k;
                    let (dm, dv) = (&mut m[at..at + 8], &mut v[at..at + 8]);
                    _mm256_storeu_si256(dm.as_mut_ptr() as *mut __m256i, a);
                    _mm256_storeu_si256(dv.as_mut_ptr() as *mut __m256i, b);
                }
            }
            let a2 = mean(m2);
            let yy = moment(yh, yl);
            let sigma2 = [0, 1]
                .map(|i| _mm256_max_epi32(_mm256_sub_epi32(yy[i], square(a2[i], a2[i])), zero));
            acc.add16(sig1, sigma2, || {
                let xy = moment(zh, zl);
                [0, 1].map(|i| _mm256_sub_epi32(xy[i], square(a1[i], a2[i])))
            });
        }
    }
    let [num_log, den_log, num_flat, den_flat] = acc.totals();
    match kept {
        Kept::Write((m, v)) => {
            sums.add_totals(num_log, den_log, num_flat, den_flat);
            horizontal_keep_columns(s, n16, width, scale, gain_limit, sums, m, v);
        }
        Kept::Read(m, v) => {
            sums.add_totals(num_log, 0, num_flat, 0);
            horizontal_dis_columns(s, n16, width, scale, gain_limit, sums, m, v);
        }
    }
}
