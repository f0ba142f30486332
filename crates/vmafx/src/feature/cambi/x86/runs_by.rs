//! cambi's run kernels, written once over the vector width ([`RunLanes`]): the c-values of
//! a row (the row's runs, a vector of columns of a run a step; each level's counts one
//! load of neighbouring counts, the visible steps known for the whole run, the
//! reciprocals gathered, the last step stored masked; the columns outside the runs left
//! zero), the run scan (thirty-two columns a step, each comparison a bit of a 32-bit
//! mask) and the histogram update (each run of one level added as a whole window sum, a
//! vector of counts a step). Each lane computes what the scalar code does for its column,
//! so every level gives the scalar values.

use super::lanes::RunLanes;
use crate::feature::cambi::cvalues::{Band, RowInput, Run, CONTRAST_WEIGHTS, COUNTS_PAD};

/// Panics unless the slices hold what the vector kernels read and write: `width` samples,
/// mask entries and outputs, `size` histogram rows and their padding, a reciprocal table,
/// and indices that fit 32 bits.
pub(super) fn check_bounds(r: &RowInput<'_>, out: &[f32]) {
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

/// The c-values of a row (see [`crate::feature::cambi::cvalues::c_value_row`]).
///
/// # Safety
/// The level's instructions (`L`), and the bounds of [`check_bounds`].
#[inline(always)]
pub(super) unsafe fn c_value_row_by<L: RunLanes>(r: &RowInput<'_>, out: &mut [f32]) {
    let c = r.contrast;
    let w = r.width;
    let band = Band {
        width: w,
        size: r.size,
        base: r.base,
        pad: 0,
    };
    // SAFETY: the level's instructions are on (the caller's), and every pointer below is
    // checked where it is made.
    unsafe {
        let last_recip = L::splat(r.recip.len() as i32 - 1);
        // The counts of histogram row `level` from column `col`, in the lanes of `k`.
        let counts_at = |level: usize, col: usize, k: L::M| {
            // SAFETY: level < size and col < width, so `LANES` counts from here end before
            // size * width + COUNTS_PAD (COUNTS_PAD is at least 16).
            L::counts(r.counts.as_ptr().wrapping_add(level * w + col), k)
        };
        for run in r.runs {
            band.check_run(run);
            let level = run.level as usize;
            // libvmaf compares the level offset by num_diffs with the thresholds.
            let offset_value = (r.base as i32 + level as i32) + c.num_diffs as i32;
            let (start, end) = (run.start as usize, run.end as usize);
            let mut col = start;
            while col < end {
                let k = L::first(end - col);
                let p0 = counts_at(level, col, k);
                let mut best = L::zero_f();
                for (d, (&tvi, weight)) in c.tvi_for_diff.iter().zip(CONTRAST_WEIGHTS).enumerate() {
                    let step = d + 1;
                    if offset_value > tvi as i32 || offset_value + step as i32 <= c.vlt_luma as i32
                    {
                        continue;
                    }
                    let p1 = if level + step < r.size {
                        counts_at(level + step, col, k)
                    } else {
                        L::zero()
                    };
                    let p2 = if level >= step {
                        counts_at(level - step, col, k)
                    } else {
                        L::zero()
                    };
                    let p = L::max(p1, p2);
                    // A lane with no count at the step's levels scores zero.
                    let on = L::nonzero(p, k);
                    if L::none(on) {
                        continue;
                    }
                    let product = L::mul(L::mul(L::splat(weight), p0), p);
                    // 0 <= p + p0 (counts are below 2^16), clamped to the last entry.
                    let sum = L::min(L::add(p, p0), last_recip);
                    let rc = L::gather(r.recip.as_ptr(), sum, on);
                    best = L::keep_greater(best, L::scale(product, rc), on);
                }
                // The lanes of `k` are columns of the run, below width <= out.len().
                L::store(out.as_mut_ptr().add(col), k, best);
                col += L::LANES;
            }
        }
    }
}

/// Runs longer than this are added in pieces, so that the vector kernels' column offsets
/// stay well inside 16 bits.
const LONGEST_PIECE: usize = 16384;

/// Appends to `runs` the runs of thirty-two columns from `col` whose samples (in `img`)
/// count where `counted` has a bit: a run starts at each bit of `starts` and the run
/// before ends at each bit of `ends`; `closed` is the first run without its end.
#[inline(always)]
fn push_runs(
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

/// The runs of a row (see [`crate::feature::cambi::cvalues::scan_runs`]), thirty-two
/// columns a step: where a run of one level starts or the one before ends is a bit each,
/// found by counting trailing zeros.
///
/// # Safety
/// The level's instructions (`L`), and the bounds of [`Band::check_row`].
#[inline(always)]
pub(super) unsafe fn scan_by<L: RunLanes>(b: &Band, img: &[u16], msk: &[u16], runs: &mut Vec<Run>) {
    if b.size == 0 {
        return;
    }
    let w = b.width;
    let mut closed = runs.len();
    // SAFETY: the level's instructions are on (the caller's).
    let mut carry = unsafe { L::carry() };
    let mut left = 0u32;
    let mut col = 0;
    while col < w {
        // SAFETY: as above; col < w, and the row holds w entries (the caller's).
        let (k, same) = unsafe { L::scan32(img, msk, (col, w), (b.base, b.size), &mut carry) };
        let k_prev = (k << 1) | left;
        let cont = k & k_prev & same;
        push_runs(
            (runs, &mut closed),
            col,
            (k & !cont, k_prev & !cont),
            img,
            b.base,
        );
        left = k >> 31;
        col += 32;
    }
    if closed < runs.len() {
        runs[closed].end = w as u32;
    }
}

/// The runs of `runs` as (histogram row, first column, end column), each checked inside
/// the histograms, in pieces of at most [`LONGEST_PIECE`] columns.
#[inline(always)]
fn pieces<'a>(b: &'a Band, runs: &'a [Run]) -> impl Iterator<Item = (usize, usize, usize)> + 'a {
    runs.iter().flat_map(move |run| {
        b.check_run(run);
        let (start, end) = (run.start as usize, run.end as usize);
        (start..end)
            .step_by(LONGEST_PIECE)
            .map(move |from| (run.level as usize, from, end.min(from + LONGEST_PIECE)))
    })
}

/// Adds (`up`) or takes out every run of `runs` (see
/// [`crate::feature::cambi::cvalues::add_runs`]), piece by piece.
///
/// # Safety
/// The level's instructions (`L`), and the bounds of [`Band::check_counts`].
#[inline(always)]
pub(super) unsafe fn add_runs_by<L: RunLanes>(
    b: &Band,
    runs: &[Run],
    counts: &mut [u16],
    up: bool,
) {
    for (level, from, to) in pieces(b, runs) {
        // SAFETY: the caller's bounds; the piece was checked inside the histograms.
        unsafe { add_run_by::<L>(counts, b, level, (from, to), up) };
    }
}

/// Adds (`up`) or takes out the window sum of the run `j0..j1` at histogram row `level`
/// (see [`Band::add_run`]), a vector of counts a step; a step reaching past the run's last
/// window or the right edge adds nothing there.
///
/// # Safety
/// The level's instructions (`L`); `level < size`, `j0 < j1 <= width`, `j1 - j0 <=
/// LONGEST_PIECE`, and `counts` holds the histograms and their padding.
#[inline(always)]
unsafe fn add_run_by<L: RunLanes>(
    counts: &mut [u16],
    p: &Band,
    level: usize,
    (j0, j1): (usize, usize),
    up: bool,
) {
    debug_assert!(j0 < j1 && j1 - j0 <= LONGEST_PIECE);
    let (w, pad) = (p.width, p.pad);
    let (start, end) = (j0.saturating_sub(pad), (j1 + pad).min(w));
    // SAFETY: the level's instructions are on (the caller's); each step's words lie at
    // level * width + c .. + WORDS <= size * width + COUNTS_PAD (c < end <= width, and
    // COUNTS_PAD is at least 32).
    unsafe {
        let run = L::splat_w((j1 - j0) as i16);
        let reach = L::splat_w((2 * pad + 1) as i16);
        let step = L::splat_w(L::WORDS as i16);
        // Lanes at `end` or past it (past the last window, or the picture's right edge)
        // add nothing.
        let limit = L::splat_w((end + pad + 1 - j0) as i16);
        // Lane i: one more than the offset of its column from the first column any window
        // of the run reaches.
        let mut y = L::iota_w((start + pad + 1 - j0) as i16);
        let row = counts.as_mut_ptr().wrapping_add(level * w);
        let mut c = start;
        while c < end {
            let n = L::windows(y, run, reach, limit);
            let at = row.wrapping_add(c);
            let old = L::load_w(at);
            let new = if up {
                L::add_w(old, n)
            } else {
                L::sub_w(old, n)
            };
            L::store_w(at, new);
            y = L::add_w(y, step);
            c += L::WORDS;
        }
    }
}

/// Defines the three run entries of a cambi table of level `$feature` over the lanes
/// `$lanes`: `c_value_row`, `scan_runs` and `add_runs`, each checking the bounds its kernel
/// needs before the call. The dispatch hands the table out only where the processor has
/// `$feature`, which is what makes the calls sound.
macro_rules! run_kernels {
    ($feature:literal, $lanes:ty) => {
        use $crate::feature::cambi::cvalues::{Band, RowInput, Run};

        /// The c-values of a row (see [`crate::feature::cambi::cvalues::c_value_row`]).
        pub(crate) fn c_value_row(r: &RowInput<'_>, out: &mut [f32]) {
            super::runs_by::check_bounds(r, out);
            #[target_feature(enable = $feature)]
            unsafe fn kernel(r: &RowInput<'_>, out: &mut [f32]) {
                // SAFETY: the level's instructions are on here; the bounds were checked.
                unsafe { super::runs_by::c_value_row_by::<$lanes>(r, out) }
            }
            // SAFETY: this function is only in a table made after the level was detected.
            unsafe { kernel(r, out) }
        }

        /// The run-finding kernel (see [`crate::feature::cambi::cvalues::scan_runs`]).
        pub(crate) fn scan_runs(b: &Band, image: &[u16], mask: &[u16], runs: &mut Vec<Run>) {
            b.check_row(image, mask);
            #[target_feature(enable = $feature)]
            unsafe fn kernel(b: &Band, image: &[u16], mask: &[u16], runs: &mut Vec<Run>) {
                // SAFETY: the level's instructions are on here; the row was checked.
                unsafe { super::runs_by::scan_by::<$lanes>(b, image, mask, runs) }
            }
            // SAFETY: this function is only in a table made after the level was detected.
            unsafe { kernel(b, image, mask, runs) }
        }

        /// The run-adding kernel (see [`crate::feature::cambi::cvalues::add_runs`]).
        pub(crate) fn add_runs(b: &Band, runs: &[Run], counts: &mut [u16], up: bool) {
            b.check_counts(counts);
            #[target_feature(enable = $feature)]
            unsafe fn kernel(b: &Band, runs: &[Run], counts: &mut [u16], up: bool) {
                // SAFETY: the level's instructions are on here; the histograms and their
                // padding were checked.
                unsafe { super::runs_by::add_runs_by::<$lanes>(b, runs, counts, up) }
            }
            // SAFETY: this function is only in a table made after the level was detected.
            unsafe { kernel(b, runs, counts, up) }
        }
    };
}
pub(super) use run_kernels;
