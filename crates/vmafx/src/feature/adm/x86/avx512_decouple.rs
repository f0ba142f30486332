//! AVX-512 scale-0 decoupling: sixteen positions a step, the last step of a row moved back
//! to end at the row's end (it recomputes a few positions with the same values), so no
//! scalar tail is left; only a row narrower than sixteen takes masked loads and stores.
//!
//! The arithmetic is the AVX2 kernel's (see `avx2_decouple`): the gain's 64-bit product in
//! even and odd lanes (the shifted result fits 31 bits, so a logical shift gives the same
//! low dword), the one-degree test (from `vpmaddwd` sums, see `angle16`) and the gain
//! limit in `f64` lanes with the scalar twin's conversions and order (multiplying by
//! 2^-12 is the scalar division by 4096), or in `i32` lanes for a gain limit that is a
//! small integer (see `integral_gain`).
//! Masked-off lanes load zeros: a zero reference takes the unit gain and index 32768 of
//! the reciprocal table, which exists, and nothing of those lanes is stored.

use std::arch::x86_64::*;

use super::super::border::Region;
use super::super::decouple::{self, cos_sq_one_degree, reciprocals, Decouple};
use super::avx2_decouple::{fits, integral_gain};
use super::avx512_den::mask16;

/// Scale-0 decoupling (see [`decouple::scale0`]) with AVX-512.
pub(super) fn scale0(mut b: Decouple<'_, i16>, stride: usize, region: Region, egl: f64) {
    if !fits(&b, stride, region) {
        return decouple::scale0(b, stride, region, egl);
    }
    let (div, cos_sq) = (reciprocals(), cos_sq_one_degree());
    let gain = (egl, integral_gain(egl));
    // SAFETY: the AVX-512 table, which lists this kernel, is only handed out when the
    // processor has AVX-512 (F, BW, DQ, VL); `fits` checked that every band holds each
    // row's columns up to `right`, and the table has 65537 entries.
    unsafe { rows(&mut b, stride, region, gain, div, cos_sq) };
}

/// Calls `step(at, m)` for every row of `region`: whole sixteen-wide steps (`m` all
/// ones), every sixteenth column with the last step moved back to end at `right` (it
/// recomputes a few positions, which is harmless, as in `avx2_decouple::steps8`), or, for
/// a row narrower than sixteen, one step masked to the row. Always inlined, so that called
/// from an AVX-512 function the step inlines with its mask a constant: masked loads and
/// stores in every step cost about a third more on Zen 5.
#[inline(always)]
pub(super) fn each_step16(region: Region, stride: usize, mut step: impl FnMut(usize, __mmask16)) {
    let (left, right) = (region.left, region.right);
    for i in region.top..region.bottom {
        let row = i * stride;
        if right < left + 16 {
            step(row + left, mask16(right - left));
        } else {
            for j in (left..right).step_by(16) {
                step(row + j.min(right - 16), u16::MAX);
            }
        }
    }
}

/// The region's rows by [`each_step16`], in one AVX-512 function so that `step` inlines.
///
/// # Safety
/// AVX-512 (F, BW, DQ, VL); the bands hold the region's rows (`fits`), and `div` has 65537
/// entries.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn rows(
    b: &mut Decouple<'_, i16>,
    stride: usize,
    region: Region,
    gain: (f64, Option<i32>),
    div: &[i32],
    cos_sq: f32,
) {
    // SAFETY: the caller's; `m` selects only columns below the row's `right`.
    each_step16(region, stride, |at, m| unsafe {
        step(b, at, m, gain, div, cos_sq)
    });
}

/// Sign-extends the low 16 bits of each lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn low16(x: __m512i) -> __m512i {
    _mm512_srai_epi32::<16>(_mm512_slli_epi32::<16>(x))
}

/// The low (`HIGH = 0`) or high eight `i32` lanes of `v` as `f64`.
#[inline]
#[target_feature(enable = "avx512f")]
fn half_pd<const HIGH: i32>(v: __m512i) -> __m512d {
    _mm512_cvtepi32_pd(_mm512_extracti64x4_epi64::<HIGH>(v))
}

/// `(x as f32) as f64` of the low (`HIGH = 0`) or high eight `f32` lanes of `v`.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn half_f64<const HIGH: i32>(v: __m512) -> __m512d {
    _mm512_cvtps_pd(_mm512_extractf32x8_ps::<HIGH>(v))
}

/// The one-degree test of sixteen positions of `i16` values (in `i32` lanes). The dot
/// product and squared norms are `vpmaddwd` sums of (h, v) pairs: exact, in
/// `-2^31 < dot <= 2^31` and `0 <= |x|^2 <= 2^31` (no `i16` product reaches -2^30), so
/// the one wrapped value, -2^31, stands for 2^31, and the squares convert as unsigned.
/// Each converts to `f32` rounding to nearest, as the scalar `i64 as f32`; the test is
/// then the scalar twin's in `f64`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq")]
fn angle16(oh: __m512i, ov: __m512i, th: __m512i, tv: __m512i, cos_sq: __m512d) -> __mmask16 {
    let low = _mm512_set1_epi32(0xffff);
    let pair = |h: __m512i, v: __m512i| {
        _mm512_or_si512(_mm512_and_si512(h, low), _mm512_slli_epi32::<16>(v))
    };
    let (o, t) = (pair(oh, ov), pair(th, tv));
    let dot = _mm512_madd_epi16(o, t);
    let wrapped = _mm512_cmpeq_epi32_mask(dot, _mm512_set1_epi32(i32::MIN));
    let dot = _mm512_mask_blend_ps(
        wrapped,
        _mm512_cvtepi32_ps(dot),
        _mm512_set1_ps(2147483648.0),
    );
    let o_sq = _mm512_cvtepu32_ps(_mm512_madd_epi16(o, o));
    let t_sq = _mm512_cvtepu32_ps(_mm512_madd_epi16(t, t));
    let q = _mm512_set1_pd(1.0 / 4096.0);
    let test = |dot: __m512d, o_sq: __m512d, t_sq: __m512d| {
        let dp = _mm512_mul_pd(dot, q);
        let rhs = _mm512_mul_pd(
            _mm512_mul_pd(cos_sq, _mm512_mul_pd(o_sq, q)),
            _mm512_mul_pd(t_sq, q),
        );
        _mm512_cmp_pd_mask::<_CMP_GE_OQ>(dp, _mm512_setzero_pd())
            & _mm512_cmp_pd_mask::<_CMP_GE_OQ>(_mm512_mul_pd(dp, dp), rhs)
    };
    let lo = test(half_f64::<0>(dot), half_f64::<0>(o_sq), half_f64::<0>(t_sq));
    let hi = test(half_f64::<1>(dot), half_f64::<1>(o_sq), half_f64::<1>(t_sq));
    (lo as __mmask16) | ((hi as __mmask16) << 8)
}

/// `min(rst·egl, t)` and `max(rst·egl, t)` of sixteen lanes, truncated to `i32`.
#[inline]
#[target_feature(enable = "avx512f")]
fn limits(rst: __m512i, t: __m512i, egl: __m512d) -> (__m512i, __m512i) {
    let lo_x = _mm512_mul_pd(half_pd::<0>(rst), egl);
    let hi_x = _mm512_mul_pd(half_pd::<1>(rst), egl);
    let (lo_t, hi_t) = (half_pd::<0>(t), half_pd::<1>(t));
    let join = |a: __m512d, b: __m512d| {
        _mm512_inserti64x4::<1>(
            _mm512_castsi256_si512(_mm512_cvttpd_epi32(a)),
            _mm512_cvttpd_epi32(b),
        )
    };
    (
        join(_mm512_min_pd(lo_x, lo_t), _mm512_min_pd(hi_x, hi_t)),
        join(_mm512_max_pd(lo_x, lo_t), _mm512_max_pd(hi_x, hi_t)),
    )
}

/// The positions `p..p + 16` that `m` selects.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn step(
    b: &mut Decouple<'_, i16>,
    p: usize,
    m: __mmask16,
    (egl, gain): (f64, Option<i32>),
    div: &[i32],
    cos_sq: f32,
) {
    let zero = _mm512_setzero_si512();
    let one = _mm512_set1_epi32(32768);
    let half = _mm512_set1_epi64(16384);
    let half32 = _mm512_set1_epi32(16384);
    let egl = _mm512_set1_pd(egl);
    // The bands' sixteen values as loaded (`i16`), widened only where the step needs them.
    let load = |band: &[i16]| {
        // SAFETY: every band holds the lanes `m` selects from `p` (the caller's).
        unsafe { _mm256_maskz_loadu_epi16(m, band.as_ptr().add(p)) }
    };
    let (ro, rd) = (b.reference.map(&load), b.distorted.map(load));
    // Where the reference's three bands are 0 (flat pictures), the gain is 1 and the
    // restored values 0 whatever the angle: the additive bands are the distorted ones (as
    // in the AVX2 kernel).
    let reference = _mm256_or_si256(_mm256_or_si256(ro[0], ro[1]), ro[2]);
    if _mm256_testz_si256(reference, reference) == 1 {
        for (t, dis) in rd.into_iter().enumerate() {
            // SAFETY: as for the loads.
            unsafe {
                let restored = b.restored[t].as_mut_ptr().add(p);
                _mm256_mask_storeu_epi16(restored, m, _mm256_setzero_si256());
                _mm256_mask_storeu_epi16(b.additive[t].as_mut_ptr().add(p), m, dis);
            }
        }
        return;
    }
    let (o, d) = (
        ro.map(|v| _mm512_cvtepi16_epi32(v)),
        rd.map(|v| _mm512_cvtepi16_epi32(v)),
    );
    let angle = angle16(o[0], o[1], d[0], d[1], _mm512_set1_pd(cos_sq as f64));
    for t in 0..3 {
        let idx = _mm512_add_epi32(o[t], one);
        // SAFETY: indices are o + 32768 with o an i16, so 0..=65535 < div.len().
        let r = unsafe { _mm512_i32gather_epi32::<4>(idx, div.as_ptr()) };
        let even = _mm512_srli_epi64::<15>(_mm512_add_epi64(_mm512_mul_epi32(r, d[t]), half));
        let odd = _mm512_srli_epi64::<15>(_mm512_add_epi64(
            _mm512_mul_epi32(_mm512_srli_epi64::<32>(r), _mm512_srli_epi64::<32>(d[t])),
            half,
        ));
        let q = _mm512_mask_blend_epi32(0xaaaa, even, _mm512_slli_epi64::<32>(odd));
        let k = _mm512_min_epi32(_mm512_max_epi32(q, zero), one);
        let k = _mm512_mask_blend_epi32(_mm512_cmpeq_epi32_mask(o[t], zero), k, one);
        let rst = low16(_mm512_srai_epi32::<15>(_mm512_add_epi32(
            _mm512_mullo_epi32(k, o[t]),
            half32,
        )));
        let (min, max) = match gain {
            Some(g) => {
                let x = _mm512_mullo_epi32(rst, _mm512_set1_epi32(g));
                (_mm512_min_epi32(x, d[t]), _mm512_max_epi32(x, d[t]))
            }
            None => limits(rst, d[t], egl),
        };
        let k_pos = _mm512_cmpgt_epi32_mask(k, zero);
        let up = angle & k_pos & _mm512_cmpgt_epi32_mask(o[t], zero);
        let down = angle & k_pos & _mm512_cmplt_epi32_mask(o[t], zero);
        let rst = _mm512_mask_blend_epi32(down, rst, max);
        let rst = _mm512_mask_blend_epi32(up, rst, min);
        let add = _mm512_sub_epi32(d[t], rst);
        // SAFETY: as for the loads; the stores keep the low 16 bits of each lane.
        unsafe {
            _mm256_mask_storeu_epi16(
                b.restored[t].as_mut_ptr().add(p),
                m,
                _mm512_cvtepi32_epi16(rst),
            );
            _mm256_mask_storeu_epi16(
                b.additive[t].as_mut_ptr().add(p),
                m,
                _mm512_cvtepi32_epi16(add),
            );
        }
    }
}
