//! cambi's table for the kernel checker (`crate::testutil::checkasm`): the c-value row on
//! random widths (below a vector, odd, a few vectors), histogram bands, levels inside,
//! below and above the band, sparse and full masks, every contrast step count and counts
//! up to the largest a window holds; a row's runs, and runs added to and taken from the
//! histograms; the pooling statistics.

use super::super::kernels::Kernels;
use super::KERNELS;
use crate::feature::cambi::cvalues::{
    reciprocal_lut, Band, Contrast, RowInput, Run, COUNTS_PAD, RECIPROCAL_LUT_SIZE,
};
use crate::feature::cambi::pooling::{self, PoolStats};
use crate::testutil::checkasm::{same, Checkable, Entry, Suite, Verdict};
use crate::testutil::twin_rng::TwinRng;

/// cambi's entries.
pub(in crate::feature::cambi) static SUITE: Suite<Kernels> = Suite {
    feature: "cambi",
    dispatch: &KERNELS,
    entries: &[
        Entry {
            name: "c_value_row",
            check: c_value_row,
        },
        Entry {
            name: "scan_runs",
            check: scan_runs,
        },
        Entry {
            name: "add_runs",
            check: add_runs,
        },
        Entry {
            name: "pool_stats",
            check: pool_stats,
        },
    ],
};

/// One random row: widths below a vector to a few vectors, runs of one level, levels
/// inside, below and above the band (bands of no level too), sparse and full masks; the
/// runs found after some already in the list.
fn scan_runs(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let width = rng.size(1, 130);
    let size = rng.range(0, 70) as usize;
    let base = rng.range(0, 300) as u16;
    let change = rng.range(1, 6);
    let sparse = rng.range(0, 1) == 0;
    let mut v = base;
    let image: Vec<u16> = (0..width)
        .map(|_| {
            if rng.range(0, change) == 0 {
                v = (base as i64 + rng.range(-4, size as i64 + 4)).max(0) as u16;
            }
            v
        })
        .collect();
    let mask: Vec<u16> = (0..width)
        .map(|_| u16::from(!sparse || rng.range(0, 3) == 0))
        .collect();
    let band = Band {
        width,
        size,
        base,
        pad: rng.range(0, 33) as usize,
    };
    let before = vec![Run::default(); rng.range(0, 2) as usize];
    let (mut got, mut want) = (before.clone(), before);
    (k.scan_runs)(&band, &image, &mask, &mut got);
    (s.scan_runs)(&band, &image, &mask, &mut want);
    same(
        &format!("{width} columns, {size} levels from {base}, sparse {sparse}"),
        &got,
        &want,
    )
}

/// Random runs added to or taken from random histograms: widths below a vector to a few
/// vectors (now and then wider than the kernels' longest run piece), any half window,
/// runs anywhere in the row (against either edge, as long as the row), counts of any
/// 16-bit value (the updates wrap).
fn add_runs(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let wide = rng.range(0, 40) == 0;
    let width = if wide {
        rng.range(16_000, 34_000) as usize
    } else {
        rng.size(1, 130)
    };
    let size = rng.range(1, if wide { 3 } else { 40 }) as usize;
    let band = Band {
        width,
        size,
        base: 0,
        pad: rng.range(0, 33) as usize,
    };
    let runs: Vec<Run> = (0..rng.range(0, 12))
        .map(|_| {
            let start = match rng.range(0, 3) {
                0 => 0,
                _ => rng.range(0, width as i64 - 1),
            };
            let end = match rng.range(0, 3) {
                0 => width as i64,
                1 => (start + rng.range(1, 4)).min(width as i64),
                _ => rng.range(start + 1, width as i64),
            };
            Run {
                level: rng.range(0, size as i64 - 1) as u32,
                start: start as u32,
                end: end as u32,
            }
        })
        .collect();
    let up = rng.range(0, 1) == 0;
    let counts: Vec<u16> = (0..size * width + COUNTS_PAD)
        .map(|_| match rng.range(0, 2) {
            0 => 0,
            1 => rng.range(0, 100) as u16,
            _ => rng.next_u64() as u16,
        })
        .collect();
    let (mut got, mut want) = (counts.clone(), counts);
    (k.add_runs)(&band, &runs, &mut got, up);
    (s.add_runs)(&band, &runs, &mut want, up);
    same(
        &format!(
            "{width} columns, {size} levels, pad {}, {} runs, up {up}",
            band.pad,
            runs.len()
        ),
        &got,
        &want,
    )
}

/// One random row against random histograms.
fn c_value_row(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let width = rng.size(1, 100);
    let size = rng.range(1, 70) as usize;
    let base = rng.range(0, 300) as u16;
    // Counts of two levels of one window sum below the reciprocal table's length.
    let most = [40, 400, (RECIPROCAL_LUT_SIZE as i64 - 1) / 2][rng.range(0, 2) as usize];
    let counts: Vec<u16> = (0..size * width + COUNTS_PAD)
        .map(|_| {
            if rng.range(0, 3) == 0 {
                0
            } else {
                rng.range(0, most) as u16
            }
        })
        .collect();
    // Runs of one level as long as the row, or new levels at every column.
    let change = rng.range(1, 8);
    let mut v = base;
    let image: Vec<u16> = (0..width)
        .map(|_| {
            if rng.range(0, change - 1) == 0 {
                v = (base as i64 + rng.range(-6, size as i64 + 6)).max(0) as u16;
            }
            v
        })
        .collect();
    let sparse = rng.range(0, 1) == 0;
    let mask: Vec<u16> = (0..width)
        .map(|_| u16::from(!sparse || rng.range(0, 3) == 0))
        .collect();
    let num_diffs = 1usize << rng.range(0, 5);
    let top = base as i64 + size as i64;
    // Half the time the thresholds sit at a sample's own offset level, so that a step is
    // visible in one column and not in the next (both edges of each comparison).
    let at = image[rng.range(0, width as i64 - 1) as usize] as i64 + num_diffs as i64;
    let near = rng.range(0, 1) == 0;
    let contrast = Contrast {
        num_diffs,
        tvi_for_diff: (0..num_diffs)
            .map(|d| {
                let t = if near && rng.range(0, 1) == 0 {
                    at + rng.range(-1, 1)
                } else {
                    top + d as i64 + rng.range(-20, 20)
                };
                t.max(0) as u16
            })
            .collect(),
        vlt_luma: if near {
            (at + rng.range(0, num_diffs as i64 + 1)) as u16
        } else {
            (base as i64 + rng.range(-10, size as i64)).max(0) as u16
        },
    };
    let band = Band {
        width,
        size,
        base,
        pad: 0,
    };
    let mut runs = Vec::new();
    (s.scan_runs)(&band, &image, &mask, &mut runs);
    let input = RowInput {
        counts: &counts,
        width,
        size,
        base,
        image: &image,
        mask: &mask,
        contrast: &contrast,
        recip: reciprocal_lut(),
        runs: &runs,
    };
    // The row arrives zeroed (as the c-value pass hands it over).
    let (mut got, mut want) = (vec![0f32; width], vec![0f32; width]);
    (k.c_value_row)(&input, &mut got);
    (s.c_value_row)(&input, &mut want);
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    same(
        &format!("{width} columns, {size} levels from {base}, {num_diffs} steps"),
        &bits(&got),
        &bits(&want),
    )
}

/// Random c-value-like arrays (zeros, positives of any magnitude, subnormals, now and
/// then a negative value, -0.0, an infinity or a NaN), every length below a few vectors.
fn pool_stats(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let n = rng.size(0, 100);
    let odd = rng.range(0, 3) == 0;
    let values: Vec<f32> = (0..n)
        .map(|_| match rng.range(0, 9) {
            0..=3 => 0.0,
            4 => f32::from_bits(rng.range(1, 0x007f_ffff) as u32),
            5 if odd => [-1.5, -0.0, f32::INFINITY, f32::NAN][rng.range(0, 3) as usize],
            _ => rng.range(1, 1 << 24) as f32 * 2f32.powi(rng.range(-30, 30) as i32),
        })
        .collect();
    let fields = |p: PoolStats| (p.positive, p.top, p.smallest, p.total.to_bits());
    // The whole array, and its second part added to the statistics of its first (a
    // multiple of eight values, as a row's groups continue the last row's).
    let split = rng.size(0, n) / 8 * 8;
    let twice = |f: pooling::PoolStatsFn| {
        let mut acc = pooling::PoolAcc::default();
        f(&values[..split], &mut acc);
        f(&values[split..], &mut acc);
        acc.finish(&values[n / 8 * 8..])
    };
    same(
        &format!("{n} values, split at {split}"),
        &[
            fields(pooling::pool_stats(&values, k.pool_stats)),
            fields(twice(k.pool_stats)),
        ],
        &[
            fields(pooling::pool_stats(&values, s.pool_stats)),
            fields(twice(s.pool_stats)),
        ],
    )
}

/// cambi's suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;
