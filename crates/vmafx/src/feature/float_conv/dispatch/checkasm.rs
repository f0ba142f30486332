//! The float convolution's table for the kernel checker (`crate::testutil::checkasm`):
//! every pass on random widths (below a vector, odd, several unrolled blocks), random
//! filter lengths (the float_vif and float_motion ones and wider) and sample-like or
//! wide-ranging values, compared bit for bit.

use super::super::kernels::{ConvKernels, VerticalFn};
use super::CONV_KERNELS;
use crate::testutil::checkasm::{same, Checkable, Entry, Suite, Verdict};
use crate::testutil::twin_rng::TwinRng;

/// The float convolution's entries.
pub(in crate::feature::float_conv) static SUITE: Suite<ConvKernels> = Suite {
    feature: "float_conv",
    dispatch: &CONV_KERNELS,
    entries: &[
        Entry {
            name: "vertical",
            check: |s, k, rng| vertical(rng, s.vertical, k.vertical),
        },
        Entry {
            name: "vertical_square",
            check: |s, k, rng| vertical(rng, s.vertical_square, k.vertical_square),
        },
        Entry {
            name: "vertical_product",
            check: product,
        },
        Entry {
            name: "horizontal",
            check: horizontal,
        },
        Entry {
            name: "stride2",
            check: stride2,
        },
        Entry {
            name: "abs_diff_sums",
            check: abs_diff_sums,
        },
    ],
};

/// A filter of odd length (3 to 35 taps), normalised like a Gaussian or random weights.
pub(crate) fn filter(rng: &mut TwinRng) -> Vec<f32> {
    let n = [3, 5, 9, 17, 35][rng.range(0, 4) as usize];
    let mut f: Vec<f32> = (0..n).map(|_| rng.range(1, 1_000_000) as f32).collect();
    let sum: f32 = f.iter().sum();
    f.iter_mut().for_each(|v| *v /= sum);
    f
}

/// `n` floats: samples around zero (as the float features convert them), or any
/// magnitude with a fractional part.
pub(crate) fn floats(rng: &mut TwinRng, n: usize) -> Vec<f32> {
    match rng.range(0, 2) {
        0 => (0..n).map(|_| rng.range(-128, 127) as f32).collect(),
        1 => (0..n)
            .map(|_| rng.range(-1 << 30, 1 << 30) as f32 / 65536.0)
            .collect(),
        _ => (0..n)
            .map(|_| rng.range(0, 1023) as f32 / 4.0 - 128.0)
            .collect(),
    }
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn vertical(rng: &mut TwinRng, scalar: VerticalFn, simd: VerticalFn) -> Verdict {
    let f = filter(rng);
    let n = rng.size(1, 300);
    let rows: Vec<Vec<f32>> = (0..f.len()).map(|_| floats(rng, n)).collect();
    let refs: Vec<&[f32]> = rows.iter().map(|r| r.as_slice()).collect();
    let (mut got, mut want) = (vec![0.0; n], vec![0.0; n]);
    simd(&f, &refs, &mut got);
    scalar(&f, &refs, &mut want);
    same(
        &format!("{n} columns, {} taps", f.len()),
        &bits(&got),
        &bits(&want),
    )
}

fn product(s: &ConvKernels, k: &ConvKernels, rng: &mut TwinRng) -> Verdict {
    let f = filter(rng);
    let n = rng.size(1, 300);
    let a: Vec<Vec<f32>> = (0..f.len()).map(|_| floats(rng, n)).collect();
    let b: Vec<Vec<f32>> = (0..f.len()).map(|_| floats(rng, n)).collect();
    let ra: Vec<&[f32]> = a.iter().map(|r| r.as_slice()).collect();
    let rb: Vec<&[f32]> = b.iter().map(|r| r.as_slice()).collect();
    let (mut got, mut want) = (vec![0.0; n], vec![0.0; n]);
    (k.vertical_product)(&f, &ra, &rb, &mut got);
    (s.vertical_product)(&f, &ra, &rb, &mut want);
    same(
        &format!("{n} columns, {} taps", f.len()),
        &bits(&got),
        &bits(&want),
    )
}

fn horizontal(s: &ConvKernels, k: &ConvKernels, rng: &mut TwinRng) -> Verdict {
    let f = filter(rng);
    let n = rng.size(1, 300);
    let src = floats(rng, n);
    let (mut got, mut want) = (vec![0.0; n], vec![0.0; n]);
    (k.horizontal)(&f, &src, &mut got);
    (s.horizontal)(&f, &src, &mut want);
    same(
        &format!("{n} columns, {} taps", f.len()),
        &bits(&got),
        &bits(&want),
    )
}

fn stride2(s: &ConvKernels, k: &ConvKernels, rng: &mut TwinRng) -> Verdict {
    let f = if rng.range(0, 1) == 0 {
        vec![0.482_962_9, 0.836_516_3, 0.224_143_87, -0.129_409_52]
    } else {
        filter(rng)
    };
    let n = rng.size(1, 200);
    let len = 2 * (n - 1) + f.len() + rng.range(0, 1) as usize;
    let src = floats(rng, len);
    let (mut got, mut want) = (vec![0.0; n], vec![0.0; n]);
    (k.stride2)(&f, &src, &mut got);
    (s.stride2)(&f, &src, &mut want);
    same(
        &format!("{n} outputs, {} taps", f.len()),
        &bits(&got),
        &bits(&want),
    )
}

/// The float convolution's suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;

/// Row counts around the kernel's groups of eight and sixteen rows, widths around its
/// blocks of eight columns.
fn abs_diff_sums(s: &ConvKernels, k: &ConvKernels, rng: &mut TwinRng) -> Verdict {
    // The width first: the checker's trials sweep it.
    let width = rng.size(1, 300);
    let rows = rng.size(1, 40);
    let a = floats(rng, rows * width);
    let b = floats(rng, rows * width);
    let (mut got, mut want) = (vec![0.0; rows], vec![0.0; rows]);
    (k.abs_diff_sums)(&a, &b, width, &mut got);
    (s.abs_diff_sums)(&a, &b, width, &mut want);
    same(
        &format!("{rows} rows of {width} columns"),
        &bits(&got),
        &bits(&want),
    )
}
