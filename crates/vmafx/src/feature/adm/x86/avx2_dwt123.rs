//! AVX2 levels 1..3 of the ADM DWT, the scalar twin's values (whose loops finish the
//! columns a vector step does not cover, and the mirrored edge columns).
//!
//! Both of ADM's tables run these kernels (an AVX-512 twin was no faster, PERFORMANCE.md
//! Round 18). The vertical pass's rows are kept as `i32` (the scalar twin truncates them
//! to 32 bits) and the 64-bit products take the even and odd `i32` lanes
//! with `vpmuldq`: eight values loaded from `2j-1` hold taps 0 and 1 of four horizontal
//! outputs in the low and high dwords of their 64-bit lanes. The shifts are at most 16, so
//! the low dword of a logical shift is that of the scalar arithmetic one.
//!
//! Level 1 reads the scale-0 low band as `i16`: with no rounding shift there, the vertical
//! sum of `i16` values fits 32 bits exactly (at most 54822 · 32768), so it is taken by
//! `vpmaddwd` on interleaved row pairs, 16 columns a step.

use std::arch::x86_64::*;

use super::super::bands::Bands;
use super::super::dwt::{self, level_edges, level_vertical, Taps, HI, HORIZONTAL, LO, VERTICAL};
use super::avx2_dwt::tap_pair;
use super::dwt_rows::{fits_n, interior_end};

/// The row loop of a level: `vertical` fills the two `i32` rows of each output row from its
/// four source rows (and prefetches the next output row's two new source rows) and returns
/// where the scalar twin resumes; then the horizontal pass writes the bands.
fn rows_of<S: Copy + Into<i64>>(
    (src, stride): (&[S], usize),
    t: &Taps,
    scale: usize,
    tmp: &mut [i64],
    out: &mut Bands<i32>,
    out_stride: usize,
    mut vertical: impl FnMut(&[usize; 4], [usize; 2], &mut [i32], &mut [i32]) -> usize,
) {
    let w = t.w;
    let n = t.cols.len();
    // SAFETY: every bit pattern of an `i64` is one of two `i32`s, and `i32`'s alignment
    // divides `i64`'s, so the middle part is the whole slice.
    let (_, rows32, _) = unsafe { tmp[..w].align_to_mut::<i32>() };
    let (lo, hi) = rows32.split_at_mut(w);
    dwt::each_output_row(t, out, out_stride, |rows, next, mut bands| {
        let done = vertical(rows, [next[2], next[3]], lo, hi);
        level_vertical(src, stride, rows, scale, lo, hi, done);
        let ptrs = bands.each_mut().map(|b| b.as_mut_ptr());
        // SAFETY: the AVX2 table, which lists the callers, is only handed out when the
        // processor has AVX2; the band rows hold `n` columns, and the pointers are not used
        // after this call.
        let end = unsafe { horizontal(lo, hi, ptrs, n, scale) };
        level_edges(&*lo, &*hi, &t.cols, scale, bands, end);
    });
}

/// DWT level `scale` (1..=3; see [`dwt::level`]) of an `i32` band with AVX2.
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
    let source = (src, stride);
    rows_of(
        source,
        t,
        scale,
        tmp,
        out,
        out_stride,
        |rows, ahead, lo, hi| {
            // SAFETY: as in `rows_of`; `fits_n` checked that every source row holds `w`
            // values.
            unsafe { vertical(src, stride, rows, ahead, scale, lo, hi) }
        },
    );
}

/// DWT level 1 (see [`dwt::level`]) of the scale-0 `i16` low band with AVX2; other
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
    let source = (src, stride);
    rows_of(
        source,
        t,
        scale,
        tmp,
        out,
        out_stride,
        |rows, ahead, lo, hi| {
            // SAFETY: as in `rows_of`; `fits_n` checked that every source row holds `w`
            // values.
            unsafe { vertical1_pairs(src, stride, rows, ahead, lo, hi) }
        },
    );
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

/// The vertical pass of level 1 over `i16` rows, 16 columns a step; returns where it
/// stopped. The row pairs interleave per 128-bit lane, so the two sums hold columns 0..4,
/// 8..12 and 4..8, 12..16; two lane permutes put them back in column order. The same
/// columns of the rows `ahead` are prefetched.
#[target_feature(enable = "avx2")]
unsafe fn vertical1_pairs(
    src: &[i16],
    stride: usize,
    rows: &[usize; 4],
    ahead: [usize; 2],
    lo: &mut [i32],
    hi: &mut [i32],
) -> usize {
    let w = lo.len().min(hi.len());
    let f_lo = [tap_pair(LO[0], LO[1]), tap_pair(LO[2], LO[3])];
    let f_hi = [tap_pair(HI[0], HI[1]), tap_pair(HI[2], HI[3])];
    let mut j = 0;
    while j + 16 <= w {
        let mut s = [_mm256_setzero_si256(); 4];
        for (v, &r) in s.iter_mut().zip(rows) {
            // SAFETY: each row holds `w >= j + 16` values from `r * stride` (the caller's
            // `fits_n`).
            *v = unsafe { _mm256_loadu_si256(src.as_ptr().add(r * stride + j) as *const _) };
        }
        prefetch(src, stride, ahead, j);
        let pairs = [
            _mm256_unpacklo_epi16(s[0], s[1]),
            _mm256_unpacklo_epi16(s[2], s[3]),
            _mm256_unpackhi_epi16(s[0], s[1]),
            _mm256_unpackhi_epi16(s[2], s[3]),
        ];
        let sum = |f: &[__m256i; 2], p: &[__m256i]| {
            _mm256_add_epi32(_mm256_madd_epi16(p[0], f[0]), _mm256_madd_epi16(p[1], f[1]))
        };
        for (f, dst) in [(&f_lo, &mut *lo), (&f_hi, &mut *hi)] {
            let (a, b) = (sum(f, &pairs[..2]), sum(f, &pairs[2..]));
            // SAFETY: `dst` holds `w >= j + 16` values.
            unsafe {
                let p = dst.as_mut_ptr().add(j) as *mut __m256i;
                _mm256_storeu_si256(p, _mm256_permute2x128_si256::<0x20>(a, b));
                _mm256_storeu_si256(p.add(1), _mm256_permute2x128_si256::<0x31>(a, b));
            }
        }
        j += 16;
    }
    j
}

/// `Σ f·x` of four vectors in 64-bit lanes, from the low dwords of each lane of `x`.
#[inline]
#[target_feature(enable = "avx2")]
fn sum64(x: [__m256i; 4], f: &[__m256i; 4], add: __m256i) -> __m256i {
    let mut acc = add;
    for k in 0..4 {
        acc = _mm256_add_epi64(acc, _mm256_mul_epi32(x[k], f[k]));
    }
    acc
}

/// The vertical pass of levels 1..3 over `i32` rows, eight columns a step, kept to 32
/// bits; returns where it stopped. The same columns of the rows `ahead` are prefetched.
#[target_feature(enable = "avx2")]
unsafe fn vertical(
    src: &[i32],
    stride: usize,
    rows: &[usize; 4],
    ahead: [usize; 2],
    scale: usize,
    lo: &mut [i32],
    hi: &mut [i32],
) -> usize {
    let w = lo.len().min(hi.len());
    let (add, shift) = VERTICAL[scale - 1];
    let add = _mm256_set1_epi64x(add);
    let count = _mm_cvtsi32_si128(shift as i32);
    let lo_taps = LO.map(|f| _mm256_set1_epi32(f));
    let hi_taps = HI.map(|f| _mm256_set1_epi32(f));
    let mut j = 0;
    while j + 8 <= w {
        let mut s = [_mm256_setzero_si256(); 4];
        for (v, &r) in s.iter_mut().zip(rows) {
            // SAFETY: each row holds `w >= j + 8` values from `r * stride` (the caller's
            // `fits_n`).
            *v = unsafe { _mm256_loadu_si256(src.as_ptr().add(r * stride + j) as *const _) };
        }
        prefetch(src, stride, ahead, j);
        let (l, g) = if shift == 0 {
            // No rounding: the low 32 bits of the 64-bit sum are the wrapping 32-bit sum.
            let (mut l, mut g) = (_mm256_setzero_si256(), _mm256_setzero_si256());
            for k in 0..4 {
                l = _mm256_add_epi32(l, _mm256_mullo_epi32(lo_taps[k], s[k]));
                g = _mm256_add_epi32(g, _mm256_mullo_epi32(hi_taps[k], s[k]));
            }
            (l, g)
        } else {
            let odd = s.map(|v| _mm256_srli_epi64::<32>(v));
            let join = |even: __m256i, odd: __m256i| {
                let even = _mm256_srl_epi64(even, count);
                let odd = _mm256_slli_epi64::<32>(_mm256_srl_epi64(odd, count));
                _mm256_blend_epi32::<0b1010_1010>(even, odd)
            };
            (
                join(sum64(s, &lo_taps, add), sum64(odd, &lo_taps, add)),
                join(sum64(s, &hi_taps, add), sum64(odd, &hi_taps, add)),
            )
        };
        // SAFETY: lo and hi hold `w >= j + 8` values.
        unsafe {
            _mm256_storeu_si256(lo.as_mut_ptr().add(j) as *mut __m256i, l);
            _mm256_storeu_si256(hi.as_mut_ptr().add(j) as *mut __m256i, g);
        }
        j += 8;
    }
    j
}

/// The shifted sums of four outputs (64-bit lanes) from the eight values at `p` (taps 0
/// and 1) and at `p + 2` (taps 2 and 3), for the low- and the high-pass taps.
///
/// # Safety
/// `p .. p + 10` must be readable, and AVX2 must be available.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn four(
    p: *const i32,
    taps: &[[__m256i; 4]; 2],
    add: __m256i,
    count: __m128i,
) -> [__m256i; 2] {
    // SAFETY: the caller guarantees ten readable values from `p`.
    let (x, y) = unsafe {
        (
            _mm256_loadu_si256(p as *const __m256i),
            _mm256_loadu_si256(p.add(2) as *const __m256i),
        )
    };
    let x = [x, _mm256_srli_epi64::<32>(x), y, _mm256_srli_epi64::<32>(y)];
    taps.map(|f| _mm256_srl_epi64(sum64(x, &f, add), count))
}

/// The low dwords of the 64-bit lanes of `a` then `b`, in order.
#[inline]
#[target_feature(enable = "avx2")]
fn low_dwords(a: __m256i, b: __m256i) -> __m256i {
    let (a, b) = (_mm256_castsi256_ps(a), _mm256_castsi256_ps(b));
    let mixed = _mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(a, b));
    _mm256_permute4x64_epi64::<0b11_01_10_00>(mixed)
}

/// Eight outputs of the horizontal pass from column `j` of the row `t` into the two bands
/// at `dst` (its low- and high-pass outputs).
///
/// # Safety
/// `j >= 1`, `2j + 17 <= t.len()`, each band at `dst` holds `j + 8` values, and AVX2 is
/// available.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn eight(
    t: &[i32],
    dst: [*mut i32; 2],
    j: usize,
    taps: &[[__m256i; 4]; 2],
    add: __m256i,
    count: __m128i,
) {
    let p = t.as_ptr();
    // SAFETY: 2j - 1 >= 1 and 2j + 17 <= t.len() (the caller's): both reads are in `t`.
    let (x, y) = unsafe {
        (
            four(p.add(2 * j - 1), taps, add, count),
            four(p.add(2 * j + 7), taps, add, count),
        )
    };
    for k in 0..2 {
        // SAFETY: each band holds `j + 8` values (the caller's).
        unsafe { _mm256_storeu_si256(dst[k].add(j) as *mut __m256i, low_dwords(x[k], y[k])) };
    }
}

/// The horizontal pass of levels 1..3 over interior columns, eight (then four) a step,
/// into the bands (a, v, h, d) at `bands` (each valid for `n` values); writes `1..end`
/// (every interior column when there are four), returns `end`.
#[target_feature(enable = "avx2")]
unsafe fn horizontal(
    lo: &[i32],
    hi: &[i32],
    bands: [*mut i32; 4],
    n: usize,
    scale: usize,
) -> usize {
    let w = lo.len().min(hi.len());
    let (add, shift) = HORIZONTAL[scale - 1];
    let add = _mm256_set1_epi64x(add);
    let count = _mm_cvtsi32_si128(shift as i32);
    let taps = [
        LO.map(|f| _mm256_set1_epi32(f)),
        HI.map(|f| _mm256_set1_epi32(f)),
    ];
    // Output j reads inputs 2j-1 ..= 2j+2; eight outputs from j read 2j-1 .. 2j+17.
    let mut j = 1;
    while j + 8 <= n && 2 * j + 17 <= w {
        // SAFETY: 2j - 1 >= 1 and 2j + 17 <= w <= lo.len(), hi.len(); each band holds
        // `n >= j + 8` values, and the pointers came from live mutable slices the caller
        // does not touch while this runs.
        unsafe {
            eight(lo, [bands[0], bands[1]], j, &taps, add, count);
            eight(hi, [bands[2], bands[3]], j, &taps, add, count);
        }
        j += 8;
    }
    // The last interior outputs, four a step; the last step may overlap the one before
    // (it writes the same values again).
    let last = interior_end(w).min(n);
    while j < last && last >= 5 {
        let at = j.min(last - 4);
        for (t, dst) in [(lo, [bands[0], bands[1]]), (hi, [bands[2], bands[3]])] {
            // SAFETY: outputs at..at + 4 are interior, so 2at - 1 >= 1 and
            // 2at + 9 <= w <= t.len(): the read is in `t`.
            let x = unsafe { four(t.as_ptr().add(2 * at - 1), &taps, add, count) };
            // SAFETY: each band holds `n >= at + 4` values, as above.
            unsafe {
                for k in 0..2 {
                    let v = _mm256_castsi256_si128(low_dwords(x[k], x[k]));
                    _mm_storeu_si128(dst[k].add(at) as *mut __m128i, v);
                }
            }
        }
        j = at + 4;
    }
    j
}
