//! The pieces of the AVX-512 (VNNI) horizontal statistic passes (`avx512`'s fused one,
//! `avx512_split`'s): the filter of thirty-two columns by 16-bit dot products, the
//! rounded products of 32-bit lanes, and the scoring of thirty-two pixels by the AVX2
//! scoring's buffers.

use std::arch::x86_64::*;

use super::avx2_madd::rows_to_words;
use super::avx2_score_loads::{flat_masks, ScoreSums};
use crate::cpu::vnni::dpwssd;
use crate::feature::vif::stats::StatScratch;
use crate::feature::vif::tables::{tap_pair, MAX_HALF};

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
    // The high half's filter with 2^31 added back (as a mean's), plus the low half's share.
    // SAFETY: the caller's.
    let (h, l) = unsafe { (mean32(pairs, hi, j), moment_low32(pairs, lo, j)) };
    [0, 1].map(|i| _mm512_add_epi32(h[i], l[i]))
}

/// The low half's share of [`moment32`], `(filter + 2^31 + 32768) >> 16`, in `0..=2^16`.
///
/// # Safety
/// As for `filter32`.
#[inline]
#[target_feature(enable = "avx512f,avx512vnni")]
pub(super) unsafe fn moment_low32<const P: usize>(
    pairs: &[[__m512i; P]; 2],
    lo: &[i16],
    j: usize,
) -> [__m512i; 2] {
    let (bias, half) = (_mm512_set1_epi32(i32::MIN), _mm512_set1_epi32(32768));
    // SAFETY: the caller's.
    unsafe { filter32(pairs, lo, j) }
        .map(|v| _mm512_srli_epi32::<16>(_mm512_add_epi32(_mm512_add_epi32(v, bias), half)))
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

/// The low and high eight lanes of `v`.
#[inline]
#[target_feature(enable = "avx512f")]
fn halves(v: __m512i) -> [__m256i; 2] {
    [_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v)]
}

/// Takes thirty-two pixels (even and odd outputs, sixteen each) into `acc` from their
/// `sigma1_sq`, `sigma2_sq` (clamped at 0) and `sigma12` lanes, asking for the `sigma12`
/// lanes only when one of them is not flat: a flat pixel's score does not read it, so a
/// step of flat pixels skips its `ref·dis` filters (PERFORMANCE.md, VIF round 9). The
/// scoring is the AVX2 one (`avx2_score_loads`: compaction, scalar look-ups), which on
/// AMD's Zen 4 beat this level's own eight-lane gathers.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) fn score32(
    sigma1: [__m512i; 2],
    sigma2: [__m512i; 2],
    sigma12: impl FnOnce() -> [__m512i; 2],
    acc: &mut ScoreSums,
) {
    let (s1, s2) = (sigma1.map(|v| halves(v)), sigma2.map(|v| halves(v)));
    let masks = s1.map(|s| flat_masks(s));
    if masks.iter().all(|(_, other)| *other == [0, 0]) {
        score32_flat(sigma2, acc);
        return;
    }
    let s12 = sigma12().map(|v| halves(v));
    for i in 0..2 {
        acc.add16_masked(masks[i], s1[i], s2[i], || s12[i]);
    }
}

/// Takes thirty-two pixels known to be flat into `acc`, from their `sigma2_sq` lanes
/// (clamped at 0).
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn score32_flat(sigma2: [__m512i; 2], acc: &mut ScoreSums) {
    for s in sigma2 {
        acc.add16_flat(halves(s));
    }
}
