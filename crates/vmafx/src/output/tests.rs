//! The writers against libvmaf's own logs in the conformance corpus.
//!
//! Each log is rebuilt into a [`ScoreTable`] from libvmaf's JSON (per-frame values as
//! printed, i.e. rounded to 6 decimals), written again, and compared line by line with the
//! file. Everything must be byte-identical, with one documented exception: a pooled `mean`
//! or `harmonic_mean` recomputed from the rounded per-frame values can differ in its last
//! digit from libvmaf's (pooled from unrounded values). Such a line is accepted only where
//! it is listed (for the named logs) or, in the sweep over the whole corpus, where libvmaf's
//! value lies inside the range the input rounding allows (see [`rounding_bounds`]).

use std::path::Path;

use super::number::leading_fraction_zeros;
use super::*;
use crate::score::{pool, PoolMethod};
use crate::testutil::conformance_dir;

const CLIP: &str = "bbb_576x324_420p8_crf35";

/// A score table and facts rebuilt from one of libvmaf's JSON logs: names in the order of its
/// pooled section (the collector's order), per-frame values as printed, null as infinity
/// (libvmaf prints both infinities and NaN as null), pictures as many as frames.
fn table_from_json(text: &str) -> (ScoreTable, ReportInfo) {
    let log: serde_json::Value = serde_json::from_str(text).expect("expected log parses");
    let names: Vec<String> = log["pooled_metrics"]
        .as_object()
        .expect("pooled_metrics")
        .keys()
        .cloned()
        .collect();
    let frames: Vec<(u64, Vec<Option<f64>>)> = log["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .map(|f| {
            let metrics = &f["metrics"];
            let values = names
                .iter()
                .map(|n| metrics.get(n).map(|v| v.as_f64().unwrap_or(f64::INFINITY)))
                .collect();
            (f["frameNum"].as_u64().expect("frameNum"), values)
        })
        .collect();
    let mut info = ReportInfo::new(0, 0, frames.len() as u64);
    info.version = log["version"].as_str().expect("version").to_string();
    info.fps = log["fps"].as_f64().unwrap_or(f64::NAN);
    (ScoreTable { names, frames }, info)
}

fn read(dir: &Path, file: &str) -> String {
    let path = dir.join("expected").join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A pooled line of a JSON log: `      "<method>": <value>[,]`.
fn pooled_line(line: &str) -> Option<(PoolMethod, &str)> {
    let rest = line.strip_prefix("      \"")?;
    let (method, value) = rest.split_once("\": ")?;
    Some((method.parse().ok()?, value.trim_end_matches(',')))
}

/// The metric whose pooled block holds line `at` of a JSON log.
fn pooled_metric(lines: &[&str], at: usize) -> String {
    lines[..at]
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("    \"")?.strip_suffix("\": {"))
        .unwrap_or("?")
        .to_string()
}

/// A pooled value that differs from libvmaf's in print.
#[derive(Debug)]
struct PooledDiff {
    metric: String,
    method: PoolMethod,
    ours: String,
    theirs: String,
}

/// Compares a JSON log line by line: returns the pooled mean/harmonic_mean lines that differ
/// and every other difference (each naming file, line and both texts).
fn compare_json(file: &str, ours: &str, theirs: &str) -> (Vec<PooledDiff>, Vec<String>) {
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.split('\n').collect(), theirs.split('\n').collect());
    let mut pooled = Vec::new();
    let mut other = Vec::new();
    if a.len() != b.len() {
        other.push(format!(
            "{file}: vmafx {} lines, libvmaf {}",
            a.len(),
            b.len()
        ));
    }
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        if x == y {
            continue;
        }
        match (pooled_line(x), pooled_line(y)) {
            (Some((m, ours)), Some((n, theirs)))
                if m == n
                    && matches!(m, PoolMethod::Mean | PoolMethod::HarmonicMean)
                    && x.ends_with(',') == y.ends_with(',') =>
            {
                pooled.push(PooledDiff {
                    metric: pooled_metric(&b, i),
                    method: m,
                    ours: ours.to_string(),
                    theirs: theirs.to_string(),
                })
            }
            _ => other.push(format!("{file}:{}: vmafx {x:?}, libvmaf {y:?}", i + 1)),
        }
    }
    (pooled, other)
}

/// The range libvmaf's printed pooled value can take given the rounded inputs: each input
/// printed with 6 (or 16) decimals lies within half a unit of its last digit of the value
/// libvmaf pooled, mean and harmonic mean increase with every input, and libvmaf's own
/// print is off by at most half a unit of its last digit. The small relative margin covers
/// this function's own floating-point evaluation.
fn rounding_bounds(values: &[f64], method: PoolMethod, theirs: &str) -> (f64, f64) {
    let half_unit = |x: f64| {
        if leading_fraction_zeros(x) <= 6 {
            5e-7
        } else {
            5e-17
        }
    };
    let lo: Vec<f64> = values.iter().map(|&v| v - half_unit(v)).collect();
    let hi: Vec<f64> = values.iter().map(|&v| v + half_unit(v)).collect();
    let decimals = theirs.split_once('.').map_or(0, |(_, d)| d.len());
    let print = 0.5 * 10f64.powi(-(decimals as i32));
    let (lo, hi) = (pool(&lo, method) - print, pool(&hi, method) + print);
    (lo - lo.abs() * 1e-14, hi + hi.abs() * 1e-14)
}

/// Checks each differing pooled value lies within [`rounding_bounds`]; returns failures.
fn check_bounds(file: &str, table: &ScoreTable, diffs: &[PooledDiff]) -> Vec<String> {
    let mut bad = Vec::new();
    for d in diffs {
        let j = table.names.iter().position(|n| *n == d.metric);
        let values: Option<Vec<f64>> =
            j.and_then(|j| table.frames.iter().map(|f| f.1[j]).collect());
        let theirs: f64 = d.theirs.parse().unwrap_or(f64::NAN);
        let ok = values.is_some_and(|v| {
            let (lo, hi) = rounding_bounds(&v, d.method, &d.theirs);
            lo <= theirs && theirs <= hi
        });
        if !ok {
            bad.push(format!(
                "{file}: pooled {} {} vmafx {} libvmaf {} is not explained by input rounding",
                d.metric, d.method, d.ours, d.theirs
            ));
        }
    }
    bad
}

/// Rebuilds `file`, writes it as JSON and checks it against the file: identical except the
/// pooled values listed in `known` (metric, method), which must differ, and only within
/// what input rounding explains.
fn check_json_log(dir: &Path, file: &str, known: &[(&str, PoolMethod)]) {
    let text = read(dir, file);
    let (table, info) = table_from_json(&text);
    let ours = render_report(OutputFormat::Json, &table, &info);
    let (pooled, mut problems) = compare_json(file, &ours, &text);
    problems.extend(check_bounds(file, &table, &pooled));
    let mut found: Vec<(&str, PoolMethod)> = pooled
        .iter()
        .map(|d| (d.metric.as_str(), d.method))
        .collect();
    let mut listed = known.to_vec();
    found.sort_by_key(|k| (k.0, k.1.name()));
    listed.sort_by_key(|k| (k.0, k.1.name()));
    if found != listed {
        problems.push(format!(
            "{file}: pooled values differing by input rounding {found:?}, listed {listed:?}"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn json_log_of_the_default_model_is_identical() {
    let Some(dir) = conformance_dir() else { return };
    check_json_log(&dir, &format!("{CLIP}.vmaf_v0.6.1.json"), &[]);
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn json_logs_of_other_shapes_are_identical_but_listed_pooled_roundings() {
    let Some(dir) = conformance_dir() else { return };
    use PoolMethod::{HarmonicMean as Hm, Mean};
    // Bootstrap model: per-model scores and confidence columns.
    check_json_log(
        &dir,
        &format!("{CLIP}.vmaf_b_v0.6.3.json"),
        &[
            ("vmaf", Mean),
            ("vmaf_0007", Mean),
            ("vmaf_bagging", Hm),
            ("vmaf_ci_p95_hi", Hm),
        ],
    );
    check_json_log(
        &dir,
        &format!("{CLIP}.integer_features_debug.json"),
        &[("integer_vif", Hm)],
    );
    // Identical input: null per-frame and pooled values, 16-decimal values.
    let identical = "bbb_320x180_420p8_identical";
    check_json_log(
        &dir,
        &format!("{identical}.extra_features.json"),
        &[("cambi", Mean)],
    );
    check_json_log(
        &dir,
        &format!("{identical}.integer_features_debug.json"),
        &[("integer_vif_den_scale2", Mean), ("integer_motion2", Hm)],
    );
    check_json_log(
        &dir,
        &format!("{identical}.vmaf_v0.6.1.json"),
        &[("integer_motion2", Hm), ("vmaf", Hm)],
    );
}

/// The value of attribute `name` in a one-line XML element.
fn attribute<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let start = line.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = line[start..].find('"')?;
    Some(&line[start..start + len])
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn xml_csv_and_sub_logs_are_identical() {
    let Some(dir) = conformance_dir() else { return };
    let (table, mut info) = table_from_json(&read(&dir, &format!("{CLIP}.vmaf_v0.6.1.json")));
    (info.width, info.height) = (576, 324);
    for fmt in [OutputFormat::Xml, OutputFormat::Csv, OutputFormat::Sub] {
        let file = format!("{CLIP}.vmaf_v0.6.1.{fmt}");
        let theirs = read(&dir, &file);
        if fmt == OutputFormat::Xml {
            let fyi = theirs.lines().find(|l| l.starts_with("  <fyi "));
            info.fps = fyi
                .and_then(|l| attribute(l, "fps"))
                .and_then(|v| v.parse().ok())
                .expect("fps in the xml log");
        }
        let ours = render_report(fmt, &table, &info);
        let diffs: Vec<String> = ours
            .split('\n')
            .zip(theirs.split('\n'))
            .enumerate()
            .filter(|(_, (x, y))| x != y)
            .map(|(i, (x, y))| format!("{file}:{}: vmafx {x:?}, libvmaf {y:?}", i + 1))
            .collect();
        assert!(diffs.is_empty(), "{}", diffs.join("\n"));
        assert_eq!(ours, theirs, "{file}: lengths differ");
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn every_json_log_of_the_corpus_is_identical_up_to_pooled_rounding() {
    let Some(dir) = conformance_dir() else { return };
    let mut files: Vec<String> = std::fs::read_dir(dir.join("expected"))
        .expect("expected folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no expected JSON logs");
    let (mut problems, mut rounded, mut pooled_total) = (Vec::new(), 0, 0);
    for file in &files {
        let text = read(&dir, file);
        let (table, info) = table_from_json(&text);
        let ours = render_report(OutputFormat::Json, &table, &info);
        let (pooled, other) = compare_json(file, &ours, &text);
        problems.extend(other);
        problems.extend(check_bounds(file, &table, &pooled));
        rounded += pooled.len();
        pooled_total += 2 * table.names.len();
    }
    eprintln!(
        "{} JSON logs: {rounded} of {pooled_total} pooled mean/harmonic_mean values differ in \
         the last digit by input rounding, everything else identical",
        files.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
