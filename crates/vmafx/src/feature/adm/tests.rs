//! Conformance against libvmaf's own outputs, and the extractor's contract.

use super::*;
use crate::feature::extract_all::extract_all;
use crate::feature::name::alias;
use crate::feature::options::split_option_string;
use crate::frame::{FrameBuilder, PixelFormat, SamplesMut};
use crate::testutil::{clip_ids, conformance_dir, expected, expected_metric, load_clip, same_at_6};

/// The v1.0.16 models' adm options (from their feature_opts_dicts).
const V1016: &str = "adm_dlm_weight=0.7:adm_enhn_gain_limit=1.0:adm_noise_weight=0.02:\
                     adm_min_val=0.5:adm_csf_mode=2";

/// (expected log, extractor options) pairs: each log's adm values come from these options.
fn configurations() -> Vec<(&'static str, String)> {
    let v = |extra: &str| format!("{V1016}:{extra}");
    vec![
        ("vmaf_v0.6.1", String::new()),
        ("vmaf_4k_v0.6.1", String::new()),
        ("vmaf_b_v0.6.3", String::new()),
        ("integer_features_debug", "debug=true".into()),
        ("vmaf_v0.6.1neg", "adm_enhn_gain_limit=1.0".into()),
        ("vmaf_4k_v0.6.1neg", "adm_enhn_gain_limit=1.0".into()),
        (
            "vmaf_v1.0.16_3d0h",
            v("adm_norm_view_dist=3.0:adm_ref_display_height=1080"),
        ),
        (
            "vmaf_v1.0.16_hfr_3d0h",
            v("adm_norm_view_dist=3.0:adm_ref_display_height=1080"),
        ),
        (
            "vmaf_v1.0.16_5d0h",
            v("adm_norm_view_dist=5.0:adm_ref_display_height=1080"),
        ),
        (
            "vmaf_v1.0.16_3d0h_2160",
            v("adm_norm_view_dist=3.0:adm_ref_display_height=2160"),
        ),
        (
            "vmaf_v1.0.16_1d5h_2160",
            v("adm_norm_view_dist=1.5:adm_ref_display_height=2160"),
        ),
    ]
}

fn make(options: &str) -> Result<Box<dyn Extractor>> {
    let info = &EXTRACTORS[0];
    let opts = info.parse_options(&split_option_string(options)?)?;
    (info.create)(&opts)
}

/// Scores every pair; returns the written (name, index, value) entries.
fn run(options: &str, refs: &[Frame], dis: &[Frame]) -> Vec<(String, u64, f64)> {
    let frames = extract_all(make(options).unwrap().as_mut(), refs, dis);
    frames.into_iter().flat_map(|out| out.entries).collect()
}

/// Matched and compared value counts per configuration, and the mismatches.
struct Tally {
    counts: Vec<(usize, usize)>,
    mismatches: Vec<String>,
}

impl Tally {
    fn new() -> Self {
        Tally {
            counts: vec![(0, 0); configurations().len()],
            mismatches: Vec::new(),
        }
    }

    /// Scores `clip` under every configuration libvmaf has a log for and compares.
    fn compare(&mut self, dir: &std::path::Path, clip: &str, refs: &[Frame], dis: &[Frame]) {
        for (c, (config, options)) in configurations().iter().enumerate() {
            let Some(log) = expected(dir, clip, config) else {
                continue;
            };
            for (name, index, value) in run(options, refs, dis) {
                let key = alias(&name);
                self.counts[c].1 += 1;
                let want = expected_metric(&log, key).and_then(|v| v[index as usize]);
                match want {
                    Some(want) if same_at_6(value, want) => self.counts[c].0 += 1,
                    _ => self.mismatches.push(format!(
                        "{clip} {config} frame {index} {key}: ours {value:.6}, libvmaf {want:?}"
                    )),
                }
            }
        }
    }

    fn report(&self, what: &str) {
        for ((config, _), (ok, total)) in configurations().iter().zip(&self.counts) {
            eprintln!("adm {what} {config}: {ok}/{total} values match at 6 decimals");
        }
        let total: usize = self.counts.iter().map(|c| c.1).sum();
        assert!(total > 0, "no expected adm values found");
        assert!(
            self.mismatches.is_empty(),
            "{} mismatches, first ones:\n{}",
            self.mismatches.len(),
            self.mismatches
                .iter()
                .take(30)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn matches_libvmaf_on_every_clip_and_configuration() {
    let Some(dir) = conformance_dir() else { return };
    let mut tally = Tally::new();
    for clip in clip_ids() {
        let (refs, dis) = load_clip(&dir, clip);
        tally.compare(&dir, clip, &refs, &dis);
    }
    tally.report("y4m");
}

/// Reads the luma of every frame of a raw 4:2:0 file (8-bit, or 16-bit little-endian words);
/// chroma stays zero (ADM reads luma only).
fn load_raw420(path: &std::path::Path, w: u32, h: u32, bpc: u32) -> Vec<Frame> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let bytes = if bpc > 8 { 2 } else { 1 };
    let (w_us, h_us) = (w as usize, h as usize);
    let frame_len = (w_us * h_us + 2 * w_us.div_ceil(2) * h_us.div_ceil(2)) * bytes;
    assert_eq!(data.len() % frame_len, 0, "{}", path.display());
    data.chunks(frame_len)
        .map(|f| {
            let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
            let plane = fb.plane_mut(0);
            let stride = plane.stride;
            match plane.samples_mut().unwrap() {
                SamplesMut::U8(s) => {
                    for y in 0..h_us {
                        s[y * stride..][..w_us].copy_from_slice(&f[y * w_us..][..w_us]);
                    }
                }
                SamplesMut::U16(s) => {
                    for y in 0..h_us {
                        for x in 0..w_us {
                            let k = 2 * (y * w_us + x);
                            s[y * stride + x] = u16::from_le_bytes([f[k], f[k + 1]]);
                        }
                    }
                }
            }
            fb.build()
        })
        .collect()
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn matches_libvmaf_on_raw_yuv_inputs() {
    let Some(dir) = conformance_dir() else { return };
    let mut tally = Tally::new();
    for (file, clip, bpc) in [
        (
            "bbb_576x324_420p10le_crf35",
            "bbb_576x324_420p8_crf35__yuv_420p10le",
            10,
        ),
        (
            "bbb_576x324_420p8_crf35",
            "bbb_576x324_420p8_crf35__yuv_420p8",
            8,
        ),
    ] {
        let refs = load_raw420(&dir.join(format!("{file}_ref.yuv")), 576, 324, bpc);
        let dis = load_raw420(&dir.join(format!("{file}_dis.yuv")), 576, 324, bpc);
        tally.compare(&dir, clip, &refs, &dis);
    }
    tally.report("yuv");
}

/// A textured 8-bit or 10-bit frame.
fn synthetic(w: u32, h: u32, bpc: u32, seed: u32) -> Frame {
    let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
    let plane = fb.plane_mut(0);
    let stride = plane.stride;
    let value = |x: usize, y: usize| {
        let v =
            ((x * 7 + y * 13 + (x * y) % 17) as u32).wrapping_mul(2654435761u32.wrapping_add(seed));
        (v >> 8) & ((1 << bpc) - 1)
    };
    match plane.samples_mut().unwrap() {
        SamplesMut::U8(s) => {
            for y in 0..h as usize {
                for x in 0..w as usize {
                    s[y * stride + x] = value(x, y) as u8;
                }
            }
        }
        SamplesMut::U16(s) => {
            for y in 0..h as usize {
                for x in 0..w as usize {
                    s[y * stride + x] = value(x, y) as u16;
                }
            }
        }
    }
    fb.build()
}

/// The value of `name` in `entries`.
fn value(entries: &[(String, u64, f64)], name: &str) -> f64 {
    entries.iter().find(|e| e.0 == name).unwrap().2
}

// ADM of identical pictures is 1 up to fixed-point rounding: libvmaf itself prints 1.000002
// for adm2 and 1.000012 for scale 0 on the corpus' identical clip (checked exactly by the
// conformance test above). Here: within 1e-4 of 1, with no additive impairment at all.
#[test]
fn identical_pictures_score_one() {
    for (w, h, bpc) in [(64, 48, 8), (65, 37, 10), (33, 33, 8)] {
        let f = synthetic(w, h, bpc, 3);
        let one = std::slice::from_ref(&f);
        let e = run("", one, one);
        let adm2 = value(&e, "VMAF_integer_feature_adm2_score");
        assert!((adm2 - 1.0).abs() < 1e-4, "{w}x{h} {bpc}-bit: adm2 {adm2}");
        for s in 0..4 {
            let v = value(&e, &format!("integer_adm_scale{s}"));
            assert!((v - 1.0).abs() < 1e-4, "{w}x{h} {bpc}-bit: scale{s} {v}");
        }
        assert_eq!(
            value(&e, "VMAF_integer_feature_aim_score"),
            0.0,
            "{w}x{h} {bpc}-bit"
        );
        let adm3 = value(&e, "VMAF_integer_feature_adm3_score");
        assert_eq!(adm3, adm2 * 0.5 + 0.5, "{w}x{h} {bpc}-bit");
        let other = synthetic(w, h, bpc, 99);
        let e = run("", one, std::slice::from_ref(&other));
        let adm2 = value(&e, "VMAF_integer_feature_adm2_score");
        assert!(adm2 < 0.999, "{w}x{h}: different pictures scored {adm2}");
    }
}

#[test]
fn names_carry_feature_parameters() {
    let f = synthetic(40, 40, 8, 1);
    let one = std::slice::from_ref(&f);
    let names: Vec<_> = run("adm_enhn_gain_limit=1", one, one)
        .into_iter()
        .map(|e| e.0)
        .collect();
    assert_eq!(names[0], "integer_adm2_egl_1");
    assert_eq!(names[6], "integer_adm_scale3_egl_1");
    assert_eq!(names.len(), NON_DEBUG);
    let names: Vec<_> = run("debug=true:adm_skip_scale0=true", one, one)
        .into_iter()
        .map(|e| e.0)
        .collect();
    assert_eq!(names.len(), PROVIDED.len());
    assert_eq!(names[7], "integer_adm_ssz");
}

#[test]
fn bad_options_and_sizes_are_refused() {
    let e = make("adm_nope=1").err().unwrap();
    assert!(e.message().contains("unknown option 'adm_nope'"), "{e}");
    let e = make("adm_enhn_gain_limit=0.5").err().unwrap();
    assert_eq!(e.status(), crate::error::Status::Range, "{e}");
    let e = make("adm_csf_mode=4").err().unwrap();
    assert_eq!(e.status(), crate::error::Status::Range, "{e}");
    let e = make("adm_norm_view_dist=1.0").err().unwrap();
    assert!(e.message().contains("3240"), "{e}");
    // Where libvmaf prints nulls or wrapped weights' scores: a blend mode's display set-up
    // missing from its table, and Barten's weights at the default scaling.
    let e = make("adm_csf_mode=2:adm_norm_view_dist=4.0").err().unwrap();
    assert!(e.message().contains("not for 1080 at 4"), "{e}");
    assert!(e.message().contains("2160 at 1.5"), "{e}");
    let e = make("adm_csf_mode=1").err().unwrap();
    assert_eq!(e.subject(), "adm:adm_csf_mode", "{e}");
    assert!(e.message().contains("scale 0's horizontal band"), "{e}");
    let e = make("adm_csf_mode=1:adm_csf_scale=0.001").err().unwrap();
    assert!(e.message().contains("scale 0's diagonal band"), "{e}");
    assert!(make("adm_csf_mode=1:adm_csf_scale=0.001:adm_csf_diag_scale=0.001").is_ok());
    assert!(make("adm_csf_mode=3:adm_norm_view_dist=1.5:adm_ref_display_height=2160").is_ok());
    let mut ex = make("").unwrap();
    let g = Geometry {
        format: PixelFormat::Yuv420p,
        bpc: 8,
        width: 32,
        height: 64,
    };
    assert!(ex.init(g).is_err());
    let f = synthetic(40, 40, 8, 1);
    let input = ExtractInput {
        reference: &f,
        distorted: &f,
        prev_reference: None,
        prev_prev_reference: None,
        index: 0,
    };
    assert!(ex.extract(&input, &mut FrameScores::default()).is_err());
}
