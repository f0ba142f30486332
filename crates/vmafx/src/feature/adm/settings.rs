//! `adm`'s parsed options and the CSF weights they give, as every scale reads them.

use super::csf::CsfParams;

/// Parsed options, and the CSF weights they give.
#[derive(Debug, Clone, Copy)]
pub(super) struct Settings {
    pub(super) debug: bool,
    pub(super) csf: CsfParams,
    /// CSF weights (h, v, d) per scale.
    pub(super) factors: [[f32; 3]; 4],
    /// Fixed-point weights of scale 0.
    pub(super) fixed0: [u16; 3],
    /// Fixed-point weights of scales 1..3 (index 0 unused).
    pub(super) fixed: [[u32; 3]; 4],
    pub(super) dlm_weight: f64,
    pub(super) gain_limit: f64,
    pub(super) noise_weight: f64,
    pub(super) skip_aim: bool,
    pub(super) skip_scale0: bool,
    pub(super) min_val: f64,
}
