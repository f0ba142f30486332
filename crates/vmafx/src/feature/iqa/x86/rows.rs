//! The IQA row kernels for any [`F32Lanes`] width: each lane's `f32` product is widened
//! and added to two `f64` accumulators (the low and high lanes) in the scalar tap order,
//! then rounded to `f32`; the columns left over run the scalar code.

use crate::feature::float_conv::x86::lanes::F32Lanes;
use crate::feature::iqa::rows as scalar;

/// Sums `tap(t)` for `t < taps` lane by lane in `f64` and rounds the sums to `f32`.
///
/// # Safety
/// The level's instructions must be available and `tap` callable for every `t < taps`.
#[inline(always)]
unsafe fn sum_taps<L: F32Lanes>(taps: usize, tap: impl Fn(usize) -> L::V) -> L::V {
    // SAFETY: register-only operations of the level the caller vouches for.
    unsafe {
        let mut lo = L::splat_d(0.0);
        let mut hi = lo;
        for t in 0..taps {
            let (a, b) = L::widen(tap(t));
            lo = L::add_d(lo, a);
            hi = L::add_d(hi, b);
        }
        L::narrow(lo, hi)
    }
}

/// See [`scalar::conv_h`].
///
/// # Safety
/// The level's instructions must be available.
#[inline(always)]
pub(super) unsafe fn conv_h<L: F32Lanes>(row: &[f32], k: &[f32], out: &mut [f32]) {
    let n = out.len();
    assert!(
        row.len() + 1 >= n + k.len(),
        "row shorter than the output's taps"
    );
    let mut x = 0;
    // SAFETY: block `x..x + N` reads `row[x + t .. x + t + N]`, whose end
    // `x + N + k.len() - 1 <= n + k.len() - 1 <= row.len()`; it stores below `n`.
    unsafe {
        while x + L::N <= n {
            let v = sum_taps::<L>(k.len(), |t| {
                L::mul(L::load(row.as_ptr().add(x + t)), L::splat(k[t]))
            });
            L::store(out.as_mut_ptr().add(x), v);
            x += L::N;
        }
    }
    scalar::conv_h(&row[x..], k, &mut out[x..]);
}

/// See [`scalar::conv_v`].
///
/// # Safety
/// The level's instructions must be available.
#[inline(always)]
pub(super) unsafe fn conv_v<L: F32Lanes>(rows: &[&[f32]], k: &[f32], out: &mut [f32]) {
    let n = out.len();
    assert!(rows.len() == k.len() && rows.iter().all(|r| r.len() >= n));
    let mut x = 0;
    // SAFETY: every row holds `n` floats (checked) and block `x..x + N` stays below `n`.
    unsafe {
        while x + L::N <= n {
            let v = sum_taps::<L>(k.len(), |t| {
                L::mul(L::load(rows[t].as_ptr().add(x)), L::splat(k[t]))
            });
            L::store(out.as_mut_ptr().add(x), v);
            x += L::N;
        }
    }
    let tails: Vec<&[f32]> = rows.iter().map(|r| &r[x..]).collect();
    scalar::conv_v(&tails, k, &mut out[x..]);
}

/// See [`scalar::decimate2`].
///
/// # Safety
/// The level's instructions must be available.
#[inline(always)]
pub(super) unsafe fn decimate2<L: F32Lanes>(rows: &[&[f32]], k: &[f32], out: &mut [f32]) {
    let taps = rows.len();
    assert_eq!(k.len(), taps * taps, "a square kernel");
    let len = rows.iter().map(|r| r.len()).min().unwrap_or(0);
    let mut o = 0;
    // SAFETY: block `o..o + N` reads, at tap `u`, the `2N` floats from `2o + u`, whose
    // end `2o + u + 2N <= 2o + taps - 1 + 2N <= len` by the loop condition; it stores
    // below `out.len()`.
    unsafe {
        while o + L::N <= out.len() && 2 * o + 2 * L::N + taps - 1 <= len {
            let mut lo = L::splat_d(0.0);
            let mut hi = lo;
            for (r, kr) in rows.iter().zip(k.chunks_exact(taps)) {
                for (u, &ku) in kr.iter().enumerate() {
                    let p = L::mul(L::load_even(r.as_ptr().add(2 * o + u)), L::splat(ku));
                    let (a, b) = L::widen(p);
                    lo = L::add_d(lo, a);
                    hi = L::add_d(hi, b);
                }
            }
            L::store(out.as_mut_ptr().add(o), L::narrow(lo, hi));
            o += L::N;
        }
    }
    let tails: Vec<&[f32]> = rows.iter().map(|r| &r[2 * o..]).collect();
    scalar::decimate2(&tails, k, &mut out[o..]);
}
