//! Checking a report: against a re-run of the same configuration (every configuration field
//! of the record and every score equal bit for bit), then against itself (the record's
//! digest, and for a lossless report the digest of its scores).

use serde_json::Value;

use super::digest::{digest_of_value, scores_digest};
use super::printf::ScoreFormat;

/// The first field that differs, with both values (the second is what was expected).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The field's path in the report (`provenance.models[0].sha256`, `frames[3].metrics.vmaf`).
    pub field: String,
    /// Its value in the recorded report.
    pub recorded: String,
    /// Its value in the re-run, or the value the recorded report's own contents give.
    pub expected: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} differs: recorded {}, expected {}",
            self.field, self.recorded, self.expected
        )
    }
}

/// Record fields that describe where a run happened, not what it computed: they may differ
/// between a report and its re-run.
const ENVIRONMENT: &[&str] = &[
    "version",
    "commit",
    "build_id",
    "compiler",
    "build_flags",
    "fp_policy",
    "backends",
    "rust_twins",
    "simd",
    "device_index",
    "device_name",
    "device_runtime",
    "elapsed_ns",
    "digest",
    "scores_digest",
    "device",
    "runtime",
];

fn text(v: Option<&Value>) -> String {
    match v {
        None => "(absent)".into(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

/// Checks `recorded` (a report's JSON with a `provenance` object): with `rerun`, every
/// configuration field of its record and every score of its frames equal the re-run's,
/// then its record's digest and, when its `score_format` is lossless, its scores' digest.
pub fn verify(recorded: &Value, rerun: Option<&Value>) -> Result<(), Mismatch> {
    let prov = &recorded["provenance"];
    if let Some(other) = rerun {
        compare(prov, &other["provenance"], "provenance")?;
        compare_frames(recorded, other)?;
    }
    let digest = digest_of_value(prov);
    if prov.get("digest").and_then(Value::as_str) != Some(digest.as_str()) {
        return Err(Mismatch {
            field: "provenance.digest".into(),
            recorded: text(prov.get("digest")),
            expected: digest,
        });
    }
    let lossless = recorded
        .get("score_format")
        .and_then(Value::as_str)
        .and_then(|f| ScoreFormat::parse(f).ok())
        .is_some_and(|f| f.is_lossless());
    if lossless {
        if let Some(scores) = frame_scores(recorded) {
            let d = scores_digest(scores);
            if prov.get("scores_digest").and_then(Value::as_str) != Some(d.as_str()) {
                return Err(Mismatch {
                    field: "provenance.scores_digest".into(),
                    recorded: text(prov.get("scores_digest")),
                    expected: d,
                });
            }
        }
    }
    Ok(())
}

/// Checks a libvmaf JSON log written with its record ([`crate::Report::render_with_provenance`],
/// `vmafx --provenance`): it has a `provenance` object; with `rerun` (the log of a run with
/// the same settings) every configuration field and every printed score equal the re-run's;
/// the record's digest matches the record; every metric of every frame is a feature the
/// record names; each metric's pooled min, max and mean agree with its frames' scores; and
/// where every frame was scored (`n_subsample` 1) the log holds `n_frames` frames. The
/// scores are printed rounded, so without a re-run a score changed together with its pooled
/// values goes unseen; a re-run checks every value.
pub fn verify_log(log: &Value, rerun: Option<&Value>) -> Result<(), Mismatch> {
    for (which, v) in std::iter::once(("recorded", log)).chain(rerun.map(|r| ("re-run", r))) {
        if !v.get("provenance").is_some_and(Value::is_object) {
            return Err(Mismatch {
                field: "provenance".into(),
                recorded: format!("(absent from the {which} log)"),
                expected: "the record `vmafx --provenance` writes".into(),
            });
        }
    }
    verify(log, rerun)?;
    let prov = &log["provenance"];
    let names: Vec<&str> = prov["features"]
        .as_array()
        .map(|f| f.iter().filter_map(|x| x["feature"].as_str()).collect())
        .unwrap_or_default();
    let empty = Vec::new();
    let frames = log["frames"].as_array().unwrap_or(&empty);
    for (i, frame) in frames.iter().enumerate() {
        let Some(metrics) = frame["metrics"].as_object() else {
            continue;
        };
        if let Some(name) = metrics.keys().find(|k| !names.contains(&k.as_str())) {
            return Err(Mismatch {
                field: format!("frames[{i}].metrics.{name}"),
                recorded: "a score".into(),
                expected: "no score: the record names no such feature".into(),
            });
        }
    }
    pooled_agree(log, frames)?;
    let every_frame = prov["n_subsample"].as_u64() == Some(1);
    let n_frames = prov["n_frames"]
        .as_str()
        .and_then(|n| n.parse::<u64>().ok());
    if let (true, Some(n)) = (every_frame, n_frames) {
        if frames.len() as u64 != n {
            return Err(Mismatch {
                field: "frames".into(),
                recorded: format!("{} frames", frames.len()),
                expected: format!("{n} frames (provenance.n_frames)"),
            });
        }
    }
    Ok(())
}

/// Each metric's `min`, `max` and `mean` in the log's `pooled_metrics` against its frames'
/// printed scores: the extremes are the same printed numbers, and the mean of scores printed
/// to 6 decimals is within 1e-6 of the printed mean (each rounding moves it by at most
/// 5e-7). A score changed by more than about `1e-6 * frames` moves the mean past that.
fn pooled_agree(log: &Value, frames: &[Value]) -> Result<(), Mismatch> {
    let Some(pooled) = log["pooled_metrics"].as_object() else {
        return Ok(());
    };
    for (name, stats) in pooled {
        let values: Option<Vec<f64>> = frames
            .iter()
            .map(|f| f["metrics"].get(name).and_then(Value::as_f64))
            .collect();
        let Some(values) = values.filter(|v| !v.is_empty()) else {
            continue;
        };
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let checks = [
            ("min", min, 0.0),
            ("max", max, 0.0),
            ("mean", mean, 1e-6 + 1e-9 * mean.abs()),
        ];
        for (stat, want, tolerance) in checks {
            let Some(got) = stats.get(stat).and_then(Value::as_f64) else {
                continue;
            };
            if (got - want).abs() > tolerance {
                return Err(Mismatch {
                    field: format!("pooled_metrics.{name}.{stat}"),
                    recorded: format!("{got}"),
                    expected: format!("{want:.6} (the {stat} of the frames' {name} scores)"),
                });
            }
        }
    }
    Ok(())
}

/// Every configuration field of `a` against `b`, in `a`'s order; environment fields skipped.
fn compare(a: &Value, b: &Value, path: &str) -> Result<(), Mismatch> {
    let differ = || Mismatch {
        field: path.to_string(),
        recorded: text(Some(a)),
        expected: text(Some(b)),
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                if ENVIRONMENT.contains(&k.as_str()) {
                    continue;
                }
                let Some(w) = y.get(k) else {
                    return Err(Mismatch {
                        field: format!("{path}.{k}"),
                        recorded: text(Some(v)),
                        expected: "(absent)".into(),
                    });
                };
                compare(v, w, &format!("{path}.{k}"))?;
            }
            for k in y.keys() {
                if !x.contains_key(k) && !ENVIRONMENT.contains(&k.as_str()) {
                    return Err(Mismatch {
                        field: format!("{path}.{k}"),
                        recorded: "(absent)".into(),
                        expected: text(y.get(k)),
                    });
                }
            }
            Ok(())
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, v) in x.iter().enumerate() {
                match y.get(i) {
                    Some(w) => compare(v, w, &format!("{path}[{i}]"))?,
                    None => {
                        return Err(Mismatch {
                            field: format!("{path}[{i}]"),
                            recorded: text(Some(v)),
                            expected: "(absent)".into(),
                        })
                    }
                }
            }
            if y.len() > x.len() {
                return Err(Mismatch {
                    field: format!("{path}[{}]", x.len()),
                    recorded: "(absent)".into(),
                    expected: text(y.get(x.len())),
                });
            }
            Ok(())
        }
        (Value::Number(x), Value::Number(y)) => {
            let same = match (x.as_f64(), y.as_f64()) {
                (Some(p), Some(q)) => p.to_bits() == q.to_bits(),
                _ => x == y,
            };
            if same {
                Ok(())
            } else {
                Err(differ())
            }
        }
        _ if a == b => Ok(()),
        _ => Err(differ()),
    }
}

/// Every score of the frames, bit for bit, in the recorded report's order.
fn compare_frames(a: &Value, b: &Value) -> Result<(), Mismatch> {
    let empty = Vec::new();
    let fa = a["frames"].as_array().unwrap_or(&empty);
    let fb = b["frames"].as_array().unwrap_or(&empty);
    for (i, frame) in fa.iter().enumerate() {
        let path = format!("frames[{i}]");
        let other = fb.get(i).cloned().unwrap_or(Value::Null);
        if frame.get("frameNum") != other.get("frameNum") {
            return Err(Mismatch {
                field: format!("{path}.frameNum"),
                recorded: text(frame.get("frameNum")),
                expected: text(other.get("frameNum")),
            });
        }
        compare(
            &frame["metrics"],
            &other["metrics"],
            &format!("{path}.metrics"),
        )?;
    }
    if fb.len() > fa.len() {
        return Err(Mismatch {
            field: format!("frames[{}]", fa.len()),
            recorded: "(absent)".into(),
            expected: text(fb.get(fa.len())),
        });
    }
    Ok(())
}

/// (metric, frameNum, value) of every numeric score of the frames; `None` when a score is
/// not a number (its bits are not in the report).
fn frame_scores(report: &Value) -> Option<Vec<(String, u64, f64)>> {
    let mut out = Vec::new();
    for frame in report["frames"].as_array()? {
        let index = frame["frameNum"].as_u64()?;
        for (name, v) in frame["metrics"].as_object()? {
            out.push((name.clone(), index, v.as_f64()?));
        }
    }
    Some(out)
}
