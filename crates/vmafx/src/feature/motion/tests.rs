//! Motion against libvmaf's outputs on the conformance corpus, and its edge cases.

use std::collections::HashMap;

use super::kernel::{LumaView, FILTER};
use super::sad::blurred_sad;
use super::{EXTRACTORS, MOTION, MOTION2, MOTION3, SAD, V2_SAD};
use crate::error::Status;
use crate::feature::name::{alias, feature_name};
use crate::feature::options::split_option_string;
use crate::feature::{ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, ScoreStore};
use crate::frame::{Frame, FrameBuilder, PixelFormat, SamplesMut};
use crate::testutil::{clip_ids, conformance_dir, expected, expected_metric, load_clip, same_at_6};

/// A collector for tests.
#[derive(Default)]
struct Store(HashMap<(String, u64), f64>);

impl ScoreStore for Store {
    fn get(&self, name: &str, index: u64) -> Option<f64> {
        self.0.get(&(name.to_string(), index)).copied()
    }
    fn put(&mut self, name: &str, index: u64, value: f64) {
        let old = self.0.insert((name.to_string(), index), value);
        assert!(old.is_none(), "{name} written twice at {index}");
    }
    fn put_aggregate(&mut self, name: &str, _value: f64) {
        panic!("motion writes no whole-run value, yet wrote {name}");
    }
}

fn make(info: &ExtractorInfo, opts: &str, frame: &Frame) -> Box<dyn Extractor> {
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

/// Runs an extractor over `refs` as the context would, then flushes.
fn run(info: &ExtractorInfo, opts: &str, refs: &[Frame], dis: &[Frame]) -> Store {
    let mut ex = make(info, opts, &refs[0]);
    let mut store = Store::default();
    for i in 0..refs.len() {
        let input = ExtractInput {
            reference: &refs[i],
            distorted: &dis[i],
            prev_reference: i.checked_sub(1).map(|j| &refs[j]),
            prev_prev_reference: i.checked_sub(2).map(|j| &refs[j]),
            index: i as u64,
        };
        let mut out = FrameScores::default();
        ex.extract(&input, &mut out).unwrap();
        for (name, index, value) in out.entries {
            store.put(&name, index, value);
        }
    }
    ex.flush(&mut store).unwrap();
    store
}

/// Compares `features` (long names, with `opts`' suffixes) with the expected log; returns
/// the number of values compared and pushes a line per mismatch.
fn compare(
    clip: &str,
    config: &str,
    opts: &str,
    features: &[&str],
    store: &Store,
    log: &serde_json::Value,
    bad: &mut Vec<String>,
) -> usize {
    let info = &EXTRACTORS[0];
    let params = info
        .parse_options(&split_option_string(opts).unwrap())
        .unwrap()
        .non_default_params();
    let mut n = 0;
    for long in features {
        let key = feature_name(long, &params);
        let printed = alias(&key);
        let want = expected_metric(log, printed)
            .unwrap_or_else(|| panic!("{clip} {config}: no {printed} in the expected log"));
        for (i, w) in want.iter().enumerate() {
            let w = w.unwrap_or_else(|| panic!("{clip} {config} frame {i} {printed}: null"));
            let Some(got) = store.get(&key, i as u64) else {
                bad.push(format!("{clip} {config} frame {i} {printed}: not written"));
                continue;
            };
            n += 1;
            if !same_at_6(got, w) {
                bad.push(format!(
                    "{clip} {config} frame {i} {printed}: got {got:.6}, libvmaf {w:.6}"
                ));
            }
        }
    }
    n
}

const HFR_OPTS: &str =
    "motion_max_val=18.0:motion_five_frame_window=true:motion_moving_average=true";

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn matches_libvmaf_on_every_clip() {
    let Some(dir) = conformance_dir() else { return };
    let info = &EXTRACTORS[0];
    let (mut bad, mut counts) = (Vec::new(), Vec::new());
    for clip in clip_ids() {
        let (refs, dis) = load_clip(&dir, clip);
        let log = expected(&dir, clip, "vmaf_v0.6.1").expect("default model log");
        let store = run(info, "", &refs, &dis);
        let a = compare(
            clip,
            "vmaf_v0.6.1",
            "",
            &[SAD, MOTION2, MOTION3],
            &store,
            &log,
            &mut bad,
        );

        let log = expected(&dir, clip, "integer_features_debug").expect("debug log");
        let store = run(info, "debug=true", &refs, &dis);
        let all = [SAD, MOTION, MOTION2, MOTION3];
        let b = compare(
            clip,
            "integer_features_debug",
            "",
            &all,
            &store,
            &log,
            &mut bad,
        );

        let mut c = 0;
        if let Some(log) = expected(&dir, clip, "vmaf_v1.0.16_hfr_3d0h") {
            let store = run(info, HFR_OPTS, &refs, &dis);
            let f = [SAD, MOTION2, MOTION3];
            c = compare(
                clip,
                "vmaf_v1.0.16_hfr_3d0h",
                HFR_OPTS,
                &f,
                &store,
                &log,
                &mut bad,
            );
        }
        counts.push(format!("{clip}: {a} default, {b} debug, {c} hfr"));
    }
    eprintln!("motion values compared:\n  {}", counts.join("\n  "));
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// A frame of `bpc` bits whose luma is `f(x, y)`.
fn frame(bpc: u32, w: u32, h: u32, f: impl Fn(u32, u32) -> u32) -> Frame {
    let mut b = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
    let p = b.plane_mut(0);
    let stride = p.stride;
    match p.samples_mut().unwrap() {
        SamplesMut::U8(s) => (0..h)
            .for_each(|y| (0..w).for_each(|x| s[y as usize * stride + x as usize] = f(x, y) as u8)),
        SamplesMut::U16(s) => (0..h).for_each(|y| {
            (0..w).for_each(|x| s[y as usize * stride + x as usize] = f(x, y) as u16)
        }),
    }
    b.build()
}

/// A small deterministic generator of `bpc`-bit samples.
fn noise(seed: u32, bpc: u32) -> impl Fn(u32, u32) -> u32 {
    move |x, y| {
        let mut v = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663) ^ seed)
            .wrapping_mul(2_654_435_761);
        v ^= v >> 15;
        v & ((1 << bpc) - 1)
    }
}

/// The blurred SAD written the plain way: a full blurred difference image, then sums.
fn naive_sad(prev: &Frame, cur: &Frame) -> u64 {
    let (w, h, bpc) = (cur.width() as i64, cur.height() as i64, cur.bpc());
    let m = |i: i64, n: i64| {
        if i < 0 {
            -i
        } else if i >= n {
            2 * n - i - 2
        } else {
            i
        }
    };
    let (p, c) = (prev.plane(0), cur.plane(0));
    let mut rows = vec![0i64; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            let acc: i64 = (0..5)
                .map(|k| {
                    let yy = m(y - 2 + k, h) as u32;
                    FILTER[k as usize] as i64
                        * (p.get(x as u32, yy) as i64 - c.get(x as u32, yy) as i64)
                })
                .sum();
            rows[(y * w + x) as usize] = (acc + (1 << (bpc - 1))) >> bpc;
        }
    }
    let mut sad = 0u64;
    for y in 0..h {
        for x in 0..w {
            let acc: i64 = (0..5)
                .map(|k| FILTER[k as usize] as i64 * rows[(y * w + m(x - 2 + k, w)) as usize])
                .sum();
            sad += ((acc + (1 << 15)) >> 16).unsigned_abs();
        }
    }
    sad
}

#[test]
fn kernel_matches_plain_blur_at_small_and_odd_sizes() {
    for bpc in [8, 10, 12, 16] {
        for (w, h) in [(3, 3), (4, 3), (3, 5), (5, 4), (7, 9), (33, 17)] {
            let (a, b) = (
                frame(bpc, w, h, noise(1, bpc)),
                frame(bpc, w, h, noise(2, bpc)),
            );
            let mut buf = vec![0; w as usize];
            let got = match (a.plane(0).samples(), b.plane(0).samples()) {
                (crate::frame::Samples::U8(p), crate::frame::Samples::U8(c)) => blurred_sad(
                    LumaView {
                        samples: p,
                        width: w as usize,
                        height: h as usize,
                        stride: a.plane(0).stride,
                    },
                    LumaView {
                        samples: c,
                        width: w as usize,
                        height: h as usize,
                        stride: b.plane(0).stride,
                    },
                    bpc,
                    &mut buf,
                ),
                (crate::frame::Samples::U16(p), crate::frame::Samples::U16(c)) => blurred_sad(
                    LumaView {
                        samples: p,
                        width: w as usize,
                        height: h as usize,
                        stride: a.plane(0).stride,
                    },
                    LumaView {
                        samples: c,
                        width: w as usize,
                        height: h as usize,
                        stride: b.plane(0).stride,
                    },
                    bpc,
                    &mut buf,
                ),
                _ => unreachable!(),
            };
            assert_eq!(got, naive_sad(&a, &b), "{w}x{h} at {bpc} bits");
            assert!(got > 0, "{w}x{h} at {bpc} bits: noise gave no motion");
        }
    }
}

#[test]
fn static_scene_has_no_motion() {
    for bpc in [8, 10] {
        let f = frame(bpc, 21, 13, noise(7, bpc));
        let refs = vec![f.clone(); 6];
        for opts in [
            "",
            "motion_five_frame_window=true:motion_moving_average=true",
        ] {
            let store = run(&EXTRACTORS[0], opts, &refs, &refs);
            assert_eq!(store.0.len(), 3 * refs.len(), "{opts}");
            for (k, v) in &store.0 {
                assert_eq!(*v, 0.0, "{k:?} with '{opts}' at {bpc} bits");
            }
        }
    }
}

#[test]
fn motion_v2_writes_only_its_sad() {
    let refs: Vec<_> = (0..4).map(|s| frame(8, 16, 9, noise(s, 8))).collect();
    let v1 = run(&EXTRACTORS[0], "debug=true", &refs, &refs);
    let v2 = run(&EXTRACTORS[1], "debug=true", &refs, &refs);
    assert_eq!(v2.0.len(), refs.len());
    for i in 0..refs.len() as u64 {
        assert_eq!(v2.get(V2_SAD, i), v1.get(SAD, i), "frame {i}");
    }
    assert!(v1.get(SAD, 1).unwrap() > 0.0);
    assert_eq!(
        crate::feature::registry::by_name("motion_v2").unwrap().name,
        "motion_v2"
    );
    let v2 = run(&EXTRACTORS[1], "motion_force_zero=true", &refs, &refs);
    assert_eq!(v2.get(&format!("{V2_SAD}_force_0"), 2), Some(0.0));
}

#[test]
fn bad_options_and_inputs_refused() {
    let info = &EXTRACTORS[0];
    for (opts, status) in [
        ("motion_blend_factor=1.5", Status::Range),
        ("motion_max_val=-1", Status::Range),
        ("motion_fps_weight=6", Status::Range),
        ("motion_blend_offset=abc", Status::Invalid),
        ("motion_five_frame_window=2", Status::Invalid),
        ("motion_speed=1", Status::NotFound),
    ] {
        let e = info
            .parse_options(&split_option_string(opts).unwrap())
            .unwrap_err();
        assert_eq!(e.status(), status, "{opts}: {e}");
        assert!(e.subject().starts_with("motion:"), "{opts}: {e}");
    }

    let f = frame(8, 16, 8, noise(3, 8));
    let opts = info.parse_options(&[]).unwrap();
    let mut ex = (info.create)(&opts).unwrap();
    let g = |w, h| Geometry {
        format: PixelFormat::Yuv420p,
        bpc: 8,
        width: w,
        height: h,
    };
    assert_eq!(ex.init(g(2, 8)).unwrap_err().subject(), "width");
    assert_eq!(ex.init(g(16, 2)).unwrap_err().subject(), "height");
    let missing = ExtractInput {
        reference: &f,
        distorted: &f,
        prev_reference: None,
        prev_prev_reference: None,
        index: 1,
    };
    let mut out = FrameScores::default();
    let e = ex.extract(&missing, &mut out).unwrap_err();
    assert!(e.message().contains("before init"), "{e}");
    ex.init(g(16, 8)).unwrap();
    assert_eq!(
        ex.extract(&missing, &mut out).unwrap_err().subject(),
        "prev_reference"
    );
    let other = frame(8, 17, 8, noise(3, 8));
    let wrong = ExtractInput {
        prev_reference: Some(&other),
        ..missing
    };
    assert_eq!(
        ex.extract(&wrong, &mut out).unwrap_err().subject(),
        "prev_reference"
    );
    let deep = frame(10, 16, 8, noise(3, 10));
    let wrong = ExtractInput {
        prev_reference: Some(&deep),
        ..missing
    };
    assert!(ex.extract(&wrong, &mut out).is_err());
    assert!(out.entries.is_empty());
}

#[test]
fn flush_blends_and_windows_like_libvmaf() {
    // SAD scores 0, 50, 10, 30: motion2 = min(sad[i], sad[i + 1]), the last its own.
    let mut store = Store::default();
    for (i, v) in [0.0, 50.0, 10.0, 30.0].into_iter().enumerate() {
        store.put(SAD, i as u64, v);
    }
    let blend = super::temporal::Blend {
        factor: 0.5,
        offset: 20.0,
        max_val: 25.0,
        moving_average: false,
        five_frame_window: false,
    };
    super::temporal::late_scores(&mut store, 0, SAD, MOTION2, MOTION3, &blend);
    let m2: Vec<_> = (0..4).map(|i| store.get(MOTION2, i).unwrap()).collect();
    let m3: Vec<_> = (0..4).map(|i| store.get(MOTION3, i).unwrap()).collect();
    assert_eq!(m2, [0.0, 10.0, 10.0, 30.0]);
    // Frame 0 takes frame 1's SAD blended: 50 * 0.5 + 0.5 * 20 = 35, capped at 25.
    assert_eq!(m3, [25.0, 10.0, 10.0, 25.0]);
}
