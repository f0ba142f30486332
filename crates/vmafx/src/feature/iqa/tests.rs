//! The row-ring SSIM against SSIM over whole filtered pictures (how it was computed before,
//! and how libvmaf's iqa code computes it): every mean bit for bit, at every kernel level.

use super::*;
use crate::testutil::twin_rng::TwinRng;

/// Convolution over the fully covered region through a whole horizontally filtered
/// picture.
fn convolve_whole(k: &IqaKernels, img: &Image, kern: &[f32]) -> Image {
    let n = kern.len();
    let (dw, dh) = (img.w + 1 - n, img.h + 1 - n);
    let mut cache = vec![0f32; dw * img.h];
    for y in 0..img.h {
        (k.conv_h)(
            &img.px[y * img.w..(y + 1) * img.w],
            kern,
            &mut cache[y * dw..(y + 1) * dw],
        );
    }
    let mut px = vec![0f32; dw * dh];
    for y in 0..dh {
        let rows: Vec<&[f32]> = (0..n)
            .map(|t| &cache[(y + t) * dw..(y + t + 1) * dw])
            .collect();
        (k.conv_v)(&rows, kern, &mut px[y * dw..(y + 1) * dw]);
    }
    Image { w: dw, h: dh, px }
}

/// SSIM over the five whole filtered pictures.
fn ssim_whole(k: &IqaKernels, r: &Image, d: &Image, window: &[f32]) -> SsimMeans {
    let c1 = (0.01f32 * 255.0) * (0.01f32 * 255.0);
    let c2 = (0.03f32 * 255.0) * (0.03f32 * 255.0);
    let c3 = c2 / 2.0;
    let sq = |a: &Image, b: &Image| Image {
        w: a.w,
        h: a.h,
        px: a.px.iter().zip(&b.px).map(|(x, y)| x * y).collect(),
    };
    let mu_r = convolve_whole(k, r, window);
    let mu_d = convolve_whole(k, d, window);
    let s_rr = convolve_whole(k, &sq(r, r), window);
    let s_dd = convolve_whole(k, &sq(d, d), window);
    let s_rd = convolve_whole(k, &sq(r, d), window);
    let (mut sum, mut ls, mut cs, mut ss) = (0f64, 0f64, 0f64, 0f64);
    for i in 0..mu_r.px.len() {
        let (m1, m2) = (mu_r.px[i], mu_d.px[i]);
        let v1 = (s_rr.px[i] - m1 * m1).max(0.0);
        let v2 = (s_dd.px[i] - m2 * m2).max(0.0);
        let cov = s_rd.px[i] - m1 * m2;
        let sd = ((v1 * v2) as f64).sqrt() as f32;
        let l = (2.0 * m1 as f64 * m2 as f64 + c1 as f64) / (m1 * m1 + m2 * m2 + c1) as f64;
        let c = (2.0 * sd as f64 + c2 as f64) / (v1 + v2 + c2) as f64;
        let cov = if cov < 0.0 && sd <= 0.0 { 0.0 } else { cov };
        let s = ((cov + c3) / (sd + c3)) as f64;
        sum += l * c * s;
        ls += l;
        cs += c;
        ss += s;
    }
    let n = mu_r.px.len() as f64;
    SsimMeans {
        ssim: (sum / n) as f32,
        l: (ls / n) as f32,
        c: (cs / n) as f32,
        s: (ss / n) as f32,
    }
}

#[test]
fn ssim_over_row_rings_is_ssim_over_whole_pictures() {
    let mut rng = TwinRng::new(0x55_1a);
    let levels = [IqaKernels::SCALAR, IQA_KERNELS.current()];
    for case in 0..24 {
        let (w, h) = (rng.size(11, 97), rng.size(11, 61));
        let r: Vec<f32> = (0..w * h).map(|_| rng.range(0, 255) as f32).collect();
        // Distorted: the reference plus noise, with flat patches now and then.
        let d: Vec<f32> = r
            .iter()
            .map(|&v| {
                if case % 3 == 0 && rng.range(0, 4) == 0 {
                    v
                } else {
                    (v + rng.range(-20, 20) as f32).clamp(0.0, 255.0)
                }
            })
            .collect();
        let (r, d) = (Image { w, h, px: r }, Image { w, h, px: d });
        for k in &levels {
            let got = ssim(k, &r, &d, &GAUSSIAN_11);
            let want = ssim_whole(k, &r, &d, &GAUSSIAN_11);
            let bits = |m: SsimMeans| [m.ssim, m.l, m.c, m.s].map(f32::to_bits);
            assert_eq!(bits(got), bits(want), "{w}x{h} at {:?}", k.level);
        }
    }
}
