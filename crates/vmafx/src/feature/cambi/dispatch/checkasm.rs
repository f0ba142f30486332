//! cambi's table for the kernel checker (`crate::testutil::checkasm`): the c-value row on
//! random widths (below a vector, odd, a few vectors), histogram bands, levels inside,
//! below and above the band, sparse and full masks, every contrast step count and counts
//! up to the largest a window holds; the running sum of a difference row; the pooling
//! statistics.

use super::{Kernels, KERNELS};
use crate::feature::cambi::cvalues::{
    reciprocal_lut, Contrast, RowInput, COUNTS_PAD, RECIPROCAL_LUT_SIZE,
};
use crate::feature::cambi::pooling::PoolStats;
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
            name: "add_running_sum",
            check: add_running_sum,
        },
        Entry {
            name: "pool_stats",
            check: pool_stats,
        },
    ],
};

/// One random difference row summed into a random histogram row, up or down; lengths
/// below a vector and across several, differences of any 16-bit value (sums wrap).
fn add_running_sum(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let n = rng.size(0, 120);
    let spare = rng.range(0, 3) as usize;
    let wide = rng.range(0, 1) == 0;
    let delta: Vec<u16> = (0..n + spare)
        .map(|_| match rng.range(0, 3) {
            0 => 0,
            1 if wide => rng.next_u64() as u16,
            _ => rng.range(-3, 3) as u16,
        })
        .collect();
    let counts: Vec<u16> = (0..n).map(|_| rng.next_u64() as u16).collect();
    let up = rng.range(0, 1) == 0;
    let (mut dg, mut cg) = (delta.clone(), counts.clone());
    let (mut dw, mut cw) = (delta, counts);
    (k.add_running_sum)(&mut dg, &mut cg, up);
    (s.add_running_sum)(&mut dw, &mut cw, up);
    let what = format!("{n} columns, {spare} spare, up {up}");
    same(&what, &cg, &cw)?;
    same(&format!("{what}: difference row"), &dg, &dw)
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
    let image: Vec<u16> = (0..width)
        .map(|_| (base as i64 + rng.range(-6, size as i64 + 6)).max(0) as u16)
        .collect();
    let sparse = rng.range(0, 1) == 0;
    let mask: Vec<u16> = (0..width)
        .map(|_| u16::from(!sparse || rng.range(0, 3) == 0))
        .collect();
    let num_diffs = 1usize << rng.range(0, 5);
    let top = base as i64 + size as i64;
    let contrast = Contrast {
        num_diffs,
        tvi_for_diff: (0..num_diffs)
            .map(|d| (top + d as i64 + rng.range(-20, 20)).max(0) as u16)
            .collect(),
        vlt_luma: (base as i64 + rng.range(-10, size as i64)).max(0) as u16,
    };
    let input = RowInput {
        counts: &counts,
        width,
        size,
        base,
        image: &image,
        mask: &mask,
        contrast: &contrast,
        recip: reciprocal_lut(),
    };
    let (mut got, mut want) = (vec![f32::NAN; width], vec![f32::NAN; width]);
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
    same(
        &format!("{n} values"),
        &[fields((k.pool_stats)(&values))],
        &[fields((s.pool_stats)(&values))],
    )
}

/// cambi's suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;
