//! AVX-512 rows of ADM's denominator: cube sums sixteen values a step in 64-bit lanes of
//! even and odd `i32` positions, the last partial step by a masked load (masked-off lanes
//! load zero, whose cube is zero at scale 0 and left out at scales 1..3).
//!
//! The sums wrap modulo 2^64 as the scalar twin's do, so their order does not matter. At
//! scales 1..3 the square is the exact unsigned product of `|x| <= 2^31` with itself and
//! the square times `|x|` the wrapping 64-bit `vpmullq`, so every input takes the vector
//! step.

use std::arch::x86_64::*;

use super::super::den::{self, Cube};

/// The mask of the first `k` (at most 16) lanes.
#[inline]
pub(super) fn mask16(k: usize) -> __mmask16 {
    ((1u32 << k.min(16)) - 1) as __mmask16
}

/// The 64-bit lanes whose even and whose odd `i32` lane `m` selects, for a mask of the
/// first `k` lanes.
#[inline]
fn lanes64(m: __mmask16) -> (__mmask8, __mmask8) {
    let k = m.count_ones();
    (
        ((1u32 << k.div_ceil(2)) - 1) as __mmask8,
        ((1u32 << (k / 2)) - 1) as __mmask8,
    )
}

/// Scale-0 row (see [`den::cubes0_row`]) with AVX-512.
pub(super) fn cubes0_row(row: &[i16]) -> u64 {
    // SAFETY: the AVX-512 table, which lists this kernel, is only handed out when the
    // processor has AVX-512 (F, BW, DQ, VL).
    unsafe { cubes0(row) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn cubes0(row: &[i16]) -> u64 {
    let mut acc = _mm512_setzero_si512();
    let mut j = 0;
    while j < row.len() {
        let m = mask16(row.len() - j);
        // SAFETY: the row holds `row.len()` values; the mask reads none past them.
        let x = unsafe { _mm256_maskz_loadu_epi16(m, row.as_ptr().add(j)) };
        // |x| <= 32768, so the square fits 31 bits and the cube 46.
        let a = _mm512_abs_epi32(_mm512_cvtepi16_epi32(x));
        let sq = _mm512_mullo_epi32(a, a);
        let even = _mm512_mul_epu32(sq, a);
        let odd = _mm512_mul_epu32(_mm512_srli_epi64::<32>(sq), _mm512_srli_epi64::<32>(a));
        acc = _mm512_add_epi64(acc, _mm512_add_epi64(even, odd));
        j += 16;
    }
    _mm512_reduce_add_epi64(acc) as u64
}

/// Scale-1..3 row (see [`den::cubes123_row`]) with AVX-512.
pub(super) fn cubes123_row(row: &[i32], c: Cube) -> u64 {
    // The vector shift of the square gives zero from 64 on; Rust's would not.
    if c.shift_sq >= 64 {
        return den::cubes123_row(row, c);
    }
    // SAFETY: as for `cubes0_row`.
    unsafe { cubes123(row, c) }
}

/// `((a·a + round_sq) >> shift_sq) · a`, rounded and shifted, of the 64-bit lanes `a`.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn cube64(a: __m512i, sq: (__m512i, __m128i), cub: (__m512i, __m128i)) -> __m512i {
    let s = _mm512_srl_epi64(_mm512_add_epi64(_mm512_mul_epu32(a, a), sq.0), sq.1);
    _mm512_srl_epi64(_mm512_add_epi64(_mm512_mullo_epi64(s, a), cub.0), cub.1)
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn cubes123(row: &[i32], c: Cube) -> u64 {
    let sq = (
        _mm512_set1_epi64(c.round_sq as i64),
        _mm_cvtsi64_si128(c.shift_sq as i64),
    );
    // C's shift of a 64-bit value by `shift_cub` takes it modulo 64, as `wrapping_shr`.
    let cub = (
        _mm512_set1_epi64(c.round_cub as i64),
        _mm_cvtsi64_si128((c.shift_cub & 63) as i64),
    );
    let low = _mm512_set1_epi64(0xffff_ffff);
    let mut acc = _mm512_setzero_si512();
    let mut j = 0;
    while j < row.len() {
        let m = mask16(row.len() - j);
        // SAFETY: the row holds `row.len()` values; the mask reads none past them.
        let x = unsafe { _mm512_maskz_loadu_epi32(m, row.as_ptr().add(j)) };
        // |i32::MIN| reads as 2^31 in the unsigned lanes.
        let a = _mm512_abs_epi32(x);
        let even = cube64(_mm512_and_si512(a, low), sq, cub);
        let odd = cube64(_mm512_srli_epi64::<32>(a), sq, cub);
        // A zero's cube need not be zero (the roundings): only loaded lanes count.
        let (m_even, m_odd) = lanes64(m);
        acc = _mm512_mask_add_epi64(acc, m_even, acc, even);
        acc = _mm512_mask_add_epi64(acc, m_odd, acc, odd);
        j += 16;
    }
    _mm512_reduce_add_epi64(acc) as u64
}
