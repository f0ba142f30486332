//! AVX2 scale-1..3 decoupling: eight positions a step.
//!
//! The step runs only where every reference and distorted value of the three bands lies
//! below 2^26 in magnitude (else the scalar twin does those eight positions). In that
//! range the divisor's leading bits come from its `f32` exponent (see `step`) and their
//! reciprocal from an `f64` division (see `reciprocal`); the angle
//! test's `f64` products and their sums are exact (below 2^53, so `cvtpd_ps` rounds them
//! as the scalar `i64 as f32` does), and every 64-bit product fits. The gain's rounding shift is per lane
//! (`srlv_epi64`); a negative sum clamps to 0 before it, so a logical shift is exact.
//! Each row runs in steps of eight, the last one overlapping (see `steps8`), so no scalar
//! tail is left but in rows narrower than a step.

use std::arch::x86_64::*;

use super::super::border::Region;
use super::super::decouple::{self, cos_sq_one_degree, reciprocals, scale123_at, Decouple};
use super::avx2_decouple::{angle8, fits, integral_gain, limits, steps8};

/// Scale-1..3 decoupling (see [`decouple::scale123`]) with AVX2.
pub(super) fn scale123(mut b: Decouple<'_, i32>, stride: usize, region: Region, egl: f64) {
    if !fits(&b, stride, region) {
        return decouple::scale123(b, stride, region, egl);
    }
    let div = reciprocals();
    let cos_sq = cos_sq_one_degree();
    if region.right < region.left + 8 {
        for i in region.top..region.bottom {
            for p in i * stride + region.left..i * stride + region.right {
                scale123_at(&mut b, p, egl, div, cos_sq);
            }
        }
        return;
    }
    // SAFETY: AVX2 was detected before this kernel was listed; `fits` checked that every
    // band holds the region's rows, the region is at least eight columns wide, and the
    // table has 65537 entries.
    unsafe {
        match integral_gain(egl) {
            Some(g) => rows::<true>(&mut b, stride, region, (egl, g), div, cos_sq),
            None => rows::<false>(&mut b, stride, region, (egl, 0), div, cos_sq),
        }
    }
}

/// The region's rows in steps of eight (see `steps8`), in one AVX2 function so that the
/// steps are inlined and their constants kept across them; `INTEGRAL` says whether the
/// gain limit is the integer `g` (see `integral_gain`).
///
/// # Safety
/// As for `step` at every step: every band holds the region's rows, the region is at
/// least eight columns wide, and AVX2 is available.
#[target_feature(enable = "avx2")]
unsafe fn rows<const INTEGRAL: bool>(
    b: &mut Decouple<'_, i32>,
    stride: usize,
    region: Region,
    (egl, g): (f64, i32),
    div: &[i32],
    cos_sq: f32,
) {
    let gain = (egl, (g, RANGE / g.max(1) + 1));
    for i in region.top..region.bottom {
        let row = i * stride;
        for j in steps8(region.left, region.right) {
            // SAFETY: the caller's; the band rows hold columns up to `right >= j + 8`.
            let done = unsafe { step::<INTEGRAL>(b, row + j, gain, cos_sq) };
            if !done {
                for p in row + j..row + j + 8 {
                    scale123_at(b, p, egl, div, cos_sq);
                }
            }
        }
    }
}

/// The step's bound on band magnitudes (`2^26`, exclusive).
const RANGE: i32 = 1 << 26;

/// The 64-bit lanes' low dwords of `even` and of `odd` joined into eight `i32` lanes
/// (`odd`'s results belong to the odd `i32` positions).
#[inline]
#[target_feature(enable = "avx2")]
fn join(even: __m256i, odd: __m256i) -> __m256i {
    _mm256_blend_epi32::<0b1010_1010>(even, _mm256_slli_epi64::<32>(odd))
}

/// `clamp((r·d + 2^(14+s)) >> (15+s), 0, 32768)` in the 64-bit lanes (the low dwords of
/// `r`, `d` and `s`).
#[inline]
#[target_feature(enable = "avx2")]
fn gain64(r: __m256i, d: __m256i, s: __m256i) -> __m256i {
    let one = _mm256_set1_epi64x(1);
    let cap = _mm256_set1_epi64x(32768);
    let low = _mm256_set1_epi64x(0xffff_ffff);
    let s = _mm256_and_si256(s, low);
    let x = _mm256_add_epi64(
        _mm256_mul_epi32(r, d),
        _mm256_sllv_epi64(one, _mm256_add_epi64(s, _mm256_set1_epi64x(14))),
    );
    let negative = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
    let y = _mm256_srlv_epi64(x, _mm256_add_epi64(s, _mm256_set1_epi64x(15)));
    let y = _mm256_blendv_epi8(y, cap, _mm256_cmpgt_epi64(y, cap));
    _mm256_andnot_si256(negative, y)
}

/// `(k·o + 16384) >> 15`, truncated to `i32`, of eight lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn restore(k: __m256i, o: __m256i) -> __m256i {
    let half = _mm256_set1_epi64x(16384);
    let even = _mm256_srli_epi64::<15>(_mm256_add_epi64(_mm256_mul_epi32(k, o), half));
    let odd = _mm256_srli_epi64::<15>(_mm256_add_epi64(
        _mm256_mul_epi32(_mm256_srli_epi64::<32>(k), _mm256_srli_epi64::<32>(o)),
        half,
    ));
    join(even, odd)
}

/// `2^30 / m` truncated (the reciprocal table's entry `32768 + m`) of eight lanes `m` in
/// `1..=32768` (anything for 0), by `f64` division: the quotient's rounding error is below
/// 2^-23, and a quotient that is not an integer lies at least `1/m >= 2^-15` from one,
/// so the truncation is exact. At scales 1..3 this is cheaper than gathering the table's
/// values (whose indices come late, after the leading bits, and spread over the table);
/// at scale 0 the gather is (the indices are the loaded values).
#[inline]
#[target_feature(enable = "avx2")]
fn reciprocal(m: __m256i) -> __m256i {
    let num = _mm256_set1_pd((1u32 << 30) as f64);
    let lo = _mm256_div_pd(num, _mm256_cvtepi32_pd(_mm256_castsi256_si128(m)));
    let hi = _mm256_div_pd(num, _mm256_cvtepi32_pd(_mm256_extracti128_si256::<1>(m)));
    _mm256_set_m128i(_mm256_cvttpd_epi32(hi), _mm256_cvttpd_epi32(lo))
}

/// Eight positions from `p`; false (nothing written) where a value is out of range. With
/// `INTEGRAL`, `gain` holds the integral limit and its clamp (see `rows`).
///
/// # Safety
/// Every band holds more than `p + 7` values, and AVX2 is available.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn step<const INTEGRAL: bool>(
    b: &mut Decouple<'_, i32>,
    p: usize,
    (egl, (g, c)): (f64, (i32, i32)),
    cos_sq: f32,
) -> bool {
    let zero = _mm256_setzero_si256();
    let mut o = [zero; 3];
    let mut d = [zero; 3];
    let mut any = zero;
    for t in 0..3 {
        // SAFETY: every band holds more than `p + 7` values (the caller's `fits`).
        unsafe {
            o[t] = _mm256_loadu_si256(b.reference[t].as_ptr().add(p) as *const __m256i);
            d[t] = _mm256_loadu_si256(b.distorted[t].as_ptr().add(p) as *const __m256i);
        }
        any = _mm256_or_si256(any, _mm256_abs_epi32(o[t]));
        any = _mm256_or_si256(any, _mm256_abs_epi32(d[t]));
    }
    // Where the reference's three bands are 0 (flat pictures), the gain is 1 and the
    // restored values 0 whatever the angle: the additive bands are the distorted ones (as
    // at scale 0, `avx2_decouple`).
    let reference = _mm256_or_si256(_mm256_or_si256(o[0], o[1]), o[2]);
    if _mm256_testz_si256(reference, reference) == 1 {
        for (t, dis) in d.into_iter().enumerate() {
            // SAFETY: as for the loads.
            unsafe {
                _mm256_storeu_si256(b.restored[t].as_mut_ptr().add(p) as *mut __m256i, zero);
                _mm256_storeu_si256(b.additive[t].as_mut_ptr().add(p) as *mut __m256i, dis);
            }
        }
        return true;
    }
    // |x| of i32::MIN stays negative, so its top bit is caught too.
    if _mm256_testz_si256(any, _mm256_set1_epi32(!(RANGE - 1))) == 0 {
        return false;
    }
    let cos = _mm256_set1_pd(cos_sq as f64);
    let egl = _mm256_set1_pd(egl);
    let gain = [g, c, -c].map(|v| _mm256_set1_epi32(v));
    let one = _mm256_set1_epi32(32768);
    // The reciprocals first, so that the divisions' latency overlaps the angle test.
    let recip = o.map(|o| {
        let abs = _mm256_abs_epi32(o);
        // floor(log2 |o|) from the f32 exponent (-127 for 0). Above 2^24 the conversion
        // may round |o| up to 2^e: then the scalar twin's leading bits are 2^15 with
        // shift e - 15, these are 2^14 with shift e - 14, and as the table holds
        // 2^30 / 2^14 = 2 · 2^30 / 2^15 exactly, the gain below is the same.
        let exp = _mm256_sub_epi32(
            _mm256_srli_epi32::<23>(_mm256_castps_si256(_mm256_cvtepi32_ps(abs))),
            _mm256_set1_epi32(127),
        );
        let shift = _mm256_max_epi32(_mm256_sub_epi32(exp, _mm256_set1_epi32(14)), zero);
        let round = _mm256_srli_epi32::<1>(_mm256_sllv_epi32(_mm256_set1_epi32(1), shift));
        let msb = _mm256_srlv_epi32(_mm256_add_epi32(abs, round), shift);
        (_mm256_sign_epi32(reciprocal(msb), o), shift)
    });
    let angle = angle8(o[0], o[1], d[0], d[1], cos);
    for t in 0..3 {
        let (r, shift) = recip[t];
        let even = gain64(r, d[t], shift);
        let odd = gain64(
            _mm256_srli_epi64::<32>(r),
            _mm256_srli_epi64::<32>(d[t]),
            _mm256_srli_epi64::<32>(shift),
        );
        let k = join(even, odd);
        let k = _mm256_blendv_epi8(k, one, _mm256_cmpeq_epi32(o[t], zero));
        let rst = restore(k, o[t]);
        let (min, max) = if INTEGRAL {
            // An integral limit `g` (see `integral_gain`) in `i32` lanes: |rst| is first
            // clamped to `c = 2^26 / g + 1`, which keeps the product in `i32` and changes
            // no limit: a clamped product is at least 2^26 in magnitude, with the sign of
            // `rst`, so beyond the distorted value as the true product is.
            let [g, c, neg_c] = gain;
            let rst = _mm256_max_epi32(_mm256_min_epi32(rst, c), neg_c);
            let x = _mm256_mullo_epi32(rst, g);
            (_mm256_min_epi32(x, d[t]), _mm256_max_epi32(x, d[t]))
        } else {
            limits(rst, d[t], egl)
        };
        let k_pos = _mm256_cmpgt_epi32(k, zero);
        let up = _mm256_and_si256(k_pos, _mm256_cmpgt_epi32(o[t], zero));
        let down = _mm256_and_si256(k_pos, _mm256_cmpgt_epi32(zero, o[t]));
        let limited = _mm256_blendv_epi8(_mm256_blendv_epi8(rst, max, down), min, up);
        let rst = _mm256_blendv_epi8(rst, limited, angle);
        let add = _mm256_sub_epi32(d[t], rst);
        // SAFETY: as for the loads.
        unsafe {
            _mm256_storeu_si256(b.restored[t].as_mut_ptr().add(p) as *mut __m256i, rst);
            _mm256_storeu_si256(b.additive[t].as_mut_ptr().add(p) as *mut __m256i, add);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reciprocal_is_the_table_at_every_divisor() {
        if !is_x86_feature_detected!("avx2") {
            return;
        }
        let div = reciprocals();
        for m in (1..=32768i32).step_by(8) {
            let lanes: [i32; 8] = std::array::from_fn(|k| m + k as i32);
            let mut got = [0i32; 8];
            // SAFETY: AVX2 was detected above; both arrays hold eight `i32`.
            unsafe {
                let v = _mm256_loadu_si256(lanes.as_ptr() as *const __m256i);
                _mm256_storeu_si256(got.as_mut_ptr() as *mut __m256i, reciprocal(v));
            }
            for (l, g) in lanes.iter().zip(got) {
                assert_eq!(g, div[(32768 + l) as usize], "m = {l}");
            }
        }
    }
}
