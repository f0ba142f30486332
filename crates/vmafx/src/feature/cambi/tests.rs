//! Conformance of cambi with libvmaf's own outputs, and its refusals.

use super::*;
use crate::feature::extract_all::extract_all;
use crate::frame::{FrameBuilder, PixelFormat, SamplesMut};
use crate::testutil::*;

fn geometry(f: &Frame) -> Geometry {
    Geometry {
        format: f.format(),
        bpc: f.bpc(),
        width: f.width(),
        height: f.height(),
    }
}

fn make(pairs: &[(&str, &str)]) -> Result<Box<dyn Extractor>> {
    let pairs: Vec<_> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let o = EXTRACTORS[0].parse_options(&pairs)?;
    (EXTRACTORS[0].create)(&o)
}

/// The v1.0.16 models' cambi options.
const V1016: &[(&str, &str)] = &[
    ("cambi_high_res_speedup", "1080"),
    ("cambi_vis_lum_threshold", "0.06"),
    ("cambi_max_val", "17"),
];

/// Scores every frame pair with `x`, returning (name, index, value) per entry.
fn run_clip(x: &mut dyn Extractor, rf: &[Frame], df: &[Frame]) -> Vec<(String, u64, f64)> {
    let frames = extract_all(x, rf, df);
    frames.into_iter().flat_map(|out| out.entries).collect()
}

/// Compares `got` with the expected metric `metric` of `log`, returning (frames, max |diff|).
fn compare(
    clip: &str,
    metric: &str,
    got: &[(String, u64, f64)],
    log: &serde_json::Value,
) -> (usize, f64) {
    let want = expected_metric(log, metric).unwrap_or_else(|| panic!("{clip}: no {metric}"));
    let got: Vec<_> = got.iter().filter(|e| e.0 == metric).collect();
    assert_eq!(got.len(), want.len(), "{clip} {metric}: frame count");
    let mut max_diff = 0f64;
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let w = w.unwrap_or_else(|| panic!("{clip} frame {i} {metric}: libvmaf wrote null"));
        assert!(
            same_at_6(g.2, w),
            "{clip} frame {i} {metric}: vmafx {:.6} libvmaf {w:.6}",
            g.2
        );
        max_diff = max_diff.max((g.2 - w).abs());
    }
    (want.len(), max_diff)
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn default_options_match_libvmaf_on_every_clip() {
    let Some(dir) = conformance_dir() else { return };
    let (mut clips, mut frames) = (0, 0);
    for clip in clip_ids() {
        let Some(log) = expected(&dir, clip, "extra_features") else {
            continue;
        };
        if expected_metric(&log, "cambi").is_none() {
            continue;
        }
        let (rf, df) = load_clip(&dir, clip);
        let mut x = make(&[]).unwrap();
        let got = run_clip(x.as_mut(), &rf, &df);
        assert!(got.iter().all(|e| e.0 == PROVIDED));
        let got: Vec<_> = got
            .into_iter()
            .map(|e| ("cambi".to_string(), e.1, e.2))
            .collect();
        let (n, d) = compare(clip, "cambi", &got, &log);
        eprintln!("{clip}: cambi {n} frames identical at 6 decimals, max |diff| {d:.3e}");
        clips += 1;
        frames += n;
    }
    assert_eq!(clips, 7, "clips with a cambi score");
    assert!(frames > 90);
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn v1_0_16_options_match_libvmaf() {
    let Some(dir) = conformance_dir() else { return };
    let name = "cambi_hrs_1080_cmxv_17_vlt_0.06";
    let mut clips = 0;
    for clip in clip_ids() {
        let Some(log) = expected(&dir, clip, "vmaf_v1.0.16_3d0h") else {
            continue;
        };
        let (rf, df) = load_clip(&dir, clip);
        let mut x = make(V1016).unwrap();
        let got = run_clip(x.as_mut(), &rf, &df);
        assert!(got.iter().all(|e| e.0 == name), "{clip}: {:?}", got[0].0);
        let (n, d) = compare(clip, name, &got, &log);
        eprintln!("{clip}: {name} {n} frames identical at 6 decimals, max |diff| {d:.3e}");
        clips += 1;
    }
    assert_eq!(clips, 7, "clips with a v1.0.16 log");
}

/// Frames of a raw planar 4:2:0 little-endian 10-bit file.
fn load_yuv420p10(path: &std::path::Path, w: u32, h: u32) -> Vec<Frame> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (cw, ch) = (w.div_ceil(2) as usize, h.div_ceil(2) as usize);
    let frame_bytes = 2 * (w as usize * h as usize + 2 * cw * ch);
    let mut frames = Vec::new();
    for chunk in data.chunks_exact(frame_bytes) {
        let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, 10, w, h).unwrap();
        let plane = fb.plane_mut(0);
        let stride = plane.stride;
        let Some(SamplesMut::U16(s)) = plane.samples_mut() else {
            panic!("10-bit plane is not 16-bit");
        };
        for y in 0..h as usize {
            for x in 0..w as usize {
                let o = 2 * (y * w as usize + x);
                s[y * stride + x] = u16::from_le_bytes([chunk[o], chunk[o + 1]]);
            }
        }
        frames.push(fb.build());
    }
    frames
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn ten_bit_yuv_input_matches_libvmaf() {
    let Some(dir) = conformance_dir() else { return };
    let clip = "bbb_576x324_420p8_crf35__yuv_420p10le";
    let rf = load_yuv420p10(&dir.join("bbb_576x324_420p10le_crf35_ref.yuv"), 576, 324);
    let df = load_yuv420p10(&dir.join("bbb_576x324_420p10le_crf35_dis.yuv"), 576, 324);
    for (config, opts, name) in [
        ("extra_features", &[][..], PROVIDED),
        (
            "vmaf_v1.0.16_3d0h",
            V1016,
            "cambi_hrs_1080_cmxv_17_vlt_0.06",
        ),
    ] {
        let log = expected(&dir, clip, config).unwrap();
        let mut x = make(opts).unwrap();
        let got = run_clip(x.as_mut(), &rf, &df);
        let metric = if name == PROVIDED { "cambi" } else { name };
        let got: Vec<_> = got
            .into_iter()
            .map(|e| (metric.to_string(), e.1, e.2))
            .collect();
        let (n, d) = compare(clip, metric, &got, &log);
        eprintln!("{clip} {config}: {n} frames identical, max |diff| {d:.3e}");
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn small_pictures_are_refused_like_libvmaf() {
    let Some(dir) = conformance_dir() else { return };
    // libvmaf exits 234 on carphone (176x144) with cambi and with the v1.0.16 models.
    let (rf, _) = load_clip(&dir, "carphone_176x144_420p8");
    for opts in [&[][..], V1016] {
        let mut x = make(opts).unwrap();
        let e = x.init(geometry(&rf[0])).unwrap_err();
        assert!(e.message().contains("176x144"), "{e}");
        assert!(e.message().contains("216"), "{e}");
    }
}

#[test]
fn sizes_and_options_checked_at_init() {
    let g = |w, h| Geometry {
        format: PixelFormat::Yuv420p,
        bpc: 8,
        width: w,
        height: h,
    };
    // One side of 216 is enough.
    assert!(make(&[]).unwrap().init(g(216, 100)).is_ok());
    assert!(make(&[]).unwrap().init(g(100, 216)).is_ok());
    assert!(make(&[]).unwrap().init(g(215, 215)).is_err());
    // Source and encoding scaled in opposite directions.
    let mut x = make(&[("src_width", "640"), ("src_height", "200")]).unwrap();
    let e = x.init(g(320, 240)).unwrap_err();
    assert!(e.message().contains("640x200"), "{e}");
    // An encoding size above the input's falls back to the input's.
    let mut x = make(&[("enc_width", "1920"), ("enc_height", "1080")]).unwrap();
    assert!(x.init(g(320, 240)).is_ok());
    // Too large a window for the reciprocal table.
    let mut x = make(&[("window_size", "127")]).unwrap();
    let e = x.init(g(3840, 2160)).unwrap_err();
    assert!(e.message().contains("window_size 127"), "{e}");
}

#[test]
fn bad_options_are_refused() {
    let e = make(&[("nope", "1")]).err().unwrap();
    assert!(e.message().contains("unknown option 'nope'"), "{e}");
    for (k, v) in [
        ("cambi_max_val", "1001"),
        ("window_size", "13"),
        ("window_size", "129"),
        ("topk", "0"),
        ("max_log_contrast", "6"),
        ("enc_width", "100"),
        ("cambi_high_res_speedup", "4320"),
        ("cambi_vis_lum_threshold", "-1"),
    ] {
        let e = make(&[(k, v)]).err().unwrap();
        assert_eq!(e.status(), crate::error::Status::Range, "{k}={v}: {e}");
    }
    let e = make(&[("eotf", "hlg")]).err().unwrap();
    assert!(e.message().contains("hlg"), "{e}");
    assert!(make(&[("full_ref", "maybe")]).is_err());
}

#[test]
fn feature_names_follow_libvmaf() {
    let name = |pairs: &[(&str, &str)]| {
        let pairs: Vec<_> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let o = EXTRACTORS[0].parse_options(&pairs).unwrap();
        feature_name(PROVIDED, &o.non_default_params())
    };
    assert_eq!(name(&[]), PROVIDED);
    assert_eq!(name(V1016), "cambi_hrs_1080_cmxv_17_vlt_0.06");
    assert_eq!(
        name(&[("window_size", "31"), ("topk", "0.2"), ("eotf", "pq")]),
        "cambi_eotf_pq_topk_0.2_ws_31"
    );
    // Not feature parameters.
    assert_eq!(name(&[("full_ref", "true")]), PROVIDED);
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn full_ref_writes_source_and_difference() {
    let Some(dir) = conformance_dir() else { return };
    let clip = "bbb_576x324_420p8_crf35";
    let (rf, df) = load_clip(&dir, clip);
    let log = expected(&dir, clip, "extra_features").unwrap();
    let want = expected_metric(&log, "cambi").unwrap();
    let mut x = make(&[("full_ref", "true")]).unwrap();
    let got = run_clip(x.as_mut(), &rf[..2], &df[..2]);
    assert_eq!(got.len(), 6);
    for f in 0..2 {
        let e = &got[3 * f..3 * f + 3];
        assert_eq!(e[0].0, PROVIDED);
        assert!(same_at_6(e[0].2, want[f].unwrap()), "{clip} frame {f}");
        assert_eq!(e[1].0, "cambi_source");
        assert_eq!(e[2].0, "cambi_full_reference");
        assert_eq!(e[2].2, (e[0].2 - e[1].2).max(0.0));
    }
    // Scoring the reference as distorted gives the source score.
    let mut y = make(&[]).unwrap();
    let src = run_clip(y.as_mut(), &df[..1], &rf[..1]);
    assert_eq!(src[0].2, got[1].2);
}

#[test]
fn heatmaps_are_written_per_scale() {
    let dir = std::env::temp_dir().join(format!("vmafx_cambi_heatmaps_{}", std::process::id()));
    let path = dir.to_str().unwrap().to_string();
    let (w, h) = (240u32, 216u32);
    let mut fb = FrameBuilder::new(PixelFormat::Yuv400p, 8, w, h).unwrap();
    let plane = fb.plane_mut(0);
    let stride = plane.stride;
    let Some(SamplesMut::U8(s)) = plane.samples_mut() else {
        panic!("8-bit plane")
    };
    // A gentle ramp: flat bands one code value apart.
    for y in 0..h as usize {
        for x in 0..w as usize {
            s[y * stride + x] = (60 + x / 24) as u8;
        }
    }
    let f = fb.build();
    let mut x = make(&[("heatmaps_path", &path)]).unwrap();
    let got = run_clip(x.as_mut(), &[f.clone(), f.clone()], &[f.clone(), f]);
    assert!(got[0].2 > 0.0, "a ramp of flat bands bands: {}", got[0].2);
    let (mut sw, mut sh) = (w as u64, h as u64);
    for scale in 0..NUM_SCALES {
        let p = dir.join(format!("cambi_heatmap_scale_{scale}_{sw}x{sh}_16b.gray"));
        let len = std::fs::metadata(&p).unwrap().len();
        assert_eq!(len, 2 * 2 * sw * sh, "{}", p.display());
        sw = sw.div_ceil(2);
        sh = sh.div_ceil(2);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_of_range_samples_are_refused() {
    let (w, h) = (256u32, 216u32);
    let mut fb = FrameBuilder::new(PixelFormat::Yuv400p, 10, w, h).unwrap();
    let plane = fb.plane_mut(0);
    let Some(SamplesMut::U16(s)) = plane.samples_mut() else {
        panic!("10-bit plane")
    };
    s[5] = 1024;
    let f = fb.build();
    let mut x = make(&[]).unwrap();
    x.init(geometry(&f)).unwrap();
    let mut out = FrameScores::default();
    let input = ExtractInput {
        reference: &f,
        distorted: &f,
        prev_reference: None,
        prev_prev_reference: None,
        index: 3,
    };
    let e = x.extract(&input, &mut out).unwrap_err();
    assert!(e.message().contains("1024"), "{e}");
    assert!(e.subject().contains("distorted frame 3"), "{e}");
}

/// A mono 8-bit frame of `w` x `h` with samples from `f(x, y)`.
fn synthetic(w: u32, h: u32, f: impl Fn(usize, usize) -> u8) -> Frame {
    let mut fb = FrameBuilder::new(PixelFormat::Yuv400p, 8, w, h).unwrap();
    let plane = fb.plane_mut(0);
    let stride = plane.stride;
    let Some(SamplesMut::U8(s)) = plane.samples_mut() else {
        panic!("8-bit plane")
    };
    for y in 0..h as usize {
        for x in 0..w as usize {
            s[y * stride + x] = f(x, y);
        }
    }
    fb.build()
}

#[test]
fn extreme_shapes_are_scored_without_panicking() {
    for (w, h) in [(1, 216), (216, 1), (2, 300), (4000, 216), (216, 3000)] {
        let f = synthetic(w, h, |x, y| (60 + (x + y) / 40) as u8);
        let mut x = make(&[]).unwrap();
        let got = run_clip(
            x.as_mut(),
            std::slice::from_ref(&f),
            std::slice::from_ref(&f),
        );
        assert!(
            got[0].2.is_finite() && got[0].2 >= 0.0,
            "{w}x{h}: {}",
            got[0].2
        );
    }
}

#[test]
fn high_res_speedup_applies_from_1080p() {
    // Flat bands one code value apart, 80 samples wide: banding at every scale.
    let f = synthetic(1920, 1080, |x, _| (60 + x / 80) as u8);
    let frames = std::slice::from_ref(&f);
    let score = |opts: &[(&str, &str)]| run_clip(make(opts).unwrap().as_mut(), frames, frames)[0].2;
    let full = score(&[]);
    let fast = score(&[("cambi_high_res_speedup", "1080")]);
    let off = score(&[("cambi_high_res_speedup", "1440")]);
    assert!(full > 0.0 && fast > 0.0, "{full} {fast}");
    assert_ne!(full, fast, "the speed-up decimates before the first scale");
    assert_eq!(full, off, "1440 is above this picture: no speed-up");
    // The maximum clips the score.
    assert_eq!(score(&[("cambi_max_val", "0.001")]), 0.001_f64.min(full));
}

#[test]
fn encoding_size_and_pq_change_the_score() {
    let f = synthetic(640, 360, |x, _| (60 + x / 30) as u8);
    let frames = std::slice::from_ref(&f);
    let score = |opts: &[(&str, &str)]| run_clip(make(opts).unwrap().as_mut(), frames, frames)[0].2;
    let base = score(&[]);
    assert!(base > 0.0);
    // Scoring at a smaller encoding size resamples by nearest neighbour.
    let small = score(&[("enc_width", "320"), ("enc_height", "180")]);
    assert!(small.is_finite() && small != base, "{base} {small}");
    let pq = score(&[("eotf", "pq")]);
    assert!(pq.is_finite() && pq != base, "{base} {pq}");
    assert_eq!(score(&[("cambi_eotf", "pq")]), pq);
}

/// Scores of `frames` (each its own reference) with `opts`, pooled row by row or, with
/// `whole`, from the whole plane made again.
fn scores_pooled(opts: &[(&str, &str)], rf: &[Frame], df: &[Frame], whole: bool) -> Vec<u64> {
    WHOLE_PLANE.with(|w| w.set(whole));
    let got = run_clip(make(opts).unwrap().as_mut(), rf, df);
    WHOLE_PLANE.with(|w| w.set(false));
    got.iter().map(|e| e.2.to_bits()).collect()
}

#[test]
fn row_pooling_gives_the_whole_planes_scores() {
    // Synthetic banding of several widths and a noisy part, every option set that changes
    // the pooling's path (selection among the nonzero values with small topk, every value
    // with topk 1, the decimated first scale).
    let f = synthetic(643, 361, |x, y| {
        let band = (60 + x / (20 + y / 60)) as u8;
        band + u8::from((x * 7 + y * 13) % 11 == 0 && y > 200)
    });
    let frames = std::slice::from_ref(&f);
    let sets: &[&[(&str, &str)]] = &[
        &[],
        &[("topk", "0.05")],
        &[("topk", "1.0")],
        &[("topk", "0.9"), ("cambi_high_res_speedup", "360")],
        &[("full_ref", "true")],
    ];
    for &opts in sets {
        let rows = scores_pooled(opts, frames, frames, false);
        assert_eq!(rows, scores_pooled(opts, frames, frames, true), "{opts:?}");
        assert!(rows.iter().any(|&s| s != 0), "{opts:?}: all zero");
    }
    // A flat frame, then banding, then banding again: the values are not kept at the
    // first frame, so the banding frame's scales that select are pooled again, keeping
    // them (the third frame keeps them at once).
    let flat = synthetic(643, 361, |_, _| 90);
    let seq = [flat, f.clone(), f];
    let before = REPOOLED.with(|n| n.get());
    let rows = scores_pooled(&[("topk", "0.05")], &seq, &seq, false);
    let repooled = REPOOLED.with(|n| n.get()) - before;
    assert!(repooled > 0, "no scale pooled again");
    let single = scores_pooled(&[("topk", "0.05")], &seq[1..2], &seq[1..2], false);
    assert_eq!(
        REPOOLED.with(|n| n.get()) - before,
        2 * repooled,
        "third frame"
    );
    assert_eq!(rows[1], single[0]);
    assert_eq!(rows[2], single[0]);
    assert_eq!(rows, scores_pooled(&[("topk", "0.05")], &seq, &seq, true));
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn row_pooling_gives_the_whole_planes_scores_on_clips() {
    let Some(dir) = conformance_dir() else { return };
    let mut clips = 0;
    for clip in clip_ids() {
        let has_cambi = expected(&dir, clip, "extra_features")
            .is_some_and(|log| expected_metric(&log, "cambi").is_some());
        if !has_cambi || clips == 3 {
            continue;
        }
        let (rf, df) = load_clip(&dir, clip);
        for opts in [&[][..], &[("topk", "0.05")][..], V1016] {
            let rows = scores_pooled(opts, &rf, &df, false);
            assert_eq!(rows, scores_pooled(opts, &rf, &df, true), "{clip} {opts:?}");
        }
        clips += 1;
    }
    assert_eq!(clips, 3);
}
