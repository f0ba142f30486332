//! float_vif's statistic for any [`F32Lanes`] width: each lane runs one pixel through
//! the scalar steps (conditions as selects, the `f64` divisions in `f64` lanes, the
//! polynomial log2 term by term), then the lanes are added to the row sums in column
//! order, as the scalar loop adds them.

use crate::feature::float_conv::x86::lanes::F32Lanes;
use crate::feature::float_vif::stat::{stat_pixel, StatParams, LOG2_POLY, STAT_EPS};

/// The widest vector, in lanes (the spill buffers' size).
const MAX_LANES: usize = 16;

/// [`crate::feature::float_vif::stat::log2f_approx`] on every lane.
///
/// # Safety
/// The level's instructions must be available.
#[inline(always)]
unsafe fn log2<L: F32Lanes>(x: L::V) -> L::V {
    // SAFETY: register-only operations of the level the caller vouches for.
    unsafe {
        let zero = L::zero();
        let (exponent, mantissa) = L::split_exponent(x);
        let t = L::sub(mantissa, L::splat(1.0));
        let mut poly = zero;
        for c in LOG2_POLY {
            poly = L::add(L::mul(poly, t), L::splat(c as f32));
        }
        let r = L::add(exponent, poly);
        let r = L::select(L::eq(x, zero), L::splat(f32::NEG_INFINITY), r);
        L::select(L::lt(x, zero), L::splat(f32::NAN), r)
    }
}

/// `1 + a / b` in `f64` for every lane of `a` and `b`, rounded back to `f32`.
///
/// # Safety
/// The level's instructions must be available.
#[inline(always)]
unsafe fn one_plus_ratio<L: F32Lanes>(a: L::V, b_lo: L::D, b_hi: L::D) -> L::V {
    // SAFETY: register-only operations of the level the caller vouches for.
    unsafe {
        let one = L::splat_d(1.0);
        let (a_lo, a_hi) = L::widen(a);
        L::narrow(
            L::add_d(one, L::div_d(a_lo, b_lo)),
            L::add_d(one, L::div_d(a_hi, b_hi)),
        )
    }
}

/// One row of the statistic (see [`crate::feature::float_vif::stat::stat_row`]).
///
/// # Safety
/// The level's instructions must be available.
#[inline(always)]
pub(super) unsafe fn stat_row<L: F32Lanes>(rows: [&[f32]; 5], p: &StatParams) -> (f32, f32) {
    let n = rows[0].len();
    let [m1s, m2s, xxs, yys, xys] = rows.map(|r| &r[..n]);
    let (mut num, mut den) = (0.0f32, 0.0f32);
    let (mut nb, mut db) = ([0.0f32; MAX_LANES], [0.0f32; MAX_LANES]);
    let mut j = 0;
    // SAFETY: every load reads `N` floats at `j + N <= n` of rows holding `n` (sliced
    // above); the spills write `N <= MAX_LANES` floats into the buffers.
    unsafe {
        let zero = L::zero();
        let one = L::splat(1.0);
        let eps = L::splat(STAT_EPS);
        let nsq = L::splat_d(p.sigma_nsq);
        let nsq_bound = L::splat(p.nsq_bound);
        while j + L::N <= n {
            let m1 = L::load(m1s.as_ptr().add(j));
            let m2 = L::load(m2s.as_ptr().add(j));
            let xx = L::load(xxs.as_ptr().add(j));
            let yy = L::load(yys.as_ptr().add(j));
            let xy = L::load(xys.as_ptr().add(j));
            let mut s1 = L::max(L::sub(xx, L::mul(m1, m1)), zero);
            let s2 = L::max(L::sub(yy, L::mul(m2, m2)), zero);
            let s12 = L::sub(xy, L::mul(m1, m2));
            let mut g = L::div(s12, L::add(s1, eps));
            let mut sv = L::sub(s2, L::mul(g, s12));
            let c = L::lt(s1, eps);
            g = L::select(c, zero, g);
            sv = L::select(c, s2, sv);
            s1 = L::select(c, zero, s1);
            let c = L::lt(s2, eps);
            g = L::select(c, zero, g);
            sv = L::select(c, zero, sv);
            let c = L::lt(g, zero);
            sv = L::select(c, s2, sv);
            g = L::select(c, zero, g);
            sv = L::max(sv, eps);
            g = L::min(g, L::splat(p.gain_limit));
            let (sv_lo, sv_hi) = L::widen(sv);
            let num_arg = one_plus_ratio::<L>(
                L::mul(L::mul(g, g), s1),
                L::add_d(sv_lo, nsq),
                L::add_d(sv_hi, nsq),
            );
            let mut num_val = log2::<L>(num_arg);
            let mut den_val = log2::<L>(one_plus_ratio::<L>(s1, nsq, nsq));
            num_val = L::select(L::lt(s12, zero), zero, num_val);
            let c = L::lt(s1, nsq_bound);
            num_val = L::select(
                c,
                L::sub(one, L::mul(s2, L::splat(p.sigma_max_inv))),
                num_val,
            );
            den_val = L::select(c, one, den_val);
            L::store(nb.as_mut_ptr(), num_val);
            L::store(db.as_mut_ptr(), den_val);
            for (a, b) in nb.iter().zip(&db).take(L::N) {
                num += a;
                den += b;
            }
            j += L::N;
        }
    }
    for j in j..n {
        let (a, b) = stat_pixel(m1s[j], m2s[j], xxs[j], yys[j], xys[j], p);
        num += a;
        den += b;
    }
    (num, den)
}
