//! AVX-512 scale-1..3 decoupling: sixteen positions a step, the 64-bit gains and
//! restorations in native 64-bit lanes (products, arithmetic shifts, clamps), the angle
//! test and gain limit in eight-lane `f64` halves.
//!
//! As in the AVX2 kernel, a step runs only where every reference and distorted value of
//! the three bands lies below 2^24 in magnitude (else the scalar twin does those
//! positions): there the divisor's leading bits come exactly from its `f32` exponent, the
//! angle test's `f64` products and sums are exact (so `cvtpd_ps` rounds them as the
//! scalar `i64 as f32` does), multiplying by 2^-12 equals the scalar division by 4096, and
//! every 64-bit product fits.

use std::arch::x86_64::*;

use super::super::border::Region;
use super::super::decouple::{self, cos_sq_one_degree, reciprocals, scale123_at, Decouple};
use super::avx2_decouple::fits;

/// Scale-1..3 decoupling (see [`decouple::scale123`]) with AVX-512.
pub fn scale123(mut b: Decouple<'_, i32>, stride: usize, region: Region, egl: f64) {
    if !fits(&b, stride, region) {
        return decouple::scale123(b, stride, region, egl);
    }
    let div = reciprocals();
    let cos_sq = cos_sq_one_degree();
    for i in region.top..region.bottom {
        let row = i * stride;
        let mut j = region.left;
        while j + 16 <= region.right {
            // SAFETY: the AVX-512 table, which lists this kernel, is only handed out when
            // the processor has AVX-512 (F, BW, DQ, VL); `fits` checked that every band
            // holds this row's columns up to `right > j + 15`, and the table has 65537
            // entries.
            let done = unsafe { step(&mut b, row + j, egl, div, cos_sq) };
            if !done {
                // A value out of range: the eight-lane kernel (or the scalar twin) per half.
                eight(&mut b, row + j, egl, div, cos_sq);
                eight(&mut b, row + j + 8, egl, div, cos_sq);
            }
            j += 16;
        }
        if j + 8 <= region.right {
            eight(&mut b, row + j, egl, div, cos_sq);
            j += 8;
        }
        for p in row + j..row + region.right {
            scale123_at(&mut b, p, egl, div, cos_sq);
        }
    }
}

/// Eight positions from `p` by the AVX2 step, or by the scalar twin where a value is out
/// of its range. The caller makes sure every band holds `p + 8` values.
fn eight(b: &mut Decouple<'_, i32>, p: usize, egl: f64, div: &[i32], cos_sq: f32) {
    // SAFETY: AVX2 comes with AVX-512, which the caller's table was chosen for; the bands
    // hold `p + 8` values.
    let done = unsafe { super::avx2_decouple123::step(b, p, egl, div, cos_sq) };
    if !done {
        for q in p..p + 8 {
            scale123_at(b, q, egl, div, cos_sq);
        }
    }
}

/// The low (`HIGH = 0`) or high eight `i32` lanes of `v`.
#[inline]
#[target_feature(enable = "avx512f")]
fn half<const HIGH: i32>(v: __m512i) -> __m256i {
    _mm512_extracti64x4_epi64::<HIGH>(v)
}

/// `(x as f32) as f64`.
#[inline]
#[target_feature(enable = "avx512f")]
fn via_f32(x: __m512d) -> __m512d {
    _mm512_cvtps_pd(_mm512_cvtpd_ps(x))
}

/// The one-degree test of eight positions (`f64` lanes of the four components).
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn angle8(o: [__m256i; 2], t: [__m256i; 2], cos_sq: __m512d) -> __mmask8 {
    let q = _mm512_set1_pd(1.0 / 4096.0);
    let [oh, ov, th, tv] = [o[0], o[1], t[0], t[1]].map(|v| _mm512_cvtepi32_pd(v));
    let dot = _mm512_add_pd(_mm512_mul_pd(oh, th), _mm512_mul_pd(ov, tv));
    let o_sq = _mm512_add_pd(_mm512_mul_pd(oh, oh), _mm512_mul_pd(ov, ov));
    let t_sq = _mm512_add_pd(_mm512_mul_pd(th, th), _mm512_mul_pd(tv, tv));
    let dp = _mm512_mul_pd(via_f32(dot), q);
    let rhs = _mm512_mul_pd(
        _mm512_mul_pd(cos_sq, _mm512_mul_pd(via_f32(o_sq), q)),
        _mm512_mul_pd(via_f32(t_sq), q),
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
    egl: __m512d,
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
    let rst = _mm512_cvtepi64_epi32(rst64);
    // The gain limit: C's MIN / MAX in double, then truncation.
    let x = _mm512_mul_pd(_mm512_cvtepi32_pd(rst), egl);
    let t = _mm512_cvtepi32_pd(d);
    let (min, max) = (
        _mm512_cvttpd_epi32(_mm512_min_pd(x, t)),
        _mm512_cvttpd_epi32(_mm512_max_pd(x, t)),
    );
    let k_pos = _mm512_cmpgt_epi64_mask(k, _mm512_setzero_si512());
    let zero = _mm256_setzero_si256();
    let up = angle & k_pos & _mm256_cmpgt_epi32_mask(o, zero);
    let down = angle & k_pos & _mm256_cmpgt_epi32_mask(zero, o);
    let rst = _mm256_mask_blend_epi32(down, rst, max);
    let rst = _mm256_mask_blend_epi32(up, rst, min);
    (rst, _mm256_sub_epi32(d, rst))
}

/// Sixteen positions from `p`; false (nothing written) where a value is out of range.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn step(b: &mut Decouple<'_, i32>, p: usize, egl: f64, div: &[i32], cos_sq: f32) -> bool {
    let zero = _mm512_setzero_si512();
    let mut o = [zero; 3];
    let mut d = [zero; 3];
    let mut any = zero;
    for t in 0..3 {
        // SAFETY: every band holds more than `p + 15` values (the caller's `fits`).
        unsafe {
            o[t] = _mm512_loadu_si512(b.reference[t].as_ptr().add(p) as *const _);
            d[t] = _mm512_loadu_si512(b.distorted[t].as_ptr().add(p) as *const _);
        }
        any = _mm512_or_si512(any, _mm512_abs_epi32(o[t]));
        any = _mm512_or_si512(any, _mm512_abs_epi32(d[t]));
    }
    // |x| of i32::MIN stays negative, so its top bit is caught too.
    if _mm512_test_epi32_mask(any, _mm512_set1_epi32(!0x00ff_ffff)) != 0 {
        return false;
    }
    let cos = _mm512_set1_pd(cos_sq as f64);
    let egl = _mm512_set1_pd(egl);
    let angle = [
        angle8(
            [half::<0>(o[0]), half::<0>(o[1])],
            [half::<0>(d[0]), half::<0>(d[1])],
            cos,
        ),
        angle8(
            [half::<1>(o[0]), half::<1>(o[1])],
            [half::<1>(d[0]), half::<1>(d[1])],
            cos,
        ),
    ];
    for t in 0..3 {
        let abs = _mm512_abs_epi32(o[t]);
        // floor(log2 |o|) from the exact f32 exponent (-127 for 0).
        let exp = _mm512_sub_epi32(
            _mm512_srli_epi32::<23>(_mm512_castps_si512(_mm512_cvtepi32_ps(abs))),
            _mm512_set1_epi32(127),
        );
        let shift = _mm512_max_epi32(_mm512_sub_epi32(exp, _mm512_set1_epi32(14)), zero);
        let round = _mm512_srli_epi32::<1>(_mm512_sllv_epi32(_mm512_set1_epi32(1), shift));
        let msb = _mm512_srlv_epi32(_mm512_add_epi32(abs, round), shift);
        let negative = _mm512_cmplt_epi32_mask(o[t], zero);
        let signed = _mm512_mask_sub_epi32(msb, negative, zero, msb);
        let idx = _mm512_add_epi32(_mm512_set1_epi32(32768), signed);
        // SAFETY: msb <= 32768, so the index lies in 0..=65536 < div.len().
        let r = unsafe { _mm512_i32gather_epi32::<4>(idx, div.as_ptr()) };
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
            _mm512_storeu_si512(b.restored[t].as_mut_ptr().add(p) as *mut _, rst);
            _mm512_storeu_si512(b.additive[t].as_mut_ptr().add(p) as *mut _, add);
        }
    }
    true
}
