//! `vmafx --frames A..B` and `vmafx merge` against one pass, through the binary: for runs
//! of the corpus manifest (models and features as libvmaf's arguments give them), chunks
//! of 1, 2, 3 and 7 frames scored as separate processes and merged must write the
//! one-pass log byte for byte, `fps` aside, in each of the four formats; a compressed
//! distorted input (a corpus bitstream, decoded by ffmpeg) seeks frame-accurately, so its
//! chunks merge to one pass too. Merges of wrong parts are refused naming the files.
//!
//! The default run takes a representative subset (two clips' y4m runs, four configurations:
//! integer and float models, v1.0.16, the extra features); `cargo
//! test -p vmafx-cli --test merge_cli -- --ignored` runs every completed run of the
//! manifest (158 runs, 6217 processes: 579 s on a busy 2-core machine).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

const CHUNK_SIZES: [u64; 4] = [1, 2, 3, 7];

/// One golden run: its vmafx arguments (without -o and the format) and its frame count.
struct Run {
    label: String,
    args: Vec<String>,
    frames: u64,
}

/// The vmafx arguments of a golden's libvmaf arguments: no log path or format (each step
/// adds its own), built-in models by version.
fn args_of(args: &[String]) -> Vec<String> {
    let mut v = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" | "--output" => {
                it.next();
            }
            "--json" | "--xml" | "--csv" | "--sub" => {}
            m if m.starts_with("path=models/") => {
                let name = m
                    .trim_start_matches("path=models/")
                    .trim_end_matches(".json");
                v.push(format!("version={name}"));
            }
            _ => v.push(a.clone()),
        }
    }
    v.push("-q".into());
    v
}

/// Completed runs of `clips` (all when empty) whose configuration is in `configs` (all
/// when empty); with `y4m_only`, not the raw yuv variants.
fn runs(dir: &Path, clips: &[&str], configs: &[&str], y4m_only: bool) -> Vec<Run> {
    let manifest = read_json(&dir.join("manifest.json"));
    let mut out = Vec::new();
    for clip in manifest["clips"].as_array().unwrap() {
        let id = clip["id"].as_str().unwrap();
        if !clips.is_empty() && !clips.contains(&id) {
            continue;
        }
        for g in clip["goldens"].as_array().unwrap() {
            let config = g["config"].as_str().unwrap();
            if g["rc"].as_i64() != Some(0) || !(configs.is_empty() || configs.contains(&config)) {
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
            out.push(Run {
                label: format!("{id} {config} ({})", args[1]),
                args: args_of(&args),
                frames: clip["frames"].as_u64().unwrap(),
            });
        }
    }
    out
}

/// Runs vmafx in `root` (the corpus paths are relative to it); panics with its stderr.
fn run_ok(root: &Path, args: &[String], what: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .current_dir(root)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{what}: vmafx {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A log without its `fps` (the one value allowed to differ).
fn without_fps(p: &Path) -> String {
    std::fs::read_to_string(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .lines()
        .filter(|l| !l.contains("fps"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// One run: the one-pass log in every format, then chunks of every size merged into
/// every format; returns the processes spawned.
fn check_run(root: &Path, tmp: &Path, run: &Run, formats: &[&str]) -> usize {
    let mut spawned = 0;
    let one = |fmt: &str| tmp.join(format!("one.{}", &fmt[2..]));
    for fmt in formats {
        let mut a = run.args.clone();
        a.extend([fmt.to_string(), "-o".into(), path(&one(fmt))]);
        run_ok(root, &a, &run.label);
        spawned += 1;
    }
    for size in CHUNK_SIZES {
        let mut parts = Vec::new();
        let mut start = 0;
        while start < run.frames {
            let end = (start + size).min(run.frames);
            let part = tmp.join(format!("part{start}.json"));
            let mut a = run.args.clone();
            a.extend([
                "--frames".into(),
                format!("{start}..{end}"),
                "-o".into(),
                path(&part),
            ]);
            run_ok(root, &a, &run.label);
            parts.push(path(&part));
            start = end;
            spawned += 1;
        }
        for fmt in formats {
            let merged = tmp.join(format!("merged.{}", &fmt[2..]));
            let mut a = vec!["merge".to_string(), "-q".into()];
            a.extend(parts.iter().rev().cloned());
            a.extend([fmt.to_string(), "-o".into(), path(&merged)]);
            run_ok(root, &a, &run.label);
            spawned += 1;
            assert_eq!(
                without_fps(&merged),
                without_fps(&one(fmt)),
                "{}: chunks of {size} merged ({fmt}) differ from one pass",
                run.label
            );
        }
        for p in &parts {
            std::fs::remove_file(p).unwrap();
        }
    }
    spawned
}

/// Every run checked, on as many threads as the machine has, each in its own folder.
fn check(root: &Path, name: &str, runs: &[Run], formats: &[&str]) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let start = std::time::Instant::now();
    let next = AtomicUsize::new(0);
    let spawned = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for w in 0..workers.min(runs.len()) {
            let (next, spawned) = (&next, &spawned);
            s.spawn(move || {
                let tmp = temp_dir(&format!("{name}-{w}"));
                while let Some(run) = runs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    spawned.fetch_add(check_run(root, &tmp, run, formats), Ordering::Relaxed);
                }
            });
        }
    });
    eprintln!(
        "{} runs, {} vmafx processes: every merge identical to one pass, in {:.1} s",
        runs.len(),
        spawned.into_inner(),
        start.elapsed().as_secs_f64()
    );
}

fn corpus_root() -> Option<(PathBuf, PathBuf)> {
    let dir = corpus()?;
    let root = dir.parent().unwrap().to_path_buf();
    Some((dir, root))
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn chunks_merge_to_the_one_pass_log_for_a_subset_of_runs() {
    let Some((dir, root)) = corpus_root() else {
        return;
    };
    let runs = runs(
        &dir,
        &["bbb_576x324_420p8_crf35", "bbb_384x216_420p10_crf35"],
        &[
            "vmaf_v0.6.1",
            "vmaf_v1.0.16_3d0h",
            "vmaf_float_b_v0.6.3",
            "extra_features",
        ],
        true,
    );
    assert_eq!(runs.len(), 8, "expected the subset");
    check(&root, "merge-subset", &runs, &["--json"]);
    // Every format, on one run.
    check(
        &root,
        "merge-formats",
        &runs[..1],
        &["--xml", "--csv", "--sub"],
    );
}

#[test]
#[ignore = "every completed run of the manifest: thousands of processes; run with --ignored"]
fn chunks_merge_to_the_one_pass_log_for_every_run_of_the_corpus() {
    let Some((dir, root)) = corpus_root() else {
        return;
    };
    let runs = runs(&dir, &[], &[], false);
    assert!(runs.len() >= 150, "expected every run, got {}", runs.len());
    check(&root, "merge-all", &runs, &["--json"]);
}

/// Whether an ffmpeg program is on PATH.
fn has_ffmpeg() -> bool {
    Command::new("ffmpeg")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn chunks_of_a_compressed_input_seek_frame_accurately() {
    let Some((dir, root)) = corpus_root() else {
        return;
    };
    if !has_ffmpeg() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "ffmpeg missing (CI=true)"
        );
        eprintln!("skipping: no ffmpeg on PATH");
        return;
    }
    let manifest = read_json(&dir.join("manifest.json"));
    // A seek off by one frame would change every score of the chunk (each frame differs);
    // the 10 frames of the 576x324 clip keep the test short (each chunk runs ffprobe and
    // ffmpeg).
    let id = "bbb_576x324_420p8_crf35";
    let clip = manifest["clips"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap();
    let bitstream = format!("conformance/bitstreams/{id}.mkv");
    assert!(root.join(&bitstream).is_file(), "{bitstream} missing");
    let runs = [Run {
        label: format!("{id} (mkv distorted)"),
        args: vec![
            "-r".into(),
            format!("conformance/{id}_ref.y4m"),
            "-d".into(),
            bitstream,
            "-q".into(),
        ],
        frames: clip["frames"].as_u64().unwrap(),
    }];
    check(&root, "merge-mkv", &runs, &["--json"]);
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn merges_of_wrong_parts_are_refused_naming_the_files() {
    let Some((_, root)) = corpus_root() else {
        return;
    };
    let tmp = temp_dir("merge-refusals");
    let clip = "conformance/bbb_576x324_420p8_crf35";
    let score = |range: &str, extra: &[&str], out: &str| {
        let mut a: Vec<String> = [
            "-r",
            &format!("{clip}_ref.y4m"),
            "-d",
            &format!("{clip}_dis.y4m"),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(["--frames", range, "-q", "-o"].map(String::from));
        a.push(path(&tmp.join(out)));
        a.extend(extra.iter().map(|s| s.to_string()));
        run_ok(&root, &a, out);
        path(&tmp.join(out))
    };
    let (a, b, c) = (
        score("0..4", &[], "a.json"),
        score("4..10", &[], "b.json"),
        score("3..10", &[], "c.json"),
    );
    let g = score("6..10", &[], "g.json");
    let other = score("4..10", &["--feature", "psnr"], "other.json");
    let merge = |parts: &[&str]| {
        let mut args = vec!["merge", "-o"];
        let out = path(&tmp.join("m.xml"));
        args.push(&out);
        args.extend(parts);
        let o = vmafx(&args);
        assert_eq!(o.status.code(), Some(1), "{parts:?} must fail");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let e = merge(&[&a, &c]);
    assert!(e.contains("overlap") && e.contains("c.json"), "{e}");
    let e = merge(&[&a, &g]);
    assert!(
        e.contains("gap") && e.contains("4..6") && e.contains("g.json"),
        "{e}"
    );
    let e = merge(&[&b]);
    assert!(e.contains("gap") && e.contains("0..4"), "{e}");
    let e = merge(&[&a, &other]);
    assert!(
        e.contains("other settings") && e.contains("a.json") && e.contains("other.json"),
        "{e}"
    );
    let log = tmp.join("one.json");
    run_ok(
        &root,
        &[
            "-r".into(),
            format!("{clip}_ref.y4m"),
            "-d".into(),
            format!("{clip}_dis.y4m"),
            "--json".into(),
            "-q".into(),
            "-o".into(),
            path(&log),
        ],
        "one pass",
    );
    let e = merge(&[&a, &path(&log)]);
    assert!(
        e.contains("one.json") && e.contains("not a partial log"),
        "{e}"
    );
    // And the good pair merges.
    let o = vmafx(&["merge", "-q", "-o", &path(&tmp.join("ok.xml")), &b, &a]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // --frames needs -o and a JSON partial log.
    let o = vmafx(&["-r", "x.y4m", "-d", "y.y4m", "--frames", "0..2"]);
    assert_eq!(o.status.code(), Some(2));
    let o = vmafx(&[
        "-r", "x.y4m", "-d", "y.y4m", "--frames", "5..2", "-o", "p.json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no frame"));
}
