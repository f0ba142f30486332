//! The contrast sensitivity weights of float ADM per scale: libvmaf's Watson et al. 1997
//! DWT quantisation thresholds (the default), Barten's CSF as in HDR-VDP2, and the DLM
//! paper's CSF, with the `adm_f1sN`/`adm_f2sN` overrides. Watson's and Barten's models are
//! `feature::csf`'s, which the integer ADM shares.

use crate::feature::csf::{barten, resolution, watson_step};

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

/// The DLM paper's CSF at the nominal frequency of level `lambda` at resolution `r`, for
/// orientation `theta` in degrees (45: diagonal).
fn native_csf(lambda: usize, r: f32, theta: u32) -> f32 {
    let mut sf = (r as f64 / 2f64.powi(lambda as i32 + 1)) as f32;
    if theta == 45 {
        sf = (sf as f64 / 0.7) as f32;
    }
    let sf = sf as f64;
    ((0.31 + 0.69 * sf) * (-0.29 * sf).exp()) as f32
}

/// The weights of the (horizontal and vertical, diagonal) bands at `scale`.
pub(crate) fn factors(scale: usize, p: &CsfParams) -> (f32, f32) {
    let r = resolution(p.norm_view_dist, p.ref_display_height);
    let (mut f1, mut f2) = match p.mode {
        CsfMode::Barten => (
            barten(scale, r, p.luminance_level, p.csf_scale),
            barten(scale, r, p.luminance_level, p.csf_diag_scale),
        ),
        CsfMode::Native => (native_csf(scale, r, 0), native_csf(scale, r, 45)),
        CsfMode::Watson => (
            1.0f32 / watson_step(scale, 1, r),
            1.0f32 / watson_step(scale, 2, r),
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
