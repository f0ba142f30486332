//! The float VIF computation (libvmaf's `compute_vif` with `vif_statistic_s`): Gaussian
//! filter banks, four scales with decimation by 2, per-pixel information statistics with
//! libvmaf's polynomial log2, summed row by row in `f32`.

use super::kernels::VifKernels;
use super::stat::{StatParams, VifParams};
use crate::feature::float_conv::{convolve, ConvInput, ConvKernels, FloatPlane};

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
pub(crate) fn valid_kernelscale(kernelscale: f32) -> bool {
    VALID_KERNELSCALES
        .iter()
        .any(|&k| (((kernelscale - k).abs()) as f64) < 1e-3)
}

/// Filter length at `scale` for `kernelscale`: 2^(4-scale)+1 scaled, rounded up to odd, at least 3.
pub(crate) fn filter_size(scale: u32, kernelscale: f32) -> usize {
    let n = ((1u32 << (4 - scale)) + 1) as f32;
    let c = ((n * kernelscale) as f64).ceil() as i64;
    let odd = if c % 2 == 0 { c + 1 } else { c };
    odd.max(3) as usize
}

/// The normalised Gaussian of `size` taps with standard deviation `size / 5`.
pub(crate) fn gaussian_filter(scale: u32, kernelscale: f32) -> Vec<f32> {
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
pub(crate) struct VifWork {
    tmp: Vec<f32>,
    scales: [ScaleWork; 4],
}

/// The per-scale sums of one picture pair (convolved by `k`, the statistic by `vk`, the
/// planes in `work`): `[num0, den0, num1, den1, ...]` (skipped scales stay 0).
pub(crate) fn compute_vif(
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
}
