//! motion's table for the kernel checker (`crate::testutil::checkasm`): the vertical
//! passes at every depth on every width up to a few vectors (swept, then random) and edge
//! rows (all zero against all maximum, equal rows but for one column, rows off alignment
//! and longer than the pass, the output between sentinels), and the horizontal sum over
//! rows a pass makes and over any `i32` (with one value past the vector split anywhere);
//! and a table's 16-bit pipeline, where it has one, against the scalar twins of
//! `super::super::words`.

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
                let bpc = rng.range(9, 16) as u32;
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

/// Ten rows of `n` samples of `bpc` bits ([`motion_rows`]) through both passes, each row
/// at an offset of 0..3 samples in its buffer (loads off alignment) and 0..3 samples
/// longer than the pass (it must read `n` only), the output between two sentinels (it
/// must write `n` only): the outputs and the nonzero flags must agree.
fn vertical<T: Copy>(
    scalar: VerticalFn<T>,
    simd: VerticalFn<T>,
    rng: &mut TwinRng,
    bpc: u32,
    cast: fn(u16) -> T,
) -> Verdict {
    let n = rng.size(1, 100);
    let (skew, pad) = (rng.range(0, 3) as usize, rng.range(0, 3) as usize);
    let buffers: Vec<Vec<T>> = motion_rows(rng, n, bpc)
        .into_iter()
        .map(|row| {
            let mut b = samples(rng, skew, bpc);
            b.extend(row);
            b.extend(samples(rng, pad, bpc));
            b.into_iter().map(cast).collect()
        })
        .collect();
    let rows: Vec<&[T]> = buffers.iter().map(|b| &b[skew..]).collect();
    let mut got = vec![i32::MIN; n + 2];
    let mut want = vec![0; n];
    let flags = (
        pass(simd, &rows, bpc, &mut got[1..=n]),
        pass(scalar, &rows, bpc, &mut want),
    );
    let what = format!(
        "{n} columns, {bpc} bits, rows at offset {skew} of {}",
        skew + n + pad
    );
    equal(
        &format!("{what}: sentinels around the output"),
        (got[0], got[n + 1]),
        (i32::MIN, i32::MIN),
    )?;
    same(&what, &got[1..=n], &want)?;
    equal(&format!("{what}: nonzero flag"), flags.0, flags.1)
}

/// `f` over `rows` `0..5` (previous) and `5..10` (current) into `out`; its nonzero flag.
fn pass<T>(f: VerticalFn<T>, rows: &[&[T]], bpc: u32, out: &mut [i32]) -> bool {
    f(
        std::array::from_fn(|i| rows[i]),
        std::array::from_fn(|i| rows[i + 5]),
        bpc,
        out,
    )
}

/// Ten rows of `n` samples below `2^bpc`, five previous then five current: independent
/// [`samples`]; previous rows of an extreme pattern ([`extreme_row`], the centre row's
/// flipped) against current ones of its complement, the largest differences of either
/// sign; or equal previous and current rows (an all-zero output), two times in three but
/// for one sample one off anywhere (the nonzero flag must see that one column).
fn motion_rows(rng: &mut TwinRng, n: usize, bpc: u32) -> Vec<Vec<u16>> {
    let max = ((1u32 << bpc) - 1) as u16;
    match rng.range(0, 4) {
        0 => {
            let (kind, up) = (rng.range(0, 2), rng.next_u64().is_multiple_of(2));
            let prev: Vec<Vec<u16>> = (0..5)
                .map(|r| extreme_row(kind, n, max, (r == 2) != up))
                .collect();
            let cur: Vec<Vec<u16>> = prev
                .iter()
                .map(|r| r.iter().map(|&v| max - v).collect())
                .collect();
            prev.into_iter().chain(cur).collect()
        }
        1 => {
            let prev: Vec<Vec<u16>> = (0..5).map(|_| samples(rng, n, bpc)).collect();
            let mut cur = prev.clone();
            if rng.range(0, 2) > 0 {
                // Flipping the lowest bit keeps the sample below 2^bpc.
                let (r, j) = (rng.range(0, 4) as usize, rng.range(0, n as i64 - 1));
                cur[r][j as usize] ^= 1;
            }
            prev.into_iter().chain(cur).collect()
        }
        _ => (0..10).map(|_| samples(rng, n, bpc)).collect(),
    }
}

/// A row of `n` samples of the pattern `kind`, `max` where on and 0 where off (or the
/// reverse, with `flip`): all on, alternating columns, or alternating runs of three.
fn extreme_row(kind: i64, n: usize, max: u16, flip: bool) -> Vec<u16> {
    (0..n)
        .map(|j| {
            let on = match kind {
                0 => true,
                1 => j % 2 == 0,
                _ => (j / 3) % 2 == 0,
            };
            if on != flip {
                max
            } else {
                0
            }
        })
        .collect()
}

/// A row of vertical-pass values (within 16 bits either sign, small ones, or a scalar
/// pass's output over [`motion_rows`]) or of any `i32`; half the time with one value at
/// or just past the bounds of the vector split (2^16) anywhere, the last columns too,
/// which the kernels must notice wherever it is.
fn abs_sum(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let n = rng.size(3, 100);
    let mut row: Vec<i32> = match rng.range(0, 3) {
        0 => (0..n).map(|_| rng.range(-65535, 65535) as i32).collect(),
        1 => (0..n)
            .map(|_| rng.range(i32::MIN as i64, i32::MAX as i64) as i32)
            .collect(),
        2 => (0..n).map(|_| rng.range(-255, 255) as i32).collect(),
        _ => pass_output(s, rng, n),
    };
    let mut what = format!("sum of {n} values");
    if rng.next_u64().is_multiple_of(2) {
        let j = if rng.next_u64().is_multiple_of(2) {
            rng.range(0, n as i64 - 1) as usize
        } else {
            n - 1 - rng.range(0, 4.min(n as i64 - 1)) as usize
        };
        let past = [1 << 16, (1 << 16) - 1, -(1 << 16), -(1 << 16) - 1];
        row[j] = match rng.range(0, 5) {
            4 => i32::MAX,
            5 => i32::MIN,
            i => past[i as usize],
        };
        what += &format!(", {} at {j}", row[j]);
    }
    equal(&what, (k.abs_sum)(&row), (s.abs_sum)(&row))
}

/// The scalar vertical pass of table `s` over [`motion_rows`] of `n` columns at a random
/// depth.
fn pass_output(s: &Kernels, rng: &mut TwinRng, n: usize) -> Vec<i32> {
    let bpc = rng.range(8, 16) as u32;
    let rows = motion_rows(rng, n, bpc);
    let mut out = vec![0; n];
    if bpc == 8 {
        let rows: Vec<Vec<u8>> = rows
            .iter()
            .map(|r| r.iter().map(|&v| v as u8).collect())
            .collect();
        let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
        pass(s.vertical_u8, &rows, bpc, &mut out);
    } else {
        let rows: Vec<&[u16]> = rows.iter().map(Vec::as_slice).collect();
        pass(s.vertical_u16, &rows, bpc, &mut out);
    }
    out
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
