use super::*;
use crate::feature::float_common::testkit;
use crate::feature::ScoreStore;

fn info() -> &'static ExtractorInfo {
    &EXTRACTORS[0]
}

#[test]
fn float_motion_matches_libvmaf_on_corpus() {
    testkit::check_corpus(info(), "", &|m| m.starts_with("motion"), &|_| false);
}

#[test]
fn bad_options_refused() {
    let parse = |k: &str, v: &str| info().parse_options(&[(k.to_string(), v.to_string())]);
    assert!(parse("motion_filter_size", "10").is_err());
    assert!(parse("motion_fps_weight", "-1").is_err());
    assert!(parse("motion_force_zero", "maybe").is_err());
    assert!(parse("vif_enhn_gain_limit", "1").is_err());
}

#[test]
fn force_zero_writes_zeros_and_names_the_param() {
    let Some(dir) = crate::testutil::conformance_dir() else {
        return;
    };
    let (r, d) = crate::testutil::load_clip(&dir, "carphone_176x144_420p8");
    let store = testkit::run(info(), "motion_force_zero=true", &r[..3], &d[..3]);
    for i in 0..3 {
        assert_eq!(store.get("motion2_force_0", i), Some(0.0));
        assert_eq!(store.get("motion_force_0", i), Some(0.0));
    }
}
