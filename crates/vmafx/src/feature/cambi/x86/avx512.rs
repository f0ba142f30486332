//! AVX-512 twins of the scalar c-value row (the row's runs, sixteen columns of a run a
//! step, counts by masked loads, reciprocals by masked gathers) and of the histogram
//! kernels (a row's runs found thirty-two columns a step; each run of one level added as
//! a whole window sum, thirty-two counts a step).

use std::arch::x86_64::*;

use super::super::kernels::Kernels;
use super::avx2::{check_bounds, pieces, push_runs, LONGEST_PIECE};
use crate::cpu::CpuLevel;
use crate::feature::cambi::cvalues::{Band, RowInput, Run, CONTRAST_WEIGHTS};

/// The AVX-512 kernels. The dispatch hands them out only when the processor has AVX-512.
pub(in crate::feature::cambi) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx512,
    c_value_row,
    scan_runs,
    add_runs,
    // The pooling statistics are bound by memory: the AVX2 kernel.
    pool_stats: super::avx2::pool_stats,
};

/// The c-values of a row (see [`crate::feature::cambi::cvalues::c_value_row`]).
pub(crate) fn c_value_row(r: &RowInput<'_>, out: &mut [f32]) {
    check_bounds(r, out);
    // SAFETY: this function is only in a table made after AVX-512 was detected, and
    // `check_bounds` has checked every length the kernel reads and writes.
    unsafe { row_avx512(r, out) }
}

/// The row's runs, sixteen columns of a run a step: all of one level, so the counts of
/// each level a step reads are one masked load of sixteen neighbouring counts, and which
/// steps are visible is known for the whole run; the reciprocals gathered. The columns
/// outside the runs are left zero.
///
/// # Safety
/// AVX-512 (F, BW), and the bounds of [`check_bounds`].
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn row_avx512(r: &RowInput<'_>, out: &mut [f32]) {
    let c = r.contrast;
    let w = r.width;
    let band = Band {
        width: w,
        size: r.size,
        base: r.base,
        pad: 0,
    };
    let last_recip = _mm512_set1_epi32(r.recip.len() as i32 - 1);
    // The count row of histogram row `level` from column `col`, sixteen lanes of `k`.
    let counts_at = |level: usize, col: usize, k: __mmask16| {
        let at = r.counts.as_ptr().wrapping_add(level * w + col);
        // SAFETY: the lanes of `k` are columns of the run (below width) of a row below
        // size.
        _mm512_cvtepu16_epi32(unsafe { _mm256_maskz_loadu_epi16(k, at as *const _) })
    };
    for run in r.runs {
        band.check_run(run);
        let level = run.level as usize;
        // libvmaf compares the level offset by num_diffs with the thresholds.
        let offset_value = (r.base as i32 + level as i32) + c.num_diffs as i32;
        let (start, end) = (run.start as usize, run.end as usize);
        let mut col = start;
        while col < end {
            let k: __mmask16 = if end - col >= 16 {
                0xffff
            } else {
                (1u16 << (end - col)) - 1
            };
            let p0 = counts_at(level, col, k);
            let mut best = _mm512_setzero_ps();
            for (d, (&tvi, weight)) in c.tvi_for_diff.iter().zip(CONTRAST_WEIGHTS).enumerate() {
                let step = d + 1;
                if offset_value > tvi as i32 || offset_value + step as i32 <= c.vlt_luma as i32 {
                    continue;
                }
                let p1 = if level + step < r.size {
                    counts_at(level + step, col, k)
                } else {
                    _mm512_setzero_si512()
                };
                let p2 = if level >= step {
                    counts_at(level - step, col, k)
                } else {
                    _mm512_setzero_si512()
                };
                let p = _mm512_max_epi32(p1, p2);
                // A lane with no count at the step's levels scores zero.
                let on = k & _mm512_test_epi32_mask(p, p);
                if on == 0 {
                    continue;
                }
                let product =
                    _mm512_mullo_epi32(_mm512_mullo_epi32(_mm512_set1_epi32(weight), p0), p);
                let sum = _mm512_min_epi32(_mm512_add_epi32(p, p0), last_recip);
                // SAFETY: 0 <= p + p0 (counts are below 2^16), clamped to the last entry.
                let rc = unsafe {
                    _mm512_mask_i32gather_ps::<4>(_mm512_setzero_ps(), on, sum, r.recip.as_ptr())
                };
                let val = _mm512_mul_ps(_mm512_cvtepi32_ps(product), rc);
                let better = on & _mm512_cmp_ps_mask::<_CMP_GT_OQ>(val, best);
                best = _mm512_mask_mov_ps(best, better, val);
            }
            // SAFETY: the lanes of `k` are columns below width <= out.len().
            unsafe { _mm512_mask_storeu_ps(out.as_mut_ptr().add(col), k, best) };
            col += 16;
        }
    }
}

/// The run-finding kernel (see [`crate::feature::cambi::cvalues::scan_runs`]).
pub(crate) fn scan_runs(b: &Band, image: &[u16], mask: &[u16], runs: &mut Vec<Run>) {
    b.check_row(image, mask);
    // SAFETY: this function is only in a table made after AVX-512 was detected, and
    // `check_row` has checked the row's length.
    unsafe { scan_avx512(b, image, mask, runs) }
}

/// The run-adding kernel (see [`crate::feature::cambi::cvalues::add_runs`]).
pub(crate) fn add_runs(b: &Band, runs: &[Run], counts: &mut [u16], up: bool) {
    b.check_counts(counts);
    // SAFETY: this function is only in a table made after AVX-512 was detected, and
    // `check_counts` has checked the histograms and their padding.
    unsafe { add_runs_avx512(b, runs, counts, up) }
}

/// Every run, piece by piece.
///
/// # Safety
/// AVX-512 (F, BW), and the bounds of [`Band::check_counts`].
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn add_runs_avx512(b: &Band, runs: &[Run], counts: &mut [u16], up: bool) {
    for (level, from, to) in pieces(b, runs) {
        // SAFETY: the caller's bounds; the piece checked inside the histograms.
        unsafe { add_run_avx512(counts, b, level, (from, to), up) };
    }
}

/// Thirty-two columns a step: which samples count, and where a run of one level starts
/// or the one before ends (a bit each, found by counting trailing zeros).
///
/// # Safety
/// AVX-512 (F, BW), and the bounds of [`Band::check_row`].
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn scan_avx512(b: &Band, img: &[u16], msk: &[u16], runs: &mut Vec<Run>) {
    let w = b.width;
    let base = _mm512_set1_epi16(b.base as i16);
    let size = _mm512_set1_epi16(b.size as u16 as i16);
    // Lane i takes lane i - 1 of the second operand, lane 0 the last of the first.
    let shift = _mm512_set_epi16(
        62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40,
        39, 38, 37, 36, 35, 34, 33, 32, 31,
    );
    let mut closed = runs.len();
    let mut prev = _mm512_setzero_si512();
    let mut carry = 0u32;
    let mut col = 0;
    while col < w {
        let t = if w - col >= 32 {
            u32::MAX
        } else {
            (1u32 << (w - col)) - 1
        };
        // SAFETY: the masked lanes are columns below width <= the row's length.
        let (v, m) = unsafe {
            (
                _mm512_maskz_loadu_epi16(t, img.as_ptr().add(col) as *const i16),
                _mm512_maskz_loadu_epi16(t, msk.as_ptr().add(col) as *const i16),
            )
        };
        let k = _mm512_test_epi16_mask(m, m)
            & _mm512_cmplt_epu16_mask(_mm512_sub_epi16(v, base), size)
            & t;
        let k_prev = (k << 1) | carry;
        let cont =
            k & k_prev & _mm512_cmpeq_epi16_mask(v, _mm512_permutex2var_epi16(prev, shift, v));
        push_runs(
            (runs, &mut closed),
            col,
            (k & !cont, k_prev & !cont),
            img,
            b.base,
        );
        (prev, carry) = (v, k >> 31);
        col += 32;
    }
    if closed < runs.len() {
        runs[closed].end = w as u32;
    }
}

/// Adds (`up`) or takes out the window sum of the run `j0..j1` at histogram row `level`
/// (see [`Band::add_run`]), thirty-two counts a step; a step reaching past the run's
/// last window or the right edge adds nothing there.
///
/// # Safety
/// AVX-512 (F, BW); `level < size`, `j0 < j1 <= width`, `j1 - j0 <= LONGEST_PIECE`, and
/// `counts` holds the histograms and their padding.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn add_run_avx512(
    counts: &mut [u16],
    p: &Band,
    level: usize,
    (j0, j1): (usize, usize),
    up: bool,
) {
    debug_assert!(j0 < j1 && j1 - j0 <= LONGEST_PIECE);
    let (w, pad) = (p.width, p.pad);
    let (start, end) = (j0.saturating_sub(pad), (j1 + pad).min(w));
    let run = _mm512_set1_epi16((j1 - j0) as i16);
    let reach = _mm512_set1_epi16((2 * pad + 1) as i16);
    let step = _mm512_set1_epi16(32);
    // Lanes at `end` or past it (past the last window, or the picture's right edge) add
    // nothing.
    let limit = _mm512_set1_epi16((end + pad + 1 - j0) as i16);
    // Lane i: one more than the offset of its column from the first column any window
    // of the run reaches.
    let mut y = _mm512_add_epi16(
        _mm512_set1_epi16((start + pad + 1 - j0) as i16),
        _mm512_set_epi16(
            31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10,
            9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
        ),
    );
    let row = counts.as_mut_ptr().wrapping_add(level * w);
    let mut c = start;
    while c < end {
        let inside = _mm512_cmplt_epu16_mask(y, limit);
        let n = _mm512_maskz_subs_epu16(
            inside,
            _mm512_min_epu16(y, run),
            _mm512_subs_epu16(y, reach),
        );
        let at = row.wrapping_add(c) as *mut __m512i;
        // SAFETY: level * width + c + 32 <= size * width + COUNTS_PAD (c < end <= width).
        unsafe {
            let old = _mm512_loadu_si512(at as *const _);
            let new = if up {
                _mm512_add_epi16(old, n)
            } else {
                _mm512_sub_epi16(old, n)
            };
            _mm512_storeu_si512(at as *mut _, new);
        }
        y = _mm512_add_epi16(y, step);
        c += 32;
    }
}
