//! AVX2 twin of the scalar c-value row: eight columns a step by masked gathers, the last
//! partial step by the scalar code; and the running sum of a difference row, sixteen
//! columns a step; and the pooling statistics, eight values a step.

use std::arch::x86_64::*;

use crate::feature::cambi::cvalues::{add_running_sum_from, RowInput, CONTRAST_WEIGHTS};
use crate::feature::cambi::pooling::{pool_stats_tail, PoolStats};

/// The c-values of a row (see [`crate::feature::cambi::cvalues::c_value_row`]).
pub fn c_value_row(r: &RowInput<'_>, out: &mut [f32]) {
    check_bounds(r, out);
    // SAFETY: this function is only in a table made after AVX2 was detected, and
    // `check_bounds` has checked every length the kernel reads and writes.
    let done = unsafe { row_avx2(r, out) };
    for (col, o) in out.iter_mut().enumerate().take(r.width).skip(done) {
        *o = if r.mask[col] != 0 {
            r.c_value(r.image[col], col)
        } else {
            0.0
        };
    }
}

/// Panics unless the slices hold what the vector kernels read and write: `width` samples,
/// mask entries and outputs, `size` histogram rows and their padding, a reciprocal table,
/// and indices that fit 32 bits.
pub(in crate::feature::cambi) fn check_bounds(r: &RowInput<'_>, out: &[f32]) {
    let w = r.width;
    assert!(r.image.len() >= w && r.mask.len() >= w && out.len() >= w);
    assert!(r.counts.len() > r.size * w, "histograms without padding");
    assert!(!r.recip.is_empty() && r.recip.len() <= i32::MAX as usize);
    assert!(r.size * w + w < i32::MAX as usize);
    assert!(r.contrast.tvi_for_diff.len() <= CONTRAST_WEIGHTS.len());
}

/// Eight columns a step while eight remain; returns the columns done.
///
/// # Safety
/// AVX2, and the bounds of [`check_bounds`].
#[target_feature(enable = "avx2")]
unsafe fn row_avx2(r: &RowInput<'_>, out: &mut [f32]) -> usize {
    let c = r.contrast;
    let w = r.width;
    let zero = _mm256_setzero_si256();
    let low16 = _mm256_set1_epi32(0xffff);
    let size = _mm256_set1_epi32(r.size as i32);
    let width = _mm256_set1_epi32(w as i32);
    let base = _mm256_set1_epi32(r.base as i32);
    let offset = _mm256_set1_epi32(c.num_diffs as i32);
    let vlt = _mm256_set1_epi32(c.vlt_luma as i32);
    let minus_one = _mm256_set1_epi32(-1);
    let last_recip = _mm256_set1_epi32(r.recip.len() as i32 - 1);
    let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let counts = r.counts.as_ptr() as *const i32;
    let mut col = 0;
    while col + 8 <= w {
        // SAFETY: col + 8 <= width <= the lengths of mask, image and out.
        let (m, v) = unsafe {
            (
                _mm256_cvtepu16_epi32(_mm_loadu_si128(r.mask.as_ptr().add(col) as *const _)),
                _mm256_cvtepu16_epi32(_mm_loadu_si128(r.image.as_ptr().add(col) as *const _)),
            )
        };
        let scored = _mm256_xor_si256(_mm256_cmpeq_epi32(m, zero), minus_one);
        let level = _mm256_sub_epi32(v, base);
        let in_band = _mm256_and_si256(
            _mm256_cmpgt_epi32(level, minus_one),
            _mm256_cmpgt_epi32(size, level),
        );
        let active = _mm256_and_si256(scored, in_band);
        let mut best = _mm256_setzero_ps();
        if _mm256_testz_si256(active, active) == 0 {
            let cols = _mm256_add_epi32(_mm256_set1_epi32(col as i32), lanes);
            let row_of = |l: __m256i| _mm256_add_epi32(_mm256_mullo_epi32(l, width), cols);
            // SAFETY: active lanes have 0 <= level < size, so the index is below
            // size * width and the 4 bytes read end inside the padded histograms.
            let p0 =
                unsafe { _mm256_mask_i32gather_epi32::<2>(zero, counts, row_of(level), active) };
            let p0 = _mm256_and_si256(p0, low16);
            let offset_value = _mm256_add_epi32(v, offset);
            for (d, (&tvi, weight)) in c.tvi_for_diff.iter().zip(CONTRAST_WEIGHTS).enumerate() {
                let step = _mm256_set1_epi32(d as i32 + 1);
                let visible = _mm256_andnot_si256(
                    _mm256_cmpgt_epi32(offset_value, _mm256_set1_epi32(tvi as i32)),
                    _mm256_cmpgt_epi32(_mm256_add_epi32(offset_value, step), vlt),
                );
                let on = _mm256_and_si256(active, visible);
                if _mm256_testz_si256(on, on) != 0 {
                    continue;
                }
                let up = _mm256_add_epi32(level, step);
                let up_on = _mm256_and_si256(on, _mm256_cmpgt_epi32(size, up));
                let down = _mm256_sub_epi32(level, step);
                let down_on = _mm256_and_si256(on, _mm256_cmpgt_epi32(down, minus_one));
                // SAFETY: the gathered lanes have 0 <= level < size (as for p0).
                let (p1, p2) = unsafe {
                    (
                        _mm256_mask_i32gather_epi32::<2>(zero, counts, row_of(up), up_on),
                        _mm256_mask_i32gather_epi32::<2>(zero, counts, row_of(down), down_on),
                    )
                };
                let p = _mm256_max_epi32(_mm256_and_si256(p1, low16), _mm256_and_si256(p2, low16));
                let product =
                    _mm256_mullo_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(weight), p0), p);
                let sum = _mm256_min_epi32(_mm256_add_epi32(p, p0), last_recip);
                // SAFETY: 0 <= p + p0 (counts are below 2^16), clamped to the last entry.
                let rc = unsafe {
                    _mm256_mask_i32gather_ps::<4>(
                        _mm256_setzero_ps(),
                        r.recip.as_ptr(),
                        sum,
                        _mm256_castsi256_ps(on),
                    )
                };
                let val = _mm256_mul_ps(_mm256_cvtepi32_ps(product), rc);
                let better = _mm256_and_ps(
                    _mm256_cmp_ps::<_CMP_GT_OQ>(val, best),
                    _mm256_castsi256_ps(on),
                );
                best = _mm256_blendv_ps(best, val, better);
            }
        }
        // SAFETY: col + 8 <= out.len().
        unsafe { _mm256_storeu_ps(out.as_mut_ptr().add(col), best) };
        col += 8;
    }
    col
}

/// The running sum of a difference row into a histogram row (see
/// [`crate::feature::cambi::cvalues::add_running_sum`]): sixteen columns a step, the rest
/// by the scalar code from the carried sum.
pub fn add_running_sum(delta: &mut [u16], counts: &mut [u16], up: bool) {
    assert!(delta.len() >= counts.len(), "difference row too short");
    // SAFETY: this function is only in a table made after AVX2 was detected, and `delta`
    // holds at least the `counts.len()` entries the kernel reads and writes.
    let (done, running) = unsafe { running_sum_avx2(delta, counts, up) };
    add_running_sum_from(&mut delta[done..], &mut counts[done..], up, running);
}

/// Sixteen columns a step while sixteen remain; returns the columns done and the sum so far.
///
/// # Safety
/// AVX2, and `delta.len() >= counts.len()`.
#[target_feature(enable = "avx2")]
unsafe fn running_sum_avx2(delta: &mut [u16], counts: &mut [u16], up: bool) -> (usize, u16) {
    let n = counts.len();
    let zero = _mm256_setzero_si256();
    // Bytes 14 and 15 of each 128-bit half: its last column, to every column of the half.
    let last = _mm256_set1_epi16(0x0f0e);
    let mut carry = zero;
    let mut j = 0;
    while j + 16 <= n {
        let d = delta.as_mut_ptr().wrapping_add(j) as *mut __m256i;
        let c = counts.as_mut_ptr().wrapping_add(j) as *mut __m256i;
        // SAFETY: j + 16 <= counts.len() <= delta.len().
        let (mut x, old) = unsafe {
            let x = _mm256_loadu_si256(d);
            _mm256_storeu_si256(d, zero);
            (x, _mm256_loadu_si256(c))
        };
        x = _mm256_add_epi16(x, _mm256_slli_si256::<2>(x));
        x = _mm256_add_epi16(x, _mm256_slli_si256::<4>(x));
        x = _mm256_add_epi16(x, _mm256_slli_si256::<8>(x));
        let low_total = _mm256_shuffle_epi8(x, last);
        // Low half zero, high half the low half's total.
        x = _mm256_add_epi16(x, _mm256_permute2x128_si256::<0x08>(low_total, low_total));
        x = _mm256_add_epi16(x, carry);
        let totals = _mm256_shuffle_epi8(x, last);
        carry = _mm256_permute2x128_si256::<0x11>(totals, totals);
        let new = if up {
            _mm256_add_epi16(old, x)
        } else {
            _mm256_sub_epi16(old, x)
        };
        // SAFETY: as for the loads.
        unsafe { _mm256_storeu_si256(c, new) };
        j += 16;
    }
    (j, _mm256_extract_epi16::<0>(carry) as u16)
}

/// The pooling's exactness statistics (see
/// [`crate::feature::cambi::pooling::pool_stats`]): eight values a step, the same eight
/// running sums lane for lane, the rest by the scalar code.
pub fn pool_stats(values: &[f32]) -> PoolStats {
    // SAFETY: this function is only in a table made after AVX2 was detected; the kernel
    // reads whole groups of eight inside `values`.
    let (done, positive, top, smallest, sums) = unsafe { pool_stats_avx2(values) };
    pool_stats_tail(&values[done..], positive, top, smallest, sums)
}

/// Whole groups of eight: the values done, nonzero count, largest and smallest nonzero
/// bits, and the eight running sums.
///
/// # Safety
/// AVX2.
#[target_feature(enable = "avx2")]
unsafe fn pool_stats_avx2(values: &[f32]) -> (usize, usize, u32, u32, [f64; 8]) {
    let n = values.len() / 8 * 8;
    let zero = _mm256_setzero_si256();
    let (mut zeros, mut top, mut smallest) = (zero, zero, _mm256_set1_epi32(-1));
    let (mut low, mut high) = (_mm256_setzero_pd(), _mm256_setzero_pd());
    let mut j = 0;
    while j < n {
        // SAFETY: j + 8 <= n <= values.len().
        let v = unsafe { _mm256_loadu_ps(values.as_ptr().add(j)) };
        let bits = _mm256_castps_si256(v);
        let is_zero = _mm256_cmpeq_epi32(bits, zero);
        zeros = _mm256_sub_epi32(zeros, is_zero);
        top = _mm256_max_epu32(top, bits);
        smallest = _mm256_min_epu32(smallest, _mm256_or_si256(bits, is_zero));
        low = _mm256_add_pd(low, _mm256_cvtps_pd(_mm256_castps256_ps128(v)));
        high = _mm256_add_pd(high, _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(v)));
        j += 8;
    }
    let (mut z, mut t, mut s) = ([0u32; 8], [0u32; 8], [0u32; 8]);
    let mut sums = [0f64; 8];
    // SAFETY: each store writes eight 32-bit or four 64-bit values into an array of that
    // size (sums: two halves of four).
    unsafe {
        _mm256_storeu_si256(z.as_mut_ptr() as *mut __m256i, zeros);
        _mm256_storeu_si256(t.as_mut_ptr() as *mut __m256i, top);
        _mm256_storeu_si256(s.as_mut_ptr() as *mut __m256i, smallest);
        _mm256_storeu_pd(sums.as_mut_ptr(), low);
        _mm256_storeu_pd(sums.as_mut_ptr().add(4), high);
    }
    let zero_count: usize = z.iter().map(|&c| c as usize).sum();
    let top = t.iter().copied().max().unwrap_or(0);
    let smallest = s.iter().copied().min().unwrap_or(u32::MAX);
    (n, n - zero_count, top, smallest, sums)
}
