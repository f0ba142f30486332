//! The two contrast sensitivity models both ADMs weight their DWT bands with: Watson et
//! al.'s wavelet quantisation-noise thresholds (1997) and Barten's CSF as simplified in
//! HDR-VDP-2. The integer and the float ADM of libvmaf compute them alike, in the same
//! mix of `float` and `double` steps, which the casts below follow exactly; the constants
//! are written as doubles and narrowed to `f32` where C narrows its float initialisers.

use std::f64::consts::PI;

/// Watson's threshold model parameters for luma: a, k, f0 and g per orientation.
const WATSON_A: f64 = 0.495;
const WATSON_K: f64 = 0.466;
const WATSON_F0: f64 = 0.401;
const WATSON_G: [f64; 4] = [1.501, 1.0, 0.534, 1.0];

/// Basis function amplitudes of the 7/9 biorthogonal wavelet, by level and orientation
/// (Watson et al., table V).
const BASIS_AMPLITUDES: [[f64; 4]; 6] = [
    [0.62171, 0.67234, 0.72709, 0.67234],
    [0.34537, 0.41317, 0.49428, 0.41317],
    [0.18004, 0.22727, 0.28688, 0.22727],
    [0.091401, 0.11792, 0.15214, 0.11792],
    [0.045943, 0.059758, 0.077727, 0.059758],
    [0.023013, 0.030018, 0.039156, 0.030018],
];

/// Luminance anchors (cd/m²) of Barten's fitted parameters, and the parameters.
const BARTEN_ANCHORS: [f64; 6] = [0.002, 0.02, 0.2, 2.0, 20.0, 150.0];
const BARTEN_PARAMS: [[f64; 5]; 6] = [
    [0.0160737, 0.991265, 3.74038, 0.50722, 4.46044],
    [0.383873, 0.800889, 3.54104, 0.682505, 4.94958],
    [0.929301, 0.476505, 4.37453, 0.750315, 5.28678],
    [1.29776, 0.405782, 4.40602, 0.935314, 5.61425],
    [1.49222, 0.334278, 3.79542, 1.07327, 6.4635],
    [1.46213, 0.394533, 2.7755, 1.16577, 7.45665],
];
const BARTEN_SA: [f64; 4] = [30.162, 4.0627, 1.6596, 0.2712];
const BARTEN_MTF_A: [f64; 4] = [
    0.424838596301290,
    0.572435103936480,
    0.000167576239164937,
    0.00255872352306433,
];
const BARTEN_MTF_B: [f64; 4] = [0.028, 0.37, 37.0, 360.0];

/// Luminance (cd/m²) libvmaf evaluates Barten's CSF at.
pub(crate) const BARTEN_LUMINANCE: f64 = 100.0;

/// The display's visual resolution in pixels per degree: `norm_view_dist` display heights
/// away from a display of `display_height` rows.
pub(crate) fn resolution(norm_view_dist: f64, display_height: i64) -> f32 {
    (norm_view_dist * display_height as f64 * PI / 180.0) as f32
}

/// Watson's quantisation step of DWT level `lambda` (0 finest) and orientation `theta`
/// (1 horizontal/vertical, 2 diagonal) at resolution `r` ([`resolution`]).
pub(crate) fn watson_step(lambda: usize, theta: usize, r: f32) -> f32 {
    let temp =
        (2f64.powi(lambda as i32 + 1) * (WATSON_F0 as f32) as f64 * (WATSON_G[theta] as f32) as f64
            / r as f64)
            .log10() as f32;
    let expo = WATSON_K as f32 * temp * temp;
    (2.0 * (WATSON_A as f32) as f64 * 10f64.powf(expo as f64)
        / (BASIS_AMPLITUDES[lambda][theta] as f32) as f64) as f32
}

/// Barten's CSF at the nominal frequency of DWT level `lambda` at resolution `r`
/// ([`resolution`]) and luminance `luminance` (cd/m²), times `scale_factor`.
pub(crate) fn barten(lambda: usize, r: f32, luminance: f64, scale_factor: f64) -> f32 {
    let sf = (r as f64 / 2f64.powi(lambda as i32 + 1)) as f32;
    let anchors = BARTEN_ANCHORS.map(|a| a as f32);
    // Clamped by comparisons, as libvmaf does (`f64::clamp` would panic on a NaN).
    let lum = if luminance > anchors[5] as f64 {
        anchors[5] as f64
    } else if luminance < anchors[0] as f64 {
        anchors[0] as f64
    } else {
        luminance
    };
    let (mut li, mut ri) = (0, 0);
    for i in 0..5 {
        if lum >= anchors[i] as f64 && lum <= anchors[i + 1] as f64 {
            (li, ri) = (i, i + 1);
            break;
        }
    }
    let lp = (anchors[li] as f64).log10() as f32;
    let rp = (anchors[ri] as f64).log10() as f32;
    let sp = lum.log10() as f32;
    let p = |k: usize| {
        let (lv, rv) = (BARTEN_PARAMS[li][k] as f32, BARTEN_PARAMS[ri][k] as f32);
        lv + ((rv - lv) / (rp - lp)) * (sp - lp)
    };
    let (p0, p1, p2, p3) = (p(1), p(2), p(3), p(4));
    let a = (1.0f64 + ((p0 * sf) as f64).powf(p1 as f64)) as f32;
    let b = (1.0f64 / (1.0 - (-(((sf / 7.0) as f64).powf(2.0))).exp()).powf(p2 as f64)) as f32;
    let csf = (p3 as f64 / ((a * b) as f64).powf(0.5)) as f32;
    ((csf * barten_mtf(sf) * barten_rod_cone(luminance as f32)) as f64 * scale_factor) as f32
}

/// The optical MTF part of Barten's CSF.
fn barten_mtf(sf: f32) -> f32 {
    let mut mtf = 0.0f32;
    for i in 0..4 {
        let e = ((-(BARTEN_MTF_B[i] as f32)) * sf) as f64;
        mtf = (mtf as f64 + (BARTEN_MTF_A[i] as f32) as f64 * e.exp()) as f32;
    }
    mtf
}

/// The luminance-dependent part of Barten's CSF.
fn barten_rod_cone(lum: f32) -> f32 {
    let sa = BARTEN_SA.map(|s| s as f32);
    let inner = ((sa[1] / lum) as f64).powf(sa[2] as f64) + 1.0;
    (sa[0] as f64 * inner.powf(-sa[3] as f64)) as f32
}
