//! psnr's AVX2 kernels: 32 samples (8-bit) or 16 samples (deeper) a step, the rest of a
//! row by the scalar formula.

use std::arch::x86_64::*;

use crate::feature::psnr::sse::plane;

use super::super::kernels::Kernels;
use crate::cpu::CpuLevel;

/// The AVX2 kernels. The dispatch hands them out only when the processor has AVX2.
pub(in crate::feature::psnr) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx2,
    sse_u8,
    sse_u16,
};

/// SSE of two 8-bit planes; each row wraps at 32 bits as the scalar kernel's does.
pub(crate) fn sse_u8(
    a: &[u8],
    a_stride: usize,
    b: &[u8],
    b_stride: usize,
    width: usize,
    height: usize,
) -> u64 {
    // SAFETY: this function is only in a table made after AVX2 was detected; `plane`
    // hands over two rows of the same length.
    let row = |ra: &[u8], rb: &[u8]| unsafe { row_u8(ra, rb) };
    plane(row, a, a_stride, b, b_stride, width, height)
}

/// SSE of two 9..16-bit planes in 64 bits.
pub(crate) fn sse_u16(
    a: &[u16],
    a_stride: usize,
    b: &[u16],
    b_stride: usize,
    width: usize,
    height: usize,
) -> u64 {
    // SAFETY: as in `sse_u8`.
    let row = |ra: &[u16], rb: &[u16]| unsafe { row_u16(ra, rb) };
    plane(row, a, a_stride, b, b_stride, width, height)
}

/// The wrapping 32-bit sum of squared differences of one 8-bit row.
///
/// # Safety
/// AVX2, and `a.len() == b.len()`.
#[target_feature(enable = "avx2")]
unsafe fn row_u8(a: &[u8], b: &[u8]) -> u32 {
    let n = a.len();
    let zero = _mm256_setzero_si256();
    let mut acc = zero;
    let mut i = 0;
    while i + 32 <= n {
        if i % 64 == 0 {
            super::prefetch_ahead(a, b, i);
        }
        // SAFETY: both rows hold `n >= i + 32` bytes; the loads are unaligned.
        let (x, z) = unsafe {
            (
                _mm256_loadu_si256(a.as_ptr().add(i) as *const __m256i),
                _mm256_loadu_si256(b.as_ptr().add(i) as *const __m256i),
            )
        };
        // |x - z| as bytes, widened to 16 bits; a pair of squares (at most 2·255²) fits
        // the 32-bit lane of the multiply-add.
        let d = _mm256_sub_epi8(_mm256_max_epu8(x, z), _mm256_min_epu8(x, z));
        let (lo, hi) = (_mm256_unpacklo_epi8(d, zero), _mm256_unpackhi_epi8(d, zero));
        let sq = _mm256_add_epi32(_mm256_madd_epi16(lo, lo), _mm256_madd_epi16(hi, hi));
        acc = _mm256_add_epi32(acc, sq);
        i += 32;
    }
    let half = _mm_add_epi32(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256::<1>(acc),
    );
    let mut lanes = [0u32; 4];
    // SAFETY: `lanes` holds 16 bytes.
    unsafe { _mm_storeu_si128(lanes.as_mut_ptr() as *mut __m128i, half) };
    let mut sum = lanes.iter().fold(0u32, |s, &v| s.wrapping_add(v));
    for (&x, &z) in a[i..].iter().zip(&b[i..]) {
        let e = x as i32 - z as i32;
        sum = sum.wrapping_add((e * e) as u32);
    }
    sum
}

/// The sum of squared differences of one 9..16-bit row.
///
/// # Safety
/// AVX2, and `a.len() == b.len()`.
#[target_feature(enable = "avx2")]
unsafe fn row_u16(a: &[u16], b: &[u16]) -> u64 {
    let n = a.len();
    let zero = _mm256_setzero_si256();
    let mut acc = zero;
    let mut i = 0;
    while i + 16 <= n {
        if i % 32 == 0 {
            super::prefetch_ahead(a, b, 2 * i);
        }
        // SAFETY: both rows hold `n >= i + 16` samples; the loads are unaligned.
        let (x, z) = unsafe {
            (
                _mm256_loadu_si256(a.as_ptr().add(i) as *const __m256i),
                _mm256_loadu_si256(b.as_ptr().add(i) as *const __m256i),
            )
        };
        // |x - z| squared as high and low 16-bit halves, joined to 32-bit products
        // (below 2^32), widened to 64 bits and added.
        let d = _mm256_sub_epi16(_mm256_max_epu16(x, z), _mm256_min_epu16(x, z));
        let (lo, hi) = (_mm256_mullo_epi16(d, d), _mm256_mulhi_epu16(d, d));
        for p in [_mm256_unpacklo_epi16(lo, hi), _mm256_unpackhi_epi16(lo, hi)] {
            acc = _mm256_add_epi64(acc, _mm256_unpacklo_epi32(p, zero));
            acc = _mm256_add_epi64(acc, _mm256_unpackhi_epi32(p, zero));
        }
        i += 16;
    }
    let mut lanes = [0u64; 4];
    // SAFETY: `lanes` holds 32 bytes.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, acc) };
    let mut sum: u64 = lanes.iter().sum();
    for (&x, &z) in a[i..].iter().zip(&b[i..]) {
        let e = x.abs_diff(z) as u64;
        sum += e * e;
    }
    sum
}
