//! motion's table for the kernel checker (`crate::testutil::checkasm`): the vertical
//! passes at every depth on random widths (below a vector, odd, a few vectors) and edge
//! rows, and the horizontal sum over rows a pass makes and over any `i32`.

use super::super::kernel::VerticalFn;
use super::super::kernels::Kernels;
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

/// motion's suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;
