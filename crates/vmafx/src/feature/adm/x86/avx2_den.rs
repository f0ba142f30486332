//! AVX2 rows of ADM's denominator: cube sums eight values a step in 64-bit lanes.
//!
//! The sums wrap modulo 2^64 as the scalar twin's do, so their order does not matter. At
//! scales 1..3 a step runs only where every `|x|` is below 2^30 (then the square and the
//! cube are exact unsigned 32x32-bit products); the scalar twin takes the other steps.

use std::arch::x86_64::*;

use super::super::den::{self, cube123, Cube};

/// The wrapping sum of the four 64-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn sum64(v: __m256i) -> u64 {
    let s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    (_mm_cvtsi128_si64(s) as u64).wrapping_add(_mm_extract_epi64::<1>(s) as u64)
}

/// `x · y` of the unsigned low dwords of each 64-bit lane, for even and odd `i32` lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn products(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_mul_epu32(x, y),
        _mm256_mul_epu32(_mm256_srli_epi64::<32>(x), _mm256_srli_epi64::<32>(y)),
    )
}

/// Scale-0 row (see [`den::cubes0_row`]) with AVX2.
pub(super) fn cubes0_row(row: &[i16]) -> u64 {
    // SAFETY: AVX2 was detected before this kernel was listed.
    let (sum, done) = unsafe { cubes0(row) };
    sum.wrapping_add(den::cubes0_row(&row[done..]))
}

#[target_feature(enable = "avx2")]
unsafe fn cubes0(row: &[i16]) -> (u64, usize) {
    let mut acc = _mm256_setzero_si256();
    let mut j = 0;
    while j + 8 <= row.len() {
        // SAFETY: the row holds j + 8 values.
        let x = unsafe { _mm_loadu_si128(row.as_ptr().add(j) as *const __m128i) };
        // |x| <= 32768, so the square fits 31 bits.
        let a = _mm256_abs_epi32(_mm256_cvtepi16_epi32(x));
        let (even, odd) = products(_mm256_mullo_epi32(a, a), a);
        acc = _mm256_add_epi64(acc, _mm256_add_epi64(even, odd));
        j += 8;
    }
    (sum64(acc), j)
}

/// Scale-1..3 row (see [`den::cubes123_row`]) with AVX2.
pub(super) fn cubes123_row(row: &[i32], c: Cube) -> u64 {
    // The vector step needs squares below 2^31 after their shift (libvmaf shifts 30 or 31).
    if !(30..64).contains(&c.shift_sq) || c.round_sq > 1 << 32 {
        return den::cubes123_row(row, c);
    }
    // SAFETY: AVX2 was detected before this kernel was listed.
    let (sum, done) = unsafe { cubes123(row, c) };
    sum.wrapping_add(den::cubes123_row(&row[done..], c))
}

#[target_feature(enable = "avx2")]
unsafe fn cubes123(row: &[i32], c: Cube) -> (u64, usize) {
    let round_sq = _mm256_set1_epi64x(c.round_sq as i64);
    let round_cub = _mm256_set1_epi64x(c.round_cub as i64);
    let shift_sq = _mm_cvtsi64_si128(c.shift_sq as i64);
    // C's shift of a 64-bit value by `shift_cub` takes it modulo 64, as `wrapping_shr`.
    let shift_cub = _mm_cvtsi64_si128((c.shift_cub & 63) as i64);
    let big = _mm256_set1_epi32(!0x3fff_ffff);
    let mut acc = _mm256_setzero_si256();
    let mut tail = 0u64;
    let mut j = 0;
    while j + 8 <= row.len() {
        // SAFETY: the row holds j + 8 values.
        let x = unsafe { _mm256_loadu_si256(row.as_ptr().add(j) as *const __m256i) };
        let a = _mm256_abs_epi32(x);
        // |i32::MIN| stays negative: its top bit is caught as well.
        if _mm256_testz_si256(a, big) == 0 {
            for &v in &row[j..j + 8] {
                tail = tail.wrapping_add(cube123(v, c));
            }
            j += 8;
            continue;
        }
        let (sq_e, sq_o) = products(a, a);
        let sq_e = _mm256_srl_epi64(_mm256_add_epi64(sq_e, round_sq), shift_sq);
        let sq_o = _mm256_srl_epi64(_mm256_add_epi64(sq_o, round_sq), shift_sq);
        // |x| < 2^30 and a shift of at least 30 leave squares below 2^31; the cubes fit.
        let cube_e = _mm256_mul_epu32(sq_e, a);
        let cube_o = _mm256_mul_epu32(sq_o, _mm256_srli_epi64::<32>(a));
        let cube_e = _mm256_srl_epi64(_mm256_add_epi64(cube_e, round_cub), shift_cub);
        let cube_o = _mm256_srl_epi64(_mm256_add_epi64(cube_o, round_cub), shift_cub);
        acc = _mm256_add_epi64(acc, _mm256_add_epi64(cube_e, cube_o));
        j += 8;
    }
    (sum64(acc).wrapping_add(tail), j)
}
