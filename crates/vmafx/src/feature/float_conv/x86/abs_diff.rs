//! The row sums of absolute differences (float_motion's SAD) with AVX2, eight rows at a
//! time: lane `r` of an accumulator is row `r`'s sum.
//!
//! Each row's sum is a chain of `f32` additions in column order, which no reordering may
//! shorten without changing bits. The scalar code waits on every addition of one chain;
//! here eight rows' chains advance together, one vector addition per column: an 8x8 block
//! of differences is transposed so that each vector holds one column of the eight rows,
//! and two groups of eight rows are interleaved to cover the addition's latency. Rows left
//! over (fewer than eight) take the scalar code.

use std::arch::x86_64::*;

use crate::feature::float_conv::rows;

/// [`rows::abs_diff_sums`] with AVX2 (the AVX2 and AVX-512 tables list it).
pub(super) fn abs_diff_sums(a: &[f32], b: &[f32], width: usize, sums: &mut [f32]) {
    let n = sums.len();
    assert!(
        a.len() >= n * width && b.len() >= n * width,
        "abs_diff_sums: {n} rows of {width} samples"
    );
    let mut r = 0;
    while r + 8 <= n {
        // SAFETY: the tables listing this kernel are handed out only where the processor
        // has AVX2; rows r..r + 8 of `a` and `b` hold `width` samples each (checked above).
        let s = unsafe { rows8(a.as_ptr(), b.as_ptr(), r, width) };
        sums[r..r + 8].copy_from_slice(&s);
        r += 8;
    }
    rows::abs_diff_sums(&a[r * width..], &b[r * width..], width, &mut sums[r..]);
}

/// How far ahead of a step its rows are fetched, in samples.
const AHEAD: usize = 128;

/// `|x - y|` of eight lanes (the sign bit cleared, as `f32::abs` does).
#[inline]
#[target_feature(enable = "avx2")]
fn abs_diff(x: __m256, y: __m256) -> __m256 {
    _mm256_andnot_ps(_mm256_set1_ps(-0.0), _mm256_sub_ps(x, y))
}

/// The 8x8 block of differences at columns `j..j + 8` of rows `r..r + 8`, transposed:
/// vector `c` holds column `j + c` of the eight rows.
///
/// # Safety
/// AVX2; those columns of those rows readable from `a` and `b` (rows `width` apart).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn block(a: *const f32, b: *const f32, r: usize, j: usize, width: usize) -> [__m256; 8] {
    let d: [__m256; 8] = std::array::from_fn(|i| {
        let at = (r + i) * width + j;
        // SAFETY: the caller makes columns j..j + 8 of row r + i readable.
        unsafe { abs_diff(_mm256_loadu_ps(a.add(at)), _mm256_loadu_ps(b.add(at))) }
    });
    // Pairs of rows interleaved, then quads, then the 128-bit halves exchanged.
    let t: [__m256; 8] = std::array::from_fn(|i| {
        let (x, y) = (d[i / 2 * 2], d[i / 2 * 2 + 1]);
        if i % 2 == 0 {
            _mm256_unpacklo_ps(x, y)
        } else {
            _mm256_unpackhi_ps(x, y)
        }
    });
    // q[0..4]: rows 0..4 of columns (0, 4), (1, 5), (2, 6), (3, 7); q[4..8]: rows 4..8.
    let q: [__m256; 8] = std::array::from_fn(|i| {
        let base = i / 4 * 4;
        let (x, y) = (t[base + (i % 4) / 2], t[base + 2 + (i % 4) / 2]);
        if i % 2 == 0 {
            _mm256_shuffle_ps::<0b01_00_01_00>(x, y)
        } else {
            _mm256_shuffle_ps::<0b11_10_11_10>(x, y)
        }
    });
    std::array::from_fn(|c| {
        if c < 4 {
            _mm256_permute2f128_ps::<0x20>(q[c], q[c + 4])
        } else {
            _mm256_permute2f128_ps::<0x31>(q[c - 4], q[c])
        }
    })
}

/// Column `j` of rows `r..r + 8` as one vector of differences (a column past the last
/// whole block).
///
/// # Safety
/// AVX2; column `j` of those rows readable from `a` and `b`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn column(a: *const f32, b: *const f32, r: usize, j: usize, width: usize) -> __m256 {
    // SAFETY: the caller makes column j of rows r..r + 8 readable.
    let at = |i: usize| unsafe {
        let k = (r + i) * width + j;
        *a.add(k) - *b.add(k)
    };
    _mm256_andnot_ps(
        _mm256_set1_ps(-0.0),
        _mm256_setr_ps(at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7)),
    )
}

/// The lanes of `v` as floats.
#[inline]
#[target_feature(enable = "avx2")]
fn lanes(v: __m256) -> [f32; 8] {
    let mut out = [0.0f32; 8];
    // SAFETY: `out` holds the eight floats stored (unaligned store).
    unsafe { _mm256_storeu_ps(out.as_mut_ptr(), v) };
    out
}

/// The sums of rows `r..r + 8`.
///
/// # Safety
/// AVX2; rows `r..r + 8` of `a` and `b` hold `width` samples each.
#[target_feature(enable = "avx2")]
unsafe fn rows8(a: *const f32, b: *const f32, r: usize, width: usize) -> [f32; 8] {
    let mut acc = _mm256_setzero_ps();
    let mut j = 0;
    while j + 16 <= width {
        for i in 0..8 {
            // A prefetch reads nothing; the address is formed with wrapping arithmetic.
            let at = (r + i) * width + j + AHEAD;
            _mm_prefetch::<_MM_HINT_T0>(a.wrapping_add(at) as *const i8);
            _mm_prefetch::<_MM_HINT_T0>(b.wrapping_add(at) as *const i8);
        }
        // SAFETY: the caller's, for columns j..j + 16 <= width.
        let (x, y) = unsafe { (block(a, b, r, j, width), block(a, b, r, j + 8, width)) };
        for c in x.into_iter().chain(y) {
            acc = _mm256_add_ps(acc, c);
        }
        j += 16;
    }
    while j + 8 <= width {
        // SAFETY: the caller's, for columns j..j + 8 <= width.
        for c in unsafe { block(a, b, r, j, width) } {
            acc = _mm256_add_ps(acc, c);
        }
        j += 8;
    }
    for j in j..width {
        // SAFETY: as above, for column j < width.
        acc = _mm256_add_ps(acc, unsafe { column(a, b, r, j, width) });
    }
    lanes(acc)
}
