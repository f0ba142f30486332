use super::*;
use crate::feature::float_conv::testkit;
use crate::feature::ScoreStore;

fn info() -> &'static ExtractorInfo {
    &EXTRACTORS[0]
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn float_motion_matches_libvmaf_on_corpus() {
    testkit::check_corpus(info(), "", &|m| m.starts_with("motion"));
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
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
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

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn options_with_chroma_and_scale1_run_and_order_is_checked() {
    let Some(dir) = crate::testutil::conformance_dir() else {
        return;
    };
    let (r, d) = crate::testutil::load_clip(&dir, "bbb_351x287_420p8_odd");
    let plain = testkit::run(info(), "", &r[..4], &d[..4]);
    let more = testkit::run(
        info(),
        "motion_add_uv=true:motion_add_scale1=true:motion_filter_size=3",
        &r[..4],
        &d[..4],
    );
    let key = |s: &testkit::MapStore| {
        s.0.keys()
            .find(|(k, i)| crate::feature::name::alias(k).starts_with("motion2") && *i == 3)
            .cloned()
            .unwrap()
    };
    let (kp, km) = (key(&plain), key(&more));
    assert_eq!(km.0, "motion2_mdc_mau_mfs_3");
    assert!(
        more.0[&km] > plain.0[&kp],
        "{} vs {}",
        more.0[&km],
        plain.0[&kp]
    );

    let opts = OptValues::defaults(NAME, OPTIONS);
    let mut ex = (info().create)(&opts).unwrap();
    let f = &r[0];
    ex.init(Geometry {
        format: f.format(),
        bpc: f.bpc(),
        width: f.width(),
        height: f.height(),
    })
    .unwrap();
    let input = ExtractInput {
        reference: f,
        distorted: &d[0],
        prev_reference: None,
        prev_prev_reference: None,
        index: 1,
    };
    let e = ex.extract(&input, &mut FrameScores::default()).unwrap_err();
    assert!(e.message().contains("temporal"), "{e}");
}
