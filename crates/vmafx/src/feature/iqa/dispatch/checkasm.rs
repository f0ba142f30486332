//! The IQA steps' table for the kernel checker (`crate::testutil::checkasm`): both
//! convolution passes with the SSIM window and random kernels, and the decimation with
//! 9x9 and smaller square kernels, on random widths, compared bit for bit.

use super::super::kernels::{IqaKernels, RowsFn};
use super::super::rows::GAUSSIAN_11;
use super::IQA_KERNELS;
use crate::testutil::checkasm::{same, Checkable, Entry, Suite, Verdict};
use crate::testutil::twin_rng::TwinRng;

/// The IQA steps' entries.
pub(in crate::feature::iqa) static SUITE: Suite<IqaKernels> = Suite {
    feature: "iqa",
    dispatch: &IQA_KERNELS,
    entries: &[
        Entry {
            name: "conv_h",
            check: conv_h,
        },
        Entry {
            name: "conv_v",
            check: |s, k, rng| rows_entry(rng, 1, s.conv_v, k.conv_v),
        },
        Entry {
            name: "decimate2",
            check: |s, k, rng| rows_entry(rng, 2, s.decimate2, k.decimate2),
        },
    ],
};

/// `n` floats: 8-bit samples, their products, or deeper samples scaled down.
fn floats(rng: &mut TwinRng, n: usize) -> Vec<f32> {
    match rng.range(0, 2) {
        0 => (0..n).map(|_| rng.range(0, 255) as f32).collect(),
        1 => (0..n).map(|_| rng.range(0, 65025) as f32).collect(),
        _ => (0..n).map(|_| rng.range(0, 1023) as f32 / 4.0).collect(),
    }
}

/// The SSIM window or a random kernel of `taps` weights.
fn kernel(rng: &mut TwinRng, taps: usize) -> Vec<f32> {
    if taps == GAUSSIAN_11.len() && rng.range(0, 1) == 0 {
        return GAUSSIAN_11.to_vec();
    }
    (0..taps)
        .map(|_| rng.range(1, 1 << 20) as f32 / (1 << 24) as f32)
        .collect()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn conv_h(s: &IqaKernels, k: &IqaKernels, rng: &mut TwinRng) -> Verdict {
    let taps = [11, 3, 7][rng.range(0, 2) as usize];
    let kern = kernel(rng, taps);
    let n = rng.size(1, 200);
    let row = floats(rng, n + taps - 1);
    let (mut got, mut want) = (vec![0.0; n], vec![0.0; n]);
    (k.conv_h)(&row, &kern, &mut got);
    (s.conv_h)(&row, &kern, &mut want);
    same(
        &format!("{n} columns, {taps} taps"),
        &bits(&got),
        &bits(&want),
    )
}

/// A pass over rows: the vertical convolution (`step` 1, one row per tap) or the
/// decimation (`step` 2, a square kernel of as many taps as rows).
fn rows_entry(rng: &mut TwinRng, step: usize, scalar: RowsFn, simd: RowsFn) -> Verdict {
    let (taps, kern) = if step == 1 {
        let taps = [11, 3, 7][rng.range(0, 2) as usize];
        (taps, kernel(rng, taps))
    } else {
        let taps = [9, 2, 4][rng.range(0, 2) as usize];
        (taps, kernel(rng, taps * taps))
    };
    let n = rng.size(1, 200);
    // The decimation reads `2(n - 1) + taps` columns; sometimes one more.
    let len = if step == 1 {
        n
    } else {
        2 * (n - 1) + taps + rng.range(0, 1) as usize
    };
    let rows: Vec<Vec<f32>> = (0..taps).map(|_| floats(rng, len)).collect();
    let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
    let (mut got, mut want) = (vec![0.0; n], vec![0.0; n]);
    simd(&refs, &kern, &mut got);
    scalar(&refs, &kern, &mut want);
    same(
        &format!("{n} columns, {taps} taps"),
        &bits(&got),
        &bits(&want),
    )
}

/// The IQA steps' suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;
