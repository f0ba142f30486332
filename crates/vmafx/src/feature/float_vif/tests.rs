use super::*;
use crate::feature::float_conv::testkit;
use crate::feature::ScoreStore;
use crate::frame::{FrameBuilder, PixelFormat, SamplesMut};

fn info() -> &'static ExtractorInfo {
    &EXTRACTORS[0]
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn float_vif_matches_libvmaf_on_corpus() {
    testkit::check_corpus(info(), "vif_enhn_gain_limit=1", &|m| m.starts_with("vif"));
}

fn gradient(w: u32, h: u32, bpc: u32) -> crate::frame::Frame {
    let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
    let p = fb.plane_mut(0);
    let stride = p.stride;
    match p.samples_mut().unwrap() {
        SamplesMut::U8(s) => {
            for y in 0..h as usize {
                for x in 0..w as usize {
                    s[y * stride + x] = ((x * 7 + y * 3) % 256) as u8;
                }
            }
        }
        SamplesMut::U16(s) => {
            for y in 0..h as usize {
                for x in 0..w as usize {
                    s[y * stride + x] = ((x * 29 + y * 11) % 1024) as u16;
                }
            }
        }
    }
    fb.build()
}

#[test]
fn identical_input_scores_one() {
    for bpc in [8, 10] {
        let f = gradient(64, 48, bpc);
        let store = testkit::run(
            info(),
            "debug=true",
            std::slice::from_ref(&f),
            std::slice::from_ref(&f),
        );
        for name in &PROVIDED[..4] {
            let v = store.get(name, 0).unwrap();
            assert!((v - 1.0).abs() < 1e-6, "{name} at {bpc} bits: {v}");
        }
        assert!((store.get("vif", 0).unwrap() - 1.0).abs() < 1e-6);
    }
}

#[test]
fn bad_options_refused() {
    let parse = |k: &str, v: &str| info().parse_options(&[(k.to_string(), v.to_string())]);
    assert!(parse("vif_enhn_gain_limit", "0.5").is_err());
    assert!(parse("vif_kernelscale", "5").is_err());
    assert!(parse("nope", "1").is_err());
    let opts = parse("vif_prescale_method", "cubic").unwrap();
    let e = (info().create)(&opts).err().unwrap();
    assert!(e.subject().contains("vif_prescale_method"), "{e}");
    let opts = parse("vif_kernelscale", "1.3").unwrap();
    assert!((info().create)(&opts).is_err());
}

#[test]
fn option_names_follow_libvmaf() {
    let f = gradient(64, 48, 8);
    let store = testkit::run(
        info(),
        "vif_enhn_gain_limit=1:vif_skip_scale0=true",
        std::slice::from_ref(&f),
        std::slice::from_ref(&f),
    );
    assert!(
        store.get("vif_scale1_egl_1_ssclz", 0).is_some(),
        "{:?}",
        store.0.keys()
    );
    assert_eq!(store.get("vif_scale0_egl_1_ssclz", 0), Some(0.0));
}

#[test]
fn small_or_odd_depth_refused() {
    let opts = OptValues::defaults(NAME, OPTIONS);
    let mut ex = (info().create)(&opts).unwrap();
    let g = Geometry {
        format: PixelFormat::Yuv420p,
        bpc: 8,
        width: 8,
        height: 8,
    };
    assert!(ex.init(g).is_err());
    let g = Geometry {
        format: PixelFormat::Yuv420p,
        bpc: 9,
        width: 64,
        height: 64,
    };
    assert!(ex.init(g).is_err());
}
