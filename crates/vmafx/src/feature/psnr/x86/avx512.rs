//! psnr's AVX-512 kernels: 64 samples (8-bit) or 32 samples (deeper) a step, the last
//! partial step by masked loads (masked-off lanes read zero in both rows and add nothing),
//! so no scalar tail is left.

use std::arch::x86_64::*;

use crate::feature::psnr::sse::plane;

use super::super::kernels::Kernels;
use crate::cpu::CpuLevel;

/// The AVX-512 kernels. The dispatch hands them out only when the processor has AVX-512.
pub(in crate::feature::psnr) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx512,
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
    // SAFETY: this function is only in a table made after AVX-512 (F, BW) was detected; `plane`
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
/// AVX-512 (F, BW), and `a.len() == b.len()`.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn row_u8(a: &[u8], b: &[u8]) -> u32 {
    let n = a.len();
    let zero = _mm512_setzero_si512();
    let mut acc = zero;
    let mut i = 0;
    while i < n {
        super::prefetch_ahead(a, b, i);
        let m: __mmask64 = if n - i >= 64 {
            !0
        } else {
            (1u64 << (n - i)) - 1
        };
        // SAFETY: the lanes in `m` lie within both rows (`i + popcount(m) <= n`); a
        // masked load does not touch the others.
        let (x, z) = unsafe {
            (
                _mm512_maskz_loadu_epi8(m, a.as_ptr().add(i) as *const i8),
                _mm512_maskz_loadu_epi8(m, b.as_ptr().add(i) as *const i8),
            )
        };
        // |x - z| widened to 16 bits; a pair of squares fits the multiply-add's lane.
        let d = _mm512_sub_epi8(_mm512_max_epu8(x, z), _mm512_min_epu8(x, z));
        let (lo, hi) = (_mm512_unpacklo_epi8(d, zero), _mm512_unpackhi_epi8(d, zero));
        let sq = _mm512_add_epi32(_mm512_madd_epi16(lo, lo), _mm512_madd_epi16(hi, hi));
        acc = _mm512_add_epi32(acc, sq);
        i += 64;
    }
    // Integer lanes add modulo 2^32 in any order.
    _mm512_reduce_add_epi32(acc) as u32
}

/// The sum of squared differences of one 9..16-bit row.
///
/// # Safety
/// AVX-512 (F, BW), and `a.len() == b.len()`.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn row_u16(a: &[u16], b: &[u16]) -> u64 {
    let n = a.len();
    let zero = _mm512_setzero_si512();
    let mut acc = zero;
    let mut i = 0;
    while i < n {
        super::prefetch_ahead(a, b, 2 * i);
        let m: __mmask32 = if n - i >= 32 {
            !0
        } else {
            (1u32 << (n - i)) - 1
        };
        // SAFETY: as in `row_u8`.
        let (x, z) = unsafe {
            (
                _mm512_maskz_loadu_epi16(m, a.as_ptr().add(i) as *const i16),
                _mm512_maskz_loadu_epi16(m, b.as_ptr().add(i) as *const i16),
            )
        };
        // |x - z| squared as high and low halves, joined to 32-bit products, widened.
        let d = _mm512_sub_epi16(_mm512_max_epu16(x, z), _mm512_min_epu16(x, z));
        let (lo, hi) = (_mm512_mullo_epi16(d, d), _mm512_mulhi_epu16(d, d));
        for p in [_mm512_unpacklo_epi16(lo, hi), _mm512_unpackhi_epi16(lo, hi)] {
            acc = _mm512_add_epi64(acc, _mm512_unpacklo_epi32(p, zero));
            acc = _mm512_add_epi64(acc, _mm512_unpackhi_epi32(p, zero));
        }
        i += 32;
    }
    _mm512_reduce_add_epi64(acc) as u64
}
