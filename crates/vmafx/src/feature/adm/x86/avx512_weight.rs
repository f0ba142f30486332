//! AVX-512 CSF weighting: scale 0 thirty-two positions a step in 16-bit lanes (the AVX2
//! kernel's arithmetic, see `avx2_weight`), scales 1..3 sixteen a step; the last partial
//! step of a row by masked loads and stores, so no scalar tail is left.
//!
//! At scales 1..3 the unsigned weight times a signed value is taken with the signed
//! `vpmuldq`: a weight of 2^31 or more reads as `rf - 2^32`, and adding `value · 2^32`
//! back restores the product modulo 2^64, which is exact because the true product fits 64
//! bits. The activity is the high dword of the unsigned `|w| · (1/30)` plus its rounding
//! term, as in the AVX2 kernel.

use std::arch::x86_64::*;

use super::super::border::Region;
use super::super::weight::{self, Weighted, ONE_BY_30_Q32, ROUND_ACTIVITY};
use super::avx2_weight::{region_fits, row0_factor};

/// The mask of the first `k` (at most 16) lanes.
#[inline]
fn mask16(k: usize) -> __mmask16 {
    ((1u32 << k.min(16)) - 1) as __mmask16
}

/// The mask of the first `k` (at most 32) lanes.
#[inline]
fn mask32(k: usize) -> __mmask32 {
    (((1u64 << k.min(32)) - 1) & 0xFFFF_FFFF) as __mmask32
}

/// The slices of all six bands, for the region check.
fn all_bands<'a, T>(src: &'a [Vec<T>; 3], out: &'a Weighted<'_, T>) -> Vec<&'a [T]> {
    src.iter()
        .chain(out.csf.iter())
        .chain(out.activity.iter())
        .map(|v| v.as_slice())
        .collect()
}

/// Scale-0 CSF weighting (see [`weight::scale0`]) with AVX-512.
pub(super) fn weight0(
    src: &[Vec<i16>; 3],
    out: Weighted<'_, i16>,
    stride: usize,
    region: Region,
    rf: [u16; 3],
) {
    if !region_fits(&all_bands(src, &out), stride, region) {
        return weight::scale0(src, out, stride, region, rf);
    }
    let w = region.right - region.left;
    for t in 0..3 {
        for i in region.top..region.bottom {
            let p = i * stride + region.left;
            let (s, c, a) = (
                &src[t][p..p + w],
                &mut out.csf[t][p..p + w],
                &mut out.activity[t][p..p + w],
            );
            // SAFETY: the AVX-512 table, which lists this kernel, is only handed out when
            // the processor has AVX-512 (F, BW, DQ, VL); the three slices hold `w` values.
            unsafe {
                if t < 2 {
                    weight0_row::<false>(s, c, a, rf[t])
                } else {
                    weight0_row::<true>(s, c, a, rf[t])
                }
            };
        }
    }
}

/// One row of the scale-0 weighting of band 0 or 1 (band 2 with `BAND2`), thirty-two
/// 16-bit lanes a step, in the arithmetic of the AVX2 kernel's `weigh16` (which says why
/// each step is exact).
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn weight0_row<const BAND2: bool>(
    src: &[i16],
    csf: &mut [i16],
    activity: &mut [i16],
    rf: u16,
) {
    let n = src.len().min(csf.len()).min(activity.len());
    let (factor, high) = row0_factor(rf, BAND2);
    let factor = _mm512_set1_epi16(factor);
    let add_x = _mm512_set1_epi16(if high { -1 } else { 0 });
    let (zero, one) = (_mm512_setzero_si512(), _mm512_set1_epi16(1));
    let activity_factor = _mm512_set1_epi16(2184);
    let mut j = 0;
    while j < n {
        let m = mask32(n - j);
        // SAFETY: src holds `n` values; the mask reads none at or past `n`.
        let x = unsafe { _mm512_maskz_loadu_epi16(m, src.as_ptr().add(j)) };
        let added = _mm512_and_si512(x, add_x);
        let c = if BAND2 {
            let floor = _mm512_add_epi16(_mm512_mulhi_epi16(x, factor), added);
            let inexact = _mm512_cmpneq_epi16_mask(_mm512_mullo_epi16(x, factor), zero);
            _mm512_srai_epi16::<1>(_mm512_mask_add_epi16(floor, inexact, floor, one))
        } else {
            _mm512_add_epi16(added, _mm512_mulhrs_epi16(x, factor))
        };
        let u = _mm512_abs_epi16(c);
        let act = _mm512_add_epi16(u, _mm512_abs_epi16(_mm512_mulhrs_epi16(u, activity_factor)));
        // SAFETY: csf and activity hold `n` values; the masks store none at or past `n`.
        unsafe {
            _mm512_mask_storeu_epi16(csf.as_mut_ptr().add(j), m, c);
            _mm512_mask_storeu_epi16(activity.as_mut_ptr().add(j), m, act);
        }
        j += 32;
    }
}

/// Scale-1..3 CSF weighting (see [`weight::scale123`]) with AVX-512.
pub(super) fn weight123(
    src: &[Vec<i32>; 3],
    out: Weighted<'_, i32>,
    stride: usize,
    region: Region,
    rf: [u32; 3],
) {
    if !region_fits(&all_bands(src, &out), stride, region) {
        return weight::scale123(src, out, stride, region, rf);
    }
    let w = region.right - region.left;
    for t in 0..3 {
        for i in region.top..region.bottom {
            let p = i * stride + region.left;
            let (s, c, a) = (
                &src[t][p..p + w],
                &mut out.csf[t][p..p + w],
                &mut out.activity[t][p..p + w],
            );
            // SAFETY: the AVX-512 table, which lists this kernel, is only handed out when
            // the processor has AVX-512 (F, BW, DQ, VL); the three slices hold `w` values.
            unsafe { weight123_row(s, c, a, rf[t]) };
        }
    }
}

/// `(x · rf) as i64` in the 64-bit lanes of `x`'s low dwords (`rf` unsigned), given
/// `x_high`, `x` times 2^32 modulo 2^64.
#[inline]
#[target_feature(enable = "avx512f")]
fn times_unsigned(x: __m512i, x_high: __m512i, rf: __m512i, wide: bool) -> __m512i {
    let p = _mm512_mul_epi32(x, rf);
    if wide {
        _mm512_add_epi64(p, x_high)
    } else {
        p
    }
}

/// One row of the scale-1..3 weighting.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn weight123_row(src: &[i32], csf: &mut [i32], activity: &mut [i32], rf: u32) {
    let n = src.len().min(csf.len()).min(activity.len());
    // A weight of 2^31 or more reads as negative in `vpmuldq`; the product gets
    // `x · 2^32` added back.
    let wide = rf >= 1 << 31;
    let rf = _mm512_set1_epi32(rf as i32);
    let one_by_30 = _mm512_set1_epi64(ONE_BY_30_Q32);
    let round_w = _mm512_set1_epi64(1 << 27);
    let round_a = _mm512_set1_epi64(ROUND_ACTIVITY);
    let high = _mm512_set1_epi64(!0xffff_ffff);
    let mut j = 0;
    while j < n {
        let m = mask16(n - j);
        // SAFETY: src holds `n` values; the mask reads none at or past `n`.
        let x = unsafe { _mm512_maskz_loadu_epi32(m, src.as_ptr().add(j)) };
        let odd = _mm512_srli_epi64::<32>(x);
        let even = times_unsigned(x, _mm512_slli_epi64::<32>(x), rf, wide);
        let odd = times_unsigned(odd, _mm512_and_si512(x, high), rf, wide);
        // Bits 28..59 of each rounded product: the low dword of either shift.
        let even = _mm512_srli_epi64::<28>(_mm512_add_epi64(even, round_w));
        let odd = _mm512_srli_epi64::<28>(_mm512_add_epi64(odd, round_w));
        let c = _mm512_mask_blend_epi32(0xaaaa, even, _mm512_slli_epi64::<32>(odd));
        // |i32::MIN| reads as 2^31 in the unsigned product.
        let a = _mm512_abs_epi32(c);
        let even = _mm512_add_epi64(_mm512_mul_epu32(a, one_by_30), round_a);
        let odd = _mm512_add_epi64(
            _mm512_mul_epu32(_mm512_srli_epi64::<32>(a), one_by_30),
            round_a,
        );
        let act = _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64::<32>(even), odd);
        // SAFETY: csf and activity hold `n` values; the masks store none at or past `n`.
        unsafe {
            _mm512_mask_storeu_epi32(csf.as_mut_ptr().add(j), m, c);
            _mm512_mask_storeu_epi32(activity.as_mut_ptr().add(j), m, act);
        }
        j += 16;
    }
}
