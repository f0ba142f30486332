//! AVX-512 levels 1..3 of the ADM DWT, the scalar twin's values with no scalar tail (masked
//! last steps; only the mirrored edge columns of the horizontal pass take the scalar code).
//!
//! The vertical pass's rows are kept as `i32` (the scalar twin truncates them to 32 bits).
//! The 64-bit products take the even and odd `i32` lanes with `vpmuldq`: 16 values loaded
//! from `2j-1` hold taps 0 and 1 of eight horizontal outputs in the low and high dwords of
//! their 64-bit lanes. The shifts are at most 16, so the low dword of a logical shift is
//! that of the scalar arithmetic one.
//!
//! Level 1 reads the scale-0 low band as `i16`: with no rounding shift there, the vertical
//! sum of `i16` values fits 32 bits exactly (at most 54822 · 32768), so it is taken by
//! `vpmaddwd` on interleaved row pairs, 32 columns a step.

use std::arch::x86_64::*;

use super::super::bands::Bands;
use super::super::dwt::{self, level_horizontal, Taps, HI, HORIZONTAL, LO, VERTICAL};
use super::avx2_dwt::tap_word;
use super::avx512_den::mask16;
use super::dwt_rows::{band_row_ptrs, band_rows, fits_n, interior_end};

/// [`tap_word`] in every lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn tap_pair(a: i32, b: i32) -> __m512i {
    _mm512_set1_epi32(tap_word(a, b))
}

/// The row loop of a level: `vertical` fills the two `i32` rows of each output row from its
/// four source rows (and prefetches the next output row's two new source rows), then the
/// horizontal pass writes the bands.
fn rows_of(
    t: &Taps,
    scale: usize,
    tmp: &mut [i64],
    out: &mut Bands<i32>,
    out_stride: usize,
    mut vertical: impl FnMut(&[usize; 4], [usize; 2], &mut [i32], &mut [i32]),
) {
    let w = t.w;
    let n = t.cols.len();
    // SAFETY: every bit pattern of an `i64` is one of two `i32`s, and `i32`'s alignment
    // divides `i64`'s, so the middle part is the whole slice.
    let (_, rows32, _) = unsafe { tmp[..w].align_to_mut::<i32>() };
    let (lo, hi) = rows32.split_at_mut(w);
    let end = interior_end(w);
    for (i, rows) in t.rows.iter().enumerate() {
        // The last row fetches its own again.
        let next = t.rows.get(i + 1).unwrap_or(rows);
        vertical(rows, [next[2], next[3]], lo, hi);
        let ptrs = band_row_ptrs(out, i * out_stride, n);
        // SAFETY: the AVX-512 table, which lists the callers, is only handed out when the
        // processor has AVX-512 (F, BW, DQ, VL); lo and hi hold `w` values; the bands
        // were just sliced to `n > end - 1` columns, and the pointers are not used after
        // this call.
        unsafe { horizontal(lo, hi, ptrs, end, scale) };
        let [a, v, h, d] = band_rows(out, i * out_stride, n);
        let cols = &t.cols;
        let edge = [&mut *a, &mut *v, &mut *h, &mut *d];
        level_horizontal(&*lo, &*hi, cols, scale, edge, 0..1);
        level_horizontal(&*lo, &*hi, cols, scale, [a, v, h, d], end.max(1)..n);
    }
}

/// DWT level `scale` (1..=3; see [`dwt::level`]) of an `i32` band with AVX-512.
pub(super) fn level(
    src: &[i32],
    stride: usize,
    t: &Taps,
    scale: usize,
    tmp: &mut [i64],
    out: &mut Bands<i32>,
    out_stride: usize,
) {
    if !(1..=3).contains(&scale) || !fits_n(src, stride, t, tmp, out, out_stride) {
        return dwt::level(src, stride, t, scale, tmp, out, out_stride);
    }
    rows_of(t, scale, tmp, out, out_stride, |rows, ahead, lo, hi| {
        // SAFETY: as in `rows_of`; `fits_n` checked that every source row holds `w`
        // values.
        unsafe { vertical(src, stride, rows, ahead, scale, lo, hi) }
    });
}

/// DWT level 1 (see [`dwt::level`]) of the scale-0 `i16` low band with AVX-512; other
/// levels of an `i16` band take the scalar twin.
pub(super) fn level1(
    src: &[i16],
    stride: usize,
    t: &Taps,
    scale: usize,
    tmp: &mut [i64],
    out: &mut Bands<i32>,
    out_stride: usize,
) {
    if scale != 1 || VERTICAL[0] != (0, 0) || !fits_n(src, stride, t, tmp, out, out_stride) {
        return dwt::level(src, stride, t, scale, tmp, out, out_stride);
    }
    rows_of(t, scale, tmp, out, out_stride, |rows, ahead, lo, hi| {
        // SAFETY: as in `rows_of`; `fits_n` checked that every source row holds `w`
        // values.
        unsafe { vertical1_pairs(src, stride, rows, ahead, lo, hi) }
    });
}

/// Hints the cache to fetch column `j` of the rows `ahead` of `src`.
#[inline]
fn prefetch<T>(src: &[T], stride: usize, ahead: [usize; 2], j: usize) {
    for r in ahead {
        let p = src.as_ptr().wrapping_add(r * stride + j) as *const i8;
        // SAFETY: SSE is part of x86_64; a prefetch reads nothing and cannot fault, and
        // the address is formed with wrapping arithmetic.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
    }
}

/// The vertical pass of level 1 over `i16` rows, 32 columns a step. The row pairs
/// interleave per 128-bit lane, so the two sums hold columns 0..4 and 4..8 of each group
/// of eight; two lane permutes put them back in column order. The same columns of the
/// rows `ahead` are prefetched.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn vertical1_pairs(
    src: &[i16],
    stride: usize,
    rows: &[usize; 4],
    ahead: [usize; 2],
    lo: &mut [i32],
    hi: &mut [i32],
) {
    let w = lo.len().min(hi.len());
    let f_lo = [tap_pair(LO[0], LO[1]), tap_pair(LO[2], LO[3])];
    let f_hi = [tap_pair(HI[0], HI[1]), tap_pair(HI[2], HI[3])];
    // Columns 0..16 and 16..32 from the first-half (a) and second-half (b) sums.
    let first = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
    let second = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
    let mut j = 0;
    while j < w {
        let k = w - j;
        let m = ((1u64 << k.min(32)) - 1) as __mmask32;
        let mut s = [_mm512_setzero_si512(); 4];
        for (v, &r) in s.iter_mut().zip(rows) {
            // SAFETY: each row holds `w` values from `r * stride` (the caller's `fits_n`),
            // and the mask selects none at or past `w`.
            *v = unsafe { _mm512_maskz_loadu_epi16(m, src.as_ptr().add(r * stride + j)) };
        }
        prefetch(src, stride, ahead, j);
        let pairs = [
            _mm512_unpacklo_epi16(s[0], s[1]),
            _mm512_unpacklo_epi16(s[2], s[3]),
            _mm512_unpackhi_epi16(s[0], s[1]),
            _mm512_unpackhi_epi16(s[2], s[3]),
        ];
        let sum = |f: &[__m512i; 2], p: &[__m512i]| {
            _mm512_add_epi32(_mm512_madd_epi16(p[0], f[0]), _mm512_madd_epi16(p[1], f[1]))
        };
        let (m0, m1) = (mask16(k), mask16(k.saturating_sub(16)));
        for (f, dst) in [(&f_lo, &mut *lo), (&f_hi, &mut *hi)] {
            let (a, b) = (sum(f, &pairs[..2]), sum(f, &pairs[2..]));
            // SAFETY: `dst` holds `w` values; the masks store none at or past `w`.
            unsafe {
                let p = dst.as_mut_ptr().add(j);
                _mm512_mask_storeu_epi32(p, m0, _mm512_permutex2var_epi32(a, first, b));
                if k > 16 {
                    _mm512_mask_storeu_epi32(
                        p.add(16),
                        m1,
                        _mm512_permutex2var_epi32(a, second, b),
                    );
                }
            }
        }
        j += 32;
    }
}

/// `Σ f·x` of four vectors in 64-bit lanes, from the low dwords of each lane of `x`.
#[inline]
#[target_feature(enable = "avx512f")]
fn sum64(x: [__m512i; 4], f: &[__m512i; 4], add: __m512i) -> __m512i {
    let mut acc = add;
    for k in 0..4 {
        acc = _mm512_add_epi64(acc, _mm512_mul_epi32(x[k], f[k]));
    }
    acc
}

/// The vertical pass of levels 1..3 over every column, kept to 32 bits; the same columns
/// of the rows `ahead` are prefetched.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn vertical(
    src: &[i32],
    stride: usize,
    rows: &[usize; 4],
    ahead: [usize; 2],
    scale: usize,
    lo: &mut [i32],
    hi: &mut [i32],
) {
    let w = lo.len().min(hi.len());
    let (add, shift) = VERTICAL[scale - 1];
    let add = _mm512_set1_epi64(add);
    let count = _mm_cvtsi32_si128(shift as i32);
    let lo_taps = LO.map(|f| _mm512_set1_epi32(f));
    let hi_taps = HI.map(|f| _mm512_set1_epi32(f));
    let mut j = 0;
    while j < w {
        let m = mask16(w - j);
        let mut s = [_mm512_setzero_si512(); 4];
        for (v, &r) in s.iter_mut().zip(rows) {
            // SAFETY: each row holds `w` values from `r * stride` (the caller's `fits_n`),
            // and the mask selects none at or past `w`.
            *v = unsafe { _mm512_maskz_loadu_epi32(m, src.as_ptr().add(r * stride + j)) };
        }
        prefetch(src, stride, ahead, j);
        let (l, g) = if shift == 0 {
            // No rounding: the low 32 bits of the 64-bit sum are the wrapping 32-bit sum.
            let (mut l, mut g) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            for k in 0..4 {
                l = _mm512_add_epi32(l, _mm512_mullo_epi32(lo_taps[k], s[k]));
                g = _mm512_add_epi32(g, _mm512_mullo_epi32(hi_taps[k], s[k]));
            }
            (l, g)
        } else {
            let odd = s.map(|v| _mm512_srli_epi64::<32>(v));
            let join = |even: __m512i, odd: __m512i| {
                let even = _mm512_srl_epi64(even, count);
                let odd = _mm512_slli_epi64::<32>(_mm512_srl_epi64(odd, count));
                _mm512_mask_blend_epi32(0xaaaa, even, odd)
            };
            (
                join(sum64(s, &lo_taps, add), sum64(odd, &lo_taps, add)),
                join(sum64(s, &hi_taps, add), sum64(odd, &hi_taps, add)),
            )
        };
        // SAFETY: lo and hi hold `w` values; the mask stores none at or past `w`.
        unsafe {
            _mm512_mask_storeu_epi32(lo.as_mut_ptr().add(j), m, l);
            _mm512_mask_storeu_epi32(hi.as_mut_ptr().add(j), m, g);
        }
        j += 16;
    }
}

/// The horizontal pass of levels 1..3 over the interior output columns `1..end`, eight
/// a step, into the bands (a, v, h, d) at `bands` (each valid for `end` values).
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn horizontal(lo: &[i32], hi: &[i32], bands: [*mut i32; 4], end: usize, scale: usize) {
    let (add, shift) = HORIZONTAL[scale - 1];
    let add = _mm512_set1_epi64(add);
    let count = _mm_cvtsi32_si128(shift as i32);
    let lo_taps = LO.map(|f| _mm512_set1_epi32(f));
    let hi_taps = HI.map(|f| _mm512_set1_epi32(f));
    let mut j = 1;
    while j < end {
        let k = end - j;
        let (m_in, m_out) = (mask16(2 * k), mask16(k.min(8)) as __mmask8);
        for (t, dst) in [(lo, [bands[0], bands[1]]), (hi, [bands[2], bands[3]])] {
            let p = t.as_ptr();
            // SAFETY: outputs j .. j + min(k, 8) are interior, so their taps lie in
            // 1 ..= 2(j + k - 1) + 2 <= w - 1 < t.len(); the masks read no further.
            let (x, y) = unsafe {
                (
                    _mm512_maskz_loadu_epi32(m_in, p.add(2 * j - 1)),
                    _mm512_maskz_loadu_epi32(m_in, p.add(2 * j + 1)),
                )
            };
            let x = [x, _mm512_srli_epi64::<32>(x), y, _mm512_srli_epi64::<32>(y)];
            let a = _mm512_cvtepi64_epi32(_mm512_srl_epi64(sum64(x, &lo_taps, add), count));
            let b = _mm512_cvtepi64_epi32(_mm512_srl_epi64(sum64(x, &hi_taps, add), count));
            // SAFETY: each band holds `end > j + min(k, 8) - 1` values and the mask stores
            // no further; the pointers came from live mutable slices the caller does not
            // touch while this runs.
            unsafe {
                _mm256_mask_storeu_epi32(dst[0].add(j), m_out, a);
                _mm256_mask_storeu_epi32(dst[1].add(j), m_out, b);
            }
        }
        j += 8;
    }
}
