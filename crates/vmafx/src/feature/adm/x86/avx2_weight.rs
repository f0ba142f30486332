//! AVX2 kernels of ADM's per-position stages (CSF weighting), eight positions a step
//! (scale 0: sixteen, then eight) with the scalar twin's arithmetic (32-bit lanes at
//! scale 0, 64-bit products at scales 1..3); the scalar code finishes each row.

use std::arch::x86_64::*;

use super::super::border::Region;
use super::super::weight::{self, Weighted, ONE_BY_30_Q32};
use super::avx2_cm::{scaled_abs_q32, weighted123, Weight};

/// Whether every band holds the region's rows at `stride` (else the scalar twin runs).
pub(super) fn region_fits<T>(bands: &[&[T]], stride: usize, r: Region) -> bool {
    let ok = r.top <= r.bottom && r.left <= r.right && r.right <= stride;
    let need = r.bottom.checked_mul(stride);
    ok && need.is_some_and(|n| r.bottom == r.top || bands.iter().all(|b| b.len() >= n))
}

/// Scale-0 CSF weighting (see [`weight::scale0`]) with AVX2.
pub(super) fn weight0(
    src: &[Vec<i16>; 3],
    out: Weighted<'_, i16>,
    stride: usize,
    region: Region,
    rf: [u16; 3],
) {
    let all: Vec<&[i16]> = src
        .iter()
        .chain(out.csf.iter())
        .chain(out.activity.iter())
        .map(|v| v.as_slice())
        .collect();
    if !region_fits(&all, stride, region) {
        return weight::scale0(src, out, stride, region, rf);
    }
    const SHIFT: [i32; 3] = [15, 15, 17];
    const ROUND: [i32; 3] = [16384, 16384, 65535];
    let w = region.right - region.left;
    for t in 0..3 {
        for i in region.top..region.bottom {
            let p = i * stride + region.left;
            let (s, c, a) = (
                &src[t][p..p + w],
                &mut out.csf[t][p..p + w],
                &mut out.activity[t][p..p + w],
            );
            // SAFETY: AVX2 was detected before this kernel was listed; the three slices
            // hold `w` values each.
            let done = unsafe { weight0_row(s, c, a, rf[t] as i32, ROUND[t], SHIFT[t]) };
            // The scalar twin finishes the row.
            weight::scale0_row(&s[done..], &mut c[done..], &mut a[done..], t, rf[t]);
        }
    }
}

/// The constants of a scale-0 weighting row.
#[derive(Clone, Copy)]
struct Row0Consts {
    rf: __m256i,
    round: __m256i,
    count: __m128i,
    one_by_30: __m256i,
    half: __m256i,
}

/// The weighted values (as `i16` in `i32` lanes) and their activities (in `0..2^16`, to
/// be kept as their low 16 bits) of eight `i16` lanes of `x` (sign-extended to `i32`).
#[inline]
#[target_feature(enable = "avx2")]
fn weigh8(x: __m256i, k: Row0Consts) -> (__m256i, __m256i) {
    let v = _mm256_mullo_epi32(k.rf, x);
    let c = _mm256_sra_epi32(_mm256_add_epi32(v, k.round), k.count);
    let c = _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(c));
    // `c` is an `i16` in each lane and the factor's high half is zero, so `vpmaddwd`
    // gives the exact product; |4369 c| = 4369 |c| < 2^31.
    let act = _mm256_abs_epi32(_mm256_madd_epi16(c, k.one_by_30));
    (c, _mm256_srai_epi32::<12>(_mm256_add_epi32(act, k.half)))
}

/// One row of the scale-0 weighting, sixteen (then eight) at a time; returns how many
/// were done.
#[target_feature(enable = "avx2")]
unsafe fn weight0_row(
    src: &[i16],
    csf: &mut [i16],
    activity: &mut [i16],
    rf: i32,
    round: i32,
    shift: i32,
) -> usize {
    let n = src.len().min(csf.len()).min(activity.len());
    let k = Row0Consts {
        rf: _mm256_set1_epi32(rf),
        round: _mm256_set1_epi32(round),
        count: _mm_cvtsi32_si128(shift),
        one_by_30: _mm256_set1_epi32(4369),
        half: _mm256_set1_epi32(2048),
    };
    let mut j = 0;
    while j + 16 <= n {
        // SAFETY: src holds n >= j + 16 values.
        let x = unsafe { _mm256_loadu_si256(src.as_ptr().add(j) as *const __m256i) };
        let (c0, a0) = weigh8(_mm256_cvtepi16_epi32(_mm256_castsi256_si128(x)), k);
        let (c1, a1) = weigh8(_mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(x)), k);
        // The weighted values are in i16's range, so the signed saturating pack is exact;
        // the activities lie in 0..2^16, so the unsigned one keeps their low 16 bits
        // (the scalar `as i16`). The packs interleave 128-bit halves; vpermq restores
        // the order.
        let c = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packs_epi32(c0, c1));
        let a = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(a0, a1));
        // SAFETY: csf and activity hold n >= j + 16 values.
        unsafe {
            _mm256_storeu_si256(csf.as_mut_ptr().add(j) as *mut __m256i, c);
            _mm256_storeu_si256(activity.as_mut_ptr().add(j) as *mut __m256i, a);
        }
        j += 16;
    }
    if j + 8 <= n {
        // SAFETY: src holds n >= j + 8 values.
        let x = unsafe { _mm_loadu_si128(src.as_ptr().add(j) as *const __m128i) };
        let (c, a) = weigh8(_mm256_cvtepi16_epi32(x), k);
        // SAFETY: csf and activity hold n >= j + 8 values; the packs are exact as above.
        unsafe {
            store8(csf.as_mut_ptr().add(j), _mm256_packs_epi32(c, c));
            store8(activity.as_mut_ptr().add(j), _mm256_packus_epi32(a, a));
        }
        j += 8;
    }
    j
}

/// Stores the eight `i16` of `packed` (a pack of a vector with itself) at `dst`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store8(dst: *mut i16, packed: __m256i) {
    let packed = _mm256_permute4x64_epi64::<0b00_00_10_00>(packed);
    // SAFETY: the caller guarantees eight writable values at `dst`.
    unsafe { _mm_storeu_si128(dst as *mut __m128i, _mm256_castsi256_si128(packed)) };
}

/// Scale-1..3 CSF weighting (see [`weight::scale123`]) with AVX2.
pub(super) fn weight123(
    src: &[Vec<i32>; 3],
    out: Weighted<'_, i32>,
    stride: usize,
    region: Region,
    rf: [u32; 3],
) {
    let all: Vec<&[i32]> = src
        .iter()
        .chain(out.csf.iter())
        .chain(out.activity.iter())
        .map(|v| v.as_slice())
        .collect();
    if !region_fits(&all, stride, region) {
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
            // SAFETY: AVX2 was detected before this kernel was listed; the three slices
            // hold `w` values each.
            let done = unsafe { weight123_row(s, c, a, rf[t]) };
            weight::scale123_row(&s[done..], &mut c[done..], &mut a[done..], rf[t]);
        }
    }
}

/// One row of the scale-1..3 weighting, eight at a time; returns how many were done.
#[target_feature(enable = "avx2")]
unsafe fn weight123_row(src: &[i32], csf: &mut [i32], activity: &mut [i32], rf: u32) -> usize {
    let n = src.len().min(csf.len()).min(activity.len());
    let rf = Weight::new(rf);
    let one_by_30 = _mm256_set1_epi64x(ONE_BY_30_Q32);
    let mut j = 0;
    while j + 8 <= n {
        // SAFETY: src holds n >= j + 8 values.
        let x = unsafe { _mm256_loadu_si256(src.as_ptr().add(j) as *const __m256i) };
        let c = weighted123(x, rf);
        let act = scaled_abs_q32(c, one_by_30);
        // SAFETY: csf and activity hold n >= j + 8 values.
        unsafe {
            _mm256_storeu_si256(csf.as_mut_ptr().add(j) as *mut __m256i, c);
            _mm256_storeu_si256(activity.as_mut_ptr().add(j) as *mut __m256i, act);
        }
        j += 8;
    }
    j
}
