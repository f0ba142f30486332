//! The float convolution's row kernels for any [`F32Lanes`] width: `N` columns per vector,
//! four vectors in flight so that the tap-by-tap sums (a chain of dependent adds per
//! column) overlap. Each column sums its taps from zero in the scalar order, one multiply
//! then one add, so the results are the scalar kernels' bits; the columns left over and
//! the mirrored row ends run the scalar code.

use super::lanes::F32Lanes;
use crate::feature::float_conv::rows::{horizontal_at, stride2 as stride2_scalar};

/// Vectors summed side by side in the wide loop.
const UNROLL: usize = 4;

/// Columns `0..out.len()` of a vertical pass: `tap(k, j)` is the vector of tap `k`'s
/// inputs at columns `j..j + N` and `tap1(k, j)` the input at column `j`.
///
/// # Safety
/// The level's instructions must be available, and `tap` must be callable for every tap
/// and every `j + N <= out.len()`.
#[inline(always)]
unsafe fn vertical_by<L: F32Lanes>(
    filter: &[f32],
    out: &mut [f32],
    tap: impl Fn(usize, usize) -> L::V,
    tap1: impl Fn(usize, usize) -> f32,
) {
    let n = out.len();
    let o = out.as_mut_ptr();
    let mut j = 0;
    // SAFETY: every store writes `N` floats at `j + u·N`, all below `n`.
    unsafe {
        while j + UNROLL * L::N <= n {
            let mut acc = [L::zero(); UNROLL];
            for (k, &f) in filter.iter().enumerate() {
                let fv = L::splat(f);
                for (u, a) in acc.iter_mut().enumerate() {
                    *a = L::add(*a, L::mul(fv, tap(k, j + u * L::N)));
                }
            }
            for (u, a) in acc.iter().enumerate() {
                L::store(o.add(j + u * L::N), *a);
            }
            j += UNROLL * L::N;
        }
        while j + L::N <= n {
            let mut acc = L::zero();
            for (k, &f) in filter.iter().enumerate() {
                acc = L::add(acc, L::mul(L::splat(f), tap(k, j)));
            }
            L::store(o.add(j), acc);
            j += L::N;
        }
    }
    for (jj, slot) in out.iter_mut().enumerate().skip(j) {
        let mut acc = 0.0f32;
        for (k, &f) in filter.iter().enumerate() {
            acc += f * tap1(k, jj);
        }
        *slot = acc;
    }
}

/// Checks that a pass has one row per tap, each at least as long as `out`.
fn check_rows(filter: &[f32], rows: &[&[f32]], n: usize) {
    assert_eq!(filter.len(), rows.len(), "one row per tap");
    assert!(
        rows.iter().all(|r| r.len() >= n),
        "rows shorter than the output"
    );
}

/// `out[j] = Σ_k filter[k] · rows[k][j]`.
///
/// # Safety
/// The level's instructions must be available.
#[inline(always)]
pub(crate) unsafe fn vertical<L: F32Lanes>(filter: &[f32], rows: &[&[f32]], out: &mut [f32]) {
    check_rows(filter, rows, out.len());
    // SAFETY: every row holds at least `out.len()` floats (checked above), the most a tap
    // reads.
    unsafe {
        vertical_by::<L>(
            filter,
            out,
            |k, j| L::load(rows[k].as_ptr().add(j)),
            |k, j| rows[k][j],
        )
    }
}

/// `out[j] = Σ_k filter[k] · rows[k][j]²`.
///
/// # Safety
/// The level's instructions must be available.
#[inline(always)]
pub(crate) unsafe fn vertical_square<L: F32Lanes>(
    filter: &[f32],
    rows: &[&[f32]],
    out: &mut [f32],
) {
    check_rows(filter, rows, out.len());
    // SAFETY: as in `vertical`.
    unsafe {
        vertical_by::<L>(
            filter,
            out,
            |k, j| {
                let v = L::load(rows[k].as_ptr().add(j));
                L::mul(v, v)
            },
            |k, j| rows[k][j] * rows[k][j],
        )
    }
}

/// `out[j] = Σ_k filter[k] · (a[k][j] · b[k][j])`.
///
/// # Safety
/// The level's instructions must be available.
#[inline(always)]
pub(crate) unsafe fn vertical_product<L: F32Lanes>(
    filter: &[f32],
    a: &[&[f32]],
    b: &[&[f32]],
    out: &mut [f32],
) {
    check_rows(filter, a, out.len());
    check_rows(filter, b, out.len());
    // SAFETY: as in `vertical`, for both sets of rows.
    unsafe {
        vertical_by::<L>(
            filter,
            out,
            |k, j| L::mul(L::load(a[k].as_ptr().add(j)), L::load(b[k].as_ptr().add(j))),
            |k, j| a[k][j] * b[k][j],
        )
    }
}

/// The horizontal pass of one row with mirrored ends (`out` at least as long as `src`).
///
/// # Safety
/// The level's instructions must be available.
#[inline(always)]
pub(crate) unsafe fn horizontal<L: F32Lanes>(filter: &[f32], src: &[f32], out: &mut [f32]) {
    let w = src.len();
    let out = &mut out[..w];
    let r = filter.len() / 2;
    // Columns `r..w - r` read only inside the row.
    let inner_end = w.saturating_sub(r);
    let mut j = 0;
    while j < r.min(w) {
        out[j] = horizontal_at(filter, src, j);
        j += 1;
    }
    let s = src.as_ptr();
    let o = out.as_mut_ptr();
    // SAFETY: for `j + N·u + N <= inner_end`, tap `k < 2r + 1` reads
    // `j - r + k + N·u .. + N`, which ends at most at `inner_end + r = w`; the stores
    // stay below `inner_end <= w`.
    unsafe {
        while j + UNROLL * L::N <= inner_end {
            let mut acc = [L::zero(); UNROLL];
            for (k, &f) in filter.iter().enumerate() {
                let fv = L::splat(f);
                for (u, a) in acc.iter_mut().enumerate() {
                    *a = L::add(*a, L::mul(fv, L::load(s.add(j - r + k + u * L::N))));
                }
            }
            for (u, a) in acc.iter().enumerate() {
                L::store(o.add(j + u * L::N), *a);
            }
            j += UNROLL * L::N;
        }
        while j + L::N <= inner_end {
            let mut acc = L::zero();
            for (k, &f) in filter.iter().enumerate() {
                acc = L::add(acc, L::mul(L::splat(f), L::load(s.add(j - r + k))));
            }
            L::store(o.add(j), acc);
            j += L::N;
        }
    }
    while j < w {
        out[j] = horizontal_at(filter, src, j);
        j += 1;
    }
}

/// See [`crate::feature::float_conv::rows::stride2`].
///
/// # Safety
/// The level's instructions must be available.
#[inline(always)]
pub(crate) unsafe fn stride2<L: F32Lanes>(filter: &[f32], src: &[f32], out: &mut [f32]) {
    let taps = filter.len();
    let mut o = 0;
    // SAFETY: block `o..o + N` reads, at tap `k`, the `2N` floats from `2o + k`, whose end
    // `2o + k + 2N <= 2o + 2N + taps - 1 <= src.len()` by the loop condition; it stores
    // below `out.len()`.
    unsafe {
        while o + L::N <= out.len() && 2 * o + 2 * L::N + taps - 1 <= src.len() {
            let mut acc = L::zero();
            for (k, &f) in filter.iter().enumerate() {
                acc = L::add(
                    acc,
                    L::mul(L::splat(f), L::load_even(src.as_ptr().add(2 * o + k))),
                );
            }
            L::store(out.as_mut_ptr().add(o), acc);
            o += L::N;
        }
    }
    stride2_scalar(filter, &src[2 * o..], &mut out[o..]);
}
