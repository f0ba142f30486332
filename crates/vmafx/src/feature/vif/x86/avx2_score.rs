//! The rounded product of 32-bit lanes that every AVX2 horizontal pass of `vif` takes of
//! its means (`square`), and the join of 64-bit lanes back into 32-bit ones behind it;
//! the pixels' scores are `avx2_score_loads`'s.

use std::arch::x86_64::*;

/// Joins the low 32 bits of the 64-bit lanes of `even` (columns 0, 2, ..) and `odd`
/// (columns 1, 3, ..) back into eight 32-bit lanes in column order.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn interleave(even: __m256i, odd: __m256i) -> __m256i {
    _mm256_blend_epi32::<0b1010_1010>(even, _mm256_slli_epi64::<32>(odd))
}

/// `(a * b + 2^31) >> 32` per 32-bit lane, wrapping as the scalar code does.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn square(a: __m256i, b: __m256i) -> __m256i {
    let round = _mm256_set1_epi64x(1 << 31);
    let e = _mm256_add_epi64(_mm256_mul_epu32(a, b), round);
    let o = _mm256_mul_epu32(_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b));
    let o = _mm256_add_epi64(o, round);
    // SAFETY: AVX2 is enabled here.
    unsafe { interleave(_mm256_srli_epi64::<32>(e), _mm256_srli_epi64::<32>(o)) }
}
