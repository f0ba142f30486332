//! A width-generic view of the `f32` vector registers, so that one kernel body serves
//! AVX2 (eight lanes) and AVX-512 (sixteen): [`F32Lanes`] names the few operations the
//! float kernels need, [`Avx2`] and [`Avx512`] implement them with the level's
//! intrinsics. Every operation is a single IEEE operation per lane (no fused
//! multiply-add), so a kernel that keeps each pixel's operation order gives the scalar
//! code's bits.

use std::arch::x86_64::*;

/// The `f32` vector operations of one instruction-set level.
///
/// # Safety
/// Every method needs the level's instructions: call them only from code that runs after
/// the level was detected (the dispatch hands the tables out only then).
pub(crate) trait F32Lanes: Copy {
    /// Lanes per vector.
    const N: usize;
    /// A vector of `N` floats.
    type V: Copy;
    /// A vector of `N / 2` doubles.
    type D: Copy;
    /// A per-lane condition.
    type M: Copy;

    /// All lanes zero.
    unsafe fn zero() -> Self::V;
    /// All lanes `x`.
    unsafe fn splat(x: f32) -> Self::V;
    /// `N` floats from `p` (unaligned).
    unsafe fn load(p: *const f32) -> Self::V;
    /// The even-indexed floats of the `2N` from `p`: `p[0], p[2], .., p[2N - 2]`.
    unsafe fn load_even(p: *const f32) -> Self::V;
    /// Stores `N` floats at `p` (unaligned).
    unsafe fn store(p: *mut f32, v: Self::V);
    /// `a + b`.
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    /// `a - b`.
    unsafe fn sub(a: Self::V, b: Self::V) -> Self::V;
    /// `a * b`.
    unsafe fn mul(a: Self::V, b: Self::V) -> Self::V;
    /// `a / b`.
    unsafe fn div(a: Self::V, b: Self::V) -> Self::V;
    /// `a.max(b)` for a constant, non-NaN `b` (a NaN `a` gives `b`, as Rust's `max`).
    unsafe fn max(a: Self::V, b: Self::V) -> Self::V;
    /// `a.min(b)` for a constant, non-NaN `b` (a NaN `a` gives `b`, as Rust's `min`).
    unsafe fn min(a: Self::V, b: Self::V) -> Self::V;
    /// `a < b` (false where either is NaN).
    unsafe fn lt(a: Self::V, b: Self::V) -> Self::M;
    /// `a == b` (false where either is NaN).
    unsafe fn eq(a: Self::V, b: Self::V) -> Self::M;
    /// `yes` where `m` holds, else `no`.
    unsafe fn select(m: Self::M, yes: Self::V, no: Self::V) -> Self::V;
    /// The low and high halves widened to `f64`.
    unsafe fn widen(v: Self::V) -> (Self::D, Self::D);
    /// Two halves rounded to `f32` (low first).
    unsafe fn narrow(lo: Self::D, hi: Self::D) -> Self::V;
    /// All `f64` lanes `x`.
    unsafe fn splat_d(x: f64) -> Self::D;
    /// `a + b` in `f64`.
    unsafe fn add_d(a: Self::D, b: Self::D) -> Self::D;
    /// `a / b` in `f64`.
    unsafe fn div_d(a: Self::D, b: Self::D) -> Self::D;
    /// A float's unbiased binary exponent (as a float) and its mantissa scaled into
    /// `[1, 2)`, read from the bits (`exponent - 127`, `mantissa | 1.0`).
    unsafe fn split_exponent(v: Self::V) -> (Self::V, Self::V);
}

/// The AVX2 level: eight lanes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx2;

/// The AVX-512 level (F and DQ): sixteen lanes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx512;

impl F32Lanes for Avx2 {
    const N: usize = 8;
    type V = __m256;
    type D = __m256d;
    type M = __m256;

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn zero() -> __m256 {
        _mm256_setzero_ps()
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat(x: f32) -> __m256 {
        _mm256_set1_ps(x)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load(p: *const f32) -> __m256 {
        // SAFETY: the caller makes eight floats from `p` readable.
        unsafe { _mm256_loadu_ps(p) }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load_even(p: *const f32) -> __m256 {
        // SAFETY: the caller makes sixteen floats from `p` readable.
        let (a, b) = unsafe { (_mm256_loadu_ps(p), _mm256_loadu_ps(p.add(8))) };
        // a0 a2 b0 b2 | a4 a6 b4 b6, then the 64-bit pairs reordered.
        let mixed = _mm256_shuffle_ps::<0b10_00_10_00>(a, b);
        _mm256_castpd_ps(_mm256_permute4x64_pd::<0b11_01_10_00>(_mm256_castps_pd(
            mixed,
        )))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store(p: *mut f32, v: __m256) {
        // SAFETY: the caller makes eight floats from `p` writable.
        unsafe { _mm256_storeu_ps(p, v) }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add(a: __m256, b: __m256) -> __m256 {
        _mm256_add_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sub(a: __m256, b: __m256) -> __m256 {
        _mm256_sub_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn mul(a: __m256, b: __m256) -> __m256 {
        _mm256_mul_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn div(a: __m256, b: __m256) -> __m256 {
        _mm256_div_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn max(a: __m256, b: __m256) -> __m256 {
        _mm256_max_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn min(a: __m256, b: __m256) -> __m256 {
        _mm256_min_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn lt(a: __m256, b: __m256) -> __m256 {
        _mm256_cmp_ps::<_CMP_LT_OQ>(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn eq(a: __m256, b: __m256) -> __m256 {
        _mm256_cmp_ps::<_CMP_EQ_OQ>(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn select(m: __m256, yes: __m256, no: __m256) -> __m256 {
        _mm256_blendv_ps(no, yes, m)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn widen(v: __m256) -> (__m256d, __m256d) {
        (
            _mm256_cvtps_pd(_mm256_castps256_ps128(v)),
            _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(v)),
        )
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn narrow(lo: __m256d, hi: __m256d) -> __m256 {
        _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat_d(x: f64) -> __m256d {
        _mm256_set1_pd(x)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add_d(a: __m256d, b: __m256d) -> __m256d {
        _mm256_add_pd(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn div_d(a: __m256d, b: __m256d) -> __m256d {
        _mm256_div_pd(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn split_exponent(v: __m256) -> (__m256, __m256) {
        let bits = _mm256_castps_si256(v);
        let biased =
            _mm256_srli_epi32::<23>(_mm256_and_si256(bits, _mm256_set1_epi32(0x7F80_0000)));
        let exponent = _mm256_cvtepi32_ps(_mm256_sub_epi32(biased, _mm256_set1_epi32(127)));
        let mantissa = _mm256_or_si256(
            _mm256_and_si256(bits, _mm256_set1_epi32(0x007F_FFFF)),
            _mm256_set1_epi32(0x3F80_0000),
        );
        (exponent, _mm256_castsi256_ps(mantissa))
    }
}

impl F32Lanes for Avx512 {
    const N: usize = 16;
    type V = __m512;
    type D = __m512d;
    type M = __mmask16;

    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn zero() -> __m512 {
        _mm512_setzero_ps()
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn splat(x: f32) -> __m512 {
        _mm512_set1_ps(x)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn load(p: *const f32) -> __m512 {
        // SAFETY: the caller makes sixteen floats from `p` readable.
        unsafe { _mm512_loadu_ps(p) }
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn load_even(p: *const f32) -> __m512 {
        // SAFETY: the caller makes 32 floats from `p` readable.
        let (a, b) = unsafe { (_mm512_loadu_ps(p), _mm512_loadu_ps(p.add(16))) };
        let even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        _mm512_permutex2var_ps(a, even, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn store(p: *mut f32, v: __m512) {
        // SAFETY: the caller makes sixteen floats from `p` writable.
        unsafe { _mm512_storeu_ps(p, v) }
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn add(a: __m512, b: __m512) -> __m512 {
        _mm512_add_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn sub(a: __m512, b: __m512) -> __m512 {
        _mm512_sub_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn mul(a: __m512, b: __m512) -> __m512 {
        _mm512_mul_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn div(a: __m512, b: __m512) -> __m512 {
        _mm512_div_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn max(a: __m512, b: __m512) -> __m512 {
        _mm512_max_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn min(a: __m512, b: __m512) -> __m512 {
        _mm512_min_ps(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn lt(a: __m512, b: __m512) -> __mmask16 {
        _mm512_cmp_ps_mask::<_CMP_LT_OQ>(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn eq(a: __m512, b: __m512) -> __mmask16 {
        _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn select(m: __mmask16, yes: __m512, no: __m512) -> __m512 {
        _mm512_mask_blend_ps(m, no, yes)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn widen(v: __m512) -> (__m512d, __m512d) {
        let hi = _mm512_extractf64x4_pd::<1>(_mm512_castps_pd(v));
        (
            _mm512_cvtps_pd(_mm512_castps512_ps256(v)),
            _mm512_cvtps_pd(_mm256_castpd_ps(hi)),
        )
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn narrow(lo: __m512d, hi: __m512d) -> __m512 {
        let lo = _mm256_castps_pd(_mm512_cvtpd_ps(lo));
        let hi = _mm256_castps_pd(_mm512_cvtpd_ps(hi));
        _mm512_castpd_ps(_mm512_insertf64x4::<1>(_mm512_castpd256_pd512(lo), hi))
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn splat_d(x: f64) -> __m512d {
        _mm512_set1_pd(x)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn add_d(a: __m512d, b: __m512d) -> __m512d {
        _mm512_add_pd(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn div_d(a: __m512d, b: __m512d) -> __m512d {
        _mm512_div_pd(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn split_exponent(v: __m512) -> (__m512, __m512) {
        let bits = _mm512_castps_si512(v);
        let biased =
            _mm512_srli_epi32::<23>(_mm512_and_si512(bits, _mm512_set1_epi32(0x7F80_0000)));
        let exponent = _mm512_cvtepi32_ps(_mm512_sub_epi32(biased, _mm512_set1_epi32(127)));
        let mantissa = _mm512_or_si512(
            _mm512_and_si512(bits, _mm512_set1_epi32(0x007F_FFFF)),
            _mm512_set1_epi32(0x3F80_0000),
        );
        (exponent, _mm512_castsi512_ps(mantissa))
    }
}
