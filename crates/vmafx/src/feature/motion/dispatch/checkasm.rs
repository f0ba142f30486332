//! motion's table for the kernel checker (`crate::testutil::checkasm`): the vertical
//! passes at every depth on random widths (below a vector, odd, a few vectors) and edge
//! rows, and the horizontal sum over rows a pass makes and over any `i32`; and a table's
//! 16-bit pipeline, where it has one, against the scalar twins of `super::super::words`.

use super::super::kernel::VerticalFn;
use super::super::kernels::Kernels;
use super::super::words::Words;
use super::KERNELS;
use crate::testutil::checkasm::{equal, same, samples, Checkable, Entry, Suite, Verdict};
use crate::testutil::twin_rng::TwinRng;

/// motion's entries.
pub(in crate::feature::motion) static SUITE: Suite<Kernels> = Suite {
    feature: "motion",
    dispatch: &KERNELS,
    entries: &[
        Entry {
            name: "vertical_u8",
            check: |s, k, rng| vertical(s.vertical_u8, k.vertical_u8, rng, 8, |v| v as u8),
        },
        Entry {
            name: "vertical_u16",
            check: |s, k, rng| {
                let bpc = [9, 10, 12, 16][rng.range(0, 3) as usize];
                vertical(s.vertical_u16, k.vertical_u16, rng, bpc, |v| v)
            },
        },
        Entry {
            name: "abs_sum",
            check: abs_sum,
        },
        Entry {
            name: "words",
            check: |_, k, rng| match k.words {
                Some(w) => words(&w, rng),
                None => Ok(()),
            },
        },
    ],
};

/// Ten random rows (five previous, five current) of `n` samples of `bpc` bits through
/// both passes: the outputs and the nonzero flags must agree.
fn vertical<T: Copy>(
    scalar: VerticalFn<T>,
    simd: VerticalFn<T>,
    rng: &mut TwinRng,
    bpc: u32,
    cast: fn(u16) -> T,
) -> Verdict {
    let n = rng.size(1, 100);
    let rows: Vec<Vec<T>> = (0..10)
        .map(|_| samples(rng, n, bpc).into_iter().map(cast).collect())
        .collect();
    let p: [&[T]; 5] = std::array::from_fn(|i| rows[i].as_slice());
    let c: [&[T]; 5] = std::array::from_fn(|i| rows[i + 5].as_slice());
    let (mut got, mut want) = (vec![0; n], vec![0; n]);
    let flags = (simd(p, c, bpc, &mut got), scalar(p, c, bpc, &mut want));
    same(&format!("{n} columns, {bpc} bits"), &got, &want)?;
    equal("nonzero flag", flags.0, flags.1)
}

/// A row of vertical-pass values (within 16 bits either sign) or of any `i32`.
fn abs_sum(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let n = rng.size(3, 100);
    let (lo, hi) = match rng.range(0, 2) {
        0 => (-65535, 65535),
        1 => (i32::MIN as i64, i32::MAX as i64),
        _ => (-255, 255),
    };
    let row: Vec<i32> = (0..n).map(|_| rng.range(lo, hi) as i32).collect();
    equal(
        &format!("sum of {n} values"),
        (k.abs_sum)(&row),
        (s.abs_sum)(&row),
    )
}

/// One case of each kernel of a 16-bit pipeline against the scalar twins: differences of
/// 8-bit and deeper rows (samples of 2^14 and more too, which the flag must report), the
/// vertical pass over differences of samples up to 14 bits with the depth's shift or any
/// other (outputs that saturate 16 bits among them), the horizontal sum of any `i16` row.
fn words(k: &Words, rng: &mut TwinRng) -> Verdict {
    let s = Words::SCALAR;
    let n = rng.size(1, 100);
    let bpc = rng.range(8, 16) as u32;
    let (p, c) = (samples(rng, n, bpc), samples(rng, n, bpc));
    let (mut got, mut want) = (vec![0i16; n], vec![0i16; n]);
    let (p8, c8): (Vec<u8>, Vec<u8>) = (
        p.iter().map(|&v| v as u8).collect(),
        c.iter().map(|&v| v as u8).collect(),
    );
    let flags = (
        (k.diff_u8)(&p8, &c8, &mut got),
        (s.diff_u8)(&p8, &c8, &mut want),
    );
    same(&format!("diff_u8, {n} columns"), &got, &want)?;
    equal("diff_u8 flag", flags.0, flags.1)?;
    let flags = (
        (k.diff_u16)(&p, &c, &mut got),
        (s.diff_u16)(&p, &c, &mut want),
    );
    same(&format!("diff_u16, {n} columns, {bpc} bits"), &got, &want)?;
    equal("diff_u16 flag", flags.0, flags.1)?;

    let bpc = [8, 10, 12, 14][rng.range(0, 3) as usize];
    let shift = if rng.next_u64().is_multiple_of(2) {
        bpc
    } else {
        rng.range(1, 15) as u32
    };
    let d: Vec<Vec<i16>> = (0..5)
        .map(|_| {
            let (p, c) = (samples(rng, n, bpc), samples(rng, n, bpc));
            p.iter()
                .zip(&c)
                .map(|(&a, &b)| a as i16 - b as i16)
                .collect()
        })
        .collect();
    let rows: [&[i16]; 5] = std::array::from_fn(|i| d[i].as_slice());
    let tops = (
        (k.vertical)(rows, shift, &mut got),
        (s.vertical)(rows, shift, &mut want),
    );
    let what = format!("vertical, {n} columns, {bpc} bits, shift {shift}");
    same(&what, &got, &want)?;
    equal(&format!("{what}: largest value"), tops.0, tops.1)?;

    let n = rng.size(3, 100);
    let (lo, hi) = match rng.range(0, 3) {
        0 => (-32768, 32767),
        1 => (-255, 255),
        2 => (32767, 32767),
        _ => (-32768, -32768),
    };
    let row: Vec<i16> = (0..n).map(|_| rng.range(lo, hi) as i16).collect();
    equal(
        &format!("abs_sum of {n} values in {lo}..={hi}"),
        (k.abs_sum)(&row),
        (s.abs_sum)(&row),
    )
}

/// motion's suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;
