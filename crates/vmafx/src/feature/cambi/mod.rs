//! CAMBI, Netflix's contrast-aware multiscale banding index (`cambi`), as libvmaf computes
//! it: the luma plane brought to 10 bits at the encoding size, a mask of flat areas, then
//! at five scales a mode filter, per-sample banding confidence from windowed histograms,
//! and the mean of the worst `topk` samples, the scales weighted 16:8:4:2:1.
//!
//! With `full_ref` the reference is scored too (at the source size) and the excess of the
//! distorted score over it is written as `cambi_full_reference`.
//!
//! Each frame is scored on its own ([`Ordering::Independent`]). With `heatmaps_path`, every
//! instance creates (truncating) the five files in `init`, which the context calls for all
//! instances before the first frame, and writes each frame at its own offset.
//!
//! Where a scale is narrower or shorter than half the window (only for aspect ratios beyond
//! about 10:1), libvmaf's histogram pass reads samples outside the scaled picture (stale
//! rows and columns of its working buffer); here the window is clipped to the picture.

mod cvalues;
mod heatmap;
mod luminance;
mod mask;
mod pooling;
mod preprocess;
#[cfg(test)]
mod tests;

use super::name::feature_name;
use super::{
    ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptKind, OptSpec, OptValues,
    Ordering,
};
use crate::error::{Error, Result};
use crate::frame::Frame;
use cvalues::{Contrast, CONTRAST_WEIGHTS, RECIPROCAL_LUT_SIZE};
use heatmap::Heatmaps;
use luminance::{Eotf, LumaRange};
use pooling::NUM_SCALES;

/// The long name of the score.
const PROVIDED: &str = "Cambi_feature_cambi_score";
/// Pictures with both sides below this are refused, as libvmaf does.
const MIN_WIDTH_HEIGHT: u32 = 216;
/// Width and height of the 4K picture the window size is defined for.
const WIDTH_4K: u32 = 3840;
const HEIGHT_4K: u32 = 2160;
const DEFAULT_TOPK: f64 = 0.6;
const DEFAULT_EOTF: &str = "bt1886";

const fn opt(
    name: &'static str,
    alias: Option<&'static str>,
    kind: OptKind,
    min: f64,
    max: f64,
    feature_param: bool,
    help: &'static str,
) -> OptSpec {
    OptSpec {
        name,
        alias,
        kind,
        min,
        max,
        feature_param,
        help,
    }
}

/// libvmaf's option table for cambi: names, aliases, defaults, ranges and which options
/// rename the feature.
static OPTIONS: &[OptSpec] = &[
    opt(
        "cambi_max_val",
        Some("cmxv"),
        OptKind::Double(1000.0),
        0.0,
        1000.0,
        true,
        "maximum value allowed; larger values are clipped to it",
    ),
    opt(
        "enc_width",
        Some("encw"),
        OptKind::Int(0),
        180.0,
        7680.0,
        true,
        "encoding width (0: the input's)",
    ),
    opt(
        "enc_height",
        Some("ench"),
        OptKind::Int(0),
        150.0,
        7680.0,
        true,
        "encoding height (0: the input's)",
    ),
    opt(
        "enc_bitdepth",
        Some("encbd"),
        OptKind::Int(0),
        6.0,
        16.0,
        true,
        "encoding bit depth (0: the input's)",
    ),
    opt(
        "src_width",
        Some("srcw"),
        OptKind::Int(0),
        320.0,
        7680.0,
        true,
        "source width, used with full_ref (0: the input's)",
    ),
    opt(
        "src_height",
        Some("srch"),
        OptKind::Int(0),
        200.0,
        4320.0,
        true,
        "source height, used with full_ref (0: the input's)",
    ),
    opt(
        "window_size",
        Some("ws"),
        OptKind::Int(65),
        15.0,
        127.0,
        true,
        "window size at 4K; 65 is about one degree",
    ),
    opt(
        "topk",
        None,
        OptKind::Double(DEFAULT_TOPK),
        0.0001,
        1.0,
        true,
        "fraction of samples pooled (overrides cambi_topk when not at its default)",
    ),
    opt(
        "cambi_topk",
        Some("ctpk"),
        OptKind::Double(DEFAULT_TOPK),
        0.0001,
        1.0,
        true,
        "fraction of samples pooled",
    ),
    opt(
        "tvi_threshold",
        Some("tvit"),
        OptKind::Double(0.019),
        0.0001,
        1.0,
        true,
        "visibility threshold: a step is visible when dL > tvi_threshold * L",
    ),
    opt(
        "cambi_vis_lum_threshold",
        Some("vlt"),
        OptKind::Double(0.0),
        0.0,
        300.0,
        true,
        "luminance (cd/m²) below which banding is taken as invisible",
    ),
    opt(
        "max_log_contrast",
        Some("mlc"),
        OptKind::Int(2),
        0.0,
        5.0,
        true,
        "largest contrast step, log2 of 10-bit code values",
    ),
    opt(
        "heatmaps_path",
        None,
        OptKind::Str(""),
        0.0,
        0.0,
        false,
        "folder to write per-scale heatmaps into (empty: none)",
    ),
    opt(
        "full_ref",
        None,
        OptKind::Bool(false),
        0.0,
        1.0,
        false,
        "also score the reference and write cambi_source and cambi_full_reference",
    ),
    opt(
        "eotf",
        None,
        OptKind::Str(DEFAULT_EOTF),
        0.0,
        0.0,
        true,
        "EOTF of the visibility thresholds: bt1886 or pq",
    ),
    opt(
        "cambi_eotf",
        Some("ceot"),
        OptKind::Str(DEFAULT_EOTF),
        0.0,
        0.0,
        true,
        "EOTF of the visibility thresholds (overrides eotf when not at its default)",
    ),
    opt(
        "cambi_high_res_speedup",
        Some("hrs"),
        OptKind::Int(0),
        0.0,
        HEIGHT_4K as f64,
        true,
        "decimate after the mask from this resolution up: 1080, 1440 or 2160 (0: never)",
    ),
];

/// The extractors this module defines.
pub static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: "cambi",
    aliases: &[],
    provided: &[PROVIDED],
    options: OPTIONS,
    ordering: Ordering::Independent,
    create,
}];

fn create(o: &OptValues) -> Result<Box<dyn Extractor>> {
    let cambi_eotf = o.string("cambi_eotf");
    let eotf_name = if cambi_eotf != DEFAULT_EOTF {
        cambi_eotf
    } else {
        o.string("eotf")
    };
    let topk = if o.double("topk") != DEFAULT_TOPK {
        o.double("topk")
    } else {
        o.double("cambi_topk")
    };
    let heatmaps = o.string("heatmaps_path");
    Ok(Box::new(Cambi {
        name: feature_name(PROVIDED, &o.non_default_params()),
        opts: Options {
            max_val: o.double("cambi_max_val"),
            enc_width: o.int("enc_width") as u32,
            enc_height: o.int("enc_height") as u32,
            enc_bitdepth: o.int("enc_bitdepth") as u32,
            src_width: o.int("src_width") as u32,
            src_height: o.int("src_height") as u32,
            window_size: o.int("window_size") as usize,
            topk,
            tvi_threshold: o.double("tvi_threshold"),
            vis_lum_threshold: o.double("cambi_vis_lum_threshold"),
            max_log_contrast: o.int("max_log_contrast") as u32,
            heatmaps_path: (!heatmaps.is_empty()).then(|| heatmaps.to_string()),
            full_ref: o.bool("full_ref"),
            eotf: Eotf::from_name(eotf_name)?,
            high_res_speedup: o.int("cambi_high_res_speedup") as u32,
        },
        run: None,
    }))
}

/// A 10-bit (or 0/1 mask) picture, rows packed.
#[derive(Debug, Clone)]
pub(crate) struct Picture {
    width: usize,
    height: usize,
    data: Vec<u16>,
}

impl Picture {
    fn new(width: usize, height: usize) -> Self {
        Picture {
            width,
            height,
            data: vec![0; width * height],
        }
    }

    fn row(&self, y: usize) -> &[u16] {
        &self.data[y * self.width..(y + 1) * self.width]
    }

    fn row_mut(&mut self, y: usize) -> &mut [u16] {
        &mut self.data[y * self.width..(y + 1) * self.width]
    }
}

/// The options as given (0 meaning "the input's" for sizes and depth).
#[derive(Debug, Clone)]
struct Options {
    max_val: f64,
    enc_width: u32,
    enc_height: u32,
    enc_bitdepth: u32,
    src_width: u32,
    src_height: u32,
    window_size: usize,
    topk: f64,
    tvi_threshold: f64,
    vis_lum_threshold: f64,
    max_log_contrast: u32,
    heatmaps_path: Option<String>,
    full_ref: bool,
    eotf: Eotf,
    high_res_speedup: u32,
}

/// Everything `init` derives for a geometry.
#[derive(Debug)]
struct Run {
    bpc: u32,
    enc_bitdepth: u32,
    enc: (u32, u32),
    src: (u32, u32),
    window: usize,
    src_window: usize,
    high_res_speedup: bool,
    contrast: Contrast,
    heatmaps: Option<Heatmaps>,
}

struct Cambi {
    name: String,
    opts: Options,
    run: Option<Run>,
}

/// libvmaf's window size for a picture of `width` x `height`: the 4K window scaled by the
/// sum of the sides, halved (rounding up) with the speed-up, made odd.
fn adjust_window(window: usize, width: u32, height: u32, speedup: bool) -> usize {
    // Unsigned 32-bit arithmetic, stored back into 16 bits, as libvmaf computes it.
    let scaled = (window as u32).wrapping_mul(width.wrapping_add(height)) / 375;
    let mut w = (scaled >> 4) as u16 as usize;
    if speedup {
        w = (w + 1) >> 1;
    }
    w | 1
}

fn size_error(what: &str, w: u32, h: u32, g: &Geometry) -> Error {
    Error::invalid(
        "cambi",
        format!(
            "{what} {w}x{h} (input {}x{}): cambi needs a width or height of at least \
             {MIN_WIDTH_HEIGHT}",
            g.width, g.height
        ),
    )
}

impl Cambi {
    fn prepare(&self, g: Geometry) -> Result<Run> {
        let o = &self.opts;
        let enc_bitdepth = if o.enc_bitdepth == 0 {
            g.bpc
        } else {
            o.enc_bitdepth
        };
        let mut enc = if o.enc_width == 0 || o.enc_height == 0 {
            (g.width, g.height)
        } else {
            (o.enc_width, o.enc_height)
        };
        let src = if o.src_width == 0 || o.src_height == 0 {
            (g.width, g.height)
        } else {
            (o.src_width, o.src_height)
        };
        // A downscaled encode is scored at the input's size, never upscaled back.
        if enc.1 > g.height || enc.0 > g.width {
            enc = (g.width, g.height);
        }
        if enc.0 < MIN_WIDTH_HEIGHT && enc.1 < MIN_WIDTH_HEIGHT {
            return Err(size_error("encoding size", enc.0, enc.1, &g));
        }
        if src.0 < MIN_WIDTH_HEIGHT && src.1 < MIN_WIDTH_HEIGHT {
            return Err(size_error("source size", src.0, src.1, &g));
        }
        if (src.0 > enc.0 && src.1 < enc.1) || (src.0 < enc.0 && src.1 > enc.1) {
            return Err(Error::invalid(
                "cambi",
                format!(
                    "source size {}x{} and encoding size {}x{} are not scaled alike: one is \
                     wider but the other taller",
                    src.0, src.1, enc.0, enc.1
                ),
            ));
        }
        let enc_pixels = enc.0 as u64 * enc.1 as u64;
        let high_res_speedup = match o.high_res_speedup {
            1080 => enc_pixels >= 1920 * 1080,
            1440 => enc_pixels >= 2560 * 1440,
            2160 => enc_pixels >= (WIDTH_4K * HEIGHT_4K) as u64,
            _ => false,
        };
        let num_diffs = 1usize << o.max_log_contrast;
        let range = LumaRange::limited(10);
        let mut tvi_for_diff = Vec::with_capacity(num_diffs);
        for d in 0..num_diffs {
            let t = luminance::tvi_for_diff(d as i32 + 1, o.tvi_threshold, 10, range, o.eotf)?;
            tvi_for_diff.push((t + num_diffs as i32) as u16);
        }
        let vlt_luma = luminance::vis_lum_luma(o.vis_lum_threshold, range, o.eotf)?;
        let window = adjust_window(o.window_size, enc.0, enc.1, high_res_speedup);
        let src_window = adjust_window(o.window_size, src.0, src.1, high_res_speedup);
        let largest = window.max(src_window);
        if largest * largest >= RECIPROCAL_LUT_SIZE {
            return Err(Error::range(
                "cambi:window_size",
                format!(
                    "window_size {} gives a window of {largest} samples at {}x{}, more than \
                     cambi's largest ({})",
                    o.window_size,
                    enc.0.max(src.0),
                    enc.1.max(src.1),
                    (RECIPROCAL_LUT_SIZE as f64).sqrt() as usize
                ),
            ));
        }
        let heatmaps = match &o.heatmaps_path {
            Some(p) => Some(Heatmaps::create(p, enc.0 as usize, enc.1 as usize)?),
            None => None,
        };
        Ok(Run {
            bpc: g.bpc,
            enc_bitdepth,
            enc,
            src,
            window,
            src_window,
            high_res_speedup,
            contrast: Contrast {
                num_diffs,
                tvi_for_diff,
                vlt_luma,
            },
            heatmaps,
        })
    }
}

/// The CAMBI score of `frame` scored at `size` with `window`, writing heatmaps for `index`
/// when given.
fn score_frame(
    run: &mut Run,
    frame: &Frame,
    size: (u32, u32),
    window: usize,
    topk: f64,
    heatmap_index: Option<u64>,
    what: &str,
) -> Result<f64> {
    let mut image = preprocess::preprocess(
        frame.plane(0),
        run.bpc,
        size.0,
        size.1,
        run.enc_bitdepth,
        what,
    )?;
    let mut mask = mask::spatial_mask(&image);
    let mut scores = [0f64; NUM_SCALES];
    let mut c_values = Vec::new();
    let max_weight = CONTRAST_WEIGHTS[..run.contrast.num_diffs]
        .iter()
        .copied()
        .max()
        .unwrap_or(1);
    for (scale, score) in scores.iter_mut().enumerate() {
        if scale > 0 || run.high_res_speedup {
            image = mask::decimate(&image);
            mask = mask::decimate(&mask);
        }
        mask::mode_filter(&mut image);
        cvalues::c_values(&image, &mask, window, &run.contrast, &mut c_values);
        if let (Some(index), Some(h)) = (heatmap_index, run.heatmaps.as_mut()) {
            h.write(
                scale,
                index,
                &c_values,
                image.width,
                image.height,
                window,
                max_weight,
            )?;
        }
        *score = pooling::spatial_pooling(&mut c_values, topk);
    }
    Ok(pooling::weight_scales(&scores, window))
}

impl Extractor for Cambi {
    fn init(&mut self, g: Geometry) -> Result<()> {
        self.run = Some(self.prepare(g)?);
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let max_val = self.opts.max_val;
        let topk = self.opts.topk;
        let full_ref = self.opts.full_ref;
        let run = self
            .run
            .as_mut()
            .ok_or_else(|| Error::invalid("cambi", "extract called before init"))?;
        let (enc, window) = (run.enc, run.window);
        let what = format!("distorted frame {}", input.index);
        let dist = score_frame(
            run,
            input.distorted,
            enc,
            window,
            topk,
            Some(input.index),
            &what,
        )?;
        out.put(&self.name, input.index, dist.min(max_val));
        if full_ref {
            let (src, src_window) = (run.src, run.src_window);
            let what = format!("reference frame {}", input.index);
            let source = score_frame(run, input.reference, src, src_window, topk, None, &what)?;
            out.put("cambi_source", input.index, source.min(max_val));
            out.put(
                "cambi_full_reference",
                input.index,
                (dist - source).max(0.0).min(max_val),
            );
        }
        Ok(())
    }
}
