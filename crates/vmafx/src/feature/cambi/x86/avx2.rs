//! AVX2 twins of the scalar c-value row (the row's runs, eight columns of a run a step,
//! counts by loads, reciprocals by masked gathers), of the histogram kernels (a row's runs found
//! thirty-two columns a step; each run of one level added as a whole window sum, sixteen
//! counts a step) and of the pooling statistics (eight values a step).

use std::arch::x86_64::*;

use super::super::kernels::Kernels;
use crate::cpu::CpuLevel;
use crate::feature::cambi::cvalues::{Band, RowInput, Run, CONTRAST_WEIGHTS, COUNTS_PAD};
use crate::feature::cambi::pooling::PoolAcc;

/// The AVX2 kernels. The dispatch hands them out only when the processor has AVX2.
pub(in crate::feature::cambi) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx2,
    c_value_row,
    scan_runs,
    add_runs,
    pool_stats,
};

/// The c-values of a row (see [`crate::feature::cambi::cvalues::c_value_row`]).
pub(crate) fn c_value_row(r: &RowInput<'_>, out: &mut [f32]) {
    check_bounds(r, out);
    // SAFETY: this function is only in a table made after AVX2 was detected, and
    // `check_bounds` has checked every length the kernel reads and writes.
    unsafe { row_avx2(r, out) }
}

/// Panics unless the slices hold what the vector kernels read and write: `width` samples,
/// mask entries and outputs, `size` histogram rows and their padding, a reciprocal table,
/// and indices that fit 32 bits.
pub(in crate::feature::cambi) fn check_bounds(r: &RowInput<'_>, out: &[f32]) {
    let w = r.width;
    assert!(r.image.len() >= w && r.mask.len() >= w && out.len() >= w);
    assert!(
        r.counts.len() >= r.size * w + COUNTS_PAD,
        "histograms without padding"
    );
    assert!(!r.recip.is_empty() && r.recip.len() <= i32::MAX as usize);
    assert!(r.size * w + COUNTS_PAD < i32::MAX as usize);
    assert!(r.contrast.tvi_for_diff.len() <= CONTRAST_WEIGHTS.len());
}

/// The row's runs, eight columns of a run a step (as the AVX-512 kernel does, sixteen):
/// each level's counts one load of eight neighbouring counts (the lanes past the run's
/// end read counts that are not used, inside the histograms' padding), the visible steps
/// known for the whole run, the reciprocals gathered, the last step stored masked. The
/// columns outside the runs are left zero.
///
/// # Safety
/// AVX2, and the bounds of [`check_bounds`].
#[target_feature(enable = "avx2")]
unsafe fn row_avx2(r: &RowInput<'_>, out: &mut [f32]) {
    let c = r.contrast;
    let w = r.width;
    let band = Band {
        width: w,
        size: r.size,
        base: r.base,
        pad: 0,
    };
    let zero = _mm256_setzero_si256();
    let last_recip = _mm256_set1_epi32(r.recip.len() as i32 - 1);
    let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    // The counts of histogram row `level` from column `col`, eight lanes.
    let counts_at = |level: usize, col: usize| {
        let at = r.counts.as_ptr().wrapping_add(level * w + col);
        // SAFETY: level < size and col < width, so the eight counts end before
        // size * width + COUNTS_PAD.
        _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(at as *const __m128i) })
    };
    for run in r.runs {
        band.check_run(run);
        let level = run.level as usize;
        // libvmaf compares the level offset by num_diffs with the thresholds.
        let offset_value = (r.base as i32 + level as i32) + c.num_diffs as i32;
        let (start, end) = (run.start as usize, run.end as usize);
        let mut col = start;
        while col < end {
            let k = _mm256_cmpgt_epi32(_mm256_set1_epi32((end - col) as i32), lanes);
            let p0 = counts_at(level, col);
            let mut best = _mm256_setzero_ps();
            for (d, (&tvi, weight)) in c.tvi_for_diff.iter().zip(CONTRAST_WEIGHTS).enumerate() {
                let step = d + 1;
                if offset_value > tvi as i32 || offset_value + step as i32 <= c.vlt_luma as i32 {
                    continue;
                }
                let p1 = if level + step < r.size {
                    counts_at(level + step, col)
                } else {
                    zero
                };
                let p2 = if level >= step {
                    counts_at(level - step, col)
                } else {
                    zero
                };
                let p = _mm256_max_epi32(p1, p2);
                // A lane with no count at the step's levels scores zero.
                let on = _mm256_andnot_si256(_mm256_cmpeq_epi32(p, zero), k);
                if _mm256_testz_si256(on, on) != 0 {
                    continue;
                }
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
            // SAFETY: the lanes of `k` are columns of the run, below width <= out.len().
            unsafe { _mm256_maskstore_ps(out.as_mut_ptr().add(col), k, best) };
            col += 8;
        }
    }
}

/// Runs longer than this are added in pieces, so that the vector kernels' column offsets
/// stay well inside 16 bits.
pub(super) const LONGEST_PIECE: usize = 16384;

/// Appends to `runs` the runs of thirty-two columns from `col` whose samples (in `img`)
/// count where `counted` has a bit: a run starts at each bit of `starts` and the run
/// before ends at each bit of `ends`; `closed` is the first run without its end.
#[inline(always)]
pub(super) fn push_runs(
    (runs, closed): (&mut Vec<Run>, &mut usize),
    col: usize,
    (mut starts, mut ends): (u32, u32),
    img: &[u16],
    base: u16,
) {
    // Every end in the step belongs to a run started in it or before it.
    while starts != 0 {
        let at = col + starts.trailing_zeros() as usize;
        starts &= starts - 1;
        runs.push(Run {
            level: img[at].wrapping_sub(base) as u32,
            start: at as u32,
            end: 0,
        });
    }
    while ends != 0 {
        let at = col + ends.trailing_zeros() as usize;
        ends &= ends - 1;
        runs[*closed].end = at as u32;
        *closed += 1;
    }
}

/// The runs of `runs` as (histogram row, first column, end column), each checked inside
/// the histograms, in pieces of at most [`LONGEST_PIECE`] columns.
#[inline(always)]
pub(super) fn pieces<'a>(
    b: &'a Band,
    runs: &'a [Run],
) -> impl Iterator<Item = (usize, usize, usize)> + 'a {
    runs.iter().flat_map(move |run| {
        b.check_run(run);
        let (start, end) = (run.start as usize, run.end as usize);
        (start..end)
            .step_by(LONGEST_PIECE)
            .map(move |from| (run.level as usize, from, end.min(from + LONGEST_PIECE)))
    })
}

/// The run-finding kernel (see [`crate::feature::cambi::cvalues::scan_runs`]).
pub(crate) fn scan_runs(b: &Band, image: &[u16], mask: &[u16], runs: &mut Vec<Run>) {
    b.check_row(image, mask);
    // SAFETY: this function is only in a table made after AVX2 was detected, and
    // `check_row` has checked the row's length.
    unsafe { scan_avx2(b, image, mask, runs) }
}

/// The run-adding kernel (see [`crate::feature::cambi::cvalues::add_runs`]).
pub(crate) fn add_runs(b: &Band, runs: &[Run], counts: &mut [u16], up: bool) {
    b.check_counts(counts);
    // SAFETY: this function is only in a table made after AVX2 was detected, and
    // `check_counts` has checked the histograms and their padding.
    unsafe { add_runs_avx2(b, runs, counts, up) }
}

/// Every run, piece by piece.
///
/// # Safety
/// AVX2, and the bounds of [`Band::check_counts`].
#[target_feature(enable = "avx2")]
unsafe fn add_runs_avx2(b: &Band, runs: &[Run], counts: &mut [u16], up: bool) {
    for (level, from, to) in pieces(b, runs) {
        // SAFETY: the caller's bounds; the piece checked inside the histograms.
        unsafe { add_run_avx2(counts, b, level, (from, to), up) };
    }
}

/// Thirty-two columns of one row: samples, mask entries, and the samples one column to
/// the left (the first lane the last sample of the columns before, or zero).
///
/// # Safety
/// AVX2; `col < width`, and the row holds `width` samples and mask entries.
#[target_feature(enable = "avx2")]
unsafe fn load_columns(img: &[u16], msk: &[u16], col: usize, width: usize) -> [[__m256i; 2]; 3] {
    let ld = |p: *const u16| {
        // SAFETY: every caller reads sixteen entries inside the slice or array at `p`.
        unsafe { _mm256_loadu_si256(p as *const __m256i) }
    };
    if col > 0 && col + 32 <= width {
        let (v, m) = (img[col - 1..col + 32].as_ptr(), msk[col..col + 32].as_ptr());
        return [
            [ld(v.wrapping_add(1)), ld(v.wrapping_add(17))],
            [ld(m), ld(m.wrapping_add(16))],
            [ld(v), ld(v.wrapping_add(16))],
        ];
    }
    // The first and the last columns: copies, zero past the width.
    let n = (width - col).min(32);
    let (mut v, mut m) = ([0u16; 33], [0u16; 32]);
    if col > 0 {
        v[0] = img[col - 1];
    }
    v[1..=n].copy_from_slice(&img[col..col + n]);
    m[..n].copy_from_slice(&msk[col..col + n]);
    let (v, m) = (v.as_ptr(), m.as_ptr());
    [
        [ld(v.wrapping_add(1)), ld(v.wrapping_add(17))],
        [ld(m), ld(m.wrapping_add(16))],
        [ld(v), ld(v.wrapping_add(16))],
    ]
}

/// Thirty-two columns a step, as the AVX-512 kernel does (each lane's comparison packed
/// to a bit of a 32-bit mask).
///
/// # Safety
/// AVX2, and the bounds of [`Band::check_row`].
#[target_feature(enable = "avx2")]
unsafe fn scan_avx2(b: &Band, img: &[u16], msk: &[u16], runs: &mut Vec<Run>) {
    if b.size == 0 {
        return;
    }
    let w = b.width;
    let zero = _mm256_setzero_si256();
    let base = _mm256_set1_epi16(b.base as i16);
    let top = _mm256_set1_epi16((b.size - 1) as u16 as i16);
    // One bit per 16-bit lane of two vectors, in column order.
    let bits = |lo: __m256i, hi: __m256i| {
        _mm256_movemask_epi8(_mm256_permute4x64_epi64::<0xD8>(_mm256_packs_epi16(lo, hi))) as u32
    };
    let counted = |v: __m256i, m: __m256i| {
        let level = _mm256_sub_epi16(v, base);
        let in_band = _mm256_cmpeq_epi16(_mm256_min_epu16(level, top), level);
        _mm256_andnot_si256(_mm256_cmpeq_epi16(m, zero), in_band)
    };
    let mut closed = runs.len();
    let mut carry = 0u32;
    let mut col = 0;
    while col < w {
        // SAFETY: col < width, and the row holds width entries.
        let [v, m, prev] = unsafe { load_columns(img, msk, col, w) };
        let k = bits(counted(v[0], m[0]), counted(v[1], m[1]));
        let k_prev = (k << 1) | carry;
        let same = bits(
            _mm256_cmpeq_epi16(v[0], prev[0]),
            _mm256_cmpeq_epi16(v[1], prev[1]),
        );
        let cont = k & k_prev & same;
        push_runs(
            (runs, &mut closed),
            col,
            (k & !cont, k_prev & !cont),
            img,
            b.base,
        );
        carry = k >> 31;
        col += 32;
    }
    if closed < runs.len() {
        runs[closed].end = w as u32;
    }
}

/// Adds (`up`) or takes out the window sum of the run `j0..j1` at histogram row `level`
/// (see [`Band::add_run`]), sixteen counts a step; a step reaching past the run's last
/// window or the right edge adds nothing there.
///
/// # Safety
/// AVX2; `level < size`, `j0 < j1 <= width`, `j1 - j0 <= LONGEST_PIECE`, and `counts`
/// holds the histograms and their padding.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn add_run_avx2(
    counts: &mut [u16],
    p: &Band,
    level: usize,
    (j0, j1): (usize, usize),
    up: bool,
) {
    debug_assert!(j0 < j1 && j1 - j0 <= LONGEST_PIECE);
    let (w, pad) = (p.width, p.pad);
    let (start, end) = (j0.saturating_sub(pad), (j1 + pad).min(w));
    let run = _mm256_set1_epi16((j1 - j0) as i16);
    let reach = _mm256_set1_epi16((2 * pad + 1) as i16);
    let step = _mm256_set1_epi16(16);
    // Lanes at `end` or past it (past the last window, or the picture's right edge) add
    // nothing.
    let limit = _mm256_set1_epi16((end + pad + 1 - j0) as i16);
    // Lane i: one more than the offset of its column from the first column any window
    // of the run reaches.
    let mut y = _mm256_add_epi16(
        _mm256_set1_epi16((start + pad + 1 - j0) as i16),
        _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    );
    let row = counts.as_mut_ptr().wrapping_add(level * w);
    let mut c = start;
    while c < end {
        let n = _mm256_subs_epu16(_mm256_min_epu16(y, run), _mm256_subs_epu16(y, reach));
        let n = _mm256_and_si256(n, _mm256_cmpgt_epi16(limit, y));
        let at = row.wrapping_add(c) as *mut __m256i;
        // SAFETY: level * width + c + 16 <= size * width + COUNTS_PAD (c < end <= width).
        unsafe {
            let old = _mm256_loadu_si256(at);
            let new = if up {
                _mm256_add_epi16(old, n)
            } else {
                _mm256_sub_epi16(old, n)
            };
            _mm256_storeu_si256(at, new);
        }
        y = _mm256_add_epi16(y, step);
        c += 16;
    }
}

/// The pooling's exactness statistics of whole groups of eight (see
/// [`crate::feature::cambi::pooling::pool_groups`]): eight values a step, the same eight
/// running sums lane for lane.
pub(crate) fn pool_stats(values: &[f32], acc: &mut PoolAcc) {
    // SAFETY: this function is only in a table made after AVX2 was detected; the kernel
    // reads whole groups of eight inside `values`.
    unsafe { pool_stats_avx2(values, acc) }
}

/// Whole groups of eight added to `acc`: nonzero count, largest and smallest nonzero
/// bits, and the eight running sums (continued from those in `acc`).
///
/// # Safety
/// AVX2.
#[target_feature(enable = "avx2")]
unsafe fn pool_stats_avx2(values: &[f32], acc: &mut PoolAcc) {
    let n = values.len() / 8 * 8;
    let zero = _mm256_setzero_si256();
    let (mut zeros, mut top, mut smallest) = (zero, zero, _mm256_set1_epi32(-1));
    // SAFETY: two loads of four from an array of eight.
    let (mut low, mut high) = unsafe {
        (
            _mm256_loadu_pd(acc.sums.as_ptr()),
            _mm256_loadu_pd(acc.sums.as_ptr().add(4)),
        )
    };
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
    // SAFETY: each store writes eight 32-bit or four 64-bit values into an array of that
    // size (sums: two halves of four).
    unsafe {
        _mm256_storeu_si256(z.as_mut_ptr() as *mut __m256i, zeros);
        _mm256_storeu_si256(t.as_mut_ptr() as *mut __m256i, top);
        _mm256_storeu_si256(s.as_mut_ptr() as *mut __m256i, smallest);
        _mm256_storeu_pd(acc.sums.as_mut_ptr(), low);
        _mm256_storeu_pd(acc.sums.as_mut_ptr().add(4), high);
    }
    let zero_count: usize = z.iter().map(|&c| c as usize).sum();
    acc.positive += n - zero_count;
    acc.top = t.iter().copied().fold(acc.top, u32::max);
    acc.smallest = s.iter().copied().fold(acc.smallest, u32::min);
}
