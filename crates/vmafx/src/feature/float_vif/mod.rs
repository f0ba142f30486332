//! libvmaf's `float_vif`: visual information fidelity at four scales on the luma of
//! each pair, in single precision (`VMAF_feature_vif_scale0_score` .. `scale3`, and with
//! `debug` the totals and per-scale numerators and denominators).

pub(crate) mod dispatch;
pub(crate) mod kernel;
pub(crate) mod kernels;
pub(crate) mod scale;
pub(crate) mod stat;
#[cfg(target_arch = "x86_64")]
mod x86;

use super::float_conv::{
    check_geometry, check_input, picture_to_float, ConvKernels, FeatureNames, FloatPlane,
    CONV_KERNELS,
};
use super::{
    ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptKind, OptSpec, OptValues,
    Ordering,
};
use crate::error::{Error, Result};
use dispatch::VIF_KERNELS;
use kernel::{compute_vif, valid_kernelscale, VifWork};
use kernels::VifKernels;
use scale::{scale_frame, ScaleMethod};
use stat::VifParams;

const NAME: &str = "float_vif";

const PROVIDED: &[&str] = &[
    "VMAF_feature_vif_scale0_score",
    "VMAF_feature_vif_scale1_score",
    "VMAF_feature_vif_scale2_score",
    "VMAF_feature_vif_scale3_score",
    "vif",
    "vif_num",
    "vif_den",
    "vif_num_scale0",
    "vif_den_scale0",
    "vif_num_scale1",
    "vif_den_scale1",
    "vif_num_scale2",
    "vif_den_scale2",
    "vif_num_scale3",
    "vif_den_scale3",
];

static OPTIONS: &[OptSpec] = &[
    OptSpec::flag("debug", false, "debug mode: enable additional output"),
    OptSpec::param("vif_enhn_gain_limit", "egl", OptKind::Double(100.0), 1.0, 100.0,
        "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is completely disabled"),
    OptSpec::param("vif_kernelscale", "ks", OptKind::Double(1.0), 0.1, 4.0,
        "scaling factor for the gaussian kernel (2.0 means multiplying the standard deviation by 2 and enlarge the kernel size accordingly"),
    OptSpec::param("vif_prescale", "ps", OptKind::Double(1.0), 0.1, 4.0,
        "scaling factor for the frame (2.0 means making the image twice as large on each dimension)"),
    OptSpec::param("vif_scale1_min_val", "s1miv", OptKind::Double(0.0), 0.0, 1.0,
        "minimum value allowed; smaller values will be set to this value"),
    OptSpec::param("vif_scale2_min_val", "s2miv", OptKind::Double(0.0), 0.0, 1.0,
        "minimum value allowed; smaller values will be set to this value"),
    OptSpec::param("vif_scale3_min_val", "s3miv", OptKind::Double(0.0), 0.0, 1.0,
        "minimum value allowed; smaller values will be set to this value"),
    OptSpec::param("vif_prescale_method", "pm", OptKind::Str("nearest"), 0.0, 0.0,
        "scaling method for the frame, supported options: [nearest, bilinear, bicubic, lanczos4]"),
    OptSpec::param("vif_sigma_nsq", "snsq", OptKind::Double(2.0), 0.0, 5.0, "neural noise variance"),
    OptSpec::param("vif_skip_scale0", "ssclz", OptKind::Bool(false), 0.0, 1.0, "when set, skip scale 0 calculations"),
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
    let method_name = opts.string("vif_prescale_method");
    let method = ScaleMethod::from_name(method_name).ok_or_else(|| {
        Error::invalid(
            format!("{NAME}:vif_prescale_method"),
            format!(
                "'{method_name}' is not a scaling method (nearest, bilinear, bicubic, lanczos4)"
            ),
        )
    })?;
    let kernelscale = opts.double("vif_kernelscale");
    if !valid_kernelscale(kernelscale as f32) {
        return Err(Error::invalid(
            format!("{NAME}:vif_kernelscale"),
            format!("{kernelscale} is not one of the kernel scales libvmaf supports"),
        ));
    }
    Ok(Box::new(FloatVif {
        names: FeatureNames::new(PROVIDED, opts),
        debug: opts.bool("debug"),
        params: VifParams {
            enhn_gain_limit: opts.double("vif_enhn_gain_limit"),
            kernelscale,
            skip_scale0: opts.bool("vif_skip_scale0"),
            sigma_nsq: opts.double("vif_sigma_nsq"),
        },
        prescale: opts.double("vif_prescale"),
        method,
        min_val: [
            opts.double("vif_scale1_min_val"),
            opts.double("vif_scale2_min_val"),
            opts.double("vif_scale3_min_val"),
        ],
        kernels: ConvKernels::SCALAR,
        vif_kernels: VifKernels::SCALAR,
        geometry: None,
        scaled: (0, 0),
        pics: Default::default(),
        work: VifWork::default(),
    }))
}

struct FloatVif {
    names: FeatureNames,
    debug: bool,
    params: VifParams,
    prescale: f64,
    method: ScaleMethod,
    min_val: [f64; 3],
    /// The convolution's row kernels, picked in `init`.
    kernels: ConvKernels,
    /// The statistic's row kernel, picked in `init`.
    vif_kernels: VifKernels,
    geometry: Option<Geometry>,
    scaled: (usize, usize),
    /// Reference, distorted, and their prescaled versions.
    pics: [FloatPlane; 4],
    /// The computation's planes, reused from pair to pair.
    work: VifWork,
}

impl Extractor for FloatVif {
    fn init(&mut self, geometry: Geometry) -> Result<()> {
        check_geometry(NAME, geometry, 1)?;
        let sw = (geometry.width as f64 * self.prescale + 0.5) as usize;
        let sh = (geometry.height as f64 * self.prescale + 0.5) as usize;
        if self.method == ScaleMethod::Bilinear && sw > 7680 {
            return Err(Error::range(
                format!("{NAME}:vif_prescale"),
                format!("bilinear prescaling supports widths up to 7680; {sw} asked"),
            ));
        }
        // Four scales of decimation by 2 must leave at least 2x2 samples.
        let need = 16;
        if sw < need || sh < need {
            return Err(Error::range(
                format!("{NAME}:size"),
                format!(
                    "{NAME} needs a (prescaled) picture of at least {need}x{need}; got {sw}x{sh}"
                ),
            ));
        }
        self.scaled = (sw, sh);
        if (sw, sh) != (geometry.width as usize, geometry.height as usize) {
            self.pics[2] = FloatPlane::new(sw, sh);
            self.pics[3] = FloatPlane::new(sw, sh);
        }
        self.kernels = CONV_KERNELS.current();
        self.vif_kernels = VIF_KERNELS.current();
        self.geometry = Some(geometry);
        Ok(())
    }

    fn kernel_level(&self) -> Option<crate::cpu::CpuLevel> {
        self.geometry.map(|_| self.kernels.level)
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        &["float_conv", "float_vif"]
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let g = self
            .geometry
            .ok_or_else(|| Error::invalid(NAME, "extract called before init"))?;
        check_input(NAME, input, g)?;
        let [r, d, rs, ds] = &mut self.pics;
        picture_to_float(input.reference, 0, -128.0, r);
        picture_to_float(input.distorted, 0, -128.0, d);
        // Without prescaling the pictures are scored as they are (no copy).
        let (rs, ds) = if self.scaled == (r.width, r.height) {
            (&*r, &*d)
        } else {
            scale_frame(self.method, r, rs);
            scale_frame(self.method, d, ds);
            (&*rs, &*ds)
        };
        let s = compute_vif(
            &self.kernels,
            &self.vif_kernels,
            rs,
            ds,
            &self.params,
            &mut self.work,
        );

        let index = input.index;
        let n = |i: usize| self.names.get(PROVIDED[i]);
        let scale0 = if self.params.skip_scale0 {
            0.0
        } else {
            s[0] / s[1]
        };
        out.put(n(0), index, scale0);
        for k in 1..4 {
            let v = s[2 * k] / s[2 * k + 1];
            let min = self.min_val[k - 1];
            out.put(n(k), index, if v > min { v } else { min });
        }
        if !self.debug {
            return Ok(());
        }
        let start = if self.params.skip_scale0 { 1 } else { 0 };
        let (mut num, mut den) = (0.0f64, 0.0f64);
        for k in start..4 {
            num += s[2 * k];
            den += s[2 * k + 1];
        }
        let score = if den == 0.0 { 1.0 } else { num / den };
        out.put(n(4), index, score);
        out.put(n(5), index, num);
        out.put(n(6), index, den);
        if self.params.skip_scale0 {
            out.put(n(7), index, 0.0);
            out.put(n(8), index, -1.0);
        } else {
            out.put(n(7), index, s[0]);
            out.put(n(8), index, s[1]);
        }
        for k in 1..4 {
            out.put(n(7 + 2 * k), index, s[2 * k]);
            out.put(n(8 + 2 * k), index, s[2 * k + 1]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
