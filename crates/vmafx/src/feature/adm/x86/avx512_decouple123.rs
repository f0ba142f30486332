//! AVX-512 scale-1..3 decoupling: sixteen positions a step (the last step of a row moved
//! back to end at the row's end; only a row narrower than sixteen is masked, and its
//! masked-off lanes load zeros, whose gain is the unit one),
//! the 64-bit gains and restorations in native 64-bit lanes (products, arithmetic shifts,
//! clamps), the angle test and gain limit in eight-lane halves.
//!
//! Every `i32` input takes the vector step, with the scalar twin's values:
//! * the divisor's leading bits come from the exponent of `|o|` converted to `f32`
//!   rounding toward zero (so the exponent is never rounded up), as unsigned (so
//!   `|i32::MIN|` is 2^31);
//! * the angle test's dot product and squared norms are exact 64-bit integers (products
//!   of 32-bit values), converted to `f32` with `vcvtqq2ps` exactly as the scalar
//!   `i64 as f32` (round to nearest even), and multiplying by 2^-12 equals the scalar
//!   division by 4096;
//! * every 64-bit product fits (reciprocals below 2^31 times 32-bit values);
//! * the gain limit takes the minimum (maximum) of a non-negative (non-positive) product
//!   and the distorted value, so it lies in `i32`'s range and the truncating conversion
//!   is the scalar cast; an integral limit below 2^16 is applied in 64-bit integer lanes
//!   (the `f64` product is exact there).

use std::arch::x86_64::*;

use super::super::border::Region;
use super::super::decouple::{self, cos_sq_one_degree, Decouple};
use super::avx2_decouple::{fits, integral_gain};
use super::avx512_decouple::each_step16;

/// Scale-1..3 decoupling (see [`decouple::scale123`]) with AVX-512.
pub(super) fn scale123(mut b: Decouple<'_, i32>, stride: usize, region: Region, egl: f64) {
    if !fits(&b, stride, region) {
        return decouple::scale123(b, stride, region, egl);
    }
    let cos_sq = cos_sq_one_degree();
    let gain = (egl, integral_gain(egl));
    // SAFETY: as in `avx512_decouple::scale0`: AVX-512 is present, and `fits` checked
    // that the bands hold each row's columns up to `right`.
    unsafe { rows(&mut b, stride, region, gain, cos_sq) };
}

/// The region's rows by [`each_step16`], in one AVX-512 function so that `step` inlines
/// (as `avx512_decouple::rows`).
///
/// # Safety
/// AVX-512 (F, BW, DQ, VL), and the bands hold the region's rows (`fits`).
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn rows(
    b: &mut Decouple<'_, i32>,
    stride: usize,
    region: Region,
    gain: (f64, Option<i32>),
    cos_sq: f32,
) {
    // SAFETY: the caller's; `m` selects only columns below the row's `right`.
    each_step16(region, stride, |at, m| unsafe {
        step(b, at, m, gain, cos_sq)
    });
}

/// The low (`HIGH = 0`) or high eight `i32` lanes of `v`.
#[inline]
#[target_feature(enable = "avx512f")]
fn half<const HIGH: i32>(v: __m512i) -> __m256i {
    _mm512_extracti64x4_epi64::<HIGH>(v)
}

/// `(x as f32) as f64` of eight exact 64-bit integers.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn i64_via_f32(x: __m512i) -> __m512d {
    _mm512_cvtps_pd(_mm512_cvtepi64_ps(x))
}

/// The one-degree test of eight positions of any `i32` values (see the module notes).
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn angle8_wide(o: [__m256i; 2], t: [__m256i; 2], cos_sq: __m512d) -> __mmask8 {
    let q = _mm512_set1_pd(1.0 / 4096.0);
    let [oh, ov, th, tv] = [o[0], o[1], t[0], t[1]].map(|v| _mm512_cvtepi32_epi64(v));
    let dot = _mm512_add_epi64(_mm512_mul_epi32(oh, th), _mm512_mul_epi32(ov, tv));
    let o_sq = _mm512_add_epi64(_mm512_mul_epi32(oh, oh), _mm512_mul_epi32(ov, ov));
    let t_sq = _mm512_add_epi64(_mm512_mul_epi32(th, th), _mm512_mul_epi32(tv, tv));
    let dp = _mm512_mul_pd(i64_via_f32(dot), q);
    let rhs = _mm512_mul_pd(
        _mm512_mul_pd(cos_sq, _mm512_mul_pd(i64_via_f32(o_sq), q)),
        _mm512_mul_pd(i64_via_f32(t_sq), q),
    );
    _mm512_cmp_pd_mask::<_CMP_GE_OQ>(dp, _mm512_setzero_pd())
        & _mm512_cmp_pd_mask::<_CMP_GE_OQ>(_mm512_mul_pd(dp, dp), rhs)
}

/// Eight positions of one band: (restored, additive) from reference `o`, distorted `d`,
/// gathered reciprocal `r`, its shift `s` and the angle mask.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512vl")]
fn band8(
    (o, d, r, s): (__m256i, __m256i, __m256i, __m256i),
    angle: __mmask8,
    (egl, gain): (__m512d, Option<__m512i>),
) -> (__m256i, __m256i) {
    let [o64, d64, r64, s64] = [o, d, r, s].map(|v| _mm512_cvtepi32_epi64(v));
    let one = _mm512_set1_epi64(1);
    let x = _mm512_add_epi64(
        _mm512_mul_epi32(r64, d64),
        _mm512_sllv_epi64(one, _mm512_add_epi64(s64, _mm512_set1_epi64(14))),
    );
    let k = _mm512_srav_epi64(x, _mm512_add_epi64(s64, _mm512_set1_epi64(15)));
    let k = _mm512_min_epi64(
        _mm512_max_epi64(k, _mm512_setzero_si512()),
        _mm512_set1_epi64(32768),
    );
    let zero_o = _mm512_cmpeq_epi64_mask(o64, _mm512_setzero_si512());
    let k = _mm512_mask_blend_epi64(zero_o, k, _mm512_set1_epi64(32768));
    let rst64 = _mm512_srai_epi64::<15>(_mm512_add_epi64(
        _mm512_mul_epi32(k, o64),
        _mm512_set1_epi64(16384),
    ));
    let k_pos = _mm512_cmpgt_epi64_mask(k, _mm512_setzero_si512());
    let zero = _mm256_setzero_si256();
    let up = angle & k_pos & _mm256_cmpgt_epi32_mask(o, zero);
    let down = angle & k_pos & _mm256_cmpgt_epi32_mask(zero, o);
    let rst = match gain {
        // An integral limit (see `integral_gain`): exact 64-bit products, minima, maxima.
        Some(g) => {
            let x = _mm512_mul_epi32(rst64, g);
            let rst64 = _mm512_mask_blend_epi64(down, rst64, _mm512_max_epi64(x, d64));
            _mm512_cvtepi64_epi32(_mm512_mask_blend_epi64(up, rst64, _mm512_min_epi64(x, d64)))
        }
        // C's MIN / MAX in double, then truncation.
        None => {
            let rst = _mm512_cvtepi64_epi32(rst64);
            let x = _mm512_mul_pd(_mm512_cvtepi32_pd(rst), egl);
            let t = _mm512_cvtepi32_pd(d);
            let (min, max) = (
                _mm512_cvttpd_epi32(_mm512_min_pd(x, t)),
                _mm512_cvttpd_epi32(_mm512_max_pd(x, t)),
            );
            let rst = _mm256_mask_blend_epi32(down, rst, max);
            _mm256_mask_blend_epi32(up, rst, min)
        }
    };
    (rst, _mm256_sub_epi32(d, rst))
}

/// The reciprocal table's entry `32768 + m`, `2^30 / m` truncated, of sixteen lanes `m` in
/// `1..=32768` (anything for 0, whose gain is replaced), by `f64` division, exact as in
/// `avx2_decouple123::reciprocal`. A gather of the table's entries costs more (the
/// indices come late and spread over the table): on Zen 4 this kernel with the gather was
/// slower than its AVX2 twin.
#[inline]
#[target_feature(enable = "avx512f")]
fn reciprocal(m: __m512i) -> __m512i {
    let num = _mm512_set1_pd((1u32 << 30) as f64);
    let lo = _mm512_div_pd(num, _mm512_cvtepi32_pd(half::<0>(m)));
    let hi = _mm512_div_pd(num, _mm512_cvtepi32_pd(half::<1>(m)));
    _mm512_inserti64x4::<1>(
        _mm512_castsi256_si512(_mm512_cvttpd_epi32(lo)),
        _mm512_cvttpd_epi32(hi),
    )
}

/// The positions `p..p + 16` that `m` selects.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn step(
    b: &mut Decouple<'_, i32>,
    p: usize,
    m: __mmask16,
    (egl, gain): (f64, Option<i32>),
    cos_sq: f32,
) {
    let zero = _mm512_setzero_si512();
    let mut o = [zero; 3];
    let mut d = [zero; 3];
    for t in 0..3 {
        // SAFETY: every band holds the lanes `m` selects from `p` (the caller's).
        unsafe {
            o[t] = _mm512_maskz_loadu_epi32(m, b.reference[t].as_ptr().add(p));
            d[t] = _mm512_maskz_loadu_epi32(m, b.distorted[t].as_ptr().add(p));
        }
    }
    // Where the reference's three bands are 0 (flat pictures), the gain is 1 and the
    // restored values 0 whatever the angle: the additive bands are the distorted ones (as
    // in the AVX2 kernels).
    let reference = _mm512_or_si512(_mm512_or_si512(o[0], o[1]), o[2]);
    if _mm512_test_epi32_mask(reference, reference) == 0 {
        for (t, dis) in d.into_iter().enumerate() {
            // SAFETY: as for the loads.
            unsafe {
                _mm512_mask_storeu_epi32(b.restored[t].as_mut_ptr().add(p), m, zero);
                _mm512_mask_storeu_epi32(b.additive[t].as_mut_ptr().add(p), m, dis);
            }
        }
        return;
    }
    let cos = _mm512_set1_pd(cos_sq as f64);
    let egl = (
        _mm512_set1_pd(egl),
        gain.map(|g| _mm512_set1_epi64(g as i64)),
    );
    let angle = [
        angle8_wide(
            [half::<0>(o[0]), half::<0>(o[1])],
            [half::<0>(d[0]), half::<0>(d[1])],
            cos,
        ),
        angle8_wide(
            [half::<1>(o[0]), half::<1>(o[1])],
            [half::<1>(d[0]), half::<1>(d[1])],
            cos,
        ),
    ];
    for t in 0..3 {
        let abs = _mm512_abs_epi32(o[t]);
        // floor(log2 |o|) from the exponent of |o| (unsigned) rounded toward zero to
        // f32 (-127 for 0).
        let toward_zero =
            _mm512_cvt_roundepu32_ps::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(abs);
        let exp = _mm512_sub_epi32(
            _mm512_srli_epi32::<23>(_mm512_castps_si512(toward_zero)),
            _mm512_set1_epi32(127),
        );
        let shift = _mm512_max_epi32(_mm512_sub_epi32(exp, _mm512_set1_epi32(14)), zero);
        let round = _mm512_srli_epi32::<1>(_mm512_sllv_epi32(_mm512_set1_epi32(1), shift));
        let msb = _mm512_srlv_epi32(_mm512_add_epi32(abs, round), shift);
        let negative = _mm512_cmplt_epi32_mask(o[t], zero);
        let r = reciprocal(msb);
        let r = _mm512_mask_sub_epi32(r, negative, zero, r);
        let parts = |h: usize| {
            let pick = |v: __m512i| if h == 0 { half::<0>(v) } else { half::<1>(v) };
            band8(
                (pick(o[t]), pick(d[t]), pick(r), pick(shift)),
                angle[h],
                egl,
            )
        };
        let ((r0, a0), (r1, a1)) = (parts(0), parts(1));
        let rst = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(r0), r1);
        let add = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(a0), a1);
        // SAFETY: as for the loads.
        unsafe {
            _mm512_mask_storeu_epi32(b.restored[t].as_mut_ptr().add(p), m, rst);
            _mm512_mask_storeu_epi32(b.additive[t].as_mut_ptr().add(p), m, add);
        }
    }
}
