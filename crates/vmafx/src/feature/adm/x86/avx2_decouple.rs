//! AVX2 scale-0 decoupling: eight positions a step.
//!
//! The gain `k` uses a gathered reciprocal; its 64-bit product is formed in even and odd
//! lanes (the shifted result fits 31 bits, so a logical 64-bit shift gives the same low
//! dword). The one-degree test and the gain limit run in `f64` lanes with the scalar
//! twin's conversions and operation order (products below 2^53 are exact; `f32` rounding
//! of the dot products is `cvtpd_ps`); `min_pd`/`max_pd` are C's `x < t ? x : t` and
//! `x > t ? x : t`, and the limited values always lie in `i16`'s range, so truncation is
//! exact. An integral gain limit (see [`integral_gain`]) is applied in `i32` lanes. The
//! one-degree test multiplies by 2^-12 (the scalar division by 4096, exactly).

use std::arch::x86_64::*;

use super::super::border::Region;
use super::super::decouple::{self, cos_sq_one_degree, reciprocals, scale0_at, Decouple};

/// Whether every band holds the region's rows.
pub(super) fn fits<T>(b: &Decouple<'_, T>, stride: usize, r: Region) -> bool {
    if r.top >= r.bottom || r.left >= r.right {
        return true;
    }
    let need = (r.bottom - 1)
        .checked_mul(stride)
        .and_then(|o| o.checked_add(r.right));
    r.right <= stride
        && need.is_some_and(|n| {
            let read = b.reference.iter().chain(&b.distorted).map(|v| v.len());
            let written = b.restored.iter().chain(&b.additive).map(|v| v.len());
            read.chain(written).all(|len| len >= n)
        })
}

/// The gain limit as an integer, where it is one in `0..2^16`: then `rst · egl` is exact
/// in `i32` lanes at scale 0 (|rst| <= 2^15) and in `f64` and 64-bit lanes at scales 1..3,
/// and the limits lie in the band's range (`rst · egl` has the sign of `rst`, so the
/// minimum with `t` where `rst >= 0`, or the maximum where `rst <= 0`, lies between `t`
/// and 0), so integer minima and maxima give the scalar twin's `f64` ones and casts.
pub(super) fn integral_gain(egl: f64) -> Option<i32> {
    (egl.fract() == 0.0 && (0.0..65536.0).contains(&egl)).then_some(egl as i32)
}

/// Scale-0 decoupling (see [`decouple::scale0`]) with AVX2.
pub(super) fn scale0(mut b: Decouple<'_, i16>, stride: usize, region: Region, egl: f64) {
    if !fits(&b, stride, region) {
        return decouple::scale0(b, stride, region, egl);
    }
    let div = reciprocals();
    let cos_sq = cos_sq_one_degree();
    let gain = (egl, integral_gain(egl));
    for i in region.top..region.bottom {
        let row = i * stride;
        // SAFETY: AVX2 was detected before this kernel was listed; `fits` checked that
        // every band holds this row's columns up to `right`, and the table has 65537
        // entries for indices 0..=65535.
        let done = unsafe { row0(&mut b, row, region.left, region.right, gain, div, cos_sq) };
        for j in done..region.right {
            scale0_at(&mut b, row + j, egl, div, cos_sq);
        }
    }
}

/// The starts of the eight-wide steps over `left..right` (at least eight columns): every
/// eighth column, the last step moved back to end at `right` (it recomputes a few
/// positions, which is harmless: every position's outputs depend on its inputs only, and
/// the bands written are not the bands read).
pub(super) fn steps8(left: usize, right: usize) -> impl Iterator<Item = usize> {
    (left..right).step_by(8).map(move |j| j.min(right - 8))
}

/// Eight `i16` at `p` as `i32` lanes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load8(p: *const i16) -> __m256i {
    // SAFETY: the caller guarantees eight readable values.
    _mm256_cvtepi16_epi32(unsafe { _mm_loadu_si128(p as *const __m128i) })
}

/// Sign-extends the low 16 bits of each lane.
#[inline]
#[target_feature(enable = "avx2")]
fn low16(x: __m256i) -> __m256i {
    _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(x))
}

/// The low (`HIGH = false`) or high four `i32` lanes as `f64`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn half_pd<const HIGH: i32>(v: __m256i) -> __m256d {
    _mm256_cvtepi32_pd(_mm256_extracti128_si256::<HIGH>(v))
}

/// `(x as f32) as f64`.
#[inline]
#[target_feature(enable = "avx2")]
fn via_f32(x: __m256d) -> __m256d {
    _mm256_cvtps_pd(_mm256_cvtpd_ps(x))
}

/// Four `f64` lane masks as four `i32` lane masks.
#[inline]
#[target_feature(enable = "avx2")]
fn mask_pd_to_epi32(m: __m256d) -> __m128i {
    let idx = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(m), idx))
}

/// The one-degree test of four positions (lanes of `f64`).
#[inline]
#[target_feature(enable = "avx2")]
fn angle4(oh: __m256d, ov: __m256d, th: __m256d, tv: __m256d, cos_sq: __m256d) -> __m256d {
    let q = _mm256_set1_pd(1.0 / 4096.0);
    let dot = _mm256_add_pd(_mm256_mul_pd(oh, th), _mm256_mul_pd(ov, tv));
    let o_sq = _mm256_add_pd(_mm256_mul_pd(oh, oh), _mm256_mul_pd(ov, ov));
    let t_sq = _mm256_add_pd(_mm256_mul_pd(th, th), _mm256_mul_pd(tv, tv));
    let dp = _mm256_mul_pd(via_f32(dot), q);
    let rhs = _mm256_mul_pd(
        _mm256_mul_pd(cos_sq, _mm256_mul_pd(via_f32(o_sq), q)),
        _mm256_mul_pd(via_f32(t_sq), q),
    );
    _mm256_and_pd(
        _mm256_cmp_pd::<_CMP_GE_OQ>(dp, _mm256_setzero_pd()),
        _mm256_cmp_pd::<_CMP_GE_OQ>(_mm256_mul_pd(dp, dp), rhs),
    )
}

/// The one-degree test of eight positions as `i32` lane masks.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn angle8(
    oh: __m256i,
    ov: __m256i,
    th: __m256i,
    tv: __m256i,
    cos_sq: __m256d,
) -> __m256i {
    let lo = angle4(
        half_pd::<0>(oh),
        half_pd::<0>(ov),
        half_pd::<0>(th),
        half_pd::<0>(tv),
        cos_sq,
    );
    let hi = angle4(
        half_pd::<1>(oh),
        half_pd::<1>(ov),
        half_pd::<1>(th),
        half_pd::<1>(tv),
        cos_sq,
    );
    _mm256_set_m128i(mask_pd_to_epi32(hi), mask_pd_to_epi32(lo))
}

/// The one-degree test of eight positions of `i16` values (in `i32` lanes) as `i32` lane
/// masks. The dot product and squared norms are `vpmaddwd` sums of (h, v) pairs: exact
/// but for 2^31 (two products of -32768), which wraps to -2^31, a value no true sum takes
/// (no `i16` product reaches -2^30), so it is read back as 2^31. Each converts to `f32`
/// rounding to nearest, as the scalar `i64 as f32`; the test is then the scalar twin's in
/// `f64`.
#[inline]
#[target_feature(enable = "avx2")]
fn angle8_i16(oh: __m256i, ov: __m256i, th: __m256i, tv: __m256i, cos_sq: __m256d) -> __m256i {
    let low = _mm256_set1_epi32(0xffff);
    let pair = |h: __m256i, v: __m256i| {
        _mm256_or_si256(_mm256_and_si256(h, low), _mm256_slli_epi32::<16>(v))
    };
    let (o, t) = (pair(oh, ov), pair(th, tv));
    let min = _mm256_set1_epi32(i32::MIN);
    let to_f32 = |x: __m256i| {
        let wrapped = _mm256_castsi256_ps(_mm256_cmpeq_epi32(x, min));
        _mm256_blendv_ps(_mm256_cvtepi32_ps(x), _mm256_set1_ps(2147483648.0), wrapped)
    };
    let dot = to_f32(_mm256_madd_epi16(o, t));
    let o_sq = to_f32(_mm256_madd_epi16(o, o));
    let t_sq = to_f32(_mm256_madd_epi16(t, t));
    let q = _mm256_set1_pd(1.0 / 4096.0);
    let test = |dot: __m128, o_sq: __m128, t_sq: __m128| {
        let dp = _mm256_mul_pd(_mm256_cvtps_pd(dot), q);
        let rhs = _mm256_mul_pd(
            _mm256_mul_pd(cos_sq, _mm256_mul_pd(_mm256_cvtps_pd(o_sq), q)),
            _mm256_mul_pd(_mm256_cvtps_pd(t_sq), q),
        );
        _mm256_and_pd(
            _mm256_cmp_pd::<_CMP_GE_OQ>(dp, _mm256_setzero_pd()),
            _mm256_cmp_pd::<_CMP_GE_OQ>(_mm256_mul_pd(dp, dp), rhs),
        )
    };
    let lo = test(
        _mm256_castps256_ps128(dot),
        _mm256_castps256_ps128(o_sq),
        _mm256_castps256_ps128(t_sq),
    );
    let hi = test(
        _mm256_extractf128_ps::<1>(dot),
        _mm256_extractf128_ps::<1>(o_sq),
        _mm256_extractf128_ps::<1>(t_sq),
    );
    _mm256_set_m128i(mask_pd_to_epi32(hi), mask_pd_to_epi32(lo))
}

/// `min(rst·egl, t)` and `max(rst·egl, t)` of eight lanes, truncated to `i32`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn limits(rst: __m256i, t: __m256i, egl: __m256d) -> (__m256i, __m256i) {
    let lo_x = _mm256_mul_pd(half_pd::<0>(rst), egl);
    let hi_x = _mm256_mul_pd(half_pd::<1>(rst), egl);
    let (lo_t, hi_t) = (half_pd::<0>(t), half_pd::<1>(t));
    let join =
        |a: __m256d, b: __m256d| _mm256_set_m128i(_mm256_cvttpd_epi32(b), _mm256_cvttpd_epi32(a));
    (
        join(_mm256_min_pd(lo_x, lo_t), _mm256_min_pd(hi_x, hi_t)),
        join(_mm256_max_pd(lo_x, lo_t), _mm256_max_pd(hi_x, hi_t)),
    )
}

/// The row's columns `left..right` in steps of eight (the last one overlapping, see
/// [`steps8`]); returns where the scalar loop resumes (`left` for rows narrower than a
/// step, else `right`).
#[target_feature(enable = "avx2")]
unsafe fn row0(
    b: &mut Decouple<'_, i16>,
    row: usize,
    left: usize,
    right: usize,
    (egl, gain): (f64, Option<i32>),
    div: &[i32],
    cos_sq: f32,
) -> usize {
    if right < left + 8 {
        return left;
    }
    let cos = _mm256_set1_pd(cos_sq as f64);
    let egl = _mm256_set1_pd(egl);
    let gain = gain.map(|g| _mm256_set1_epi32(g));
    let zero = _mm256_setzero_si256();
    let one = _mm256_set1_epi32(32768);
    let half = _mm256_set1_epi64x(16384);
    let half32 = _mm256_set1_epi32(16384);
    for j in steps8(left, right) {
        let p = row + j;
        let mut o = [zero; 3];
        let mut d = [zero; 3];
        for t in 0..3 {
            // SAFETY: every band holds `row + right >= p + 8` values (checked by `fits`).
            unsafe {
                o[t] = load8(b.reference[t].as_ptr().add(p));
                d[t] = load8(b.distorted[t].as_ptr().add(p));
            }
        }
        // Where the reference's three bands are 0 (18% of the steps on the 1080p pair, flat
        // pictures), the gain is 1 and the restored values 0 whatever the angle: the
        // additive bands are the distorted ones.
        let any = _mm256_or_si256(_mm256_or_si256(o[0], o[1]), o[2]);
        if _mm256_testz_si256(any, any) == 1 {
            for t in 0..3 {
                // SAFETY: as for the loads.
                unsafe {
                    let dis = _mm_loadu_si128(b.distorted[t].as_ptr().add(p) as *const __m128i);
                    let zero = _mm_setzero_si128();
                    _mm_storeu_si128(b.restored[t].as_mut_ptr().add(p) as *mut __m128i, zero);
                    _mm_storeu_si128(b.additive[t].as_mut_ptr().add(p) as *mut __m128i, dis);
                }
            }
            continue;
        }
        // The three gathers first, so that their latency overlaps the angle test.
        // SAFETY: indices are o + 32768 with o an i16, so 0..=65535 < div.len().
        let recip = o.map(|o| unsafe {
            _mm256_i32gather_epi32::<4>(div.as_ptr(), _mm256_add_epi32(o, one))
        });
        let angle = angle8_i16(o[0], o[1], d[0], d[1], cos);
        for t in 0..3 {
            let r = recip[t];
            let even = _mm256_srli_epi64::<15>(_mm256_add_epi64(_mm256_mul_epi32(r, d[t]), half));
            let odd = _mm256_srli_epi64::<15>(_mm256_add_epi64(
                _mm256_mul_epi32(_mm256_srli_epi64::<32>(r), _mm256_srli_epi64::<32>(d[t])),
                half,
            ));
            let q = _mm256_blend_epi32::<0b1010_1010>(even, _mm256_slli_epi64::<32>(odd));
            let k = _mm256_min_epi32(_mm256_max_epi32(q, zero), one);
            let k = _mm256_blendv_epi8(k, one, _mm256_cmpeq_epi32(o[t], zero));
            let rst = low16(_mm256_srai_epi32::<15>(_mm256_add_epi32(
                _mm256_mullo_epi32(k, o[t]),
                half32,
            )));
            let (min, max) = match gain {
                // An integral limit (see `integral_gain`): |rst · g| < 2^31 in `i32` lanes.
                Some(g) => {
                    let x = _mm256_mullo_epi32(rst, g);
                    (_mm256_min_epi32(x, d[t]), _mm256_max_epi32(x, d[t]))
                }
                None => limits(rst, d[t], egl),
            };
            let k_pos = _mm256_cmpgt_epi32(k, zero);
            let up = _mm256_and_si256(k_pos, _mm256_cmpgt_epi32(o[t], zero));
            let down = _mm256_and_si256(k_pos, _mm256_cmpgt_epi32(zero, o[t]));
            let limited = _mm256_blendv_epi8(_mm256_blendv_epi8(rst, max, down), min, up);
            // `rst` is an `i16` in each lane and the limits lie in `i16`'s range, so the
            // pack is exact; the additive band is `d - rst` modulo 2^16 (the scalar
            // `as i16`), a 16-bit subtraction of the band's own `i16` values.
            let rst = _mm256_blendv_epi8(rst, limited, angle);
            let rst = _mm_packs_epi32(
                _mm256_castsi256_si128(rst),
                _mm256_extracti128_si256::<1>(rst),
            );
            // SAFETY: as for the loads.
            unsafe {
                let dis = _mm_loadu_si128(b.distorted[t].as_ptr().add(p) as *const __m128i);
                _mm_storeu_si128(b.restored[t].as_mut_ptr().add(p) as *mut __m128i, rst);
                _mm_storeu_si128(
                    b.additive[t].as_mut_ptr().add(p) as *mut __m128i,
                    _mm_sub_epi16(dis, rst),
                );
            }
        }
    }
    right
}
