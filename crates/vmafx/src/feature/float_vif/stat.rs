//! float_vif's per-pixel information statistic (libvmaf's `vif_statistic_s` without the
//! convolutions): its parameters, libvmaf's polynomial log2, and the scalar row kernel.

/// The coefficients of [`log2f_approx`]'s polynomial, highest degree first.
pub(crate) const LOG2_POLY: [f64; 9] = [
    -0.012671635276421,
    0.064841182402670,
    -0.157048836463065,
    0.257167726303123,
    -0.353800560300520,
    0.480131410397451,
    -0.721314327952201,
    1.442694803896991,
    0.0,
];

/// libvmaf's approximate `log2f`: exponent plus a degree-8 polynomial of the mantissa.
pub(crate) fn log2f_approx(x: f32) -> f32 {
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x < 0.0 {
        return f32::NAN;
    }
    let bits = x.to_bits();
    let exponent = (bits & 0x7F80_0000) >> 23;
    let remain = f32::from_bits((bits & 0x007F_FFFF) | 0x3F80_0000);
    let t = remain - 1.0;
    let mut poly = 0.0f32;
    for c in LOG2_POLY {
        poly = poly * t + c as f32;
    }
    (exponent as i32 - 127) as f32 + poly
}

/// Per-scale parameters of the statistic.
#[derive(Debug, Clone, Copy)]
pub(crate) struct VifParams {
    /// `vif_enhn_gain_limit`.
    pub enhn_gain_limit: f64,
    /// `vif_kernelscale`.
    pub kernelscale: f64,
    /// `vif_skip_scale0`.
    pub skip_scale0: bool,
    /// `vif_sigma_nsq`.
    pub sigma_nsq: f64,
}

/// The constants of the per-pixel statistic, derived once from the options.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StatParams {
    /// `vif_sigma_nsq`.
    pub sigma_nsq: f64,
    /// `sigma_nsq² / 255²`, rounded as libvmaf rounds it.
    pub sigma_max_inv: f32,
    /// `vif_enhn_gain_limit` in `f32`.
    pub gain_limit: f32,
    /// The least `f32` at or above `sigma_nsq`: for any `f32` `s`,
    /// `(s as f64) < sigma_nsq` exactly when `s < nsq_bound` (what the vector code tests).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub nsq_bound: f32,
}

impl StatParams {
    /// The constants for `p`.
    pub(crate) fn new(p: &VifParams) -> Self {
        let sigma_nsq = p.sigma_nsq;
        let near = sigma_nsq as f32;
        StatParams {
            sigma_nsq,
            sigma_max_inv: ((sigma_nsq as f32).powf(2.0) as f64 / (255.0 * 255.0)) as f32,
            gain_limit: p.enhn_gain_limit as f32,
            nsq_bound: if (near as f64) < sigma_nsq {
                near.next_up()
            } else {
                near
            },
        }
    }
}

/// The values below this count as zero in the statistic.
pub(crate) const STAT_EPS: f32 = 1.0e-10;

/// One pixel of libvmaf's `vif_statistic_s`: its (numerator, denominator) terms from the
/// filtered means, squares and product.
#[inline]
pub(crate) fn stat_pixel(
    m1: f32,
    m2: f32,
    xx: f32,
    yy: f32,
    xy: f32,
    p: &StatParams,
) -> (f32, f32) {
    let sigma_nsq = p.sigma_nsq;
    let eps = STAT_EPS;
    let mut sigma1_sq = xx - m1 * m1;
    let mut sigma2_sq = yy - m2 * m2;
    let sigma12 = xy - m1 * m2;
    sigma1_sq = sigma1_sq.max(0.0);
    sigma2_sq = sigma2_sq.max(0.0);
    let mut g = sigma12 / (sigma1_sq + eps);
    let mut sv_sq = sigma2_sq - g * sigma12;
    if sigma1_sq < eps {
        g = 0.0;
        sv_sq = sigma2_sq;
        sigma1_sq = 0.0;
    }
    if sigma2_sq < eps {
        g = 0.0;
        sv_sq = 0.0;
    }
    if g < 0.0 {
        sv_sq = sigma2_sq;
        g = 0.0;
    }
    sv_sq = sv_sq.max(eps);
    g = g.min(p.gain_limit);
    let num_arg = 1.0 + (g * g * sigma1_sq) as f64 / (sv_sq as f64 + sigma_nsq);
    let mut num_val = log2f_approx(num_arg as f32);
    let den_arg = 1.0 + sigma1_sq as f64 / sigma_nsq;
    let mut den_val = log2f_approx(den_arg as f32);
    if sigma12 < 0.0 {
        num_val = 0.0;
    }
    if (sigma1_sq as f64) < sigma_nsq {
        num_val = 1.0 - sigma2_sq * p.sigma_max_inv;
        den_val = 1.0;
    }
    (num_val, den_val)
}

/// One row of the statistic: the pixels' numerator and denominator terms summed left to
/// right in `f32` from the rows of `mu1, mu2, xx, yy, xy` (as long as `mu1`'s).
pub(crate) fn stat_row(rows: [&[f32]; 5], p: &StatParams) -> (f32, f32) {
    let n = rows[0].len();
    let [m1, m2, xx, yy, xy] = rows.map(|r| &r[..n]);
    let (mut num, mut den) = (0.0f32, 0.0f32);
    for j in 0..n {
        let (a, b) = stat_pixel(m1[j], m2[j], xx[j], yy[j], xy[j], p);
        num += a;
        den += b;
    }
    (num, den)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log2_approx_is_close() {
        for x in [0.5f32, 1.0, 2.0, 3.0, 10.0, 1234.5] {
            assert!((log2f_approx(x) - x.log2()).abs() < 1e-4, "{x}");
        }
    }
}
