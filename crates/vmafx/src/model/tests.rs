//! Model tests: the built-in models load as expected and equal the reference copies, bad
//! input is refused by name, and predictions from libvmaf's logged feature values reproduce
//! libvmaf's logged scores on every conformance clip.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::*;
use crate::feature::name::alias;
use crate::testutil::conformance_dir;

fn load(spec: &str) -> LoadedModel {
    LoadedModel::load(&ModelSpec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// (version, feature count, collection member count, whether the transform is on).
const BUILTINS: &[(&str, usize, usize, bool)] = &[
    ("vmaf_float_v0.6.1", 6, 0, false),
    ("vmaf_float_b_v0.6.3", 6, 20, false),
    ("vmaf_float_v0.6.1neg", 6, 0, false),
    ("vmaf_float_4k_v0.6.1", 6, 0, false),
    ("vmaf_v0.6.1", 6, 0, false),
    ("vmaf_b_v0.6.3", 6, 20, false),
    ("vmaf_v0.6.1neg", 6, 0, false),
    ("vmaf_4k_v0.6.1", 6, 0, false),
    ("vmaf_4k_v0.6.1neg", 6, 0, false),
    ("vmaf_v1.0.16_3d0h", 4, 0, true),
    ("vmaf_v1.0.16_3d0h_2160", 4, 0, true),
    ("vmaf_v1.0.16_5d0h", 4, 0, true),
    ("vmaf_v1.0.16_1d5h_2160", 4, 0, true),
    ("vmaf_v1.0.16_hfr_3d0h", 4, 0, true),
    ("vmaf_v1.0.16_hfr_3d0h_2160", 4, 0, true),
    ("vmaf_v1.0.16_hfr_5d0h", 4, 0, true),
    ("vmaf_v1.0.16_hfr_1d5h_2160", 4, 0, true),
];

#[test]
fn every_builtin_loads_with_expected_shape() {
    let listed: Vec<_> = BUILTINS.iter().map(|b| b.0).collect();
    assert_eq!(builtin_versions(), listed.as_slice());
    for &(v, n_features, n_members, transform_on) in BUILTINS {
        let m = load(&format!("version={v}"));
        assert_eq!(m.name(), "vmaf", "{v}");
        assert_eq!(m.features().len(), n_features, "{v}");
        let first = match &m {
            LoadedModel::Single(s) => {
                assert_eq!(n_members, 0, "{v} loaded as a single model");
                s
            }
            LoadedModel::Collection(c) => {
                assert_eq!(c.members().len(), n_members, "{v}");
                assert_eq!(c.members()[19].name(), "vmaf_0020", "{v}");
                c.base()
            }
        };
        assert!(first.support_vectors() > 100, "{v}");
        let hi = if v.ends_with("3d0h_2160") {
            110.0
        } else {
            100.0
        };
        assert_eq!(first.score_clip(), Some((0.0, hi)), "{v}");
        assert_eq!(first.score_transform().enabled, transform_on, "{v}");
        assert_eq!(
            m.output_names().len(),
            if n_members > 0 { n_members + 5 } else { 1 },
            "{v}"
        );
    }
    let neg = load("version=vmaf_v0.6.1neg");
    assert_eq!(
        neg.features()[0].options,
        vec![("adm_enhn_gain_limit".to_string(), "1".to_string())]
    );
    let v16 = load("version=vmaf_v1.0.16_3d0h");
    assert_eq!(v16.features()[0].name, "Cambi_feature_cambi_score");
    assert_eq!(
        v16.features()[0].options,
        [
            ("cambi_high_res_speedup", "1080"),
            ("cambi_vis_lum_threshold", "0.06"),
            ("cambi_max_val", "17")
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()))
    );
}

#[test]
fn spec_flags_change_transform_clip_and_name() {
    let m = load("version=vmaf_v0.6.1:enable_transform:disable_clip:name=foo");
    let LoadedModel::Single(s) = &m else {
        panic!("single")
    };
    assert!(s.score_transform().enabled);
    assert_eq!(s.score_clip(), None);
    assert_eq!(m.name(), "foo");
    let c = load("version=vmaf_b_v0.6.3:name=bar");
    assert_eq!(c.output_names()[1], "bar_0001");
    assert_eq!(c.output_names().last().unwrap(), "bar_ci_p95_hi");
}

/// The reference copies of libvmaf's models, for comparison only.
fn reference_models() -> Option<PathBuf> {
    let dir = conformance_dir()?.join("../models");
    dir.is_dir().then_some(dir)
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn builtins_equal_the_reference_copies() {
    let Some(dir) = reference_models() else {
        return;
    };
    let mut compared = 0;
    for &(v, ..) in BUILTINS {
        let path = dir.join(format!("{v}.json"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let theirs = LoadedModel::from_json_str(v, "vmaf", &text, ReadFlags::default()).unwrap();
        let ours = load(&format!("version={v}"));
        let same = match (&ours, &theirs) {
            (LoadedModel::Single(a), LoadedModel::Single(b)) => a == b,
            (LoadedModel::Collection(a), LoadedModel::Collection(b)) => a == b,
            _ => false,
        };
        assert!(same, "built-in {v} differs from {}", path.display());
        compared += 1;
    }
    assert_eq!(compared, 9, "reference copies compared");
}

/// The key under which libvmaf's log prints `f`: its alias (or long name) when it has no
/// options, else the alias with option suffixes.
fn log_key(metrics: &Map<String, Value>, f: &ModelFeature) -> String {
    let base = alias(&f.name);
    let exact = metrics.keys().find(|k| *k == base || **k == f.name);
    if f.options.is_empty() {
        return exact
            .unwrap_or_else(|| panic!("no key for {}", f.name))
            .clone();
    }
    let prefix = format!("{base}_");
    let with: Vec<_> = metrics.keys().filter(|k| k.starts_with(&prefix)).collect();
    match (with.as_slice(), exact) {
        ([one], _) => (*one).clone(),
        ([], Some(e)) => e.clone(),
        (many, _) => panic!("keys for {} {:?}: {many:?}", f.name, f.options),
    }
}

/// Clips with an expected log for `config`.
fn clips_with(dir: &Path, config: &str) -> Vec<String> {
    let suffix = format!(".{config}.json");
    let mut v: Vec<String> = std::fs::read_dir(dir.join("expected"))
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().into_string().ok()?;
            let clip = n.strip_suffix(&suffix)?;
            (!clip.contains('.')).then(|| clip.to_string())
        })
        .collect();
    v.sort();
    v
}

/// Predicts every frame of every clip logged for `config` and compares every output with
/// libvmaf's. Returns (clips, frames, max |difference|, stddevs compared unscaled).
fn check_predictions(dir: &Path, config: &str, model: &LoadedModel) -> (usize, usize, f64, usize) {
    let clips = clips_with(dir, config);
    let mut frames_seen = 0;
    let mut worst: f64 = 0.0;
    let mut unscaled = 0;
    for clip in &clips {
        let log = crate::testutil::expected(dir, clip, config).unwrap();
        let frames = log["frames"].as_array().unwrap();
        for (i, frame) in frames.iter().enumerate() {
            let metrics = frame["metrics"].as_object().unwrap();
            let values: Vec<f64> = model
                .features()
                .iter()
                .map(|f| {
                    let key = log_key(metrics, f);
                    metrics[&key]
                        .as_f64()
                        .unwrap_or_else(|| panic!("{clip} frame {i}: {key} is {}", metrics[&key]))
                })
                .collect();
            let outputs = model.predict(&values).unwrap();
            assert_eq!(outputs.len(), model.output_names().len());
            let theirs_of = |name: &str| {
                metrics
                    .get(name)
                    .and_then(Value::as_f64)
                    .unwrap_or_else(|| panic!("{clip} frame {i}: no {name} in the {config} log"))
            };
            for (name, ours) in &outputs {
                let theirs = theirs_of(name);
                let (a, b) = match stddev_slopes(model, &outputs, name, &theirs_of) {
                    Some((our_slope, their_slope)) => {
                        unscaled += 1;
                        (ours / our_slope, theirs / their_slope)
                    }
                    None => (*ours, theirs),
                };
                let d = (a - b).abs();
                assert!(
                    d <= 1e-3,
                    "{config} {clip} frame {i} {name}: vmafx {ours:.6} libvmaf {theirs:.6}"
                );
                worst = worst.max(d);
            }
            frames_seen += 1;
        }
    }
    (clips.len(), frames_seen, worst, unscaled)
}

/// For a collection's stddev near a clip bound: the transform slopes libvmaf scaled it by,
/// from our bagging mean and from libvmaf's logged one. Within 0.01 of the bound the slope
/// moves 50 times faster than the mean, so the 6-decimal rounding of the logged inputs
/// (about 1e-5 on the mean) shows in the scaled stddev; comparing the unscaled stddevs
/// keeps the 1e-3 bound honest. `None` elsewhere (compare as is), and where libvmaf's
/// bagging is itself clipped (its mean is then unknown).
fn stddev_slopes(
    model: &LoadedModel,
    outputs: &[(String, f64)],
    name: &str,
    theirs_of: &dyn Fn(&str) -> f64,
) -> Option<(f64, f64)> {
    let LoadedModel::Collection(c) = model else {
        return None;
    };
    if *name != format!("{}_stddev", c.name()) {
        return None;
    }
    let first = &c.members()[0];
    let (lo, hi) = first.score_clip()?;
    if first.score_transform().enabled {
        return None;
    }
    let bagging = format!("{}_bagging", c.name());
    let ours = outputs.iter().find(|(n, _)| *n == bagging)?.1;
    let theirs = theirs_of(&bagging);
    let near = |b: f64| b - 0.01 < lo || b + 0.01 > hi;
    if !(near(ours) || near(theirs)) || theirs <= lo || theirs >= hi {
        return None;
    }
    let slope = |b: f64| {
        let f = |y: f64| first.finish(y, PredictFlags::default());
        (f(b + 0.01) - f(b - 0.01)) / 0.02
    };
    Some((slope(ours), slope(theirs)))
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn predictions_match_libvmaf_logs() {
    let Some(dir) = conformance_dir() else { return };
    let mut report = Vec::new();
    for &(v, ..) in BUILTINS {
        let model = load(&format!("version={v}"));
        let (clips, frames, worst, unscaled) = check_predictions(&dir, v, &model);
        if v.starts_with("vmaf_v1.0.16") && clips == 0 {
            continue;
        }
        assert!(clips >= 5 && frames > 0, "{v}: only {clips} clips logged");
        report.push(format!(
            "{v}: {clips} clips, {frames} frames, max |diff| {worst:.3e}, {unscaled} stddevs unscaled"
        ));
    }
    eprintln!("{}", report.join("\n"));
}

// ---- bad input ----

fn v061() -> Value {
    serde_json::from_str(builtin::builtin_json("vmaf_v0.6.1").unwrap()).unwrap()
}

fn read_err(v: &Value) -> Error {
    LoadedModel::from_json_str("test.json", "vmaf", &v.to_string(), ReadFlags::default())
        .unwrap_err()
}

#[test]
fn refuses_missing_field() {
    for key in [
        "model_type",
        "norm_type",
        "feature_names",
        "model",
        "slopes",
    ] {
        let mut v = v061();
        v["model_dict"].as_object_mut().unwrap().remove(key);
        let e = read_err(&v);
        assert_eq!(e.subject(), "test.json");
        assert_eq!(
            e.message(),
            format!(
                "model_dict.{key}: missing field{}",
                if key == "slopes" {
                    " (norm_type is linear_rescale)"
                } else {
                    ""
                }
            )
        );
    }
}

#[test]
fn refuses_wrong_types() {
    let mut v = v061();
    v["model_dict"]["slopes"][2] = Value::from("x");
    assert_eq!(
        read_err(&v).message(),
        "model_dict.slopes[2]: expected a number, found a string"
    );
    let mut v = v061();
    v["model_dict"]["feature_names"] = Value::from(3);
    assert_eq!(
        read_err(&v).message(),
        "model_dict.feature_names: expected an array, found a number"
    );
    let mut v = v061();
    v["model_dict"]["score_transform"]["enabled"] = Value::from("yes");
    assert_eq!(
        read_err(&v).message(),
        "model_dict.score_transform.enabled: expected a boolean, found a string"
    );
}

#[test]
fn refuses_nan_and_infinite_coefficients() {
    let mut v = v061();
    let text = v["model_dict"]["model"]
        .as_str()
        .unwrap()
        .replacen("\n-4 ", "\nnan ", 1);
    v["model_dict"]["model"] = Value::from(text);
    let e = read_err(&v);
    assert_eq!(
        e.message(),
        "model_dict.model: support vector 1: coefficient is not finite (nan)"
    );
    let mut v = v061();
    let text = v["model_dict"]["model"]
        .as_str()
        .unwrap()
        .replace("rho -1.33133", "rho inf");
    v["model_dict"]["model"] = Value::from(text);
    assert_eq!(
        read_err(&v).message(),
        "model_dict.model: rho is not finite (inf)"
    );
    // JSON itself cannot spell NaN; an overflowing number is refused by the parser.
    let text =
        builtin::builtin_json("vmaf_v0.6.1")
            .unwrap()
            .replacen("0.012020766332648465", "1e999", 1);
    let e = LoadedModel::from_json_str("t", "vmaf", &text, ReadFlags::default()).unwrap_err();
    assert!(e.message().starts_with("not valid JSON"), "{e}");
}

#[test]
fn refuses_unknown_model_type_and_mismatched_lengths() {
    let mut v = v061();
    v["model_dict"]["model_type"] = Value::from("RANDOMFOREST");
    assert!(read_err(&v)
        .message()
        .starts_with("model_dict.model_type: unknown model type 'RANDOMFOREST'"));
    let mut v = v061();
    v["model_dict"]["intercepts"].as_array_mut().unwrap().pop();
    assert_eq!(
        read_err(&v).message(),
        "model_dict.intercepts: mismatched lengths: 6 entries for 6 features (one for the score, then one per feature)"
    );
    let mut v = v061();
    v["model_dict"]["feature_opts_dicts"] = serde_json::json!([{}]);
    assert_eq!(
        read_err(&v).message(),
        "model_dict.feature_opts_dicts: mismatched lengths: 1 option dicts for 6 feature_names"
    );
    let e = read_err(&serde_json::json!({"x": 1}));
    assert!(
        e.message()
            .contains("expected an object with \"model_dict\""),
        "{e}"
    );
    let e = read_err(&serde_json::json!({"0": v061()}));
    assert!(
        e.message()
            .contains("bootstrap members \"1\".. are missing"),
        "{e}"
    );
    let e = read_err(&serde_json::json!({"0": v061(), "1": v061()}));
    assert!(e.message().contains("must be BOOTSTRAP_LIBSVMNUSVR"), "{e}");
    let mut bad = v061();
    bad["model_dict"]["norm_type"] = Value::from(7);
    let e = read_err(&serde_json::json!({"0": bad}));
    assert_eq!(
        e.message(),
        "collection model \"0\": model_dict.norm_type: expected a string, found a number"
    );
}

#[test]
fn refuses_unknown_versions_and_options() {
    let e = LoadedModel::load(&ModelSpec::parse("version=vmaf_v9").unwrap()).unwrap_err();
    assert_eq!(e.subject(), "vmaf_v9");
    assert_eq!(e.status(), crate::Status::NotFound);
    assert!(
        e.message().starts_with("no such built-in model: 'vmaf_v9'"),
        "{e}"
    );
    let e = ModelSpec::parse("version=vmaf_v0.6.1:enable_transfrom").unwrap_err();
    assert_eq!(e.subject(), "enable_transfrom");
    assert!(
        e.message()
            .starts_with("unknown model option 'enable_transfrom'"),
        "{e}"
    );
    let e = LoadedModel::load(&ModelSpec::parse("path=/nonexistent/m.json").unwrap()).unwrap_err();
    assert_eq!(
        (e.subject(), e.status()),
        ("/nonexistent/m.json", crate::Status::Io)
    );
    let m = load("version=vmaf_v0.6.1");
    let e = m.predict(&[0.5; 5]).unwrap_err();
    assert_eq!(e.message(), "model 'vmaf' takes 6 feature values, got 5");
}

#[test]
fn enable_transform_and_disable_clip_change_scores_as_libvmaf() {
    let x = [0.93, 3.5, 0.6, 0.9, 0.95, 0.97];
    let LoadedModel::Single(plain) = load("version=vmaf_v0.6.1:disable_clip") else {
        panic!()
    };
    let LoadedModel::Single(on) = load("version=vmaf_v0.6.1:enable_transform:disable_clip") else {
        panic!()
    };
    let y = plain.predict(&x).unwrap();
    let t = -0.00705305 * y * y + (1.70674692 + 1.72643844 * y);
    let want = if t < y { y } else { t };
    let got = on.predict(&x).unwrap();
    assert!((got - want).abs() < 1e-12 && got != y, "{got} {want} {y}");
    // A score above 100 (a perfect frame) is clipped unless disable_clip.
    let high = [1.0, 5.0, 1.0, 1.0, 1.0, 1.0];
    let LoadedModel::Single(clipped) = load("version=vmaf_v0.6.1") else {
        panic!()
    };
    let raw = plain.predict(&high).unwrap();
    assert!(raw > 100.0, "{raw}");
    assert_eq!(clipped.predict(&high).unwrap(), 100.0);
}

#[test]
fn feature_overloads_follow_the_registry() {
    let e = LoadedModel::load(&ModelSpec::parse("version=vmaf_v0.6.1:nosuch.opt=1").unwrap())
        .unwrap_err();
    assert_eq!(
        e.message(),
        "overload nosuch.opt: no feature of this model is computed by extractor 'nosuch'"
    );
    // Where this build's registry has the vif extractor, the option lands on its features.
    let spec = ModelSpec::parse("version=vmaf_b_v0.6.3:vif.vif_enhn_gain_limit=1.0").unwrap();
    match crate::feature::registry::by_feature("VMAF_integer_feature_vif_scale0_score") {
        Some(vif) if vif.name == "vif" => {
            let m = LoadedModel::load(&spec).unwrap();
            let with: Vec<_> = m
                .features()
                .iter()
                .filter(|f| f.options == [("vif_enhn_gain_limit".to_string(), "1".to_string())])
                .collect();
            assert_eq!(with.len(), 4, "{:?}", m.features());
        }
        _ => assert!(LoadedModel::load(&spec).is_err()),
    }
}
