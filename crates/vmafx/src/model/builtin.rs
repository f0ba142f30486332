//! The built-in models, embedded from `crates/vmafx/models/` (see its README.md for where
//! each file came from and under which licence): the same set libvmaf 3.2 builds in.

use crate::error::{Error, Result};

/// (version, JSON text), in libvmaf's table order.
const MODELS: &[(&str, &str)] = &[
    (
        "vmaf_float_v0.6.1",
        include_str!("../../models/vmaf_float_v0.6.1.json"),
    ),
    (
        "vmaf_float_b_v0.6.3",
        include_str!("../../models/vmaf_float_b_v0.6.3.json"),
    ),
    (
        "vmaf_float_v0.6.1neg",
        include_str!("../../models/vmaf_float_v0.6.1neg.json"),
    ),
    (
        "vmaf_float_4k_v0.6.1",
        include_str!("../../models/vmaf_float_4k_v0.6.1.json"),
    ),
    ("vmaf_v0.6.1", include_str!("../../models/vmaf_v0.6.1.json")),
    (
        "vmaf_b_v0.6.3",
        include_str!("../../models/vmaf_b_v0.6.3.json"),
    ),
    (
        "vmaf_v0.6.1neg",
        include_str!("../../models/vmaf_v0.6.1neg.json"),
    ),
    (
        "vmaf_4k_v0.6.1",
        include_str!("../../models/vmaf_4k_v0.6.1.json"),
    ),
    (
        "vmaf_4k_v0.6.1neg",
        include_str!("../../models/vmaf_4k_v0.6.1neg.json"),
    ),
    (
        "vmaf_v1.0.16_3d0h",
        include_str!("../../models/vmaf_v1.0.16_3d0h.json"),
    ),
    (
        "vmaf_v1.0.16_3d0h_2160",
        include_str!("../../models/vmaf_v1.0.16_3d0h_2160.json"),
    ),
    (
        "vmaf_v1.0.16_5d0h",
        include_str!("../../models/vmaf_v1.0.16_5d0h.json"),
    ),
    (
        "vmaf_v1.0.16_1d5h_2160",
        include_str!("../../models/vmaf_v1.0.16_1d5h_2160.json"),
    ),
    (
        "vmaf_v1.0.16_hfr_3d0h",
        include_str!("../../models/vmaf_v1.0.16_hfr_3d0h.json"),
    ),
    (
        "vmaf_v1.0.16_hfr_3d0h_2160",
        include_str!("../../models/vmaf_v1.0.16_hfr_3d0h_2160.json"),
    ),
    (
        "vmaf_v1.0.16_hfr_5d0h",
        include_str!("../../models/vmaf_v1.0.16_hfr_5d0h.json"),
    ),
    (
        "vmaf_v1.0.16_hfr_1d5h_2160",
        include_str!("../../models/vmaf_v1.0.16_hfr_1d5h_2160.json"),
    ),
];

static VERSIONS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();

/// The versions `version=` accepts, in libvmaf's order.
pub fn builtin_versions() -> &'static [&'static str] {
    VERSIONS.get_or_init(|| MODELS.iter().map(|(v, _)| *v).collect())
}

/// The JSON text of built-in `version`.
pub(super) fn builtin_json(version: &str) -> Result<&'static str> {
    if let Some((_, text)) = MODELS.iter().find(|(v, _)| *v == version) {
        return Ok(text);
    }
    Err(Error::not_found(
        version,
        format!(
            "no such built-in model: '{version}' (built in: {}; use path= for a model file)",
            builtin_versions().join(", ")
        ),
    ))
}
