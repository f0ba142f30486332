//! The contrast sensitivity weights of float ADM per scale: libvmaf's Watson et al. 1997
//! DWT quantisation thresholds (the default), Barten's CSF as in HDR-VDP2, and the DLM
//! paper's CSF, with the `adm_f1sN`/`adm_f2sN` overrides.

use std::f64::consts::PI;

/// The CSF choice (`adm_csf_mode`; libvmaf treats 3..9 as the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CsfMode {
    /// Watson et al. 1997 (mode 0).
    Watson,
    /// Barten (mode 1).
    Barten,
    /// The DLM paper's CSF (mode 2).
    Native,
}

impl CsfMode {
    /// The mode of an `adm_csf_mode` value.
    pub(crate) fn from_int(v: i64) -> Self {
        match v {
            1 => Self::Barten,
            2 => Self::Native,
            _ => Self::Watson,
        }
    }
}

/// Everything the CSF weights depend on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CsfParams {
    /// The CSF.
    pub mode: CsfMode,
    /// `adm_norm_view_dist`.
    pub norm_view_dist: f64,
    /// `adm_ref_display_height`.
    pub ref_display_height: i64,
    /// Luminance level for Barten's CSF (libvmaf uses 100 cd/m2).
    pub luminance_level: f64,
    /// `adm_csf_scale`.
    pub csf_scale: f64,
    /// `adm_csf_diag_scale`.
    pub csf_diag_scale: f64,
    /// `adm_f1s0..3` (negative: not set).
    pub f1: [f64; 4],
    /// `adm_f2s0..3` (negative: not set).
    pub f2: [f64; 4],
}

/// Watson's model parameters for Y: a, k, f0 and g per orientation.
const WATSON_A: f32 = 0.495;
const WATSON_K: f32 = 0.466;
const WATSON_F0: f32 = 0.401;
const WATSON_G: [f64; 4] = [1.501, 1.0, 0.534, 1.0];

/// Basis function amplitudes A(lambda, theta) of the 7-9 wavelet (Watson et al., table V).
const AMPLITUDES: [[f64; 4]; 6] = [
    [0.62171, 0.67234, 0.72709, 0.67234],
    [0.34537, 0.41317, 0.49428, 0.41317],
    [0.18004, 0.22727, 0.28688, 0.22727],
    [0.091401, 0.11792, 0.15214, 0.11792],
    [0.045943, 0.059758, 0.077727, 0.059758],
    [0.023013, 0.030018, 0.039156, 0.030018],
];

/// Display visual resolution in pixels per degree.
fn resolution(nvd: f64, height: i64) -> f32 {
    (nvd * height as f64 * PI / 180.0) as f32
}

fn dwt_quant_step(lambda: usize, theta: usize, nvd: f64, height: i64) -> f32 {
    let r = resolution(nvd, height);
    let g = WATSON_G[theta] as f32;
    let temp =
        (2f64.powi(lambda as i32 + 1) * WATSON_F0 as f64 * g as f64 / r as f64).log10() as f32;
    let amp = AMPLITUDES[lambda][theta] as f32;
    (2.0 * WATSON_A as f64 * 10f64.powf((WATSON_K * temp * temp) as f64) / amp as f64) as f32
}

fn native_csf(lambda: usize, nvd: f64, height: i64, theta: u32) -> f32 {
    let r = resolution(nvd, height);
    let mut sf = (r as f64 / 2f64.powi(lambda as i32 + 1)) as f32;
    if theta == 45 {
        sf = (sf as f64 / 0.7) as f32;
    }
    let sf = sf as f64;
    ((0.31 + 0.69 * sf) * (-0.29 * sf).exp()) as f32
}

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

fn f(v: f64) -> f32 {
    v as f32
}

fn lerp(lp: f32, lv: f32, rp: f32, rv: f32, sp: f32) -> f32 {
    lv + ((rv - lv) / (rp - lp)) * (sp - lp)
}

fn barten_rod_cone(lum: f32) -> f32 {
    let inner = (f(BARTEN_SA[1]) / lum) as f64;
    let p = (inner.powf(f(BARTEN_SA[2]) as f64) + 1.0).powf(-(f(BARTEN_SA[3]) as f64));
    (f(BARTEN_SA[0]) as f64 * p) as f32
}

fn barten_mtf(sf: f32) -> f32 {
    let mut mtf = 0.0f32;
    for i in 0..4 {
        let e = ((-f(BARTEN_MTF_B[i])) * sf) as f64;
        mtf = (mtf as f64 + f(BARTEN_MTF_A[i]) as f64 * e.exp()) as f32;
    }
    mtf
}

fn barten_csf(lambda: usize, p: &CsfParams, scale: f64) -> f32 {
    let r = resolution(p.norm_view_dist, p.ref_display_height);
    let sf = (r as f64 / 2f64.powi(lambda as i32 + 1)) as f32;
    let (lo, hi) = (f(BARTEN_ANCHORS[0]) as f64, f(BARTEN_ANCHORS[5]) as f64);
    let lum = if p.luminance_level > hi {
        hi
    } else if p.luminance_level < lo {
        lo
    } else {
        p.luminance_level
    };
    let (mut li, mut ri) = (0, 0);
    for i in 0..5 {
        if lum >= f(BARTEN_ANCHORS[i]) as f64 && lum <= f(BARTEN_ANCHORS[i + 1]) as f64 {
            li = i;
            ri = i + 1;
            break;
        }
    }
    let lpos = (f(BARTEN_ANCHORS[li]) as f64).log10() as f32;
    let rpos = (f(BARTEN_ANCHORS[ri]) as f64).log10() as f32;
    let spos = lum.log10() as f32;
    let q = |k: usize| {
        lerp(
            lpos,
            f(BARTEN_PARAMS[li][k]),
            rpos,
            f(BARTEN_PARAMS[ri][k]),
            spos,
        )
    };
    let (p0, p1, p2, p3) = (q(1), q(2), q(3), q(4));
    let a = (1.0 + ((p0 * sf) as f64).powf(p1 as f64)) as f32;
    let s7 = (sf / 7.0) as f64;
    let b = (1.0 / (1.0 - (-(s7.powf(2.0))).exp()).powf(p2 as f64)) as f32;
    let csf = (p3 as f64 / ((a * b) as f64).powf(0.5)) as f32;
    let lum_f = p.luminance_level as f32;
    ((csf * barten_mtf(sf) * barten_rod_cone(lum_f)) as f64 * scale) as f32
}

/// The weights of the (horizontal and vertical, diagonal) bands at `scale`.
pub(crate) fn factors(scale: usize, p: &CsfParams) -> (f32, f32) {
    let (nvd, h) = (p.norm_view_dist, p.ref_display_height);
    let (mut f1, mut f2) = match p.mode {
        CsfMode::Barten => (
            barten_csf(scale, p, p.csf_scale),
            barten_csf(scale, p, p.csf_diag_scale),
        ),
        CsfMode::Native => (native_csf(scale, nvd, h, 0), native_csf(scale, nvd, h, 45)),
        CsfMode::Watson => (
            1.0f32 / dwt_quant_step(scale, 1, nvd, h),
            1.0f32 / dwt_quant_step(scale, 2, nvd, h),
        ),
    };
    if p.f1[scale] >= 0.0 {
        f1 = p.f1[scale] as f32;
    }
    if p.f2[scale] >= 0.0 {
        f2 = p.f2[scale] as f32;
    }
    (f1, f2)
}
