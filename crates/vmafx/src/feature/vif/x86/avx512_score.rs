//! The pieces of the AVX-512 (VNNI) horizontal statistic passes (`avx512`'s fused one,
//! `avx512_split`'s): the filter of thirty-two columns by 16-bit dot products, the
//! rounded products of 32-bit lanes, and the scoring of eight pixels in 64-bit lanes.

use std::arch::x86_64::*;

use super::avx2_madd::rows_to_words;
use crate::cpu::vnni::dpwssd;
use crate::feature::vif::stats::StatScratch;
use crate::feature::vif::tables::{tap_pair, MAX_HALF, SIGMA_NSQ};

/// Taps `2p` and `2p + 1` as a pair of words in every 32-bit lane (0 past the last tap),
/// for the even outputs; then taps `2p - 1` and `2p` (0 before the first), for the odd
/// outputs, which read the same dword-aligned pairs one tap later.
#[target_feature(enable = "avx512f")]
pub(super) fn tap_pairs<const P: usize>(taps: &[u16]) -> [[__m512i; P]; 2] {
    [0, 1].map(|shift| {
        std::array::from_fn(|p| _mm512_set1_epi32(tap_pair(taps, 2 * p as isize - shift)))
    })
}

/// The filter over thirty-two outputs from `w[at]` on: (even outputs, odd outputs), each
/// the sum less 2^31. Output `at + 2i + 1` is the odd taps (`pairs[1]`) over the same
/// word pairs as output `at + 2i`, so each pair vector is loaded once for both.
///
/// # Safety
/// AVX-512 with VNNI, and `w` readable up to `at + 2 * P + 30` (exclusive).
#[inline]
#[target_feature(enable = "avx512f,avx512vnni")]
pub(super) unsafe fn filter32<const P: usize>(
    pairs: &[[__m512i; P]; 2],
    w: &[i16],
    at: usize,
) -> [__m512i; 2] {
    let p = w.as_ptr();
    let (mut even, mut odd) = (_mm512_setzero_si512(), _mm512_setzero_si512());
    for (k, (&ce, &co)) in pairs[0].iter().zip(&pairs[1]).enumerate() {
        // SAFETY: at + 2k + 32 <= at + 2P + 30 words are readable (unaligned load).
        let v = unsafe { _mm512_loadu_si512(p.add(at + 2 * k) as *const _) };
        even = dpwssd(even, v, ce);
        odd = dpwssd(odd, v, co);
    }
    [even, odd]
}

/// `(a * b + 2^31) >> 32` per 32-bit lane, wrapping as the scalar code does.
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn square(a: __m512i, b: __m512i) -> __m512i {
    let round = _mm512_set1_epi64(1 << 31);
    let e = _mm512_add_epi64(_mm512_mul_epu32(a, b), round);
    let o = _mm512_mul_epu32(_mm512_srli_epi64::<32>(a), _mm512_srli_epi64::<32>(b));
    // The odd lanes' results are the high dwords of their products: already in place.
    let o = _mm512_add_epi64(o, round);
    _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64::<32>(e), o)
}

/// The four sums of the statistic in 64-bit lanes.
pub(super) struct Acc {
    pub(super) num_log: __m512i,
    pub(super) den_log: __m512i,
    pub(super) num_flat: __m512i,
    pub(super) den_flat: i64,
}

/// `log2(x) * 2048` of 64-bit lanes `x >= 2^17` from the table, as `log2_u64` gives it
/// (lanes below 2^17 give some value, read inside the table).
#[inline]
#[target_feature(enable = "avx512f,avx512cd")]
pub(super) unsafe fn log2_lanes(table: &[i32; 65536], x: __m512i) -> __m512i {
    let k = _mm512_sub_epi64(_mm512_set1_epi64(48), _mm512_lzcnt_epi64(x));
    // Masking to 16 bits keeps every gathered index inside the table.
    let index = _mm512_and_si512(_mm512_srlv_epi64(x, k), _mm512_set1_epi64(0xFFFF));
    // SAFETY: every index is below 65536, the table's length.
    let t = unsafe { _mm512_i64gather_epi32::<4>(index, table.as_ptr()) };
    _mm512_add_epi64(_mm512_cvtepi32_epi64(t), _mm512_slli_epi64::<11>(k))
}

/// Scores eight pixels from their `sigma1_sq`, `sigma2_sq` (clamped at 0) and `sigma12`.
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vl")]
pub(super) unsafe fn score8(
    s1: __m256i,
    s2: __m256i,
    s12: __m256i,
    gain: __m512d,
    table: &[i32; 65536],
    acc: &mut Acc,
) {
    const EPS: f64 = 65536.0 * 1.0e-10;
    let nsq = _mm256_set1_epi32(SIGMA_NSQ);
    let zero = _mm256_setzero_si256();
    let flat = _mm256_cmplt_epi32_mask(s1, nsq);
    acc.num_flat =
        _mm512_mask_add_epi64(acc.num_flat, flat, acc.num_flat, _mm512_cvtepi32_epi64(s2));
    acc.den_flat += flat.count_ones() as i64;
    let logged = !flat;
    // All eight flat (common in smooth areas): no logarithm to take.
    if logged == 0 {
        return;
    }
    // SAFETY: the features are enabled here.
    unsafe {
        let x = _mm512_cvtepu32_epi64(_mm256_add_epi32(s1, nsq));
        let den = _mm512_sub_epi64(log2_lanes(table, x), _mm512_set1_epi64(2048 * 17));
        acc.den_log = _mm512_mask_add_epi64(acc.den_log, logged, acc.den_log, den);
    }
    let active = logged & _mm256_cmpgt_epi32_mask(s12, zero) & _mm256_cmpgt_epi32_mask(s2, zero);
    if active == 0 {
        return;
    }
    let (s1d, s2d, s12d) = (
        _mm512_cvtepi32_pd(s1),
        _mm512_cvtepi32_pd(s2),
        _mm512_cvtepi32_pd(s12),
    );
    let g = _mm512_div_pd(s12d, _mm512_add_pd(s1d, _mm512_set1_pd(EPS)));
    // Truncation toward zero; out of range (only below, as s2 - g * s12 <= s2) gives
    // i32::MIN, which the clamp makes 0 as the scalar saturating cast does.
    let sv = _mm512_cvttpd_epi32(_mm512_sub_pd(s2d, _mm512_mul_pd(g, s12d)));
    let sv = _mm256_max_epi32(sv, zero);
    let g = _mm512_min_pd(g, gain);
    let numer = _mm512_cvtepu32_epi64(_mm256_add_epi32(sv, nsq));
    // g <= the gain limit (at most 100) keeps the product far below 2^63.
    let signal = _mm512_cvttpd_epi64(_mm512_mul_pd(_mm512_mul_pd(g, g), s1d));
    let with_signal = _mm512_add_epi64(signal, numer);
    // SAFETY: the features are enabled here.
    let num = unsafe { _mm512_sub_epi64(log2_lanes(table, with_signal), log2_lanes(table, numer)) };
    acc.num_log = _mm512_mask_add_epi64(acc.num_log, active, acc.num_log, num);
}

/// The filtered mean sums of thirty-two outputs from `w[at]` on (even, odd): the scalar
/// code's wrapping 32-bit sums (2^31 added back).
///
/// # Safety
/// As for `filter32`.
#[inline]
#[target_feature(enable = "avx512f,avx512vnni")]
pub(super) unsafe fn mean32<const P: usize>(
    pairs: &[[__m512i; P]; 2],
    w: &[i16],
    at: usize,
) -> [__m512i; 2] {
    let bias = _mm512_set1_epi32(i32::MIN);
    // SAFETY: the caller's.
    unsafe { filter32(pairs, w, at) }.map(|v| _mm512_add_epi32(v, bias))
}

/// The filter of a moment's halves brought back to the scalar code's rounded 16-bit
/// shift (see `avx2_madd`'s module note).
///
/// # Safety
/// As for `filter32`.
#[inline]
#[target_feature(enable = "avx512f,avx512vnni")]
pub(super) unsafe fn moment32<const P: usize>(
    pairs: &[[__m512i; P]; 2],
    hi: &[i16],
    lo: &[i16],
    j: usize,
) -> [__m512i; 2] {
    let bias = _mm512_set1_epi32(i32::MIN);
    let half = _mm512_set1_epi32(32768);
    // SAFETY: the caller's.
    let (h, l) = unsafe { (filter32(pairs, hi, j), filter32(pairs, lo, j)) };
    [0, 1].map(|i| {
        let l = _mm512_add_epi32(_mm512_add_epi32(l[i], bias), half);
        _mm512_add_epi32(_mm512_add_epi32(h[i], bias), _mm512_srli_epi32::<16>(l))
    })
}

/// Rewrites the scratch rows as the filters' biased words where the vertical kernel did
/// not (see `avx512::horizontal_avx512`): all eight arrays, or only the distorted side's
/// (`mu2`, `dis²`, `ref·dis`) when `distorted_only`. Gives the SIMD columns' end.
#[target_feature(enable = "avx2")]
pub(super) fn words_of<const N: usize>(
    s: &mut StatScratch,
    width: usize,
    distorted_only: bool,
) -> usize {
    let first = MAX_HALF - N / 2;
    let n32 = width / 32 * 32;
    debug_assert!(s.words_done == 0 || s.words_done == n32);
    rows_to_words(s, first, n32 + N - 1, !distorted_only);
    n32
}

/// Scores sixteen pixels' sigmas (32-bit lanes) into `acc`: [`score8`] of each half.
///
/// # Safety
/// As for `score8`.
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vl")]
pub(super) unsafe fn score16(
    sigma1: __m512i,
    sigma2: __m512i,
    sigma12: __m512i,
    gain: __m512d,
    table: &[i32; 65536],
    acc: &mut Acc,
) {
    let low = |v| _mm512_castsi512_si256(v);
    let high = |v| _mm512_extracti64x4_epi64::<1>(v);
    // SAFETY: the caller's.
    unsafe {
        score8(low(sigma1), low(sigma2), low(sigma12), gain, table, acc);
        score8(high(sigma1), high(sigma2), high(sigma12), gain, table, acc);
    }
}

/// The `sigma2_sq` lanes of sixteen flat pixels summed into 64-bit lanes.
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn flat_terms16(sigma2: __m512i) -> __m512i {
    _mm512_add_epi64(
        _mm512_cvtepi32_epi64(_mm512_castsi512_si256(sigma2)),
        _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(sigma2)),
    )
}

/// Whether all thirty-two pixels of a step (even and odd outputs) are flat.
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn all_flat(sigma1: [__m512i; 2]) -> bool {
    let nsq = _mm512_set1_epi32(SIGMA_NSQ);
    _mm512_cmplt_epi32_mask(sigma1[0], nsq) & _mm512_cmplt_epi32_mask(sigma1[1], nsq) == 0xFFFF
}

/// Scores thirty-two pixels (even and odd outputs) as [`score16`] does, asking for their
/// `sigma12` lanes only when one of them is not flat: a flat pixel's score does not read
/// it, so a step of flat pixels skips its `ref·dis` filters (as `avx2_score_loads`'s
/// `add16`; PERFORMANCE.md, VIF round 9).
///
/// # Safety
/// As for `score8`, and the features of the passes that call it: `sigma12`, a closure of
/// theirs, has them, and is inlined only into a function that has them too.
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512bw,avx512vl,avx512vnni")]
pub(super) unsafe fn score32(
    sigma1: [__m512i; 2],
    sigma2: [__m512i; 2],
    sigma12: impl FnOnce() -> [__m512i; 2],
    gain: __m512d,
    table: &[i32; 65536],
    acc: &mut Acc,
) {
    if all_flat(sigma1) {
        for s2 in sigma2 {
            acc.num_flat = _mm512_add_epi64(acc.num_flat, flat_terms16(s2));
        }
        acc.den_flat += 32;
        return;
    }
    let sigma12 = sigma12();
    for i in 0..2 {
        // SAFETY: the caller's.
        unsafe { score16(sigma1[i], sigma2[i], sigma12[i], gain, table, acc) };
    }
}
