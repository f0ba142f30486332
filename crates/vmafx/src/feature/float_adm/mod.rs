//! libvmaf's `float_adm`: the detail loss metric (`adm2`), additive impairment (`aim`),
//! their blend (`adm3`) and the per-scale ratios, on the luma of each pair in single
//! precision; with `debug` the totals and per-scale numerators and denominators.

pub(crate) mod csf;
pub(crate) mod dwt;
pub(crate) mod kernel;

use super::float_conv::{check_geometry, check_input, ConvKernels, FeatureNames, CONV_KERNELS};
use super::{
    ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptKind, OptSpec, OptValues,
    Ordering,
};
use crate::error::{Error, Result};
use crate::feature::csf::BARTEN_LUMINANCE;
use csf::{CsfMode, CsfParams};
use dwt::{DwtSource, LumaRows};
use kernel::{compute_adm, AdmParams, AdmWork};

const NAME: &str = "float_adm";

const PROVIDED: &[&str] = &[
    "VMAF_feature_adm2_score",
    "VMAF_feature_aim_score",
    "VMAF_feature_adm3_score",
    "VMAF_feature_adm_scale0_score",
    "VMAF_feature_adm_scale1_score",
    "VMAF_feature_adm_scale2_score",
    "VMAF_feature_adm_scale3_score",
    "adm_num",
    "adm_den",
    "adm_scale0",
    "adm_num_scale0",
    "adm_den_scale0",
    "adm_num_scale1",
    "adm_den_scale1",
    "adm_num_scale2",
    "adm_den_scale2",
    "adm_num_scale3",
    "adm_den_scale3",
];

static OPTIONS: &[OptSpec] = &[
    OptSpec::flag("debug", false, "debug mode: enable additional output"),
    OptSpec::param("adm_enhn_gain_limit", "egl", OptKind::Double(100.0), 1.0, 100.0,
        "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is completely disabled"),
    OptSpec::param("adm_norm_view_dist", "nvd", OptKind::Double(3.0), 0.75, 24.0,
        "normalized viewing distance = viewing distance / ref display's physical height"),
    OptSpec::param("adm_noise_weight", "nw", OptKind::Double(0.03125), 0.0, 1500.0, "noise weight"),
    OptSpec::param("adm_csf_scale", "scf", OptKind::Double(1.0), 0.0, 50.0, "scale factor for the CSF"),
    OptSpec::param("adm_csf_diag_scale", "scfd", OptKind::Double(1.0), 0.0, 50.0, "scale factor for the CSF diag"),
    OptSpec::param("adm_ref_display_height", "rdf", OptKind::Int(1080), 1.0, 4320.0, "reference display height in pixels"),
    OptSpec::param("adm_csf_mode", "csf", OptKind::Int(0), 0.0, 9.0, "contrast sensitivity function"),
    OptSpec::param("adm_bypass_cm", "bcm", OptKind::Int(0), 0.0, 1.0, "bypass contrast masking (CM)"),
    OptSpec::param("adm_adm3_apply_hm", "aah", OptKind::Bool(false), 0.0, 1.0, "apply harmonic mean to combine DLM and AIM"),
    OptSpec::param("adm_p_norm", "apn", OptKind::Double(3.0), 1.0, 20.0, "p-norm for energy vector"),
    OptSpec::param("adm_dlm_weight", "dlmw", OptKind::Double(0.5), 0.0, 1.0,
        "linear weighting between DLM and AIM; 1 corresponds to DLM-only"),
    OptSpec::param("adm_min_val", "min", OptKind::Double(0.0), 0.0, 1.0,
        "minimum value allowed; lower values will be clipped to this value"),
    OptSpec::param("adm_f1s0", "f1s0", OptKind::Double(-1.0), -1.0, 10.0, "factor1 scale0"),
    OptSpec::param("adm_f1s1", "f1s1", OptKind::Double(-1.0), -1.0, 10.0, "factor1 scale1"),
    OptSpec::param("adm_f1s2", "f1s2", OptKind::Double(-1.0), -1.0, 10.0, "factor1 scale2"),
    OptSpec::param("adm_f1s3", "f1s3", OptKind::Double(-1.0), -1.0, 10.0, "factor1 scale3"),
    OptSpec::param("adm_f2s0", "f2s0", OptKind::Double(-1.0), -1.0, 10.0, "factor2 scale0"),
    OptSpec::param("adm_f2s1", "f2s1", OptKind::Double(-1.0), -1.0, 10.0, "factor2 scale1"),
    OptSpec::param("adm_f2s2", "f2s2", OptKind::Double(-1.0), -1.0, 10.0, "factor2 scale2"),
    OptSpec::param("adm_f2s3", "f2s3", OptKind::Double(-1.0), -1.0, 10.0, "factor2 scale3"),
    OptSpec::param("adm_skip_aim_scale", "sasc", OptKind::Int(-1), 0.0, 3.0,
        "when set, skip AIM calculations for that scale"),
    OptSpec::param("adm_skip_scale0", "ssz", OptKind::Bool(false), 0.0, 1.0, "skip the calculation of scale 0"),
];

/// The extractors this module defines.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: NAME,
    aliases: &[],
    provided: PROVIDED,
    options: OPTIONS,
    ordering: Ordering::Independent,
    create,
}];

fn create(opts: &OptValues) -> Result<Box<dyn Extractor>> {
    let four = |prefix: &str| -> [f64; 4] {
        [0, 1, 2, 3].map(|s| opts.double(&format!("adm_{prefix}s{s}")))
    };
    let params = AdmParams {
        csf: CsfParams {
            mode: CsfMode::from_int(opts.int("adm_csf_mode")),
            norm_view_dist: opts.double("adm_norm_view_dist"),
            ref_display_height: opts.int("adm_ref_display_height"),
            luminance_level: BARTEN_LUMINANCE,
            csf_scale: opts.double("adm_csf_scale"),
            csf_diag_scale: opts.double("adm_csf_diag_scale"),
            f1: four("f1"),
            f2: four("f2"),
        },
        enhn_gain_limit: opts.double("adm_enhn_gain_limit"),
        noise_weight: opts.double("adm_noise_weight"),
        bypass_cm: opts.int("adm_bypass_cm") != 0,
        p_norm: opts.double("adm_p_norm"),
        skip_aim_scale: opts.int("adm_skip_aim_scale"),
        skip_scale0: opts.bool("adm_skip_scale0"),
    };
    Ok(Box::new(FloatAdm {
        names: FeatureNames::new(PROVIDED, opts),
        debug: opts.bool("debug"),
        apply_hm: opts.bool("adm_adm3_apply_hm"),
        dlm_weight: opts.double("adm_dlm_weight"),
        min_val: opts.double("adm_min_val"),
        params,
        kernels: ConvKernels::SCALAR,
        geometry: None,
        work: AdmWork::default(),
    }))
}

struct FloatAdm {
    names: FeatureNames,
    debug: bool,
    apply_hm: bool,
    dlm_weight: f64,
    min_val: f64,
    params: AdmParams,
    /// The float row kernels (for the DWT), picked in `init`.
    kernels: ConvKernels,
    geometry: Option<Geometry>,
    /// The computation's planes, reused from pair to pair.
    work: AdmWork,
}

/// libvmaf's `MAX` (the second operand when the first is not greater).
fn max(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

impl Extractor for FloatAdm {
    fn init(&mut self, geometry: Geometry) -> Result<()> {
        // Four halvings must leave bands of at least 2x2 for the masking neighbourhood.
        check_geometry(NAME, geometry, 32)?;
        self.kernels = CONV_KERNELS.current();
        self.geometry = Some(geometry);
        Ok(())
    }

    fn kernel_level(&self) -> Option<crate::cpu::CpuLevel> {
        self.geometry.map(|_| self.kernels.level)
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        &["float_conv"]
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let g = self
            .geometry
            .ok_or_else(|| Error::invalid(NAME, "extract called before init"))?;
        check_input(NAME, input, g)?;
        // The first DWT level reads the luma as floats row by row (no float copy).
        let (r, d) = (
            DwtSource::Luma(LumaRows::new(input.reference)),
            DwtSource::Luma(LumaRows::new(input.distorted)),
        );
        let s = compute_adm(&self.kernels, r, d, &self.params, &mut self.work);

        let index = input.index;
        let n = |i: usize| self.names.get(PROVIDED[i]);
        out.put(n(0), index, s.score);
        out.put(n(1), index, s.aim);
        let adm3 = if self.apply_hm {
            2.0 * s.score * s.aim / (s.score + s.aim)
        } else {
            s.score * self.dlm_weight + (1.0 - s.aim) * (1.0 - self.dlm_weight)
        };
        out.put(n(2), index, max(adm3, self.min_val));
        for k in 0..4 {
            out.put(n(3 + k), index, s.scales[2 * k] / s.scales[2 * k + 1]);
        }
        if !self.debug {
            return Ok(());
        }
        // libvmaf writes "adm" under its plain name: it is not among the provided features.
        out.put("adm", index, s.score);
        out.put(n(7), index, s.num);
        out.put(n(8), index, s.den);
        for k in 0..4 {
            out.put(n(10 + 2 * k), index, s.scales[2 * k]);
            out.put(n(11 + 2 * k), index, s.scales[2 * k + 1]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
