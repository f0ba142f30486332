//! AVX-512 level 0 of the ADM DWT, the scalar twin's values with no scalar tail: the last
//! partial step of a pass runs with masked loads and stores, and only the mirrored edge
//! columns of the horizontal pass take the scalar code.
//!
//! Level 0 keeps the vertical pass's rows as `i16` (the scalar twin truncates them to 16
//! bits), so that the horizontal pass multiplies and adds tap pairs with `vpmaddwd`:
//! output `j` reads inputs `2j-1 ..= 2j+2`, and 32 values loaded from `2j-1` (and from
//! `2j+1`) pair up exactly as taps 0 and 1 (2 and 3) of sixteen outputs. Every sum fits
//! 32 bits (at most 54822 · 32768 + 32768 in magnitude), so no wrap is lost.
//!
//! Levels 1..3 are in `avx512_dwt123`.

use std::arch::x86_64::*;

use super::super::bands::Bands;
use super::super::dwt::{self, level0_horizontal, Taps, HI, LO, LO_SUM};
use super::dwt_rows::{band_row_ptrs, band_rows, fits, interior_end};

/// A sample type whose sixteen consecutive values load as 32-bit lanes, or 32 as 16-bit
/// lanes.
pub(super) trait Load16: Copy + Into<i32> {
    /// The bits of one sample.
    const BITS: u32;

    /// The samples of `p .. p + 32` whose bit in `m` is set, as 16-bit lanes (zero
    /// elsewhere).
    ///
    /// # Safety
    /// As for [`Load16::load16`].
    unsafe fn load32(p: *const Self, m: __mmask32) -> __m512i;

    /// The samples of `p .. p + 16` whose bit in `m` is set, widened to `i32` (zero
    /// elsewhere).
    ///
    /// # Safety
    /// `p` must be valid for reading every sample `m` selects, and AVX-512 (F, BW, VL)
    /// must be available.
    unsafe fn load16(p: *const Self, m: __mmask16) -> __m512i;
}

impl Load16 for u8 {
    const BITS: u32 = 8;

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn load32(p: *const u8, m: __mmask32) -> __m512i {
        // SAFETY: the caller guarantees that every byte the mask selects is readable.
        _mm512_cvtepu8_epi16(unsafe { _mm256_maskz_loadu_epi8(m, p as *const i8) })
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn load16(p: *const u8, m: __mmask16) -> __m512i {
        // SAFETY: the caller guarantees that every byte the mask selects is readable.
        _mm512_cvtepu8_epi32(unsafe { _mm_maskz_loadu_epi8(m, p as *const i8) })
    }
}

impl Load16 for u16 {
    const BITS: u32 = 16;

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn load32(p: *const u16, m: __mmask32) -> __m512i {
        // SAFETY: the caller guarantees that every sample the mask selects is readable.
        unsafe { _mm512_maskz_loadu_epi16(m, p as *const i16) }
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn load16(p: *const u16, m: __mmask16) -> __m512i {
        // SAFETY: the caller guarantees that every sample the mask selects is readable.
        _mm512_cvtepu16_epi32(unsafe { _mm256_maskz_loadu_epi16(m, p as *const i16) })
    }
}

/// The mask of the first `k` (at most 16) lanes.
#[inline]
pub(super) fn mask16(k: usize) -> __mmask16 {
    ((1u32 << k.min(16)) - 1) as __mmask16
}

/// The mask of the first `k` (at most 32) lanes.
#[inline]
fn mask32(k: usize) -> __mmask32 {
    ((1u64 << k.min(32)) - 1) as __mmask32
}

/// DWT level 0 (see [`dwt::level0`]) with AVX-512.
pub(super) fn level0<S: Load16>(
    src: &[S],
    stride: usize,
    t: &Taps,
    bpc: u32,
    tmp: &mut [i32],
    out: &mut Bands<i16>,
    out_stride: usize,
) {
    if !(1..=16).contains(&bpc) || !fits(src, stride, t, tmp, out, out_stride) {
        return dwt::level0(src, stride, t, bpc, tmp, out, out_stride);
    }
    let w = t.w;
    let n = t.cols.len();
    // SAFETY: every bit pattern of two `i32`s is one of four `i16`s, and `i16`'s
    // alignment divides `i32`'s, so the middle part is the whole slice.
    let (_, rows16, _) = unsafe { tmp[..w].align_to_mut::<i16>() };
    let (lo, hi) = rows16.split_at_mut(w);
    let end = interior_end(w);
    for (i, rows) in t.rows.iter().enumerate() {
        // The next output row's two new source rows, fetched into the cache while this
        // row is filtered (the last row fetches its own again).
        let next = t.rows.get(i + 1).unwrap_or(rows);
        let ahead = [next[2], next[3]];
        // SAFETY: the AVX-512 table, which lists this kernel, is only handed out when the
        // processor has AVX-512 (F, BW, DQ, VL); `fits` checked that every source row
        // holds `w` samples, and lo and hi hold `w` values.
        unsafe {
            if bpc < 16 {
                vertical0_pairs(src, stride, rows, ahead, bpc, lo, hi);
            } else {
                vertical0(src, stride, rows, bpc, lo, hi);
            }
        }
        let ptrs = band_row_ptrs(out, i * out_stride, n);
        // SAFETY: as above; the band rows were just sliced to `n > end - 1` columns, and
        // the pointers are not used after this call.
        unsafe { horizontal0(lo, hi, ptrs, end) };
        let [a, v, h, d] = band_rows(out, i * out_stride, n);
        level0_horizontal(lo, hi, &t.cols, [&mut *a, &mut *v, &mut *h, &mut *d], 0..1);
        level0_horizontal(lo, hi, &t.cols, [a, v, h, d], end.max(1)..n);
    }
}

/// The vertical pass of level 0 over every column, kept to 16 bits.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn vertical0<S: Load16>(
    src: &[S],
    stride: usize,
    rows: &[usize; 4],
    bpc: u32,
    lo: &mut [i16],
    hi: &mut [i16],
) {
    let w = lo.len().min(hi.len());
    let round = 1i32 << (bpc - 1);
    let bias = _mm512_set1_epi32(round.wrapping_sub(LO_SUM.wrapping_mul(round)));
    let round = _mm512_set1_epi32(round);
    let count = _mm_cvtsi32_si128(bpc as i32);
    let lo_taps = LO.map(|f| _mm512_set1_epi32(f));
    let hi_taps = HI.map(|f| _mm512_set1_epi32(f));
    let mut j = 0;
    while j < w {
        let m = mask16(w - j);
        let mut s = [_mm512_setzero_si512(); 4];
        for (v, &r) in s.iter_mut().zip(rows) {
            // SAFETY: each row holds `w` samples from `r * stride` (the caller's `fits`),
            // and the mask selects none at or past `w`.
            *v = unsafe { S::load16(src.as_ptr().add(r * stride + j), m) };
        }
        let mut l = _mm512_setzero_si512();
        let mut g = _mm512_setzero_si512();
        for k in 0..4 {
            l = _mm512_add_epi32(l, _mm512_mullo_epi32(lo_taps[k], s[k]));
            g = _mm512_add_epi32(g, _mm512_mullo_epi32(hi_taps[k], s[k]));
        }
        let l = _mm512_cvtepi32_epi16(_mm512_sra_epi32(_mm512_add_epi32(l, bias), count));
        let g = _mm512_cvtepi32_epi16(_mm512_sra_epi32(_mm512_add_epi32(g, round), count));
        // SAFETY: lo and hi hold `w` values; the mask stores none at or past `w`.
        unsafe {
            _mm256_mask_storeu_epi16(lo.as_mut_ptr().add(j), m, l);
            _mm256_mask_storeu_epi16(hi.as_mut_ptr().add(j), m, g);
        }
        j += 16;
    }
}

/// The vertical pass of level 0 at depths below 16 bits, 32 columns a step: rows 0 and 1
/// (2 and 3) interleave as 16-bit pairs for `vpmaddwd`, and the sums pack back to `i16` in
/// column order (each 128-bit lane holds eight consecutive columns). Samples below
/// 2^bpc <= 2^15 make every pair sum exact and every shifted sum an `i16` (at most
/// 27411 in magnitude), so the saturating pack is the scalar truncation; a step with a
/// sample at or past 2^bpc takes the 32-bit kernel instead. The same columns of the
/// source rows `ahead` are prefetched a step at a time.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn vertical0_pairs<S: Load16>(
    src: &[S],
    stride: usize,
    rows: &[usize; 4],
    ahead: [usize; 2],
    bpc: u32,
    lo: &mut [i16],
    hi: &mut [i16],
) {
    let w = lo.len().min(hi.len());
    let round = 1i32 << (bpc - 1);
    let bias = _mm512_set1_epi32(round.wrapping_sub(LO_SUM.wrapping_mul(round)));
    let round = _mm512_set1_epi32(round);
    let count = _mm_cvtsi32_si128(bpc as i32);
    let f_lo = [tap_pair(LO[0], LO[1]), tap_pair(LO[2], LO[3])];
    let f_hi = [tap_pair(HI[0], HI[1]), tap_pair(HI[2], HI[3])];
    let too_big = _mm512_set1_epi16(!((1u16 << bpc) - 1) as i16);
    let mut j = 0;
    while j < w {
        let m = mask32(w - j);
        let mut s = [_mm512_setzero_si512(); 4];
        for (v, &r) in s.iter_mut().zip(rows) {
            // SAFETY: each row holds `w` samples from `r * stride` (the caller's `fits`),
            // and the mask selects none at or past `w`.
            *v = unsafe { S::load32(src.as_ptr().add(r * stride + j), m) };
        }
        for r in ahead {
            // A prefetch only hints the cache and reads nothing; the address is formed
            // with wrapping arithmetic and is a column of a source row anyway.
            let p = src.as_ptr().wrapping_add(r * stride + j) as *const i8;
            _mm_prefetch::<_MM_HINT_T0>(p);
        }
        if bpc < S::BITS {
            let any = _mm512_or_si512(_mm512_or_si512(s[0], s[1]), _mm512_or_si512(s[2], s[3]));
            if _mm512_test_epi16_mask(any, too_big) != 0 {
                // The 32-bit kernel over this step's columns j..end, from a source that
                // starts at column j.
                let end = w.min(j + 32);
                // SAFETY: as the caller's; each row still holds its columns j..end.
                unsafe {
                    vertical0(
                        &src[j..],
                        stride,
                        rows,
                        bpc,
                        &mut lo[j..end],
                        &mut hi[j..end],
                    )
                };
                j += 32;
                continue;
            }
        }
        let pairs = [
            _mm512_unpacklo_epi16(s[0], s[1]),
            _mm512_unpacklo_epi16(s[2], s[3]),
            _mm512_unpackhi_epi16(s[0], s[1]),
            _mm512_unpackhi_epi16(s[2], s[3]),
        ];
        let sum = |f: &[__m512i; 2], p: &[__m512i]| {
            _mm512_add_epi32(_mm512_madd_epi16(p[0], f[0]), _mm512_madd_epi16(p[1], f[1]))
        };
        let shifted = |x: __m512i, add: __m512i| _mm512_sra_epi32(_mm512_add_epi32(x, add), count);
        let l = _mm512_packs_epi32(
            shifted(sum(&f_lo, &pairs[..2]), bias),
            shifted(sum(&f_lo, &pairs[2..]), bias),
        );
        let g = _mm512_packs_epi32(
            shifted(sum(&f_hi, &pairs[..2]), round),
            shifted(sum(&f_hi, &pairs[2..]), round),
        );
        // SAFETY: lo and hi hold `w` values; the mask stores none at or past `w`.
        unsafe {
            _mm512_mask_storeu_epi16(lo.as_mut_ptr().add(j), m, l);
            _mm512_mask_storeu_epi16(hi.as_mut_ptr().add(j), m, g);
        }
        j += 32;
    }
}

/// Two 16-bit taps as one `vpmaddwd` operand: `a` times the even, `b` the odd element.
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn tap_pair(a: i32, b: i32) -> __m512i {
    _mm512_set1_epi32((((b as u32) << 16) | (a as u32 & 0xffff)) as i32)
}

/// `(Σ taps + 32768) >> 16` of sixteen outputs from their tap pairs `x` (taps 0, 1) and
/// `y` (taps 2, 3), as `i16`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn taps16(x: __m512i, y: __m512i, f01: __m512i, f23: __m512i) -> __m256i {
    let acc = _mm512_add_epi32(_mm512_madd_epi16(x, f01), _mm512_madd_epi16(y, f23));
    let acc = _mm512_add_epi32(acc, _mm512_set1_epi32(32768));
    // The shifted sums lie in i16's range, so the truncation is exact.
    _mm512_cvtepi32_epi16(_mm512_srai_epi32::<16>(acc))
}

/// The horizontal pass of level 0 over the interior output columns `1..end`, into the
/// bands (a, v, h, d) at `bands` (each valid for `end` values).
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn horizontal0(lo: &[i16], hi: &[i16], bands: [*mut i16; 4], end: usize) {
    let f_lo = [tap_pair(LO[0], LO[1]), tap_pair(LO[2], LO[3])];
    let f_hi = [tap_pair(HI[0], HI[1]), tap_pair(HI[2], HI[3])];
    let mut j = 1;
    while j < end {
        let k = end - j;
        let (m_in, m_out) = (mask32(2 * k), mask16(k));
        for (t, dst) in [(lo, [bands[0], bands[1]]), (hi, [bands[2], bands[3]])] {
            let p = t.as_ptr();
            // SAFETY: outputs j .. j + min(k, 16) are interior, so their taps lie in
            // 1 ..= 2(j + k - 1) + 2 <= w - 1 < t.len(); the masks read no further.
            let (x, y) = unsafe {
                (
                    _mm512_maskz_loadu_epi16(m_in, p.add(2 * j - 1)),
                    _mm512_maskz_loadu_epi16(m_in, p.add(2 * j + 1)),
                )
            };
            // SAFETY: each band holds `end > j + min(k, 16) - 1` values and the mask
            // stores no further; the pointers came from live mutable slices the caller
            // does not touch while this runs.
            unsafe {
                _mm256_mask_storeu_epi16(dst[0].add(j), m_out, taps16(x, y, f_lo[0], f_lo[1]));
                _mm256_mask_storeu_epi16(dst[1].add(j), m_out, taps16(x, y, f_hi[0], f_hi[1]));
            }
        }
        j += 16;
    }
}
