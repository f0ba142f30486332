//! The option table of `adm`, with libvmaf's names, aliases, defaults, ranges and
//! feature-parameter flags.

use crate::feature::{OptKind, OptSpec};

const fn double(
    name: &'static str,
    alias: &'static str,
    default: f64,
    min: f64,
    max: f64,
    help: &'static str,
) -> OptSpec {
    OptSpec {
        name,
        alias: Some(alias),
        kind: OptKind::Double(default),
        min,
        max,
        feature_param: true,
        help,
    }
}

const fn int(
    name: &'static str,
    alias: &'static str,
    default: i64,
    min: f64,
    max: f64,
    help: &'static str,
) -> OptSpec {
    OptSpec {
        name,
        alias: Some(alias),
        kind: OptKind::Int(default),
        min,
        max,
        feature_param: true,
        help,
    }
}

/// The options, in libvmaf's order.
pub(super) static OPTIONS: &[OptSpec] = &[
    OptSpec::flag("debug", false, "debug mode: enable additional output"),
    double(
        "adm_csf_scale",
        "scf",
        1.0,
        0.0,
        50.0,
        "scale coefficient for the horizontal and vertical terms of the CSF",
    ),
    double(
        "adm_csf_diag_scale",
        "scfd",
        1.0,
        0.0,
        50.0,
        "scale coefficient for the diagonal term of the CSF",
    ),
    double(
        "adm_dlm_weight",
        "dlmw",
        0.5,
        0.0,
        1.0,
        "weight of DLM against AIM in adm3; 1 is DLM only",
    ),
    double(
        "adm_enhn_gain_limit",
        "egl",
        100.0,
        1.0,
        100.0,
        "enhancement gain limit (>= 1; 1 disables enhancement gain)",
    ),
    double(
        "adm_norm_view_dist",
        "nvd",
        3.0,
        0.75,
        24.0,
        "viewing distance divided by the reference display's height",
    ),
    int(
        "adm_ref_display_height",
        "rdh",
        1080,
        1.0,
        4320.0,
        "reference display height in pixels",
    ),
    int(
        "adm_csf_mode",
        "csf",
        0,
        0.0,
        3.0,
        "contrast sensitivity function: 0 Watson, 1 Barten, 2 blend, 3 blend (MAE fit)",
    ),
    double(
        "adm_noise_weight",
        "nw",
        0.03125,
        0.0,
        1500.0,
        "noise weight",
    ),
    OptSpec::flag("adm_skip_aim", false, "skip the calculation of AIM"),
    OptSpec {
        name: "adm_skip_scale0",
        alias: Some("ssz"),
        kind: OptKind::Bool(false),
        min: 0.0,
        max: 1.0,
        feature_param: true,
        help: "skip the calculation of scale 0",
    },
    double(
        "adm_min_val",
        "min",
        0.0,
        0.0,
        1.0,
        "smallest adm3 value; lower values are raised to it",
    ),
];
