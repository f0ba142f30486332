//! Test support for the float extractors: drives an extractor over a corpus clip the way
//! the context does, and compares what it wrote with libvmaf's expected logs.

use std::collections::{BTreeMap, HashMap};

use crate::feature::{ExtractInput, ExtractorInfo, FrameScores, Geometry, Ordering, ScoreStore};
use crate::frame::Frame;
use crate::testutil;

/// A `ScoreStore` over a map, as the collector would hold scores.
#[derive(Debug, Default)]
pub(crate) struct MapStore(pub HashMap<(String, u64), f64>);

impl ScoreStore for MapStore {
    fn get(&self, name: &str, index: u64) -> Option<f64> {
        self.0.get(&(name.to_string(), index)).copied()
    }
    fn put(&mut self, name: &str, index: u64, value: f64) {
        self.0.insert((name.to_string(), index), value);
    }
    fn put_aggregate(&mut self, name: &str, _value: f64) {
        panic!("the float extractors write no whole-run value, yet one wrote {name}");
    }
}

/// Runs `info` with options `opts` (`name=value:...`) over the frame pairs, then flushes.
pub(crate) fn run(info: &ExtractorInfo, opts: &str, refs: &[Frame], dis: &[Frame]) -> MapStore {
    let pairs = crate::feature::options::split_option_string(opts).unwrap();
    let values = info.parse_options(&pairs).unwrap();
    let mut ex = (info.create)(&values).unwrap();
    let f = &refs[0];
    ex.init(Geometry {
        format: f.format(),
        bpc: f.bpc(),
        width: f.width(),
        height: f.height(),
    })
    .unwrap();
    let mut store = MapStore::default();
    for (i, (r, d)) in refs.iter().zip(dis).enumerate() {
        let prev = |k: usize| (info.ordering == Ordering::PrevRef && i >= k).then(|| &refs[i - k]);
        let input = ExtractInput {
            reference: r,
            distorted: d,
            prev_reference: prev(1),
            prev_prev_reference: prev(2),
            index: i as u64,
        };
        let mut out = FrameScores::default();
        ex.extract(&input, &mut out).unwrap();
        for (name, idx, v) in out.entries {
            store.put(&name, idx, v);
        }
    }
    ex.flush(&mut store).unwrap();
    store
}

/// Per-feature agreement with an expected log.
#[derive(Debug, Default, Clone)]
pub(crate) struct Agreement {
    /// Values compared.
    pub count: usize,
    /// Values that print identically with 6 decimals.
    pub same6: usize,
    /// Largest absolute difference.
    pub max_diff: f64,
}

/// Compares every metric of `log` that `store` wrote (by printed name, i.e. alias of the
/// collector key), frame by frame; metrics for which `ours` is false are left out.
/// Returns the agreement per metric and the mismatches: every value must print as libvmaf's
/// with 6 decimals. Only where `strict` is false (this processor's reciprocal estimate is not
/// the goldens' machine's, see [`testutil::rcp_as_goldens`]) may a value differ, within
/// [`near_golden`].
pub(crate) fn compare(
    clip: &str,
    config: &str,
    log: &serde_json::Value,
    store: &MapStore,
    ours: &dyn Fn(&str) -> bool,
    strict: bool,
    stats: &mut BTreeMap<String, Agreement>,
) -> Vec<String> {
    let mut printed: HashMap<(String, u64), f64> = HashMap::new();
    for ((name, idx), v) in &store.0 {
        printed.insert((crate::feature::name::alias(name).to_string(), *idx), *v);
    }
    let mut bad = Vec::new();
    let frames = log["frames"].as_array().unwrap();
    for (fi, frame) in frames.iter().enumerate() {
        for (metric, value) in frame["metrics"].as_object().unwrap() {
            if !ours(metric) {
                continue;
            }
            let Some(&got) = printed.get(&(metric.clone(), fi as u64)) else {
                bad.push(format!(
                    "{clip} {config} frame {fi} {metric}: expected {value}, not written"
                ));
                continue;
            };
            let Some(want) = value.as_f64() else {
                if got.is_finite() {
                    bad.push(format!(
                        "{clip} {config} frame {fi} {metric}: expected null, got {got:.6}"
                    ));
                }
                continue;
            };
            let diff = (got - want).abs();
            let st = stats.entry(metric.clone()).or_default();
            st.count += 1;
            let same = testutil::same_at_6(got, want);
            if same {
                st.same6 += 1;
            }
            if diff > st.max_diff {
                st.max_diff = diff;
            }
            if !same && (strict || !near_golden(metric, want, diff)) {
                bad.push(format!(
                    "{clip} {config} frame {fi} {metric}: expected {want:.6}, got {got:.6} (diff {diff:.3e})"
                ));
            }
        }
    }
    bad
}

/// Where the processor's reciprocal estimate differs from the goldens' machine's: within
/// 1e-5 of the golden, and the float ADM numerator totals (single-precision sums the
/// estimate moves by an ulp) within two f32 steps plus the printed rounding.
fn near_golden(metric: &str, want: f64, diff: f64) -> bool {
    let step = ((want as f32).abs().next_up() - (want as f32).abs()) as f64;
    let bound = if metric.starts_with("adm_num") {
        (2.0 * step + 5e-7).max(1e-5)
    } else {
        1e-5
    };
    diff <= bound
}

/// Prints the agreement table.
pub(crate) fn report(title: &str, stats: &BTreeMap<String, Agreement>) {
    eprintln!("{title}: feature, identical at 6 decimals / compared, max |diff|");
    for (name, s) in stats {
        eprintln!(
            "  {name:<20} {:>5}/{:<5} {:.3e}",
            s.same6, s.count, s.max_diff
        );
    }
}

/// Reads a raw planar 4:2:0 little-endian `.yuv` file of the corpus.
fn load_yuv420(path: &std::path::Path, w: u32, h: u32, bpc: u32) -> Vec<Frame> {
    use crate::frame::{FrameBuilder, PixelFormat, SamplesMut};
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let bytes = if bpc > 8 { 2 } else { 1 };
    let sizes = [(w, h), (w / 2, h / 2), (w / 2, h / 2)];
    let frame_len: usize = sizes.iter().map(|(a, b)| (a * b) as usize * bytes).sum();
    let mut frames = Vec::new();
    for chunk in data.chunks_exact(frame_len) {
        let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
        let mut pos = 0;
        for (i, (pw, ph)) in sizes.iter().enumerate() {
            let plane = fb.plane_mut(i);
            let stride = plane.stride;
            let (pw, ph) = (*pw as usize, *ph as usize);
            match plane.samples_mut().unwrap() {
                SamplesMut::U8(s) => {
                    for y in 0..ph {
                        s[y * stride..y * stride + pw]
                            .copy_from_slice(&chunk[pos + y * pw..pos + (y + 1) * pw]);
                    }
                }
                SamplesMut::U16(s) => {
                    for y in 0..ph {
                        for x in 0..pw {
                            let o = pos + 2 * (y * pw + x);
                            s[y * stride + x] = u16::from_le_bytes([chunk[o], chunk[o + 1]]);
                        }
                    }
                }
            }
            pos += pw * ph * bytes;
        }
        frames.push(fb.build());
    }
    frames
}

/// The configurations checked, with the options each needs (`neg` for the NEG model).
fn configs(neg_opts: &str) -> Vec<(&'static str, String)> {
    vec![
        ("float_features_debug", "debug=true".to_string()),
        ("vmaf_float_v0.6.1", String::new()),
        ("vmaf_float_4k_v0.6.1", String::new()),
        ("vmaf_float_b_v0.6.3", String::new()),
        ("vmaf_float_v0.6.1neg", neg_opts.to_string()),
    ]
}

/// Runs `info` over every corpus clip (and the raw 8 and 10-bit `.yuv` twins of
/// bbb_576x324) for the float configurations and checks every value `ours` selects:
/// `float_features_debug` with `debug=true`, the float models at defaults, and
/// `vmaf_float_v0.6.1neg` with `neg_opts`. Prints the agreement table and fails naming
/// every mismatch.
pub(crate) fn check_corpus(info: &ExtractorInfo, neg_opts: &str, ours: &dyn Fn(&str) -> bool) {
    let Some(dir) = testutil::conformance_dir() else {
        return;
    };
    let strict = testutil::rcp_as_goldens();
    if !strict {
        eprintln!(
            "{}: this processor's reciprocal estimate is not the goldens' machine's: values \
             within 1e-5 (float ADM numerators two f32 steps) of libvmaf's are accepted",
            info.name
        );
    }
    let mut stats = BTreeMap::new();
    let mut bad = Vec::new();
    let mut compared = 0;
    let mut clips: Vec<(String, Vec<Frame>, Vec<Frame>)> = Vec::new();
    for clip in testutil::clip_ids() {
        let (r, d) = testutil::load_clip(&dir, clip);
        clips.push((clip.to_string(), r, d));
    }
    for (tag, file, bpc) in [("420p10le", "420p10le", 10), ("420p8", "420p8", 8)] {
        let f = |side: &str| dir.join(format!("bbb_576x324_{file}_crf35_{side}.yuv"));
        if f("ref").is_file() && f("dis").is_file() {
            let (r, d) = (
                load_yuv420(&f("ref"), 576, 324, bpc),
                load_yuv420(&f("dis"), 576, 324, bpc),
            );
            clips.push((format!("bbb_576x324_420p8_crf35__yuv_{tag}"), r, d));
        }
    }
    for (clip, refs, dis) in &clips {
        let mut runs: HashMap<String, MapStore> = HashMap::new();
        for (config, opts) in configs(neg_opts) {
            let Some(log) = testutil::expected(&dir, clip, config) else {
                continue;
            };
            let store = runs
                .entry(opts.clone())
                .or_insert_with(|| run(info, &opts, refs, dis));
            bad.extend(compare(clip, config, &log, store, ours, strict, &mut stats));
            compared += 1;
        }
    }
    report(info.name, &stats);
    assert!(compared > 0, "no expected logs found for {}", info.name);
    assert!(!stats.is_empty(), "no values compared for {}", info.name);
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
