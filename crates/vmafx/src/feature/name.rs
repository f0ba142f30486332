//! Feature names as libvmaf forms them.
//!
//! An extractor provides features under long names (`VMAF_integer_feature_vif_scale0_score`).
//! With every feature parameter at its default the collector keeps the long name; otherwise
//! the short alias followed by `_key_value` for each non-default parameter (`_key` alone
//! for booleans), in option-name order: `integer_vif_scale0_egl_1`. Outputs print the
//! alias of long names.

/// Long names and their aliases (libvmaf's table).
const ALIASES: &[(&str, &str)] = &[
    ("VMAF_feature_adm2_score", "adm2"),
    ("VMAF_feature_aim_score", "aim"),
    ("VMAF_feature_adm3_score", "adm3"),
    ("VMAF_feature_adm_scale0_score", "adm_scale0"),
    ("VMAF_feature_adm_scale1_score", "adm_scale1"),
    ("VMAF_feature_adm_scale2_score", "adm_scale2"),
    ("VMAF_feature_adm_scale3_score", "adm_scale3"),
    ("VMAF_feature_motion_score", "motion"),
    ("VMAF_feature_motion2_score", "motion2"),
    ("VMAF_feature_motion3_score", "motion3"),
    ("VMAF_feature_vif_scale0_score", "vif_scale0"),
    ("VMAF_feature_vif_scale1_score", "vif_scale1"),
    ("VMAF_feature_vif_scale2_score", "vif_scale2"),
    ("VMAF_feature_vif_scale3_score", "vif_scale3"),
    ("VMAF_integer_feature_adm2_score", "integer_adm2"),
    ("VMAF_integer_feature_aim_score", "integer_aim"),
    ("VMAF_integer_feature_adm3_score", "integer_adm3"),
    ("VMAF_integer_feature_motion_score", "integer_motion"),
    ("VMAF_integer_feature_motion2_score", "integer_motion2"),
    ("VMAF_integer_feature_motion3_score", "integer_motion3"),
    (
        "VMAF_integer_feature_vif_scale0_score",
        "integer_vif_scale0",
    ),
    (
        "VMAF_integer_feature_vif_scale1_score",
        "integer_vif_scale1",
    ),
    (
        "VMAF_integer_feature_vif_scale2_score",
        "integer_vif_scale2",
    ),
    (
        "VMAF_integer_feature_vif_scale3_score",
        "integer_vif_scale3",
    ),
    ("Cambi_feature_cambi_score", "cambi"),
    (
        "Speed_chroma_feature_speed_chroma_u_score",
        "speed_chroma_u",
    ),
    (
        "Speed_chroma_feature_speed_chroma_v_score",
        "speed_chroma_v",
    ),
    (
        "Speed_chroma_feature_speed_chroma_uv_score",
        "speed_chroma_uv",
    ),
    (
        "Speed_temporal_feature_speed_temporal_score",
        "speed_temporal",
    ),
];

/// The short name outputs print for `name` (itself when it has no alias).
pub(crate) fn alias(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(long, _)| *long == name)
        .map(|(_, a)| *a)
        .unwrap_or(name)
}

/// The collector key of `provided` given the non-default feature parameters
/// (from [`super::options::OptValues::non_default_params`]).
pub fn feature_name(provided: &str, params: &[(String, String, bool)]) -> String {
    if params.is_empty() {
        return provided.to_string();
    }
    let mut s = alias(provided).to_string();
    for (key, value, is_bool) in params {
        s.push('_');
        s.push_str(key);
        if !is_bool {
            s.push('_');
            s.push_str(value);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_keeps_long_name_and_params_alias_it() {
        assert_eq!(
            feature_name("VMAF_integer_feature_adm2_score", &[]),
            "VMAF_integer_feature_adm2_score"
        );
        assert_eq!(
            feature_name(
                "VMAF_integer_feature_adm2_score",
                &[("egl".into(), "1".into(), false)]
            ),
            "integer_adm2_egl_1"
        );
        assert_eq!(
            alias("VMAF_integer_feature_motion2_score"),
            "integer_motion2"
        );
        assert_eq!(alias("psnr_y"), "psnr_y");
    }
}
