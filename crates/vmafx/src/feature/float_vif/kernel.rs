//! The float VIF computation (libvmaf's `compute_vif` with `vif_statistic_s`): Gaussian
//! filter banks, four scales with decimation by 2, per-pixel information statistics with
//! libvmaf's polynomial log2, summed row by row in `f32`.

use super::dispatch::VifKernels;
use crate::feature::float_common::{convolve, ConvInput, ConvKernels, FloatPlane};

/// The kernel scales libvmaf accepts for `vif_kernelscale`.
const VALID_KERNELSCALES: [f32; 21] = [
    1.0,
    1.0 / 2.0,
    3.0 / 2.0,
    2.0,
    2.0 / 3.0,
    24.0 / 10.0,
    360.0 / 97.0,
    4.0 / 3.0,
    3.5 / 3.0,
    3.75 / 3.0,
    4.25 / 3.0,
    5.0 / 3.0,
    3.0,
    1.0 / 2.25,
    1.4746,
    1.54,
    1.6,
    1.06667,
    0.711111,
    0.740740,
    1.111111,
];

/// Whether libvmaf accepts `kernelscale` (within 1e-3 of a listed value).
pub fn valid_kernelscale(kernelscale: f32) -> bool {
    VALID_KERNELSCALES
        .iter()
        .any(|&k| (((kernelscale - k).abs()) as f64) < 1e-3)
}

/// Filter length at `scale` for `kernelscale`: 2^(4-scale)+1 scaled, rounded up to odd, at least 3.
pub fn filter_size(scale: u32, kernelscale: f32) -> usize {
    let n = ((1u32 << (4 - scale)) + 1) as f32;
    let c = ((n * kernelscale) as f64).ceil() as i64;
    let odd = if c % 2 == 0 { c + 1 } else { c };
    odd.max(3) as usize
}

/// The normalised Gaussian of `size` taps with standard deviation `size / 5`.
pub fn gaussian_filter(scale: u32, kernelscale: f32) -> Vec<f32> {
    let size = filter_size(scale, kernelscale);
    let stdev = size as f32 / 5.0f32;
    let k = (size as i64 - 1) / 2;
    let mut out: Vec<f32> = (0..size as i64)
        .map(|i| {
            let d = ((i - k) as f32 - 0.0f32) as f64;
            let s = stdev as f64;
            let num = (-0.5 * d / s * d / s).exp() as f32;
            let den = (1.0 / (s * (2.0 * std::f64::consts::PI).sqrt())) as f32;
            num / den
        })
        .collect();
    let mut sum = 0.0f32;
    for v in &out {
        sum += v;
    }
    for v in &mut out {
        *v /= sum;
    }
    out
}

/// The coefficients of [`log2f_approx`]'s polynomial, highest degree first.
pub const LOG2_POLY: [f64; 9] = [
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
pub fn log2f_approx(x: f32) -> f32 {
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
pub struct VifParams {
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
pub struct StatParams {
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
    pub fn new(p: &VifParams) -> Self {
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
pub const STAT_EPS: f32 = 1.0e-10;

/// One pixel of libvmaf's `vif_statistic_s`: its (numerator, denominator) terms from the
/// filtered means, squares and product.
#[inline]
pub fn stat_pixel(m1: f32, m2: f32, xx: f32, yy: f32, xy: f32, p: &StatParams) -> (f32, f32) {
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
pub fn stat_row(rows: [&[f32]; 5], p: &StatParams) -> (f32, f32) {
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

/// libvmaf's `vif_statistic_s`: the (numerator, denominator) sums of one scale, row sums
/// by `k`'s kernel added up in `f32`.
fn statistic(k: &VifKernels, planes: [&FloatPlane; 5], p: &StatParams) -> (f32, f32) {
    let (mut accum_num, mut accum_den) = (0.0f32, 0.0f32);
    for i in 0..planes[0].height {
        let (num, den) = (k.stat_row)(planes.map(|pl| pl.row(i)), p);
        accum_num += num;
        accum_den += den;
    }
    (accum_num, accum_den)
}

/// Even rows and columns of `src` into `out` (a `w/2 x h/2` picture).
fn decimate(src: &FloatPlane, out: &mut FloatPlane) {
    let (w, h) = (src.width / 2, src.height / 2);
    out.ensure(w, h);
    for i in 0..h {
        for j in 0..w {
            out.data[i * w + j] = src.at(2 * j, 2 * i);
        }
    }
}

/// The planes of one scale, kept from pair to pair (every one is fully rewritten).
#[derive(Debug, Default)]
struct ScaleWork {
    /// The decimated reference and distorted pictures (scales above 0).
    pics: [FloatPlane; 2],
    /// `mu1, mu2, xx, yy, xy`; once the scale is scored, `mu1` and `mu2` hold the next
    /// scale's low-passed pictures before decimation (same size, no other buffer).
    stats: [FloatPlane; 5],
}

/// The working planes of [`compute_vif`], reused across pairs so that no frame
/// allocates.
#[derive(Debug, Default)]
pub struct VifWork {
    tmp: Vec<f32>,
    scales: [ScaleWork; 4],
}

/// The per-scale sums of one picture pair (convolved by `k`, the statistic by `vk`, the
/// planes in `work`): `[num0, den0, num1, den1, ...]` (skipped scales stay 0).
pub fn compute_vif(
    k: &ConvKernels,
    vk: &VifKernels,
    reference: &FloatPlane,
    distorted: &FloatPlane,
    p: &VifParams,
    work: &mut VifWork,
) -> [f64; 8] {
    let ks = p.kernelscale as f32;
    let stat = StatParams::new(p);
    let mut scores = [0.0f64; 8];
    let VifWork { tmp, scales } = work;
    let start = if p.skip_scale0 { 1 } else { 0 };
    for scale in start..4usize {
        let filter = gaussian_filter(scale as u32, ks);
        let (done, rest) = scales.split_at_mut(scale);
        let ScaleWork { pics, stats } = &mut rest[0];
        if let Some(prev) = done.last_mut() {
            let ScaleWork {
                pics: prev_pics,
                stats: prev_stats,
            } = prev;
            let (src_r, src_d) = match scale {
                1 => (reference, distorted),
                _ => (&prev_pics[0], &prev_pics[1]),
            };
            let [blur_r, blur_d, ..] = prev_stats;
            convolve(k, &filter, ConvInput::Plain(src_r), tmp, blur_r);
            convolve(k, &filter, ConvInput::Plain(src_d), tmp, blur_d);
            decimate(blur_r, &mut pics[0]);
            decimate(blur_d, &mut pics[1]);
        }
        let (cur_ref, cur_dis) = match scale {
            0 => (reference, distorted),
            _ => (&pics[0], &pics[1]),
        };
        let [mu1, mu2, xx, yy, xy] = stats;
        convolve(k, &filter, ConvInput::Plain(cur_ref), tmp, mu1);
        convolve(k, &filter, ConvInput::Plain(cur_dis), tmp, mu2);
        convolve(k, &filter, ConvInput::Square(cur_ref), tmp, xx);
        convolve(k, &filter, ConvInput::Square(cur_dis), tmp, yy);
        convolve(k, &filter, ConvInput::Product(cur_ref, cur_dis), tmp, xy);
        let (num, den) = statistic(vk, [mu1, mu2, xx, yy, xy], &stat);
        scores[2 * scale] = num as f64;
        scores[2 * scale + 1] = den as f64;
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_match_libvmaf_sizes_and_sum_to_one() {
        let sizes: Vec<_> = (0..4).map(|s| filter_size(s, 1.0)).collect();
        assert_eq!(sizes, vec![17, 9, 5, 3]);
        let f = gaussian_filter(3, 1.0);
        assert!((f.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(valid_kernelscale(1.5) && !valid_kernelscale(1.3));
    }

    #[test]
    fn log2_approx_is_close() {
        for x in [0.5f32, 1.0, 2.0, 3.0, 10.0, 1234.5] {
            assert!((log2f_approx(x) - x.log2()).abs() < 1e-4, "{x}");
        }
    }
}
