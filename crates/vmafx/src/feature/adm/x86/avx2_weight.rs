//! AVX2 kernels of ADM's per-position stages (CSF weighting), eight positions a step with
//! the scalar twin's arithmetic (32-bit lanes at scale 0, 64-bit products at scales
//! 1..3); the scalar code finishes each row.

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

/// One row of the scale-0 weighting, eight at a time; returns how many were done.
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
    let rf = _mm256_set1_epi32(rf);
    let round = _mm256_set1_epi32(round);
    let count = _mm_cvtsi32_si128(shift);
    let one_by_30 = _mm256_set1_epi32(4369);
    let half = _mm256_set1_epi32(2048);
    let mut j = 0;
    while j + 8 <= n {
        // SAFETY: src holds n >= j + 8 values.
        let x = unsafe { _mm_loadu_si128(src.as_ptr().add(j) as *const __m128i) };
        let v = _mm256_mullo_epi32(rf, _mm256_cvtepi16_epi32(x));
        let c = _mm256_sra_epi32(_mm256_add_epi32(v, round), count);
        let c = _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(c));
        let act = _mm256_mullo_epi32(one_by_30, _mm256_abs_epi32(c));
        let act = _mm256_srai_epi32::<12>(_mm256_add_epi32(act, half));
        let act = _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(act));
        // SAFETY: csf and activity hold n >= j + 8 values; both lanes sets are in i16's
        // range, so the saturating packs are exact.
        unsafe {
            store8(csf.as_mut_ptr().add(j), c);
            store8(activity.as_mut_ptr().add(j), act);
        }
        j += 8;
    }
    j
}

/// Stores eight `i32` lanes already in `i16` range as `i16`s at `dst`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store8(dst: *mut i16, v: __m256i) {
    let packed = _mm256_permute4x64_epi64::<0b00_00_10_00>(_mm256_packs_epi32(v, v));
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
