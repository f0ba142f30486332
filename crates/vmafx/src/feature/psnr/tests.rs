//! PSNR against libvmaf's outputs on the conformance corpus, and its edge cases.

use super::{sse_u16, sse_u8, APSNR_NAMES, EXTRACTORS, MSE_NAMES, PSNR_NAMES};
use crate::error::Status;
use crate::feature::options::split_option_string;
use crate::feature::{ExtractInput, Extractor, FrameScores, Geometry, ScoreStore};
use crate::frame::{Frame, FrameBuilder, PixelFormat, SamplesMut};
use crate::testutil::{clip_ids, conformance_dir, expected, expected_metric, load_clip, same_at_6};

fn make(opts: &str, frame: &Frame) -> Box<dyn Extractor> {
    let info = &EXTRACTORS[0];
    let opts = info
        .parse_options(&split_option_string(opts).unwrap())
        .unwrap();
    let mut ex = (info.create)(&opts).unwrap();
    ex.init(Geometry {
        format: frame.format(),
        bpc: frame.bpc(),
        width: frame.width(),
        height: frame.height(),
    })
    .unwrap();
    ex
}

fn score(ex: &mut dyn Extractor, r: &Frame, d: &Frame, index: u64) -> FrameScores {
    let input = ExtractInput {
        reference: r,
        distorted: d,
        prev_reference: None,
        prev_prev_reference: None,
        index,
    };
    let mut out = FrameScores::default();
    ex.extract(&input, &mut out).unwrap();
    out
}

fn value(out: &FrameScores, name: &str) -> Option<f64> {
    out.entries.iter().find(|e| e.0 == name).map(|e| e.2)
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn matches_libvmaf_on_every_clip() {
    let Some(dir) = conformance_dir() else { return };
    let (mut bad, mut counts) = (Vec::new(), Vec::new());
    for clip in clip_ids() {
        let (refs, dis) = load_clip(&dir, clip);
        let log = expected(&dir, clip, "extra_features").expect("extra_features log");
        let mut ex = make("", &refs[0]);
        let outs: Vec<_> = (0..refs.len())
            .map(|i| score(ex.as_mut(), &refs[i], &dis[i], i as u64))
            .collect();
        let mut n = 0;
        for name in PSNR_NAMES {
            let want = expected_metric(&log, name)
                .unwrap_or_else(|| panic!("{clip}: no {name} in the expected log"));
            assert_eq!(want.len(), outs.len(), "{clip}: frame count");
            for (i, (w, out)) in want.iter().zip(&outs).enumerate() {
                let w = w.unwrap_or_else(|| panic!("{clip} frame {i} {name}: null"));
                let Some(got) = value(out, name) else {
                    bad.push(format!("{clip} frame {i} {name}: not written"));
                    continue;
                };
                n += 1;
                if !same_at_6(got, w) {
                    bad.push(format!(
                        "{clip} extra_features frame {i} {name}: got {got:.6}, libvmaf {w:.6}"
                    ));
                }
            }
        }
        counts.push(format!("{clip}: {n}"));
    }
    eprintln!("psnr values compared:\n  {}", counts.join("\n  "));
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// A frame whose every plane holds `f(plane, x, y)`.
fn frame(
    format: PixelFormat,
    bpc: u32,
    w: u32,
    h: u32,
    f: impl Fn(usize, u32, u32) -> u32,
) -> Frame {
    let mut b = FrameBuilder::new(format, bpc, w, h).unwrap();
    for p in 0..format.plane_count() {
        let plane = b.plane_mut(p);
        let (pw, ph, stride) = (plane.width, plane.height, plane.stride);
        let at = |x: u32, y: u32| y as usize * stride + x as usize;
        match plane.samples_mut().unwrap() {
            SamplesMut::U8(s) => {
                (0..ph).for_each(|y| (0..pw).for_each(|x| s[at(x, y)] = f(p, x, y) as u8))
            }
            SamplesMut::U16(s) => {
                (0..ph).for_each(|y| (0..pw).for_each(|x| s[at(x, y)] = f(p, x, y) as u16))
            }
        }
    }
    b.build()
}

#[test]
fn identical_input_is_capped_and_mono_has_luma_only() {
    for (bpc, cap) in [(8, 60.0), (10, 72.0), (12, 84.0), (16, 108.0)] {
        let f = frame(PixelFormat::Yuv420p, bpc, 17, 9, |p, x, y| {
            (p as u32 + 3 * x + y) & 255
        });
        let out = score(make("enable_mse=true", &f).as_mut(), &f, &f, 0);
        for p in 0..3 {
            assert_eq!(value(&out, PSNR_NAMES[p]), Some(cap), "{bpc} bits");
            assert_eq!(value(&out, MSE_NAMES[p]), Some(0.0), "{bpc} bits");
        }
    }
    let a = frame(PixelFormat::Yuv400p, 8, 8, 8, |_, x, _| x);
    let b = frame(PixelFormat::Yuv400p, 8, 8, 8, |_, x, _| x + 1);
    let out = score(make("", &a).as_mut(), &a, &b, 3);
    // Every sample off by one: mse 1, psnr 10 log10(255²).
    assert_eq!(
        out.entries,
        vec![("psnr_y".to_string(), 3, 10.0 * 65025f64.log10())]
    );
    let out = score(
        make(
            "enable_chroma=false",
            &frame(PixelFormat::Yuv444p, 8, 4, 4, |_, _, _| 0),
        )
        .as_mut(),
        &frame(PixelFormat::Yuv444p, 8, 4, 4, |_, _, _| 0),
        &frame(PixelFormat::Yuv444p, 8, 4, 4, |_, _, _| 9),
        0,
    );
    assert_eq!(out.entries.len(), 1);
}

#[test]
fn peak_options_follow_libvmaf() {
    // 10 bits, every luma sample off by 4: mse 16.
    let a = frame(PixelFormat::Yuv420p, 10, 8, 8, |_, _, _| 100);
    let b = frame(PixelFormat::Yuv420p, 10, 8, 8, |p, _, _| {
        if p == 0 {
            104
        } else {
            100
        }
    });
    let y = |opts: &str| value(&score(make(opts, &a).as_mut(), &a, &b, 0), "psnr_y").unwrap();
    assert_eq!(y(""), 10.0 * (1023.0f64 * 1023.0 / 16.0).log10());
    assert_eq!(
        y("reduced_hbd_peak=true"),
        10.0 * (1020.0f64 * 1020.0 / 16.0).log10()
    );
    // min_sse 64 over 64 luma samples caps luma at ceil(10 log10(1023² / 1)) = 61 dB; chroma
    // (16 samples) at ceil(10 log10(1023² / 4)) = 55 dB.
    let cb = value(
        &score(make("min_sse=64", &a).as_mut(), &a, &a, 0),
        "psnr_cb",
    )
    .unwrap();
    assert_eq!(cb, 55.0);
    assert_eq!(
        value(&score(make("min_sse=64", &a).as_mut(), &a, &a, 0), "psnr_y"),
        Some(61.0)
    );
}

#[test]
fn sse_kernels_wrap_and_widen_like_libvmaf() {
    let a = [0u8, 255, 10, 0, 0, 0];
    let b = [255u8, 0, 13, 0, 0, 0];
    assert_eq!(sse_u8(&a, 3, &b, 3, 3, 2), 2 * 65025 + 9);
    let a = [0u16, 65535];
    let b = [65535u16, 0];
    assert_eq!(sse_u16(&a, 2, &b, 2, 2, 1), 2 * 65535u64 * 65535);
}

/// A row long enough for the 32-bit row sum to wrap (70,000 differences of 255 is about
/// 4.55e9): every table this processor runs wraps it as the scalar kernel does.
#[test]
fn every_table_wraps_long_8_bit_rows_like_scalar() {
    let n = 70_001;
    let a: Vec<u8> = (0..2 * n)
        .map(|i| if i % 3 == 0 { 0 } else { 255 })
        .collect();
    let b: Vec<u8> = (0..2 * n)
        .map(|i| if i % 5 == 0 { 255 } else { 0 })
        .collect();
    let want = sse_u8(&a, n, &b, n, n, 2);
    assert!(want < 2 * 70_001 * 65025, "the scalar row sums wrap");
    let w16: Vec<u16> = a.iter().map(|&v| v as u16 * 257).collect();
    let want16 = sse_u16(&w16, n, &w16[1..], n, n - 1, 2);
    for k in super::dispatch::KERNELS.runnable() {
        assert_eq!((k.sse_u8)(&a, n, &b, n, n, 2), want, "{:?}", k.level);
        assert_eq!((k.sse_u16)(&w16, n, &w16[1..], n, n - 1, 2), want16);
    }
}

#[test]
fn bad_options_and_inputs_refused() {
    let info = &EXTRACTORS[0];
    for (opts, status) in [
        ("min_sse=-1", Status::Range),
        ("enable_chroma=yes", Status::Invalid),
        ("peak=255", Status::NotFound),
    ] {
        let e = info
            .parse_options(&split_option_string(opts).unwrap())
            .unwrap_err();
        assert_eq!(e.status(), status, "{opts}: {e}");
        assert!(e.subject().starts_with("psnr:"), "{opts}: {e}");
    }

    let a = frame(PixelFormat::Yuv420p, 8, 8, 8, |_, _, _| 1);
    let opts = info.parse_options(&[]).unwrap();
    let mut ex = (info.create)(&opts).unwrap();
    let input = ExtractInput {
        reference: &a,
        distorted: &a,
        prev_reference: None,
        prev_prev_reference: None,
        index: 0,
    };
    let mut out = FrameScores::default();
    assert!(ex
        .extract(&input, &mut out)
        .unwrap_err()
        .message()
        .contains("before init"));
    ex = make("", &a);
    let other = frame(PixelFormat::Yuv444p, 8, 8, 8, |_, _, _| 1);
    let e = ex
        .extract(
            &ExtractInput {
                distorted: &other,
                ..input
            },
            &mut out,
        )
        .unwrap_err();
    assert_eq!(e.subject(), "distorted");
    let deep = frame(PixelFormat::Yuv420p, 10, 8, 8, |_, _, _| 1);
    let e = ex
        .extract(
            &ExtractInput {
                reference: &deep,
                ..input
            },
            &mut out,
        )
        .unwrap_err();
    assert_eq!(e.subject(), "reference");
    assert!(out.entries.is_empty());
}

/// The whole-run values a flush writes (and no per-frame score).
#[derive(Default)]
struct Aggregates(Vec<(String, f64)>);

impl ScoreStore for Aggregates {
    fn get(&self, _name: &str, _index: u64) -> Option<f64> {
        None
    }
    fn put(&mut self, name: &str, index: u64, _value: f64) {
        panic!("psnr's flush wrote {name} at frame {index}");
    }
    fn put_aggregate(&mut self, name: &str, value: f64) {
        self.0.push((name.to_string(), value));
    }
}

/// Scores `pairs` with `opts` and returns the flush's whole-run values with the per-frame
/// MSEs of each plane.
fn whole_run(opts: &str, pairs: &[(Frame, Frame)]) -> (Vec<(String, f64)>, Vec<[f64; 3]>) {
    let mut ex = make(opts, &pairs[0].0);
    let mse = pairs
        .iter()
        .enumerate()
        .map(|(i, (r, d))| {
            let out = score(ex.as_mut(), r, d, i as u64);
            MSE_NAMES.map(|n| value(&out, n).unwrap_or(f64::NAN))
        })
        .collect();
    let mut store = Aggregates::default();
    ex.flush(&mut store).unwrap();
    (store.0, mse)
}

#[test]
fn whole_run_psnr_sums_every_frame() {
    // Three 4:2:0 pairs at 8 and 10 bits with different errors per plane and frame.
    for bpc in [8, 10] {
        let pairs: Vec<_> = (0..3u32)
            .map(|k| {
                let r = frame(PixelFormat::Yuv420p, bpc, 16, 12, |p, x, y| {
                    40 + x + 3 * y + p as u32
                });
                let d = frame(PixelFormat::Yuv420p, bpc, 16, 12, |p, x, y| {
                    40 + x + 3 * y + p as u32 + (x * (k + 1) + y + p as u32) % (3 + k + p as u32)
                });
                (r, d)
            })
            .collect();
        let (got, mse) = whole_run("enable_apsnr=true:enable_mse=true", &pairs);
        let names: Vec<_> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, APSNR_NAMES);
        let peak = ((1u32 << bpc) - 1) as f64;
        for (p, (_, v)) in got.iter().enumerate() {
            // Each frame's SSE back from its MSE (exact at these sizes), then the run's PSNR.
            let pixels = if p == 0 { 16.0 * 12.0 } else { 8.0 * 6.0 };
            let sse: f64 = mse.iter().map(|m| (m[p] * pixels).round()).sum();
            let want = 10.0 * (peak * peak * 3.0 * pixels / sse).log10();
            assert!(
                (v - want).abs() < 1e-9,
                "{bpc} bits, plane {p}: {v} against {want}"
            );
        }
    }
}

#[test]
fn whole_run_psnr_caps_identical_runs_and_skips_planes_not_scored() {
    let a = frame(PixelFormat::Yuv420p, 8, 16, 12, |p, x, y| x + y + p as u32);
    let pairs = vec![(a.clone(), a.clone()), (a.clone(), a)];
    // No error: libvmaf's cap, ceil(10 log10(255^2 * pixels * 2)).
    let (got, _) = whole_run("enable_apsnr=true", &pairs);
    let cap = |pixels: f64| (10.0 * (255.0f64 * 255.0 * pixels * 2.0).log10()).ceil();
    assert_eq!(got[0].1, cap(2.0 * 16.0 * 12.0));
    assert_eq!(got[1].1, cap(2.0 * 8.0 * 6.0));
    // Without chroma only the luma's value (libvmaf writes -inf for the other two).
    let (got, _) = whole_run("enable_apsnr=true:enable_chroma=false", &pairs);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, "apsnr_y");
    // Without enable_apsnr, nothing.
    assert!(whole_run("", &pairs).0.is_empty());
}
