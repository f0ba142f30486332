//! float_vif's table for the kernel checker (`crate::testutil::checkasm`): the statistic
//! row on random widths with means, variances and covariances that reach every branch
//! (zero and tiny variances, negative covariances, gains above the limit) under random
//! noise variances and gain limits, compared bit for bit.

use super::super::kernels::VifKernels;
use super::VIF_KERNELS;
use crate::feature::float_vif::stat::{StatParams, VifParams};
use crate::testutil::checkasm::{equal, Checkable, Entry, Suite, Verdict};
use crate::testutil::twin_rng::TwinRng;

/// float_vif's entries.
pub(in crate::feature::float_vif) static SUITE: Suite<VifKernels> = Suite {
    feature: "float_vif",
    dispatch: &VIF_KERNELS,
    entries: &[Entry {
        name: "stat_row",
        check: stat_row,
    }],
};

/// A value in `-s..s` with a fractional part.
fn frac(rng: &mut TwinRng, s: i64) -> f32 {
    rng.range(-s * 1024, s * 1024) as f32 / 1024.0
}

fn stat_row(s: &VifKernels, k: &VifKernels, rng: &mut TwinRng) -> Verdict {
    let n = rng.size(1, 200);
    let params = VifParams {
        enhn_gain_limit: [100.0, 1.0, 1.7][rng.range(0, 2) as usize],
        kernelscale: 1.0,
        skip_scale0: false,
        sigma_nsq: [2.0, 0.1, 0.0, 5.0, 1.3][rng.range(0, 4) as usize],
    };
    let p = StatParams::new(&params);
    let mut rows: [Vec<f32>; 5] = Default::default();
    for _ in 0..n {
        let m1 = frac(rng, 128);
        let m2 = frac(rng, 128);
        // Variances: none, tiny, below and above the noise variance, or negative.
        let var = |rng: &mut TwinRng| match rng.range(0, 4) {
            0 => 0.0,
            1 => 1.0e-11,
            2 => frac(rng, 3),
            _ => frac(rng, 2000).abs(),
        };
        let (v1, v2) = (var(rng), var(rng));
        let cov = frac(rng, 1000) * if rng.range(0, 1) == 0 { 1.0 } else { 1.0e-3 };
        for (row, v) in rows
            .iter_mut()
            .zip([m1, m2, m1 * m1 + v1, m2 * m2 + v2, m1 * m2 + cov])
        {
            row.push(v);
        }
    }
    let refs: [&[f32]; 5] = std::array::from_fn(|i| rows[i].as_slice());
    let (got, want) = ((k.stat_row)(refs, &p), (s.stat_row)(refs, &p));
    equal(
        &format!("{n} columns, sigma_nsq {}", params.sigma_nsq),
        (got.0.to_bits(), got.1.to_bits()),
        (want.0.to_bits(), want.1.to_bits()),
    )
}

/// float_vif's suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;
