//! libvmaf's `float_motion`: the mean absolute difference of consecutive blurred
//! reference luma pictures (`motion`), its minimum with the next one (`motion2`, written
//! one frame late) and a blended version (`motion3`).
//!
//! Temporal in libvmaf (one instance, frames in order): the blurred pictures of the last
//! three indices are kept, and [`Extractor::flush`] writes the scores of the last index.

use super::float_conv::{
    check_geometry, check_input, convolve, picture_to_float, ConvInput, ConvKernels, FeatureNames,
    FloatPlane, CONV_KERNELS,
};
use super::float_vif::scale::{scale_frame, ScaleMethod};
use super::{
    ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptKind, OptSpec, OptValues,
    Ordering, Reach, ScoreStore,
};
use crate::error::{Error, Result};
use crate::frame::PixelFormat;

const NAME: &str = "float_motion";

/// libvmaf's 5-tap Gaussian blur (the default).
const FILTER_5: [f64; 5] = [
    0.054488685,
    0.244201342,
    0.402619947,
    0.244201342,
    0.054488685,
];
/// The 3-tap blur (`motion_filter_size=3`).
const FILTER_3: [f64; 3] = [0.166378498, 0.667243004, 0.166378498];
/// The 5-tap identity (`motion_filter_size=1`).
const FILTER_5_NO_OP: [f64; 5] = [0.0, 0.0, 1.0, 0.0, 0.0];

const PROVIDED: &[&str] = &[
    "VMAF_feature_motion_score",
    "VMAF_feature_motion2_score",
    "VMAF_feature_motion3_score",
];

static OPTIONS: &[OptSpec] = &[
    OptSpec::flag("debug", true, "debug mode: enable additional output"),
    OptSpec::param(
        "motion_force_zero",
        "force_0",
        OptKind::Bool(false),
        0.0,
        1.0,
        "forcing motion score to zero",
    ),
    OptSpec::param(
        "motion_fps_weight",
        "mfw",
        OptKind::Double(1.0),
        0.0,
        5.0,
        "fps-aware multiplicative weight/correction",
    ),
    OptSpec::param(
        "motion_blend_factor",
        "mbf",
        OptKind::Double(1.0),
        0.0,
        1.0,
        "blend motion score given an offset",
    ),
    OptSpec::param(
        "motion_blend_offset",
        "mbo",
        OptKind::Double(40.0),
        0.0,
        1000.0,
        "blend motion score starting from this offset",
    ),
    OptSpec::param(
        "motion_add_scale1",
        "mdc",
        OptKind::Bool(false),
        0.0,
        1.0,
        "add motion score from scale1",
    ),
    OptSpec::param(
        "motion_filter_size",
        "mfs",
        OptKind::Int(5),
        0.0,
        9.0,
        "filtering size",
    ),
    OptSpec::param(
        "motion_add_uv",
        "mau",
        OptKind::Bool(false),
        0.0,
        1.0,
        "include U and V terms",
    ),
    OptSpec::param(
        "motion_max_val",
        "mmxv",
        OptKind::Double(10000.0),
        0.0,
        10000.0,
        "maximum value allowed; larger values will be clipped to this value",
    ),
];

/// The extractors this module defines.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: NAME,
    aliases: &[],
    provided: PROVIDED,
    options: OPTIONS,
    ordering: Ordering::Temporal,
    create,
}];

/// Frames `float_motion`'s scores at frame n read: motion compares with frame n - 1,
/// motion2 takes the smaller of that and frame n + 1's, and frame 0's motion3 is frame 1's
/// motion blended. With `motion_force_zero` every score is 0 and reads nothing.
pub(crate) fn reach(opts: &OptValues) -> Reach {
    if opts.bool("motion_force_zero") {
        Reach::NONE
    } else {
        Reach::Frames {
            before: 1,
            after: 1,
        }
    }
}

fn create(opts: &OptValues) -> Result<Box<dyn Extractor>> {
    let filter: Vec<f32> = match opts.int("motion_filter_size") {
        1 => FILTER_5_NO_OP.iter().map(|&v| v as f32).collect(),
        3 => FILTER_3.iter().map(|&v| v as f32).collect(),
        _ => FILTER_5.iter().map(|&v| v as f32).collect(),
    };
    Ok(Box::new(FloatMotion {
        names: FeatureNames::new(PROVIDED, opts),
        debug: opts.bool("debug"),
        force_zero: opts.bool("motion_force_zero"),
        fps_weight: opts.double("motion_fps_weight"),
        blend_factor: opts.double("motion_blend_factor"),
        blend_offset: opts.double("motion_blend_offset"),
        add_scale1: opts.bool("motion_add_scale1"),
        add_uv: opts.bool("motion_add_uv"),
        max_val: opts.double("motion_max_val"),
        filter,
        kernels: ConvKernels::SCALAR,
        geometry: None,
        pic: FloatPlane::default(),
        tmp: Vec::new(),
        blur: Default::default(),
        last: None,
        first: 0,
        score: 0.0,
    }))
}

/// The blurred planes of one index (luma, then chroma with `motion_add_uv`).
type Blurred = Vec<FloatPlane>;

struct FloatMotion {
    names: FeatureNames,
    debug: bool,
    force_zero: bool,
    fps_weight: f64,
    blend_factor: f64,
    blend_offset: f64,
    add_scale1: bool,
    add_uv: bool,
    max_val: f64,
    filter: Vec<f32>,
    /// The convolution's row kernels, picked in `init`.
    kernels: ConvKernels,
    geometry: Option<Geometry>,
    pic: FloatPlane,
    tmp: Vec<f32>,
    /// Blurred pictures by index modulo 2: the current and the previous one (the motion
    /// of the pair before them is kept as `score`).
    blur: [Blurred; 2],
    /// The last index extracted.
    last: Option<u64>,
    /// The first index fed (above 0 for a chunk fed from its pre-roll).
    first: u64,
    /// The motion score of the last index.
    score: f64,
}

/// libvmaf's `motion_blend`.
fn blend(score: f64, factor: f64, offset: f64) -> f64 {
    score * factor + (1.0 - factor) * offset.min(score)
}

/// Mean absolute difference of two pictures: the rows' sums (`abs_diff_sums`, each
/// summed in `f32` in column order) added in row order.
fn mean_abs_diff(kernels: &ConvKernels, a: &FloatPlane, b: &FloatPlane) -> f32 {
    let mut sums = vec![0.0f32; a.height];
    (kernels.abs_diff_sums)(&a.data, &b.data, a.width, &mut sums);
    let accum = sums.iter().fold(0.0f32, |acc, &line| acc + line);
    accum / (a.width * a.height) as f32
}

/// libvmaf's `vmaf_image_sad_c`: the mean absolute difference, plus that of the
/// half-size bilinear downscales with `motion_add_scale1`.
fn sad(kernels: &ConvKernels, a: &FloatPlane, b: &FloatPlane, add_scale1: bool) -> f64 {
    let s0 = mean_abs_diff(kernels, a, b);
    if !add_scale1 {
        return s0 as f64;
    }
    let sw = (a.width as f64 * 0.5 + 0.5) as usize;
    let sh = (a.height as f64 * 0.5 + 0.5) as usize;
    let (mut sa, mut sb) = (FloatPlane::new(sw, sh), FloatPlane::new(sw, sh));
    scale_frame(ScaleMethod::Bilinear, a, &mut sa);
    scale_frame(ScaleMethod::Bilinear, b, &mut sb);
    (s0 + mean_abs_diff(kernels, &sa, &sb)) as f64
}

impl FloatMotion {
    fn name<'a>(&'a self, feature: &'a str) -> &'a str {
        self.names.get(feature)
    }

    /// Motion between the blurred pictures held at slots `a` and `b`.
    fn motion(&self, a: usize, b: usize) -> f64 {
        let mut score = 0.0;
        for (pa, pb) in self.blur[a].iter().zip(&self.blur[b]) {
            score += sad(&self.kernels, pa, pb, self.add_scale1);
        }
        score
    }

    fn put_late(&self, out: &mut dyn FnMut(&str, u64, f64), score: f64, index: u64) {
        let w = score * self.fps_weight;
        out(self.name(PROVIDED[1]), index, w.min(self.max_val));
        let b = blend(w, self.blend_factor, self.blend_offset);
        out(self.name(PROVIDED[2]), index, b.min(self.max_val));
    }
}

impl Extractor for FloatMotion {
    fn init(&mut self, geometry: Geometry) -> Result<()> {
        check_geometry(NAME, geometry, 3)?;
        if self.add_uv && geometry.format == PixelFormat::Yuv400p {
            return Err(Error::invalid(
                format!("{NAME}:motion_add_uv"),
                "motion_add_uv needs chroma planes; the pictures are luma only (4:0:0)",
            ));
        }
        if self.add_scale1 && (geometry.width as f64 * 0.5 + 0.5) as u32 > 7680 {
            return Err(Error::range(
                format!("{NAME}:motion_add_scale1"),
                format!(
                    "motion_add_scale1 supports widths up to 15360; got {}",
                    geometry.width
                ),
            ));
        }
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
        let index = input.index;
        if let Some(last) = self.last {
            if index != last + 1 {
                return Err(Error::invalid(
                    format!("{NAME}:index"),
                    format!("{NAME} is temporal: index {index} after {last}; indices must follow each other"),
                ));
            }
        } else if index != self.first {
            return Err(Error::invalid(
                format!("{NAME}:index"),
                format!(
                    "{NAME} is temporal: the first index must be {}, got {index}",
                    self.first
                ),
            ));
        }
        if self.force_zero {
            out.put(self.name(PROVIDED[1]), index, 0.0);
            out.put(self.name(PROVIDED[2]), index, 0.0);
            if self.debug {
                out.put(self.name(PROVIDED[0]), index, 0.0);
            }
            self.last = Some(index);
            return Ok(());
        }
        self.last = Some(index);
        let cur = (index % 2) as usize;
        let prev = 1 - cur;

        let channels: &[usize] = if self.add_uv { &[0, 1, 2] } else { &[0] };
        let mut blurred = std::mem::take(&mut self.blur[cur]);
        blurred.resize_with(channels.len(), FloatPlane::default);
        for (&c, dst) in channels.iter().zip(blurred.iter_mut()) {
            picture_to_float(input.reference, c, -128.0, &mut self.pic);
            convolve(
                &self.kernels,
                &self.filter,
                ConvInput::Plain(&self.pic),
                &mut self.tmp,
                dst,
            );
        }
        self.blur[cur] = blurred;

        if index == self.first && index > 0 {
            // The first frame of a chunk's pre-roll: nothing before it to compare with.
            return Ok(());
        }
        if index == 0 {
            out.put(self.name(PROVIDED[1]), index, 0.0);
            if self.debug {
                out.put(self.name(PROVIDED[0]), index, 0.0);
            }
            return Ok(());
        }

        let score = self.motion(prev, cur);
        // The motion of the previous index, between the picture before `prev` and
        // `prev`; the SAD is symmetric (|a - b| is |b - a| in IEEE arithmetic, summed in
        // the same order), so it is libvmaf's second SAD of that pair exactly.
        let before = std::mem::replace(&mut self.score, score);
        if self.debug {
            let v = (score * self.fps_weight).min(self.max_val);
            out.put(self.name(PROVIDED[0]), index, v);
        }
        if index == 1 {
            let b = blend(
                score * self.fps_weight,
                self.blend_factor,
                self.blend_offset,
            );
            out.put(self.name(PROVIDED[2]), 0, b.min(self.max_val));
            return Ok(());
        }
        if index == self.first + 1 && self.first > 0 {
            // motion2 of the pre-roll's first frame would need the frame before it.
            return Ok(());
        }
        let score2 = if before < score { before } else { score };
        self.put_late(&mut |n, i, v| out.put(n, i, v), score2, index - 1);
        Ok(())
    }

    fn start_at(&mut self, first: u64) {
        self.first = first;
    }

    fn flush(&mut self, store: &mut dyn ScoreStore) -> Result<()> {
        if self.force_zero {
            return Ok(());
        }
        match self.last {
            Some(0) => store.put(self.name(PROVIDED[2]), 0, 0.0),
            // A chunk fed one frame past 0 has no motion of its own to write.
            Some(last) if last == self.first => {}
            Some(last) => self.put_late(&mut |n, i, v| store.put(n, i, v), self.score, last),
            None => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
