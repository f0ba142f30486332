//! libvmaf's four ways of pooling per-frame scores into one.

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// A pooling method, in libvmaf's order (the order the pooled sections print them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PoolMethod {
    /// The smallest score.
    Min,
    /// The largest score.
    Max,
    /// The arithmetic mean.
    Mean,
    /// The harmonic mean of `score + 1`, less one: `n / Σ 1/(s+1) − 1`.
    HarmonicMean,
}

impl PoolMethod {
    /// Every method, in the order libvmaf prints them.
    pub const ALL: [PoolMethod; 4] = [
        PoolMethod::Min,
        PoolMethod::Max,
        PoolMethod::Mean,
        PoolMethod::HarmonicMean,
    ];

    /// libvmaf's name of the method (`min`, `max`, `mean`, `harmonic_mean`).
    pub fn name(self) -> &'static str {
        match self {
            PoolMethod::Min => "min",
            PoolMethod::Max => "max",
            PoolMethod::Mean => "mean",
            PoolMethod::HarmonicMean => "harmonic_mean",
        }
    }
}

impl fmt::Display for PoolMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PoolMethod {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        PoolMethod::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                Error::invalid(
                    "pool method",
                    format!("unknown pooling method '{s}' (min, max, mean, harmonic_mean)"),
                )
            })
    }
}

/// Pools `values` (in frame order) as libvmaf does, with the same floating-point steps:
/// one running sum for the mean, one running sum of `1/(s+1)` for the harmonic mean, and
/// min/max seeded with the first value and replaced only on a strict `<`/`>` (so a NaN
/// first value stays, later NaNs are passed over). Infinities and NaNs propagate through
/// the sums. An empty slice gives libvmaf's results for no frames: 0 for min and max, NaN
/// for the means.
///
/// `values` are the frames of the pooled range that subsampling keeps. One libvmaf quirk is
/// left to the caller: when the range's first index is itself skipped by subsampling,
/// libvmaf seeds min and max with 0 rather than the first kept value (its writers always
/// pool from index 0, so they never meet it).
pub fn pool(values: &[f64], method: PoolMethod) -> f64 {
    match method {
        PoolMethod::Min => extreme(values, |s, best| s < best),
        PoolMethod::Max => extreme(values, |s, best| s > best),
        PoolMethod::Mean => {
            let sum: f64 = values.iter().fold(0.0, |acc, &s| acc + s);
            sum / count(values)
        }
        PoolMethod::HarmonicMean => {
            let inv_sum = values.iter().fold(0.0, |acc, &s| acc + 1.0 / (s + 1.0));
            count(values) / inv_sum - 1.0
        }
    }
}

/// [`pool`] with frame `i` weighted by `weights[i]` (VMAFx's perceptual weighting, its
/// ADR-1118): the mean is `Σ wᵢsᵢ / Σ wᵢ`, the harmonic mean `Σ wᵢ / Σ (wᵢ/(sᵢ+1)) − 1`
/// (0 when that denominator is not positive), each sum accumulated in frame order as
/// VMAFx does; min and max ignore the weights. Without frames (or with a weight sum that
/// is not positive) it is [`pool`]. `weights` holds one weight per value.
pub fn pool_weighted(values: &[f64], weights: &[f64], method: PoolMethod) -> f64 {
    debug_assert_eq!(values.len(), weights.len());
    let (mut w_sum, mut w_score_sum, mut w_inv_sum) = (0.0f64, 0.0f64, 0.0f64);
    for (&s, &w) in values.iter().zip(weights) {
        w_sum += w;
        w_score_sum += w * s;
        w_inv_sum += w / (s + 1.0);
    }
    match method {
        PoolMethod::Mean if w_sum > 0.0 => w_score_sum / w_sum,
        PoolMethod::HarmonicMean if w_sum > 0.0 => {
            if w_inv_sum > 0.0 {
                w_sum / w_inv_sum - 1.0
            } else {
                0.0
            }
        }
        _ => pool(values, method),
    }
}

/// The `perc`-th percentile (0 to 100) of `values` by linear interpolation between the two
/// nearest ranks (numpy's default method; the 50th is the median). Values are ranked by
/// IEEE total order, so a NaN ranks above +inf. NaN for no values.
pub fn percentile(values: &[f64], perc: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    percentile_of_sorted(&sorted, perc)
}

/// [`percentile`] of values already sorted ascending (not empty).
pub(crate) fn percentile_of_sorted(sorted: &[f64], perc: f64) -> f64 {
    let p = perc * (sorted.len() - 1) as f64 / 100.0;
    let (l, r) = (p.floor(), p.ceil());
    let (li, ri) = (l as usize, r as usize);
    if li == ri {
        sorted[li]
    } else {
        sorted[li] * (r - p) + sorted[ri] * (p - l)
    }
}

/// The number of values as libvmaf's `unsigned` frame count converted to `double`.
fn count(values: &[f64]) -> f64 {
    values.len() as f64
}

/// The first value, replaced by every later one that `better` prefers; 0 when empty.
fn extreme(values: &[f64], better: impl Fn(f64, f64) -> bool) -> f64 {
    let mut iter = values.iter().copied();
    let Some(mut best) = iter.next() else {
        return 0.0;
    };
    for s in iter {
        if better(s, best) {
            best = s;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_small_sets() {
        let v = [1.0, 3.0, 0.5];
        assert_eq!(pool(&v, PoolMethod::Min), 0.5);
        assert_eq!(pool(&v, PoolMethod::Max), 3.0);
        assert_eq!(pool(&v, PoolMethod::Mean), 1.5);
        let hm = 3.0 / (1.0 / 2.0 + 1.0 / 4.0 + 1.0 / 1.5) - 1.0;
        assert_eq!(pool(&v, PoolMethod::HarmonicMean), hm);
    }

    #[test]
    fn pools_non_finite_and_empty_like_libvmaf() {
        let inf = [f64::INFINITY, f64::INFINITY];
        for m in PoolMethod::ALL {
            assert_eq!(pool(&inf, m), f64::INFINITY, "{m}");
        }
        assert!(pool(&[f64::NAN, 1.0], PoolMethod::Min).is_nan());
        assert_eq!(pool(&[1.0, f64::NAN, 0.5], PoolMethod::Min), 0.5);
        assert_eq!(pool(&[], PoolMethod::Min), 0.0);
        assert_eq!(pool(&[], PoolMethod::Max), 0.0);
        assert!(pool(&[], PoolMethod::Mean).is_nan());
        assert!(pool(&[], PoolMethod::HarmonicMean).is_nan());
    }

    #[test]
    fn percentiles_interpolate_between_ranks() {
        let v = [4.0, 1.0, 3.0, 2.0];
        assert_eq!(percentile(&v, 50.0), 2.5);
        assert_eq!(percentile(&v, 0.0), 1.0);
        assert_eq!(percentile(&v, 100.0), 4.0);
        // rank 0.15 of 4 values: 1 + 0.15 * (2 - 1)
        assert_eq!(percentile(&v, 5.0), 1.0 * 0.85 + 2.0 * 0.15);
        assert_eq!(percentile(&[7.0], 20.0), 7.0);
        assert!(percentile(&[], 10.0).is_nan());
    }

    #[test]
    fn parses_names() {
        for m in PoolMethod::ALL {
            assert_eq!(m.name().parse::<PoolMethod>().unwrap(), m);
        }
        let err = "median".parse::<PoolMethod>().unwrap_err();
        assert!(err.to_string().contains("median"), "{err}");
    }

    #[test]
    fn weighted_pooling_is_vmafx_formula() {
        let (v, w) = ([60.0, 80.0, 100.0], [1.0, 1.0, 2.0]);
        assert_eq!(pool_weighted(&v, &w, PoolMethod::Mean), 340.0 / 4.0);
        let hm = 4.0 / (1.0 / 61.0 + 1.0 / 81.0 + 2.0 / 101.0) - 1.0;
        assert_eq!(pool_weighted(&v, &w, PoolMethod::HarmonicMean), hm);
        assert_eq!(pool_weighted(&v, &w, PoolMethod::Min), 60.0);
        assert_eq!(pool_weighted(&v, &w, PoolMethod::Max), 100.0);
        // Weights of 1 give the unweighted results bit for bit.
        let v = [91.25, 0.1, 33.3, 77.7];
        for m in PoolMethod::ALL {
            let unweighted = pool(&v, m);
            assert_eq!(
                pool_weighted(&v, &[1.0; 4], m).to_bits(),
                unweighted.to_bits()
            );
        }
        assert!(pool_weighted(&[], &[], PoolMethod::Mean).is_nan());
        assert_eq!(
            pool_weighted(&[-2.0], &[1.0], PoolMethod::HarmonicMean),
            0.0
        );
    }
}
