//! cambi's options as libvmaf declares them, and their values once parsed.

use super::luminance::Eotf;
use crate::error::Result;
use crate::feature::{OptKind, OptSpec, OptValues};

/// Height of the 4K picture (the largest `cambi_high_res_speedup`).
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
pub(super) static OPTIONS: &[OptSpec] = &[
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

/// The options as given (0 meaning "the input's" for sizes and depth).
#[derive(Debug, Clone)]
pub(super) struct Options {
    /// Clip of the score (`cambi_max_val`).
    pub max_val: f64,
    /// Encoding width (`enc_width`, 0: the input's).
    pub enc_width: u32,
    /// Encoding height (`enc_height`, 0: the input's).
    pub enc_height: u32,
    /// Encoding bit depth (`enc_bitdepth`, 0: the input's).
    pub enc_bitdepth: u32,
    /// Source width (`src_width`, 0: the input's).
    pub src_width: u32,
    /// Source height (`src_height`, 0: the input's).
    pub src_height: u32,
    /// Window side at 4K (`window_size`).
    pub window_size: usize,
    /// Pooled fraction (`topk`, else `cambi_topk`).
    pub topk: f64,
    /// Visibility threshold (`tvi_threshold`).
    pub tvi_threshold: f64,
    /// Darkest visible luminance (`cambi_vis_lum_threshold`).
    pub vis_lum_threshold: f64,
    /// log2 of the largest contrast step (`max_log_contrast`).
    pub max_log_contrast: u32,
    /// Heatmap folder (`heatmaps_path`).
    pub heatmaps_path: Option<String>,
    /// Score the reference too (`full_ref`).
    pub full_ref: bool,
    /// Transfer function (`cambi_eotf`, else `eotf`).
    pub eotf: Eotf,
    /// Speed-up resolution (`cambi_high_res_speedup`).
    pub high_res_speedup: u32,
}

impl Options {
    /// The options of `o`, with libvmaf's precedence: `topk` over `cambi_topk` and
    /// `cambi_eotf` over `eotf` when not at their defaults.
    pub(super) fn from_values(o: &OptValues) -> Result<Self> {
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
        Ok(Options {
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
        })
    }
}
