//! A width-generic view of the integer vector registers, so that one body of motion's
//! 16-bit pipeline kernels (`super::words_by`) serves AVX2 (sixteen words) and AVX-512
//! (thirty-two): [`I16Lanes`] names the operations they need, [`Avx2`] and [`Avx512`]
//! implement them with the level's intrinsics. The 128-bit-block semantics of the
//! unpacks, packs and multiply-adds are the same at both widths.

use std::arch::x86_64::*;

use crate::cpu::widen::widen_u8x16;

/// The integer vector operations of one instruction-set level.
///
/// # Safety
/// Every method needs the level's instructions: call them only from code that runs after
/// the level was detected (the dispatch hands the tables out only then).
pub(super) trait I16Lanes: Copy {
    /// Words per vector (twice the 32-bit lanes).
    const N: usize;
    /// A vector of `N` words.
    type V: Copy;

    /// All 32-bit lanes `x`.
    unsafe fn splat32(x: i32) -> Self::V;
    /// All words `x`.
    unsafe fn splat16(x: i16) -> Self::V;
    /// `N` words from `p` (unaligned).
    unsafe fn load(p: *const i16) -> Self::V;
    /// `N` bytes from `p`, widened to words.
    unsafe fn load_u8(p: *const u8) -> Self::V;
    /// Stores `N` words at `p` (unaligned).
    unsafe fn store(p: *mut i16, v: Self::V);
    /// `a + b` by words (wrapping).
    unsafe fn add16(a: Self::V, b: Self::V) -> Self::V;
    /// `a - b` by words (wrapping).
    unsafe fn sub16(a: Self::V, b: Self::V) -> Self::V;
    /// `a + b` by 32-bit lanes (wrapping).
    unsafe fn add32(a: Self::V, b: Self::V) -> Self::V;
    /// `a | b`.
    unsafe fn or(a: Self::V, b: Self::V) -> Self::V;
    /// Whether `a & b` has a bit set.
    unsafe fn any_and(a: Self::V, b: Self::V) -> bool;
    /// The words of the low (`high` false) or high halves of each 128-bit block of `a`
    /// and `b`, interleaved.
    unsafe fn unpack16(a: Self::V, b: Self::V, high: bool) -> Self::V;
    /// `vpmaddwd`: each 32-bit lane the sum of its two words' products.
    unsafe fn madd(a: Self::V, b: Self::V) -> Self::V;
    /// 32-bit lanes shifted right arithmetically by `count` (the low 64 bits).
    unsafe fn sra32(a: Self::V, count: __m128i) -> Self::V;
    /// 32-bit lanes shifted right arithmetically by 16.
    unsafe fn sra32_16(a: Self::V) -> Self::V;
    /// 32-bit lanes of `a` then `b`, per 128-bit block, saturated to words.
    unsafe fn packs32(a: Self::V, b: Self::V) -> Self::V;
    /// `|a|` by words (`-32768` stays, reading 32768 unsigned).
    unsafe fn abs16(a: Self::V) -> Self::V;
    /// The unsigned maximum by words.
    unsafe fn max_u16(a: Self::V, b: Self::V) -> Self::V;
    /// `|a|` by 32-bit lanes.
    unsafe fn abs32(a: Self::V) -> Self::V;
    /// `a` where the 32-bit lane of `at` is above `t`, else 0.
    unsafe fn keep_above(a: Self::V, at: Self::V, t: i32) -> Self::V;
    /// The largest word, unsigned.
    unsafe fn max_word(a: Self::V) -> u16;
    /// The wrapping sum of the 32-bit lanes.
    unsafe fn sum32(a: Self::V) -> u32;

    // The 32-bit row passes (`super::rows32_by`): `N / 2` lanes of `i32`.

    /// `N / 2` bytes from `p`, widened to 32-bit lanes.
    unsafe fn load_u8_32(p: *const u8) -> Self::V;
    /// `N / 2` 16-bit samples from `p`, widened to 32-bit lanes.
    unsafe fn load_u16_32(p: *const u16) -> Self::V;
    /// `N / 2` 32-bit values from `p` (unaligned).
    unsafe fn load32(p: *const i32) -> Self::V;
    /// Stores `N / 2` 32-bit lanes at `p` (unaligned).
    unsafe fn store32(p: *mut i32, v: Self::V);
    /// `a - b` by 32-bit lanes (wrapping).
    unsafe fn sub32(a: Self::V, b: Self::V) -> Self::V;
    /// The low 32 bits of `a * b` by 32-bit lanes.
    unsafe fn mul32(a: Self::V, b: Self::V) -> Self::V;
    /// `a & b`.
    unsafe fn and(a: Self::V, b: Self::V) -> Self::V;
    /// 32-bit lanes shifted right arithmetically by 8.
    unsafe fn sra32_8(a: Self::V) -> Self::V;
    /// The signed minimum by 32-bit lanes.
    unsafe fn min32(a: Self::V, b: Self::V) -> Self::V;
    /// The signed maximum by 32-bit lanes.
    unsafe fn max32(a: Self::V, b: Self::V) -> Self::V;
    /// Whether some 32-bit lane of `a` is greater (signed) than that of `b`.
    unsafe fn any_gt32(a: Self::V, b: Self::V) -> bool;
}

/// The AVX2 level: sixteen words.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx2;

/// The AVX-512 level (F and BW): thirty-two words.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx512;

impl I16Lanes for Avx2 {
    const N: usize = 16;
    type V = __m256i;

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat32(x: i32) -> __m256i {
        _mm256_set1_epi32(x)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat16(x: i16) -> __m256i {
        _mm256_set1_epi16(x)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load(p: *const i16) -> __m256i {
        // SAFETY: the caller makes sixteen words from `p` readable.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load_u8(p: *const u8) -> __m256i {
        // SAFETY: the caller makes sixteen bytes from `p` readable.
        unsafe { widen_u8x16(p) }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store(p: *mut i16, v: __m256i) {
        // SAFETY: the caller makes sixteen words from `p` writable.
        unsafe { _mm256_storeu_si256(p.cast(), v) }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add16(a: __m256i, b: __m256i) -> __m256i {
        _mm256_add_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sub16(a: __m256i, b: __m256i) -> __m256i {
        _mm256_sub_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add32(a: __m256i, b: __m256i) -> __m256i {
        _mm256_add_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn or(a: __m256i, b: __m256i) -> __m256i {
        _mm256_or_si256(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn any_and(a: __m256i, b: __m256i) -> bool {
        _mm256_testz_si256(a, b) == 0
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn unpack16(a: __m256i, b: __m256i, high: bool) -> __m256i {
        if high {
            _mm256_unpackhi_epi16(a, b)
        } else {
            _mm256_unpacklo_epi16(a, b)
        }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn madd(a: __m256i, b: __m256i) -> __m256i {
        _mm256_madd_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sra32(a: __m256i, count: __m128i) -> __m256i {
        _mm256_sra_epi32(a, count)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sra32_16(a: __m256i) -> __m256i {
        _mm256_srai_epi32::<16>(a)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn packs32(a: __m256i, b: __m256i) -> __m256i {
        _mm256_packs_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn abs16(a: __m256i) -> __m256i {
        _mm256_abs_epi16(a)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn max_u16(a: __m256i, b: __m256i) -> __m256i {
        _mm256_max_epu16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn abs32(a: __m256i) -> __m256i {
        _mm256_abs_epi32(a)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn keep_above(a: __m256i, at: __m256i, t: i32) -> __m256i {
        _mm256_and_si256(a, _mm256_cmpgt_epi32(at, _mm256_set1_epi32(t)))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn max_word(a: __m256i) -> u16 {
        let mut w = [0u16; 16];
        // SAFETY: `w` has room for sixteen words.
        unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), a) };
        w.iter().fold(0, |m, &v| m.max(v))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sum32(a: __m256i) -> u32 {
        let mut w = [0u32; 8];
        // SAFETY: `w` has room for eight lanes.
        unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), a) };
        w.iter().fold(0u32, |s, &v| s.wrapping_add(v))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load_u8_32(p: *const u8) -> __m256i {
        // SAFETY: the caller makes eight bytes from `p` readable.
        _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(p.cast()) })
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load_u16_32(p: *const u16) -> __m256i {
        // SAFETY: the caller makes eight samples from `p` readable.
        _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(p.cast()) })
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load32(p: *const i32) -> __m256i {
        // SAFETY: the caller makes eight values from `p` readable.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store32(p: *mut i32, v: __m256i) {
        // SAFETY: the caller makes eight values from `p` writable.
        unsafe { _mm256_storeu_si256(p.cast(), v) }
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sub32(a: __m256i, b: __m256i) -> __m256i {
        _mm256_sub_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn mul32(a: __m256i, b: __m256i) -> __m256i {
        _mm256_mullo_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn and(a: __m256i, b: __m256i) -> __m256i {
        _mm256_and_si256(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sra32_8(a: __m256i) -> __m256i {
        _mm256_srai_epi32::<8>(a)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn min32(a: __m256i, b: __m256i) -> __m256i {
        _mm256_min_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn max32(a: __m256i, b: __m256i) -> __m256i {
        _mm256_max_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn any_gt32(a: __m256i, b: __m256i) -> bool {
        let gt = _mm256_cmpgt_epi32(a, b);
        _mm256_testz_si256(gt, gt) == 0
    }
}

impl I16Lanes for Avx512 {
    const N: usize = 32;
    type V = __m512i;

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn splat32(x: i32) -> __m512i {
        _mm512_set1_epi32(x)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn splat16(x: i16) -> __m512i {
        _mm512_set1_epi16(x)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load(p: *const i16) -> __m512i {
        // SAFETY: the caller makes thirty-two words from `p` readable.
        unsafe { _mm512_loadu_si512(p.cast()) }
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load_u8(p: *const u8) -> __m512i {
        // SAFETY: the caller makes thirty-two bytes from `p` readable.
        _mm512_cvtepu8_epi16(unsafe { _mm256_loadu_si256(p.cast()) })
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn store(p: *mut i16, v: __m512i) {
        // SAFETY: the caller makes thirty-two words from `p` writable.
        unsafe { _mm512_storeu_si512(p.cast(), v) }
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn add16(a: __m512i, b: __m512i) -> __m512i {
        _mm512_add_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn sub16(a: __m512i, b: __m512i) -> __m512i {
        _mm512_sub_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn add32(a: __m512i, b: __m512i) -> __m512i {
        _mm512_add_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn or(a: __m512i, b: __m512i) -> __m512i {
        _mm512_or_si512(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn any_and(a: __m512i, b: __m512i) -> bool {
        _mm512_test_epi16_mask(a, b) != 0
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn unpack16(a: __m512i, b: __m512i, high: bool) -> __m512i {
        if high {
            _mm512_unpackhi_epi16(a, b)
        } else {
            _mm512_unpacklo_epi16(a, b)
        }
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn madd(a: __m512i, b: __m512i) -> __m512i {
        _mm512_madd_epi16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn sra32(a: __m512i, count: __m128i) -> __m512i {
        _mm512_sra_epi32(a, count)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn sra32_16(a: __m512i) -> __m512i {
        _mm512_srai_epi32::<16>(a)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn packs32(a: __m512i, b: __m512i) -> __m512i {
        _mm512_packs_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn abs16(a: __m512i) -> __m512i {
        _mm512_abs_epi16(a)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn max_u16(a: __m512i, b: __m512i) -> __m512i {
        _mm512_max_epu16(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn abs32(a: __m512i) -> __m512i {
        _mm512_abs_epi32(a)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn keep_above(a: __m512i, at: __m512i, t: i32) -> __m512i {
        _mm512_maskz_mov_epi32(_mm512_cmpgt_epi32_mask(at, _mm512_set1_epi32(t)), a)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn max_word(a: __m512i) -> u16 {
        let mut w = [0u16; 32];
        // SAFETY: `w` has room for thirty-two words.
        unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), a) };
        w.iter().fold(0, |m, &v| m.max(v))
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn sum32(a: __m512i) -> u32 {
        _mm512_reduce_add_epi32(a) as u32
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load_u8_32(p: *const u8) -> __m512i {
        // SAFETY: the caller makes sixteen bytes from `p` readable.
        _mm512_cvtepu8_epi32(unsafe { _mm_loadu_si128(p.cast()) })
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load_u16_32(p: *const u16) -> __m512i {
        // SAFETY: the caller makes sixteen samples from `p` readable.
        _mm512_cvtepu16_epi32(unsafe { _mm256_loadu_si256(p.cast()) })
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load32(p: *const i32) -> __m512i {
        // SAFETY: the caller makes sixteen values from `p` readable.
        unsafe { _mm512_loadu_si512(p.cast()) }
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn store32(p: *mut i32, v: __m512i) {
        // SAFETY: the caller makes sixteen values from `p` writable.
        unsafe { _mm512_storeu_si512(p.cast(), v) }
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn sub32(a: __m512i, b: __m512i) -> __m512i {
        _mm512_sub_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn mul32(a: __m512i, b: __m512i) -> __m512i {
        _mm512_mullo_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn and(a: __m512i, b: __m512i) -> __m512i {
        _mm512_and_si512(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn sra32_8(a: __m512i) -> __m512i {
        _mm512_srai_epi32::<8>(a)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn min32(a: __m512i, b: __m512i) -> __m512i {
        _mm512_min_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn max32(a: __m512i, b: __m512i) -> __m512i {
        _mm512_max_epi32(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn any_gt32(a: __m512i, b: __m512i) -> bool {
        _mm512_cmpgt_epi32_mask(a, b) != 0
    }
}
