//! The front door: `Scorer` on files, readers and pushed frames, the `Report` it returns,
//! and the example and README that show it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use vmafx::cpu::CpuLevel;
use vmafx::{
    Feature, Model, OutputFormat, PoolMethod, Progress, Report, Scorer, ScorerConfig, Side, Status,
};

/// A 4:2:0 8-bit y4m file of `frames` frames of a moving ramp; `noise` perturbs it.
fn write_y4m(path: &Path, frames: u32, noise: u32) {
    let (w, h) = (64u32, 48u32);
    let mut bytes = format!("YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n").into_bytes();
    for t in 0..frames {
        bytes.extend_from_slice(b"FRAME\n");
        for j in 0..h {
            for i in 0..w {
                let v = (i * 3 + j * 2 + t * 5) + ((i * 7 + j * 13 + t) % (noise + 1));
                bytes.push((v % 200 + 20) as u8);
            }
        }
        bytes.extend(std::iter::repeat_n(128u8, (w * h / 2) as usize));
    }
    std::fs::write(path, bytes).unwrap();
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("scorer")
        .join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A reference of 3 frames and a noisy copy of `dis_frames` frames.
fn pair(name: &str, dis_frames: u32) -> (PathBuf, PathBuf) {
    let d = scratch(name);
    let (r, x) = (d.join("ref.y4m"), d.join("dis.y4m"));
    write_y4m(&r, 3, 0);
    write_y4m(&x, dis_frames, 9);
    (r, x)
}

fn vmaf() -> ScorerConfig {
    ScorerConfig::new().model(Model::builtin("vmaf_v0.6.1"))
}

fn score(config: ScorerConfig, (r, d): &(PathBuf, PathBuf)) -> Report {
    Scorer::new(config).unwrap().score_files(r, d).unwrap()
}

#[test]
fn progress_reports_each_pair_and_the_count_the_files_announce() {
    let files = pair("progress", 3);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let config = vmaf().on_progress(Box::new(move |p: Progress| sink.lock().unwrap().push(p)));
    let report = score(config, &files);
    let seen = seen.lock().unwrap().clone();
    let done: Vec<u64> = seen.iter().map(|p| p.done).collect();
    assert_eq!(done, [1, 2, 3]);
    assert!(seen.iter().all(|p| p.total == Some(3)), "{seen:?}");
    assert_eq!(report.frame_count(), 3);
    assert_eq!(report.ended_first(), None);

    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let config = vmaf()
        .max_frames(2)
        .on_progress(Box::new(move |p: Progress| sink.lock().unwrap().push(p)));
    assert_eq!(score(config, &files).frame_count(), 2);
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.last().map(|p| (p.done, p.total)), Some((2, Some(2))));
}

#[test]
fn the_shorter_input_ends_the_run_and_is_named() {
    let files = pair("uneven", 2);
    let report = score(vmaf(), &files);
    assert_eq!(report.frame_count(), 2);
    assert_eq!(report.ended_first(), Some(Side::Distorted));
    let swapped = (files.1.clone(), files.0.clone());
    assert_eq!(score(vmaf(), &swapped).ended_first(), Some(Side::Reference));
}

#[test]
fn the_report_pools_over_half_open_ranges_and_refuses_ranges_past_the_end() {
    let files = pair("ranges", 3);
    let report = score(vmaf().feature(Feature::new("psnr")), &files);
    let per_frame: Vec<f64> = report.frames().map(|f| f.get("vmaf").unwrap()).collect();
    assert_eq!(per_frame.len(), 3);
    let mean = report.model("vmaf").unwrap();
    assert_eq!(mean.label, "vmaf_v0.6.1");
    assert_eq!(mean.bootstrap, None);
    let by_hand = per_frame.iter().sum::<f64>() / 3.0;
    assert_eq!(mean.pooled.to_bits(), by_hand.to_bits());
    let tail = report.model_pooled("vmaf", PoolMethod::Max, 1..).unwrap();
    assert_eq!(tail.pooled, per_frame[1].max(per_frame[2]));
    assert_eq!(
        report.pooled("vmaf", PoolMethod::Min, 2..3).unwrap(),
        per_frame[2]
    );
    assert_eq!(report.frame(1).unwrap().get("vmaf"), Some(per_frame[1]));
    assert!(report.frame(1).unwrap().get("psnr_y").unwrap() > 0.0);
    // The long name reads the same column as the printed alias.
    assert_eq!(
        report.pooled("VMAF_integer_feature_adm2_score", PoolMethod::Mean, ..),
        report.pooled("integer_adm2", PoolMethod::Mean, ..)
    );
    for (what, e) in [
        (
            "0..MAX",
            report.pooled("vmaf", PoolMethod::Mean, 0..u64::MAX),
        ),
        (
            "0..=MAX",
            report.pooled("psnr_y", PoolMethod::Mean, 0..=u64::MAX),
        ),
        ("3..4", report.pooled("vmaf", PoolMethod::Mean, 3..4)),
        ("2..2", report.pooled("vmaf", PoolMethod::Mean, 2..2)),
        (
            "model 0..MAX",
            report
                .model_pooled("vmaf", PoolMethod::Mean, 0..u64::MAX)
                .map(|m| m.pooled),
        ),
    ] {
        let e = e.expect_err(what);
        assert_eq!(
            (e.status(), e.subject()),
            (Status::Range, "range"),
            "{what}"
        );
    }
    let e = report.frame(u64::MAX).unwrap_err();
    assert_eq!((e.status(), e.subject()), (Status::Range, "index"));
    let e = report.pooled("no_such", PoolMethod::Mean, ..).unwrap_err();
    assert_eq!(e.status(), Status::NotFound);
}

#[test]
fn an_empty_run_reports_no_frame_and_every_range_is_refused() {
    let report = Scorer::new(vmaf()).unwrap().finish().unwrap();
    assert_eq!(report.frame_count(), 0);
    assert_eq!(report.frames().count(), 0);
    let e = report.models().unwrap_err();
    assert_eq!(e.status(), Status::Range);
    for e in [
        report.pooled("vmaf", PoolMethod::Mean, ..).unwrap_err(),
        report
            .pooled("vmaf", PoolMethod::Mean, 0..u64::MAX)
            .unwrap_err(),
        report.model("vmaf").unwrap_err(),
    ] {
        assert_eq!(e.status(), Status::Range, "{e}");
    }
}

#[test]
fn json_models_typed_options_threads_and_cpu_levels_score_alike() {
    let files = pair("alike", 3);
    let base = score(vmaf().feature(Feature::new("psnr")), &files);
    let json = include_str!("../models/vmaf_v0.6.1.json");
    let variants = [
        ScorerConfig::new()
            .model(Model::from_json("mine", json))
            .feature(Feature::parse("psnr").unwrap()),
        vmaf().feature(Feature::new("psnr")).threads(2),
        vmaf()
            .feature(Feature::new("psnr"))
            .cpu_level(CpuLevel::Scalar),
    ];
    for (k, config) in variants.into_iter().enumerate() {
        let r = score(config, &files);
        assert_eq!(r.names(), base.names(), "variant {k}");
        assert_eq!(
            r.render(OutputFormat::Csv),
            base.render(OutputFormat::Csv),
            "variant {k}"
        );
    }
    let mine = score(
        ScorerConfig::new().model(Model::from_json("mine", json)),
        &files,
    );
    assert_eq!(mine.model("mine").unwrap().label, "mine");
}

#[test]
fn model_options_and_bootstrap_scores_are_typed() {
    let files = pair("bootstrap", 3);
    let r = score(
        ScorerConfig::new().model(Model::builtin("vmaf_b_v0.6.3").name("b")),
        &files,
    );
    let b = r.model("vmaf_b_v0.6.3").unwrap();
    assert_eq!(b.name, "b");
    let stats = b.bootstrap.expect("a collection has bootstrap statistics");
    let pooled = |n: &str| r.pooled(n, PoolMethod::Mean, ..).unwrap();
    assert_eq!(stats.bagging, pooled("b_bagging"));
    assert_eq!(stats.stddev, pooled("b_stddev"));
    assert_eq!(stats.ci_p95, (pooled("b_ci_p95_lo"), pooled("b_ci_p95_hi")));
    assert!(stats.ci_p95.0 <= stats.bagging && stats.bagging <= stats.ci_p95.1);
    assert!(b.to_string().starts_with("vmaf_b_v0.6.3: "), "{b}");

    // A feature option set through the model changes what it reads.
    let neg = Model::builtin("vmaf_v0.6.1").feature_option("adm", "adm_enhn_gain_limit", 1.0);
    assert_eq!(
        neg,
        Model::parse("version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.0").unwrap()
    );
    let r = score(ScorerConfig::new().model(neg), &files);
    assert!(
        r.names().iter().any(|n| n.ends_with("_egl_1")),
        "{:?}",
        r.names()
    );
}

#[test]
fn bad_configurations_fail_when_the_scorer_is_made() {
    let e = Scorer::new(ScorerConfig::new()).unwrap_err();
    assert_eq!(e.status(), Status::Invalid);
    let e = Scorer::new(ScorerConfig::new().model(Model::builtin("vmaf_v9"))).unwrap_err();
    assert_eq!((e.status(), e.subject()), (Status::NotFound, "vmaf_v9"));
    let e = Scorer::new(ScorerConfig::new().feature(Feature::new("psnr").option("nope", 1)))
        .unwrap_err();
    assert!(e.to_string().contains("nope"), "{e}");
    let e = Scorer::new(ScorerConfig::new().model(Model::from_path("/nonexistent/m.json")))
        .unwrap_err();
    assert_eq!(e.status(), Status::Io);
}

#[test]
fn the_logs_are_written_through_the_report() {
    let files = pair("logs", 3);
    let r = score(vmaf(), &files);
    let path = scratch("logs").join("log.json");
    r.write_file(&path, OutputFormat::Json).unwrap();
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(log["frames"].as_array().unwrap().len(), 3);
    let mean = log["pooled_metrics"]["vmaf"]["mean"].as_f64().unwrap();
    assert!((mean - r.model("vmaf").unwrap().pooled).abs() < 1e-6);
    let e = r
        .write_file("/nonexistent/dir/log.json", OutputFormat::Json)
        .unwrap_err();
    assert_eq!(e.status(), Status::Io);
}

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("VMAFX_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance")
        });
    if dir.join("manifest.json").is_file() {
        return Some(dir);
    }
    panic!("conformance corpus missing at {}", dir.display());
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn pooled_scores_match_libvmafs_logs() {
    let Some(dir) = corpus() else { return };
    let clip = "bbb_576x324_420p8_crf35";
    let files = (
        dir.join(format!("{clip}_ref.y4m")),
        dir.join(format!("{clip}_dis.y4m")),
    );
    for version in ["vmaf_v0.6.1", "vmaf_b_v0.6.3", "vmaf_4k_v0.6.1neg"] {
        let golden = dir.join(format!("expected/{clip}.{version}.json"));
        let want: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(golden).unwrap()).unwrap();
        let mean = |n: &str| want["pooled_metrics"][n]["mean"].as_f64().unwrap();
        let r = score(ScorerConfig::new().model(Model::builtin(version)), &files);
        let m = r.model(version).unwrap();
        assert!((m.pooled - mean("vmaf")).abs() <= 1e-4, "{version}: {m}");
        if let Some(b) = m.bootstrap {
            assert!((b.bagging - mean("vmaf_bagging")).abs() <= 1e-4, "{m}");
            assert!((b.stddev - mean("vmaf_stddev")).abs() <= 1e-4, "{m}");
            assert!((b.ci_p95.0 - mean("vmaf_ci_p95_lo")).abs() <= 1e-4, "{m}");
            assert!((b.ci_p95.1 - mean("vmaf_ci_p95_hi")).abs() <= 1e-4, "{m}");
        }
    }
}

/// The README's Rust snippet is `examples/score.rs`'s code (the file less its `//!` header),
/// so the example that cargo builds is the program the README shows
/// (`scripts/readme_snippet.sh` builds that snippet in a crate of its own and runs it).
#[test]
fn the_readme_shows_the_example_as_it_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = std::fs::read_to_string(root.join("examples/score.rs")).unwrap();
    let readme = std::fs::read_to_string(root.join("../../README.md")).unwrap();
    let code: String = example
        .lines()
        .skip_while(|l| l.starts_with("//!") || l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(code.contains("fn main()"), "{code}");
    let shown = readme
        .split_once("<!-- readme-snippet: main.rs")
        .and_then(|(_, rest)| rest.split_once("```rust\n"))
        .and_then(|(_, rest)| rest.split_once("```\n"))
        .map(|(block, _)| block)
        .expect("the README's marked Rust snippet");
    assert_eq!(shown, code);
}

/// A scorer can move to a worker thread, and a report be shared between threads.
#[test]
fn scorers_are_send_and_reports_send_and_sync() {
    fn send<T: Send>() {}
    fn shared<T: Send + Sync>() {}
    send::<Scorer>();
    send::<ScorerConfig>();
    shared::<Report>();
}

#[test]
fn whole_run_psnr_reaches_the_report_and_its_logs_but_no_partial_run() {
    let files = pair("apsnr", 3);
    let apsnr = || Feature::new("psnr").option("enable_apsnr", true);
    for threads in [0, 2] {
        let r = score(vmaf().feature(apsnr()).threads(threads), &files);
        let names: Vec<_> = r.aggregates().iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["apsnr_y", "apsnr_cb", "apsnr_cr"],
            "{threads} threads"
        );
        // Noise on every frame: a finite PSNR below the identical-run cap.
        let y = r.aggregates()[0].1;
        assert!(y.is_finite() && y > 10.0 && y < 100.0, "{y}");
        let log: serde_json::Value = serde_json::from_str(&r.render(OutputFormat::Json)).unwrap();
        let written = log["aggregate_metrics"]["apsnr_y"].as_f64().unwrap();
        assert!((written - y).abs() < 1e-6, "{written} against {y}");
        assert!(r
            .render(OutputFormat::Xml)
            .contains(&format!("<aggregate_metrics apsnr_y=\"{y:.6}\"")));
    }
    // Without it, no whole-run value; with it, no partial run.
    assert!(score(vmaf().feature(Feature::new("psnr")), &files)
        .aggregates()
        .is_empty());
    for part in [0..2, 1..u64::MAX, 0..3] {
        let e = Scorer::new(vmaf().feature(apsnr()))
            .unwrap()
            .score_range(&files.0, &files.1, part.clone())
            .unwrap_err();
        assert_eq!(e.status(), Status::NotSup, "{part:?}: {e}");
        assert!(e.message().contains("aggregate_metrics"), "{e}");
    }
    // The whole video as a range is one pass, whole-run values included.
    let one_pass = score(vmaf().feature(apsnr()), &files);
    let whole = Scorer::new(vmaf().feature(apsnr()))
        .unwrap()
        .score_range(&files.0, &files.1, 0..u64::MAX)
        .unwrap();
    assert_eq!(whole.aggregates(), one_pass.aggregates());
    assert_eq!(whole.aggregates().len(), 3);
}

#[test]
fn the_null_extractor_reads_every_pair_and_writes_nothing() {
    // libvmaf's `null`: a run that times reading alone; its logs hold no frame and no metric.
    let files = pair("null", 3);
    let r = score(ScorerConfig::new().feature(Feature::new("null")), &files);
    assert_eq!(r.frame_count(), 3);
    assert!(r.names().is_empty());
    let log: serde_json::Value = serde_json::from_str(&r.render(OutputFormat::Json)).unwrap();
    assert_eq!(log["frames"], serde_json::json!([]));
    assert_eq!(log["pooled_metrics"], serde_json::json!({}));
    // Beside a feature it changes nothing.
    let psnr = || ScorerConfig::new().feature(Feature::new("psnr"));
    assert_eq!(
        score(psnr().feature(Feature::new("null")), &files).render(OutputFormat::Csv),
        score(psnr(), &files).render(OutputFormat::Csv)
    );
}
