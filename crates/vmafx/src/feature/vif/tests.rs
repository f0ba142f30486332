//! vif against libvmaf's own logs on the conformance corpus, plus synthetic checks.

use super::EXTRACTORS;
use crate::error::Status;
use crate::feature::extract_all::extract_all;
use crate::feature::name::alias;
use crate::feature::{ExtractInput, Extractor, FrameScores, Geometry};
use crate::frame::{Frame, FrameBuilder, PixelFormat, SamplesMut};
use crate::testutil::{clip_ids, conformance_dir, expected, expected_metric, load_clip, same_at_6};

fn make(options: &[(&str, &str)]) -> crate::Result<Box<dyn Extractor>> {
    let info = &EXTRACTORS[0];
    let pairs: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    (info.create)(&info.parse_options(&pairs)?)
}

fn geometry_of(f: &Frame) -> Geometry {
    Geometry {
        format: f.format(),
        bpc: f.bpc(),
        width: f.width(),
        height: f.height(),
    }
}

/// Scores every pair with a fresh extractor made from `options`.
fn run(options: &[(&str, &str)], refs: &[Frame], diss: &[Frame]) -> Vec<FrameScores> {
    extract_all(make(options).unwrap().as_mut(), refs, diss)
}

/// The value written under `name` for one frame.
fn value(scores: &FrameScores, name: &str) -> Option<f64> {
    scores
        .entries
        .iter()
        .find(|(n, _, _)| n == name)
        .map(|e| e.2)
}

/// Tallies one configuration: every (frame, feature) of `names` (printed as their alias)
/// against the log libvmaf wrote for `config`.
struct Tally {
    matched: usize,
    total: usize,
    mismatches: Vec<String>,
}

impl Tally {
    fn new() -> Self {
        Tally {
            matched: 0,
            total: 0,
            mismatches: Vec::new(),
        }
    }

    fn compare(&mut self, clip: &str, config: &str, names: &[&str], got: &[FrameScores]) {
        let dir = conformance_dir().unwrap();
        let log = expected(&dir, clip, config)
            .unwrap_or_else(|| panic!("{clip}: no expected log for {config}"));
        for name in names {
            let printed = alias(name);
            let want = expected_metric(&log, printed)
                .unwrap_or_else(|| panic!("{clip} {config}: log has no {printed}"));
            assert_eq!(want.len(), got.len(), "{clip} {config}: frame count");
            for (frame, (w, g)) in want.iter().zip(got).enumerate() {
                self.total += 1;
                let ours = value(g, name)
                    .unwrap_or_else(|| panic!("{clip} frame {frame}: {name} not written"));
                match w {
                    Some(w) if same_at_6(*w, ours) => self.matched += 1,
                    _ => self.mismatches.push(format!(
                        "{clip} frame {frame} {printed} ({config}): libvmaf {w:?}, vmafx {ours:.6}"
                    )),
                }
            }
        }
    }

    fn check(self, what: &str) {
        eprintln!(
            "vif {what}: {} of {} (clip, frame, feature) values match",
            self.matched, self.total
        );
        assert!(self.total > 0, "nothing compared");
        assert!(
            self.mismatches.is_empty(),
            "{} of {} differ:\n{}",
            self.mismatches.len(),
            self.total,
            self.mismatches.join("\n")
        );
    }
}

const SCALES: [&str; 4] = [
    "VMAF_integer_feature_vif_scale0_score",
    "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score",
    "VMAF_integer_feature_vif_scale3_score",
];

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn matches_libvmaf_default_and_debug_logs() {
    let Some(dir) = conformance_dir() else { return };
    let mut default = Tally::new();
    let mut debug = Tally::new();
    for clip in clip_ids() {
        let (refs, diss) = load_clip(&dir, clip);
        let got = run(&[("debug", "true")], &refs, &diss);
        default.compare(clip, "vmaf_v0.6.1", &SCALES, &got);
        debug.compare(clip, "integer_features_debug", super::PROVIDED, &got);
    }
    default.check("vmaf_v0.6.1");
    debug.check("integer_features_debug");
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn matches_libvmaf_neg_logs() {
    let Some(dir) = conformance_dir() else { return };
    let names: Vec<String> = SCALES
        .iter()
        .map(|s| format!("{}_egl_1", alias(s)))
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut tally = Tally::new();
    for clip in clip_ids() {
        let (refs, diss) = load_clip(&dir, clip);
        let got = run(&[("vif_enhn_gain_limit", "1.0")], &refs, &diss);
        tally.compare(clip, "vmaf_v0.6.1neg", &names, &got);
    }
    tally.check("vmaf_v0.6.1neg");
}

/// The luma of every frame of a raw 4:2:0 file (little-endian words above 8 bits).
fn load_yuv420_luma(path: &std::path::Path, w: u32, h: u32, bpc: u32) -> Vec<Frame> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let bytes = if bpc > 8 { 2 } else { 1 };
    let luma = (w * h) as usize * bytes;
    let frame_len = luma + 2 * ((w / 2) * (h / 2)) as usize * bytes;
    assert_eq!(
        data.len() % frame_len,
        0,
        "{}: not whole frames",
        path.display()
    );
    data.chunks_exact(frame_len)
        .map(|chunk| {
            let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
            let plane = fb.plane_mut(0);
            let stride = plane.stride;
            let rows = chunk[..luma].chunks_exact(w as usize * bytes);
            match plane.samples_mut().unwrap() {
                SamplesMut::U8(s) => {
                    for (y, row) in rows.enumerate() {
                        s[y * stride..y * stride + w as usize].copy_from_slice(row);
                    }
                }
                SamplesMut::U16(s) => {
                    for (y, row) in rows.enumerate() {
                        for (x, px) in row.chunks_exact(2).enumerate() {
                            s[y * stride + x] = u16::from_le_bytes([px[0], px[1]]);
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
    let neg: Vec<String> = SCALES
        .iter()
        .map(|s| format!("{}_egl_1", alias(s)))
        .collect();
    let neg: Vec<&str> = neg.iter().map(String::as_str).collect();
    let mut tally = Tally::new();
    for (file, bpc, log) in [
        (
            "bbb_576x324_420p10le_crf35",
            10,
            "bbb_576x324_420p8_crf35__yuv_420p10le",
        ),
        (
            "bbb_576x324_420p8_crf35",
            8,
            "bbb_576x324_420p8_crf35__yuv_420p8",
        ),
    ] {
        let refs = load_yuv420_luma(&dir.join(format!("{file}_ref.yuv")), 576, 324, bpc);
        let diss = load_yuv420_luma(&dir.join(format!("{file}_dis.yuv")), 576, 324, bpc);
        let got = run(&[("debug", "true")], &refs, &diss);
        tally.compare(log, "vmaf_v0.6.1", &SCALES, &got);
        tally.compare(log, "integer_features_debug", super::PROVIDED, &got);
        let got = run(&[("vif_enhn_gain_limit", "1")], &refs, &diss);
        tally.compare(log, "vmaf_v0.6.1neg", &neg, &got);
    }
    tally.check("raw yuv inputs (default, debug, neg)");
}

/// A frame whose luma is a fixed pseudo-random texture (block noise plus gradients).
fn textured(bpc: u32, w: u32, h: u32, seed: u32) -> Frame {
    let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
    let plane = fb.plane_mut(0);
    let stride = plane.stride;
    let max = (1u32 << bpc) - 1;
    let mut state = seed.wrapping_mul(2654435761).wrapping_add(1);
    let mut sample = |x: u32, y: u32| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let noise = state % 64;
        let block = (((x / 3) ^ (y / 5)) * 37) % 160;
        ((block + noise + x + y) % 256) * max / 255
    };
    let mut values = Vec::new();
    for y in 0..h {
        for x in 0..w {
            values.push(sample(x, y));
        }
    }
    match plane.samples_mut().unwrap() {
        SamplesMut::U8(s) => {
            for y in 0..h as usize {
                for x in 0..w as usize {
                    s[y * stride + x] = values[y * w as usize + x] as u8;
                }
            }
        }
        SamplesMut::U16(s) => {
            for y in 0..h as usize {
                for x in 0..w as usize {
                    s[y * stride + x] = values[y * w as usize + x] as u16;
                }
            }
        }
    }
    fb.build()
}

/// A frame with every sample at `value`.
fn flat(bpc: u32, w: u32, h: u32, value: u16) -> Frame {
    let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
    match fb.plane_mut(0).samples_mut().unwrap() {
        SamplesMut::U8(s) => s.fill(value as u8),
        SamplesMut::U16(s) => s.fill(value),
    }
    fb.build()
}

// libvmaf does not score identical input exactly 1: a window whose reference variance is
// below the noise floor adds 1 - var/(16384 * 65025) to the numerator and 1 to the
// denominator. On texture that is rare enough to print 1.000000; on flat input the
// variance is 0 and the ratio is exactly 1.
#[test]
fn identical_input_scores_one_at_every_scale() {
    for (bpc, w, h) in [(8, 96, 72), (10, 96, 72), (12, 120, 88), (16, 64, 64)] {
        let f = textured(bpc, w, h, bpc);
        let got = run(&[], std::slice::from_ref(&f), std::slice::from_ref(&f));
        for name in SCALES {
            let v = value(&got[0], name).unwrap();
            assert!(
                same_at_6(v, 1.0),
                "{bpc}-bit {w}x{h}: {name} = {v:.6}, not 1"
            );
        }
    }
    for (bpc, w, h, v) in [(8, 19, 23, 77), (10, 32, 9, 1000)] {
        let f = flat(bpc, w, h, v);
        let got = run(&[], std::slice::from_ref(&f), std::slice::from_ref(&f));
        for name in SCALES {
            assert_eq!(
                value(&got[0], name),
                Some(1.0),
                "{bpc}-bit flat {w}x{h}: {name}"
            );
        }
    }
}

#[test]
fn small_and_odd_sizes_score_without_panicking() {
    for (bpc, w, h) in [
        (8, 8, 8),
        (8, 9, 15),
        (10, 15, 8),
        (8, 16, 17),
        (10, 17, 9),
        (8, 33, 31),
    ] {
        let r = textured(bpc, w, h, 1);
        let d = textured(bpc, w, h, 2);
        let got = run(&[("debug", "true")], &[r.clone(), r], &[d.clone(), d]);
        assert_eq!(got[0].entries.len(), 15);
        for (e0, e1) in got[0].entries.iter().zip(&got[1].entries) {
            assert!(e0.2.is_finite(), "{bpc}-bit {w}x{h}: {} = {}", e0.0, e0.2);
            // Same pair again: nothing left over from the previous frame changes it.
            assert_eq!(e0.2, e1.2, "{bpc}-bit {w}x{h}: {} differs on repeat", e0.0);
        }
    }
}

#[test]
fn too_small_pictures_are_refused_by_name() {
    for (w, h, subject) in [(7, 8, "width"), (8, 7, "height")] {
        let mut ex = make(&[]).unwrap();
        let g = Geometry {
            format: PixelFormat::Yuv420p,
            bpc: 8,
            width: w,
            height: h,
        };
        let e = ex.init(g).unwrap_err();
        assert_eq!((e.status(), e.subject()), (Status::Range, subject), "{e}");
    }
}

#[test]
fn frames_of_another_geometry_are_refused() {
    let mut ex = make(&[]).unwrap();
    let f = textured(8, 32, 32, 1);
    let other = textured(8, 32, 24, 1);
    ex.init(geometry_of(&f)).unwrap();
    let input = ExtractInput {
        reference: &f,
        distorted: &other,
        prev_reference: None,
        prev_prev_reference: None,
        index: 0,
    };
    let e = ex.extract(&input, &mut FrameScores::default()).unwrap_err();
    assert_eq!(e.subject(), "distorted frame", "{e}");
}

#[test]
fn bad_options_are_refused() {
    let e = make(&[("no_such_option", "1")]).err().unwrap();
    assert_eq!(e.status(), Status::NotFound, "{e}");
    for bad in ["0.5", "100.5"] {
        let e = make(&[("vif_enhn_gain_limit", bad)]).err().unwrap();
        assert_eq!(e.status(), Status::Range, "{e}");
    }
    let e = make(&[("vif_skip_scale0", "maybe")]).err().unwrap();
    assert_eq!(e.status(), Status::Invalid, "{e}");
}

#[test]
fn feature_params_name_outputs_as_libvmaf_does() {
    let f = textured(8, 40, 40, 3);
    let d = textured(8, 40, 40, 4);
    let names = |opts: &[(&str, &str)]| -> Vec<String> {
        run(opts, std::slice::from_ref(&f), std::slice::from_ref(&d))[0]
            .entries
            .iter()
            .map(|e| e.0.clone())
            .collect()
    };
    assert_eq!(names(&[]), SCALES);
    assert_eq!(
        names(&[("vif_enhn_gain_limit", "1")])[0],
        "integer_vif_scale0_egl_1"
    );
    let both = names(&[("vif_skip_scale0", "true"), ("vif_enhn_gain_limit", "1.5")]);
    assert_eq!(both[3], "integer_vif_scale3_egl_1.5_ssclz");
    // Debug is not a feature parameter.
    assert_eq!(names(&[("debug", "true")])[4], "integer_vif");
}

#[test]
fn skipping_scale0_writes_libvmaf_placeholders() {
    let f = textured(8, 48, 40, 5);
    let d = textured(8, 48, 40, 6);
    let all = run(
        &[("debug", "true")],
        std::slice::from_ref(&f),
        std::slice::from_ref(&d),
    );
    let skip = run(
        &[("debug", "true"), ("vif_skip_scale0", "true")],
        std::slice::from_ref(&f),
        std::slice::from_ref(&d),
    );
    let (a, s) = (&all[0].entries, &skip[0].entries);
    assert_eq!(s[0].2, 0.0);
    assert_eq!((s[7].2, s[8].2), (0.0, -1.0));
    for i in [1, 2, 3, 9, 10, 11, 12, 13, 14] {
        assert_eq!(a[i].2, s[i].2, "{}", a[i].0);
    }
    let want = (a[9].2 + a[11].2 + a[13].2) / (a[10].2 + a[12].2 + a[14].2);
    assert_eq!(s[4].2, want);
}
