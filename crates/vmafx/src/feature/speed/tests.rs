//! SpEED against libvmaf's own output on the conformance corpus.

use super::EXTRACTORS;
use crate::feature::{ExtractInput, Extractor, FrameScores, Geometry};
use crate::frame::{Frame, FrameBuilder, PixelFormat, SamplesMut};
use crate::testutil::*;

/// The vmaf_v1.0.16 configurations and their speed_chroma options (the models'
/// feature_opts_dicts).
const CONFIGS: &[(&str, &[(&str, &str)])] = &[
    ("vmaf_v1.0.16_3d0h", &[("speed_kernelscale", "1.0")]),
    (
        "vmaf_v1.0.16_5d0h",
        &[
            ("speed_prescale", "0.6"),
            ("speed_prescale_method", "bilinear"),
        ],
    ),
    (
        "vmaf_v1.0.16_3d0h_2160",
        &[
            ("speed_prescale", "0.5"),
            ("speed_prescale_method", "bilinear"),
        ],
    ),
    ("vmaf_v1.0.16_1d5h_2160", &[]),
    ("vmaf_v1.0.16_hfr_3d0h", &[]),
];

/// Options every v1.0.16 model gives speed_chroma.
const COMMON: &[(&str, &str)] = &[
    ("speed_nn_floor", "0.1"),
    ("speed_sigma_nn", "0.19"),
    ("speed_weight_var_mode", "5"),
    ("speed_max_val", "45.0"),
];

fn geometry(f: &Frame) -> Geometry {
    Geometry {
        format: f.format(),
        bpc: f.bpc(),
        width: f.width(),
        height: f.height(),
    }
}

fn make(name: &str, opts: &[(&str, &str)]) -> crate::error::Result<Box<dyn Extractor>> {
    let info = EXTRACTORS.iter().find(|e| e.name == name).unwrap();
    let pairs: Vec<(String, String)> = opts
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    (info.create)(&info.parse_options(&pairs)?)
}

fn run(x: &mut dyn Extractor, rf: &[Frame], df: &[Frame]) -> Vec<FrameScores> {
    rf.iter()
        .zip(df)
        .enumerate()
        .map(|(i, (r, d))| {
            let mut out = FrameScores::default();
            x.extract(
                &ExtractInput {
                    reference: r,
                    distorted: d,
                    prev_reference: None,
                    prev_prev_reference: None,
                    index: i as u64,
                },
                &mut out,
            )
            .unwrap();
            out
        })
        .collect()
}

/// Tallies of one configuration.
#[derive(Default)]
struct Tally {
    same: usize,
    total: usize,
    nonzero: usize,
    worst: f64,
    refused: usize,
    failures: Vec<String>,
}

impl Tally {
    /// Compares every speed_chroma value of `log` with what the extractor gives.
    fn compare(
        &mut self,
        clip: &str,
        config: &str,
        opts: &[(&str, &str)],
        rf: &[Frame],
        df: &[Frame],
        log: &serde_json::Value,
    ) {
        let mut x = make("speed_chroma", opts).unwrap();
        x.init(geometry(&rf[0]))
            .unwrap_or_else(|e| panic!("{clip} {config}: init refused: {e}"));
        let got = run(x.as_mut(), rf, df);
        assert_eq!(
            got.len(),
            log["frames"].as_array().unwrap().len(),
            "{clip} {config}"
        );
        for (k, entry) in got[0].entries.iter().enumerate() {
            let name = &entry.0;
            let want = expected_metric(log, name)
                .unwrap_or_else(|| panic!("{clip} {config}: no '{name}' in the expected log"));
            for (i, w) in want.iter().enumerate() {
                let w = w.unwrap();
                let g = got[i].entries[k].2;
                self.worst = self.worst.max((g - w).abs());
                self.total += 1;
                self.nonzero += (w != 0.0) as usize;
                if same_at_6(g, w) {
                    self.same += 1;
                } else if (g - w).abs() > 1e-5 {
                    self.failures.push(format!(
                        "{clip} {config} frame {i} {name}: vmafx {g:.6} libvmaf {w:.6}"
                    ));
                } else {
                    eprintln!(
                        "near: {clip} {config} frame {i} {name}: vmafx {g:.6} libvmaf {w:.6}"
                    );
                }
            }
        }
    }

    fn report(&self, what: &str) -> String {
        format!(
            "{what}: {}/{} identical at 6 decimals ({} of them non-zero), max |diff| {:e}, {} refused as libvmaf crashed",
            self.same, self.total, self.nonzero, self.worst, self.refused
        )
    }
}

fn options(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    COMMON.iter().chain(extra.iter()).copied().collect()
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn speed_chroma_matches_libvmaf_v1_0_16_runs() {
    let Some(dir) = conformance_dir() else { return };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.md")).unwrap();
    let clips: Vec<_> = clip_ids()
        .into_iter()
        .map(|c| (c, load_clip(&dir, c)))
        .collect();
    let mut failures = Vec::new();
    for (config, extra) in CONFIGS {
        let opts = options(extra);
        let mut t = Tally::default();
        for (clip, (rf, df)) in &clips {
            let Some(log) = expected(&dir, clip, config) else {
                // libvmaf failed on this clip: cambi (both sides below 216) or SpEED's own
                // size check (SIGSEGV after 'image too small'), which init must refuse.
                let row = manifest
                    .lines()
                    .find(|l| l.contains(&format!("{clip}.{config}.json")))
                    .unwrap_or("");
                if row.contains("SpEED: image too small") {
                    let mut x = make("speed_chroma", &opts).unwrap();
                    let e = x.init(geometry(&rf[0])).err().unwrap_or_else(|| {
                        panic!("{clip} {config}: libvmaf crashed in SpEED, init accepted it")
                    });
                    assert!(e.message().contains("too small"), "{e}");
                    t.refused += 1;
                }
                continue;
            };
            t.compare(clip, config, &opts, rf, df, &log);
        }
        eprintln!("speed_chroma {}", t.report(config));
        failures.extend(t.failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Frames of a raw planar 4:2:0 file (8-bit, or 16-bit little-endian words).
fn load_yuv420(path: &std::path::Path, w: u32, h: u32, bpc: u32) -> Vec<Frame> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let bytes = if bpc > 8 { 2 } else { 1 };
    let sizes = [(w, h), (w / 2, h / 2), (w / 2, h / 2)];
    let frame_len: usize = sizes.iter().map(|(a, b)| (a * b) as usize * bytes).sum();
    assert_eq!(data.len() % frame_len, 0, "{}", path.display());
    data.chunks(frame_len)
        .map(|mut chunk| {
            let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
            for (i, (pw, ph)) in sizes.iter().enumerate() {
                let (pw, ph) = (*pw as usize, *ph as usize);
                let stride = fb.plane_mut(i).stride;
                let (plane, rest) = chunk.split_at(pw * ph * bytes);
                chunk = rest;
                match fb.plane_mut(i).samples_mut().unwrap() {
                    SamplesMut::U8(s) => {
                        for y in 0..ph {
                            s[y * stride..y * stride + pw].copy_from_slice(&plane[y * pw..][..pw]);
                        }
                    }
                    SamplesMut::U16(s) => {
                        for y in 0..ph {
                            for x in 0..pw {
                                let o = 2 * (y * pw + x);
                                s[y * stride + x] = u16::from_le_bytes([plane[o], plane[o + 1]]);
                            }
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
fn speed_chroma_matches_libvmaf_on_raw_yuv_inputs() {
    let Some(dir) = conformance_dir() else { return };
    let mut failures = Vec::new();
    for (file, bpc, logname) in [
        (
            "bbb_576x324_420p8_crf35",
            8,
            "bbb_576x324_420p8_crf35__yuv_420p8",
        ),
        (
            "bbb_576x324_420p10le_crf35",
            10,
            "bbb_576x324_420p8_crf35__yuv_420p10le",
        ),
    ] {
        let rf = load_yuv420(&dir.join(format!("{file}_ref.yuv")), 576, 324, bpc);
        let df = load_yuv420(&dir.join(format!("{file}_dis.yuv")), 576, 324, bpc);
        let mut t = Tally::default();
        for (config, extra) in CONFIGS {
            let log = expected(&dir, logname, config)
                .unwrap_or_else(|| panic!("{logname}: no {config} log"));
            t.compare(logname, config, &options(extra), &rf, &df, &log);
        }
        eprintln!(
            "speed_chroma {}",
            t.report(&format!("{logname} (5 configurations)"))
        );
        failures.extend(t.failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn flat_frame(format: PixelFormat, w: u32, h: u32, v: u8) -> Frame {
    let mut fb = FrameBuilder::new(format, 8, w, h).unwrap();
    for p in fb.planes_mut() {
        if let Some(SamplesMut::U8(s)) = p.samples_mut() {
            s.fill(v);
        }
    }
    fb.build()
}

#[test]
fn small_planes_bad_formats_and_bad_options_refused() {
    let g = |format, width, height| Geometry {
        format,
        bpc: 8,
        width,
        height,
    };
    // 4:2:0 at 160x160: chroma 80x80 passes at prescale 1, fails at 0.5.
    let mut x = make("speed_chroma", &[]).unwrap();
    assert!(x.init(g(PixelFormat::Yuv420p, 160, 160)).is_ok());
    let mut x = make("speed_chroma", &[("speed_prescale", "0.5")]).unwrap();
    let e = x.init(g(PixelFormat::Yuv420p, 160, 160)).unwrap_err();
    assert!(
        e.message().contains("80x80") && e.message().contains("0.5"),
        "{e}"
    );
    let mut x = make("speed_chroma", &[]).unwrap();
    assert!(x.init(g(PixelFormat::Yuv400p, 320, 320)).is_err());
    let mut x = make("speed_temporal", &[]).unwrap();
    assert!(x.init(g(PixelFormat::Yuv420p, 79, 200)).is_err());
    let mut x = make("speed_chroma", &[("speed_kernelscale", "1.2")]).unwrap();
    assert!(x.init(g(PixelFormat::Yuv444p, 200, 200)).is_err());
    for (k, v) in [
        ("speed_prescale", "5"),
        ("speed_sigma_nn", "0.05"),
        ("speed_weight_var_mode", "7"),
        ("speed_nn_floor", "-0.1"),
        ("speed_max_val", "1001"),
        ("speed_kernelscale", "0"),
        ("bogus", "1"),
    ] {
        assert!(make("speed_chroma", &[(k, v)]).is_err(), "{k}={v}");
    }
    assert!(make("speed_chroma", &[("speed_prescale_method", "area")]).is_err());
    assert!(make("speed_chroma", &[("speed_use_ref_diff", "true")]).is_err());
    assert!(make("speed_temporal", &[("speed_weight_var_mode", "1")]).is_err());
}

#[test]
fn names_get_libvmaf_suffixes() {
    let info = &EXTRACTORS[0];
    let o = info
        .parse_options(&[
            ("speed_prescale".into(), "0.6".into()),
            ("speed_prescale_method".into(), "bilinear".into()),
            ("speed_max_val".into(), "45.0".into()),
            ("speed_kernelscale".into(), "1.0".into()),
        ])
        .unwrap();
    assert_eq!(
        crate::feature::name::feature_name(info.provided[2], &o.non_default_params()),
        "speed_chroma_uv_mxv_45_ps_0.6_psm_bilinear"
    );
    let t = &EXTRACTORS[1];
    let o = t
        .parse_options(&[("speed_use_ref_diff".into(), "true".into())])
        .unwrap();
    assert_eq!(
        crate::feature::name::feature_name(t.provided[0], &o.non_default_params()),
        "speed_temporal_urd"
    );
}

#[test]
fn flat_and_identical_input_scores_zero() {
    // Flat planes have a singular covariance on both sides: score 0, like libvmaf.
    let f = flat_frame(PixelFormat::Yuv444p, 96, 96, 100);
    let mut x = make("speed_chroma", &[]).unwrap();
    x.init(geometry(&f)).unwrap();
    let out = run(
        x.as_mut(),
        std::slice::from_ref(&f),
        std::slice::from_ref(&f),
    );
    assert!(out[0].entries.iter().all(|e| e.2 == 0.0), "{:?}", out[0]);
    let mut t = make("speed_temporal", &[]).unwrap();
    t.init(geometry(&f)).unwrap();
    let out = run(t.as_mut(), &[f.clone(), f.clone()], &[f.clone(), f]);
    assert_eq!(out[0].entries[0].2, 0.0);
    assert_eq!(out[1].entries[0].2, 0.0);
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn speed_temporal_is_zero_for_identical_clips_and_positive_otherwise() {
    let Some(dir) = conformance_dir() else { return };
    let (rf, df) = load_clip(&dir, "bbb_576x324_420p8_crf35");
    let mut t = make("speed_temporal", &[]).unwrap();
    t.init(geometry(&rf[0])).unwrap();
    let same = run(t.as_mut(), &rf[..4], &rf[..4]);
    assert!(same.iter().all(|o| o.entries[0].2 == 0.0));
    let mut t = make("speed_temporal", &[]).unwrap();
    t.init(geometry(&rf[0])).unwrap();
    let diff = run(t.as_mut(), &rf[..4], &df[..4]);
    assert_eq!(diff[0].entries[0].2, 0.0);
    assert!(diff[1..].iter().all(|o| o.entries[0].2 > 0.0), "{diff:?}");
    // Indices must increase.
    let mut out = FrameScores::default();
    let again = ExtractInput {
        reference: &rf[0],
        distorted: &df[0],
        prev_reference: None,
        prev_prev_reference: None,
        index: 3,
    };
    let e = t.extract(&again, &mut out).unwrap_err();
    assert!(e.message().contains("increasing"), "{e}");
}
