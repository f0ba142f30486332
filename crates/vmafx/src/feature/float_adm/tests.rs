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
fn float_adm_matches_libvmaf_on_corpus() {
    // Every value as libvmaf printed it: decoupling divides as libvmaf's x86 build does
    // (see kernel::quotients).
    testkit::check_corpus(info(), "adm_enhn_gain_limit=1", &|m| {
        m.starts_with("adm") || m.starts_with("aim")
    });
}

fn textured(w: u32, h: u32, bpc: u32) -> crate::frame::Frame {
    let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
    let p = fb.plane_mut(0);
    let stride = p.stride;
    match p.samples_mut().unwrap() {
        SamplesMut::U8(s) => {
            for y in 0..h as usize {
                for x in 0..w as usize {
                    s[y * stride + x] = ((x * x * 7 + y * 13 + x * y) % 251) as u8;
                }
            }
        }
        SamplesMut::U16(s) => {
            for y in 0..h as usize {
                for x in 0..w as usize {
                    s[y * stride + x] = ((x * x * 29 + y * 53 + x * y) % 1021) as u16;
                }
            }
        }
    }
    fb.build()
}

#[test]
fn identical_input_scores_one() {
    for bpc in [8, 10, 16] {
        let f = textured(96, 64, bpc);
        let one = std::slice::from_ref(&f);
        let store = testkit::run(info(), "debug=true", one, one);
        for name in ["VMAF_feature_adm2_score", "adm"] {
            let v = store.get(name, 0).unwrap();
            assert!((v - 1.0).abs() < 1e-6, "{name} at {bpc} bits: {v}");
        }
    }
}

#[test]
fn bad_options_refused() {
    let parse = |k: &str, v: &str| info().parse_options(&[(k.to_string(), v.to_string())]);
    assert!(parse("adm_enhn_gain_limit", "0.9").is_err());
    assert!(parse("adm_csf_mode", "10").is_err());
    assert!(parse("adm_skip_aim_scale", "-1").is_err());
    assert!(parse("adm_ref_display_height", "1.5").is_err());
    assert!(parse("adm_nope", "1").is_err());
    let opts = OptValues::defaults(NAME, OPTIONS);
    let mut ex = (info().create)(&opts).unwrap();
    let g = Geometry {
        format: PixelFormat::Yuv420p,
        bpc: 8,
        width: 16,
        height: 64,
    };
    assert!(ex.init(g).is_err());
}

#[test]
fn other_csf_modes_and_params_run() {
    let (a, b) = (textured(96, 64, 8), textured(96, 64, 10));
    // Same geometry, different content: an 8-bit copy with an offset texture.
    let _ = b;
    let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, 8, 96, 64).unwrap();
    if let Some(SamplesMut::U8(s)) = fb.plane_mut(0).samples_mut() {
        for (i, v) in s.iter_mut().enumerate() {
            *v = ((i * 31) % 200) as u8;
        }
    }
    let d = fb.build();
    for opts in [
        "adm_csf_mode=1",
        "adm_csf_mode=2",
        "adm_p_norm=2:adm_skip_scale0=true",
        "adm_bypass_cm=1",
    ] {
        let store = testkit::run(
            info(),
            opts,
            std::slice::from_ref(&a),
            std::slice::from_ref(&d),
        );
        let key = store
            .0
            .keys()
            .find(|(k, _)| k.starts_with("adm2"))
            .unwrap()
            .0
            .clone();
        let v = store.get(&key, 0).unwrap();
        assert!(v.is_finite() && v >= 0.0, "{opts}: {key} = {v}");
    }
}

#[test]
fn luma_rows_are_the_float_picture() {
    use crate::feature::float_conv::{picture_to_float, FloatPlane};
    for bpc in [8, 10, 12, 16] {
        let f = textured(37, 23, bpc);
        let mut whole = FloatPlane::default();
        picture_to_float(&f, 0, -128.0, &mut whole);
        let mut src = dwt::DwtSource::Luma(dwt::LumaRows::new(&f));
        assert_eq!(src.size(), (37, 23));
        // In the DWT's order (the folded rows of each output row), and out of it: any
        // four rows within four consecutive indices.
        for want in [
            [1, 0, 1, 2],
            [1, 2, 3, 4],
            [21, 22, 22, 21],
            [12, 9, 11, 10],
        ] {
            let rows = src.rows(want);
            for (r, y) in rows.iter().zip(want) {
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(r), bits(whole.row(y)), "{bpc} bits, row {y}");
            }
        }
    }
}
