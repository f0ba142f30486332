//! SpEED's table for the kernel checker (`crate::testutil::checkasm`): the covariance sum
//! on random widths (below 8, between 8 and 16, several 16s with every tail), heights,
//! strides, offsets and means.

use super::{Kernels, KERNELS};
use crate::feature::speed::estimate::CovInput;
use crate::testutil::checkasm::{same, Checkable, Entry, Suite, Verdict};
use crate::testutil::twin_rng::TwinRng;

/// SpEED's entries.
pub(in crate::feature::speed) static SUITE: Suite<Kernels> = Suite {
    feature: "speed",
    dispatch: &KERNELS,
    entries: &[Entry {
        name: "cov_sum",
        check: cov_sum,
    }],
};

/// One random covariance sum.
fn cov_sum(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let w = rng.size(1, 60);
    let h = rng.size(1, 12);
    let stride = w + 4 + rng.range(0, 9) as usize;
    let data: Vec<f32> = (0..stride * (h + 4))
        .map(|_| rng.range(-1_000_000, 1_000_000) as f32 / 7919.0)
        .collect();
    let pick = |rng: &mut TwinRng| rng.range(0, 4) as usize * stride + rng.range(0, 4) as usize;
    let (ox, oy) = (pick(rng), pick(rng));
    let c = CovInput {
        data: &data,
        stride,
        ox,
        oy,
        w,
        h,
        mx: rng.range(-5000, 5000) as f64 / 311.0,
        my: rng.range(-5000, 5000) as f64 / 311.0,
    };
    let (got, want) = ((k.cov_sum)(&c), (s.cov_sum)(&c));
    same(
        &format!("{w}x{h}, stride {stride}, offsets {ox} and {oy}"),
        &[got.to_bits()],
        &[want.to_bits()],
    )
}

/// SpEED's suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;
