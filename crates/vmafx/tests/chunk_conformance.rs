//! Chunked scoring against one pass, over the conformance corpus: for every run of
//! `manifest.json` that libvmaf completed (models and features as its arguments give them,
//! v1.0.16 included), chunks of 1, 2, 3 and 7 frames, each scored by
//! `Scorer::score_range` on fresh readers and joined by `Report::merge`, must give the
//! one-pass report value for value (bit for bit), the same pooled model scores and the
//! same libvmaf log (fps aside: both printed as 0).
//!
//! The default run covers every model and feature set on two y4m clips (8-bit 4:2:0 and
//! 10-bit 4:2:0: 32 runs, about 30 s of CPU); `cargo test -p vmafx --test
//! chunk_conformance -- --ignored` runs all 158 (every clip and raw yuv variant; about
//! 2 minutes of CPU, 6 minutes wall on a busy 2-core machine).

use std::path::{Path, PathBuf};

use vmafx::io::RawParams;
use vmafx::output::{render_report, OutputFormat};
use vmafx::score::{plan, ReportInfo, ScoreTable};
use vmafx::{Feature, Model, Report, Scorer, ScorerConfig};

const CHUNK_SIZES: [u64; 4] = [1, 2, 3, 7];

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

/// One golden run: its inputs and what it scores.
struct Run {
    label: String,
    reference: PathBuf,
    distorted: PathBuf,
    raw: Option<RawParams>,
    models: Vec<String>,
    features: Vec<String>,
    threads: usize,
    subsample: u32,
}

impl Run {
    /// A scorer for this run (a configuration holds a callback, so one is made per use).
    fn scorer(&self) -> Scorer {
        let mut c = ScorerConfig::new()
            .threads(self.threads)
            .subsample(self.subsample);
        for m in &self.models {
            c = c.model(Model::parse(m).unwrap());
        }
        for f in &self.features {
            c = c.feature(Feature::parse(f).unwrap());
        }
        if let Some(raw) = self.raw {
            c = c.raw_input(raw);
        }
        Scorer::new(c).unwrap()
    }
}

/// The run a golden's `vmaf` arguments describe (paths relative to the corpus root).
fn run_of(root: &Path, label: String, args: &[String]) -> Run {
    let (mut r, mut d) = (None, None);
    let (mut w, mut h, mut p, mut b) = (None, None, None, None);
    let mut no_prediction = false;
    let mut models = Vec::new();
    let mut features = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().expect("option value").clone();
        match a.as_str() {
            "-r" => r = Some(root.join(value())),
            "-d" => d = Some(root.join(value())),
            "-w" => w = Some(value().parse::<u32>().unwrap()),
            "-h" => h = Some(value().parse::<u32>().unwrap()),
            "-p" => p = Some(value()),
            "-b" => b = Some(value().parse::<u32>().unwrap()),
            "-n" => no_prediction = true,
            "-o" => {
                value();
            }
            "--json" => {}
            "--feature" => features.push(value()),
            "--model" => {
                let m = value();
                // Built into libvmaf, but into no package vmafx takes models from.
                let m = m.replace(
                    "version=vmaf_4k_v0.6.1neg",
                    "path=models/vmaf_4k_v0.6.1neg.json",
                );
                let m = m.replace("path=models/", &format!("path={}/models/", root.display()));
                models.push(m);
            }
            other => panic!("{label}: unexpected argument {other}"),
        }
    }
    if models.is_empty() && !no_prediction {
        models.push("version=vmaf_v0.6.1".to_string());
    }
    let models = if no_prediction { Vec::new() } else { models };
    let raw = w.map(|w| RawParams::from_names(w, h.unwrap(), &p.unwrap(), b.unwrap()).unwrap());
    Run {
        label,
        reference: r.unwrap(),
        distorted: d.unwrap(),
        raw,
        models,
        features,
        threads: 0,
        subsample: 0,
    }
}

/// Every run of `clips` (all when empty) that libvmaf completed; with `y4m_only`, not
/// the raw yuv variants.
fn runs(dir: &Path, clips: &[&str], y4m_only: bool) -> Vec<Run> {
    let root = dir.parent().unwrap();
    let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut out = Vec::new();
    for clip in manifest["clips"].as_array().unwrap() {
        let id = clip["id"].as_str().unwrap();
        if !clips.is_empty() && !clips.contains(&id) {
            continue;
        }
        for g in clip["goldens"].as_array().unwrap() {
            if g["rc"].as_i64() != Some(0) {
                continue;
            }
            let args: Vec<String> = g["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string())
                .collect();
            if y4m_only && !args[1].ends_with(".y4m") {
                continue;
            }
            let label = format!("{id} {} ({})", g["config"].as_str().unwrap(), args[1]);
            out.push(run_of(root, label, &args));
        }
    }
    out
}

/// Values compared by bits (NaN included), names and indices exactly.
fn same_table(a: &ScoreTable, b: &ScoreTable) -> bool {
    let bits = |t: &ScoreTable| -> Vec<(u64, Vec<Option<u64>>)> {
        t.frames
            .iter()
            .map(|(i, v)| (*i, v.iter().map(|x| x.map(f64::to_bits)).collect()))
            .collect()
    };
    a.names == b.names && bits(a) == bits(b)
}

/// The libvmaf log of a report with fps printed as 0 (the one thing allowed to differ).
fn log(report: &Report) -> String {
    let (table, info) = report.table();
    let info = ReportInfo {
        fps: 0.0,
        ..info.clone()
    };
    render_report(OutputFormat::Json, table, &info)
}

/// Chunks of every size of one run against its one pass; returns the chunks scored.
fn check_run(run: &Run) -> usize {
    let one = run
        .scorer()
        .score_files(&run.reference, &run.distorted)
        .unwrap();
    let want = log(&one);
    let n = one.frame_count();
    assert!(n > 0, "{}: no frames", run.label);
    let reach = run.scorer().reach();
    let mut scored = 0;
    for size in CHUNK_SIZES {
        let p = plan(n, size, reach).unwrap();
        let parts: Vec<Report> = p
            .chunks
            .iter()
            .map(|c| {
                let part = run
                    .scorer()
                    .score_range(&run.reference, &run.distorted, c.frames.clone())
                    .unwrap();
                assert_eq!(part.frame_range(), c.frames, "{}", run.label);
                part
            })
            .collect();
        scored += parts.len();
        let merged = Report::merge(parts).unwrap();
        assert_eq!(merged.frame_range(), 0..n, "{} chunks of {size}", run.label);
        assert!(
            same_table(merged.table().0, one.table().0),
            "{} chunks of {size}: merged table differs from one pass (reach {reach:?})",
            run.label
        );
        assert_eq!(
            merged.models().unwrap(),
            one.models().unwrap(),
            "{} chunks of {size}: pooled model scores differ",
            run.label
        );
        assert_eq!(
            log(&merged),
            want,
            "{} chunks of {size}: log differs",
            run.label
        );
    }
    scored
}

/// Every run checked, on as many threads as the machine has (runs are independent).
fn check(runs: &[Run]) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let start = std::time::Instant::now();
    let next = AtomicUsize::new(0);
    let scored = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers.min(runs.len()) {
            s.spawn(|| {
                while let Some(run) = runs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    scored.fetch_add(check_run(run), Ordering::Relaxed);
                }
            });
        }
    });
    eprintln!(
        "{} runs, {} chunks merged identical to one pass in {:.1} s on {workers} threads",
        runs.len(),
        scored.into_inner(),
        start.elapsed().as_secs_f64()
    );
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn chunks_merge_to_one_pass_for_every_model_on_two_clips() {
    let Some(dir) = corpus() else { return };
    let runs = runs(
        &dir,
        &["bbb_576x324_420p8_crf35", "bbb_384x216_420p10_crf35"],
        true,
    );
    assert!(
        runs.len() >= 30,
        "expected every configuration, got {}",
        runs.len()
    );
    check(&runs);
}

#[test]
#[ignore = "every clip of the corpus: several minutes; run with --ignored"]
fn chunks_merge_to_one_pass_for_every_run_of_the_corpus() {
    let Some(dir) = corpus() else { return };
    let runs = runs(&dir, &[], false);
    assert!(
        runs.len() >= 150,
        "expected every completed run, got {}",
        runs.len()
    );
    check(&runs);
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn chunks_merge_to_one_pass_for_history_features_and_subsampling() {
    let Some(dir) = corpus() else { return };
    let root = dir.parent().unwrap();
    let clip = "conformance/bbb_384x216_420p8_scenecut";
    let base = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "-r",
            &format!("{clip}_ref.y4m"),
            "-d",
            &format!("{clip}_dis.y4m"),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    // Temporal extractors no golden run uses, and motion's options one at a time.
    let history = base(&[
        "-n",
        "--feature",
        "speed_temporal",
        "--feature",
        "motion_v2=motion_five_frame_window=true",
        "--feature",
        "float_motion=debug=true",
        "--feature",
        "motion=motion_moving_average=true:debug=true",
        "--feature",
        "motion=motion_five_frame_window=true",
    ]);
    let mut runs = vec![run_of(root, "history features".into(), &history)];
    let mut threaded = run_of(root, "history features, 2 threads".into(), &history);
    threaded.threads = 2;
    runs.push(threaded);
    for s in [2, 3] {
        let mut sub = run_of(root, format!("subsample {s}"), &base(&[]));
        sub.subsample = s;
        runs.push(sub);
    }
    check(&runs);
}
