//! A width-generic view of the vector registers psnr's SSE kernels use, so that one body
//! of each (`super::sse_by`) serves AVX2 (32 bytes a vector) and AVX-512 (64):
//! [`SseLanes`] names the operations, [`Avx2`] and [`Avx512`] implement them with the
//! level's intrinsics. The unpacks and multiply-adds act within 128-bit blocks at both
//! widths, and every sum is a lane sum, so the order of the lanes does not matter.

use std::arch::x86_64::*;

/// The vector operations of one instruction-set level.
///
/// # Safety
/// Every method needs the level's instructions: call them only from code that runs after
/// the level was detected (the dispatch hands the tables out only then).
pub(super) trait SseLanes {
    /// Bytes per vector.
    const BYTES: usize;
    /// A vector of `BYTES` bytes.
    type V: Copy;

    /// All lanes 0.
    unsafe fn zero() -> Self::V;
    /// The first `n` bytes from `p` (unaligned; `1 <= n <= BYTES`), the other lanes 0:
    /// `None` where `n < BYTES` and the level has no masked loads (the scalar code then
    /// takes those bytes). Nothing past the `n` bytes is read.
    unsafe fn load_part(p: *const u8, n: usize) -> Option<Self::V>;
    /// `acc` plus the squared differences of the bytes of `x` and `z`, summed in 32-bit
    /// lanes (a lane takes four, at most `4 · 255²`, and wraps as the scalar row sum).
    unsafe fn add_sq_u8(acc: Self::V, x: Self::V, z: Self::V) -> Self::V;
    /// `acc` plus the squared differences of the 16-bit words of `x` and `z`, summed in
    /// 64-bit lanes (each square below 2^32).
    unsafe fn add_sq_u16(acc: Self::V, x: Self::V, z: Self::V) -> Self::V;
    /// The wrapping sum of the 32-bit lanes.
    unsafe fn sum32(acc: Self::V) -> u32;
    /// The sum of the 64-bit lanes.
    unsafe fn sum64(acc: Self::V) -> u64;
}

/// The AVX2 level: 32 bytes, the rows' last bytes by the scalar code.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx2;

/// The AVX-512 level (F and BW): 64 bytes, the rows' last bytes by masked loads.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx512;

impl SseLanes for Avx2 {
    const BYTES: usize = 32;
    type V = __m256i;

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn zero() -> __m256i {
        _mm256_setzero_si256()
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load_part(p: *const u8, n: usize) -> Option<__m256i> {
        if n < 32 {
            return None;
        }
        // SAFETY: the caller makes the `n >= 32` bytes from `p` readable.
        Some(unsafe { _mm256_loadu_si256(p.cast()) })
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add_sq_u8(acc: __m256i, x: __m256i, z: __m256i) -> __m256i {
        // |x - z| as bytes, widened to words; a pair of squares fits the 32-bit lane of
        // the multiply-add.
        let zero = _mm256_setzero_si256();
        let d = _mm256_sub_epi8(_mm256_max_epu8(x, z), _mm256_min_epu8(x, z));
        let (lo, hi) = (_mm256_unpacklo_epi8(d, zero), _mm256_unpackhi_epi8(d, zero));
        let sq = _mm256_add_epi32(_mm256_madd_epi16(lo, lo), _mm256_madd_epi16(hi, hi));
        _mm256_add_epi32(acc, sq)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add_sq_u16(mut acc: __m256i, x: __m256i, z: __m256i) -> __m256i {
        // |x - z| squared as its high and low 16-bit halves, joined to 32-bit products,
        // widened to 64 bits and added.
        let zero = _mm256_setzero_si256();
        let d = _mm256_sub_epi16(_mm256_max_epu16(x, z), _mm256_min_epu16(x, z));
        let (lo, hi) = (_mm256_mullo_epi16(d, d), _mm256_mulhi_epu16(d, d));
        for p in [_mm256_unpacklo_epi16(lo, hi), _mm256_unpackhi_epi16(lo, hi)] {
            acc = _mm256_add_epi64(acc, _mm256_unpacklo_epi32(p, zero));
            acc = _mm256_add_epi64(acc, _mm256_unpackhi_epi32(p, zero));
        }
        acc
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sum32(acc: __m256i) -> u32 {
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        let mut lanes = [0u32; 4];
        // SAFETY: `lanes` holds 16 bytes.
        unsafe { _mm_storeu_si128(lanes.as_mut_ptr().cast(), half) };
        lanes.iter().fold(0u32, |s, &v| s.wrapping_add(v))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sum64(acc: __m256i) -> u64 {
        let mut lanes = [0u64; 4];
        // SAFETY: `lanes` holds 32 bytes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), acc) };
        lanes.iter().sum()
    }
}

impl SseLanes for Avx512 {
    const BYTES: usize = 64;
    type V = __m512i;

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn zero() -> __m512i {
        _mm512_setzero_si512()
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load_part(p: *const u8, n: usize) -> Option<__m512i> {
        let m: __mmask64 = if n >= 64 { !0 } else { (1u64 << n) - 1 };
        // SAFETY: the caller makes the first `n` bytes from `p` readable; a masked load
        // does not touch the others.
        Some(unsafe { _mm512_maskz_loadu_epi8(m, p.cast()) })
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn add_sq_u8(acc: __m512i, x: __m512i, z: __m512i) -> __m512i {
        // As the AVX2 one, in four 128-bit blocks.
        let zero = _mm512_setzero_si512();
        let d = _mm512_sub_epi8(_mm512_max_epu8(x, z), _mm512_min_epu8(x, z));
        let (lo, hi) = (_mm512_unpacklo_epi8(d, zero), _mm512_unpackhi_epi8(d, zero));
        let sq = _mm512_add_epi32(_mm512_madd_epi16(lo, lo), _mm512_madd_epi16(hi, hi));
        _mm512_add_epi32(acc, sq)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn add_sq_u16(mut acc: __m512i, x: __m512i, z: __m512i) -> __m512i {
        // As the AVX2 one, in four 128-bit blocks.
        let zero = _mm512_setzero_si512();
        let d = _mm512_sub_epi16(_mm512_max_epu16(x, z), _mm512_min_epu16(x, z));
        let (lo, hi) = (_mm512_mullo_epi16(d, d), _mm512_mulhi_epu16(d, d));
        for p in [_mm512_unpacklo_epi16(lo, hi), _mm512_unpackhi_epi16(lo, hi)] {
            acc = _mm512_add_epi64(acc, _mm512_unpacklo_epi32(p, zero));
            acc = _mm512_add_epi64(acc, _mm512_unpackhi_epi32(p, zero));
        }
        acc
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn sum32(acc: __m512i) -> u32 {
        // Integer lanes add modulo 2^32 in any order.
        _mm512_reduce_add_epi32(acc) as u32
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn sum64(acc: __m512i) -> u64 {
        _mm512_reduce_add_epi64(acc) as u64
    }
}
