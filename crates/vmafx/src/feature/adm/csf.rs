//! Contrast sensitivity: the weight of each DWT scale and orientation.
//!
//! Four models, chosen by `adm_csf_mode`: Watson et al.'s wavelet quantisation-noise
//! thresholds (0, the default), Barten's CSF as simplified in HDR-VDP-2 (1), and two tables of
//! blended Barten/Watson weights for a few display set-ups (2, and 3 with the later fit).
//! The first two are `feature::csf`'s, which float ADM shares; the tables are written as
//! doubles and narrowed to `f32` the way C narrows its float initialisers.

use crate::feature::csf::{barten, resolution, watson_step, BARTEN_LUMINANCE};

/// Blended weights, `[orientation: 0 h/v, 1 d][scale]`, per (display height, viewing
/// distance); the first set is mode 2, the second (`_MAE`) mode 3.
type Blend = [[f64; 4]; 2];
const BLEND: [(i64, f64, Blend); 9] = [
    (
        1080,
        3.0,
        [
            [0.01183, 0.025026, 0.04295, 0.058621],
            [0.004302, 0.011778, 0.023918, 0.035901],
        ],
    ),
    (
        1080,
        5.0,
        [
            [0.004212, 0.014809, 0.029642, 0.047464],
            [0.000984, 0.005852, 0.0146, 0.027574],
        ],
    ),
    (
        2160,
        1.5,
        [
            [0.01183, 0.025026, 0.04295, 0.058621],
            [0.004302, 0.011778, 0.023918, 0.035901],
        ],
    ),
    (
        2160,
        3.0,
        [
            [0.00226, 0.01183, 0.025026, 0.04295],
            [0.000479, 0.004302, 0.011778, 0.023918],
        ],
    ),
    (
        2160,
        5.0,
        [
            [0.000092, 0.004212, 0.014809, 0.029642],
            [0.000050, 0.000984, 0.005852, 0.0146],
        ],
    ),
    (
        720,
        3.0,
        [
            [0.018715, 0.035637, 0.052798, 0.061509],
            [0.007999, 0.018396, 0.031851, 0.037718],
        ],
    ),
    (
        720,
        5.0,
        [
            [0.010144, 0.022561, 0.040309, 0.05672],
            [0.003463, 0.010282, 0.021839, 0.034641],
        ],
    ),
    (
        480,
        3.0,
        [
            [0.027961, 0.045875, 0.060275, 0.056234],
            [0.013572, 0.026277, 0.036959, 0.034511],
        ],
    ),
    (
        480,
        5.0,
        [
            [0.016781, 0.032822, 0.05032, 0.061594],
            [0.00691, 0.016545, 0.029917, 0.037777],
        ],
    ),
];
const BLEND_MAE: [(i64, f64, Blend); 9] = [
    (
        1080,
        3.0,
        [
            [0.011249, 0.022606, 0.035930, 0.045673],
            [0.004097, 0.010921, 0.021430, 0.031313],
        ],
    ),
    (
        1080,
        5.0,
        [
            [0.004052, 0.013939, 0.026298, 0.038833],
            [0.000927, 0.005544, 0.013415, 0.024515],
        ],
    ),
    (
        2160,
        1.5,
        [
            [0.011249, 0.022606, 0.035930, 0.045673],
            [0.004097, 0.010921, 0.021430, 0.031313],
        ],
    ),
    (
        2160,
        3.0,
        [
            [0.002166, 0.011249, 0.022606, 0.035930],
            [0.000447, 0.004097, 0.010921, 0.021430],
        ],
    ),
    (
        2160,
        5.0,
        [
            [0.000077, 0.004052, 0.013939, 0.026298],
            [0.000045, 0.000927, 0.005544, 0.013415],
        ],
    ),
    (
        720,
        3.0,
        [
            [0.017329, 0.030870, 0.042134, 0.047410],
            [0.007509, 0.016707, 0.028072, 0.032722],
        ],
    ),
    (
        720,
        5.0,
        [
            [0.009689, 0.020577, 0.034162, 0.044523],
            [0.003302, 0.009579, 0.019661, 0.030318],
        ],
    ),
    (
        480,
        3.0,
        [
            [0.024969, 0.037825, 0.046676, 0.043974],
            [0.012511, 0.023424, 0.032139, 0.030166],
        ],
    ),
    (
        480,
        5.0,
        [
            [0.015665, 0.028766, 0.040612, 0.047483],
            [0.006514, 0.015107, 0.026476, 0.032776],
        ],
    ),
];

/// What libvmaf returns (as a float) for a blended mode at an unlisted display set-up.
const EINVAL_AS_FLOAT: f32 = -22.0;

/// The CSF set-up of an extractor instance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct CsfParams {
    /// `adm_csf_mode`.
    pub mode: i64,
    /// `adm_norm_view_dist`.
    pub norm_view_dist: f64,
    /// `adm_ref_display_height`.
    pub ref_display_height: i64,
    /// `adm_csf_scale` (Barten, horizontal and vertical).
    pub csf_scale: f64,
    /// `adm_csf_diag_scale` (Barten, diagonal).
    pub csf_diag_scale: f64,
}

impl CsfParams {
    /// The weights of scale `scale` (0 finest .. 3): `[h, v, d]`.
    pub(super) fn factors(&self, scale: usize) -> [f32; 3] {
        let r = resolution(self.norm_view_dist, self.ref_display_height);
        let (hv, d) = match self.mode {
            1 => (
                barten(scale, r, BARTEN_LUMINANCE, self.csf_scale),
                barten(scale, r, BARTEN_LUMINANCE, self.csf_diag_scale),
            ),
            2 => (self.blend(&BLEND, scale, 0), self.blend(&BLEND, scale, 1)),
            3 => (
                self.blend(&BLEND_MAE, scale, 0),
                self.blend(&BLEND_MAE, scale, 1),
            ),
            _ => (
                1.0f32 / watson_step(scale, 1, r),
                1.0f32 / watson_step(scale, 2, r),
            ),
        };
        [hv, hv, d]
    }

    /// The display set-ups (height, viewing distance) the blend table of this mode has
    /// weights for, when the mode is a blend (2 or 3) and this set-up is not one of them.
    pub(super) fn missing_blend(&self) -> Option<Vec<(i64, f64)>> {
        let table: &[(i64, f64, Blend)] = match self.mode {
            2 => &BLEND,
            3 => &BLEND_MAE,
            _ => return None,
        };
        let listed = |&(h, d, _): &(i64, f64, Blend)| {
            h == self.ref_display_height && d == self.norm_view_dist
        };
        (!table.iter().any(listed)).then(|| table.iter().map(|&(h, d, _)| (h, d)).collect())
    }

    /// A blend mode's weight (`theta` 0 h/v, 1 d), or libvmaf's -22 where the set-up is
    /// not in the table (`create` refuses that set-up first).
    fn blend(&self, table: &[(i64, f64, Blend)], scale: usize, theta: usize) -> f32 {
        table
            .iter()
            .find(|(h, d, _)| *h == self.ref_display_height && *d == self.norm_view_dist)
            .map(|(_, _, t)| t[theta][scale] as f32)
            .unwrap_or(EINVAL_AS_FLOAT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(mode: i64, d: f64, h: i64) -> CsfParams {
        CsfParams {
            mode,
            norm_view_dist: d,
            ref_display_height: h,
            csf_scale: 1.0,
            csf_diag_scale: 1.0,
        }
    }

    #[test]
    fn watson_scale0_is_near_libvmafs_fixed_point_constants() {
        // libvmaf hard-codes 36453 and 49417 for the default display; the model gives
        // values a few units away (the weighting uses the hard-coded ones).
        let f = params(0, 3.0, 1080).factors(0);
        let q21 = (f[0] as f64 * 2f64.powi(21)) as i64;
        let q23 = (f[2] as f64 * 2f64.powi(23)) as i64;
        assert!((q21 - 36453).abs() <= 4, "{q21}");
        assert!((q23 - 49417).abs() <= 4, "{q23}");
    }

    #[test]
    fn blend_tables_and_unknown_setups() {
        assert_eq!(
            params(2, 3.0, 1080).factors(1),
            [0.025026f64 as f32, 0.025026f64 as f32, 0.011778f64 as f32]
        );
        assert_eq!(params(3, 1.5, 2160).factors(0)[2], 0.004097f64 as f32);
        assert_eq!(params(2, 4.0, 1080).factors(0)[0], -22.0);
        assert!(params(1, 3.0, 1080).factors(0)[0] > 0.0);
    }
}
