//! The README's commands, run as written by `sh` with the `vmafx` under test first on `PATH`:
//! the first line's sample and score (its `cargo build` aside), and each line of the "Command
//! line" block in a folder where its placeholder files (`ref.y4m`, `master.mp4`, ...) are
//! links to corpus files of that kind. Only the sizes of the raw and bench lines are changed
//! to the corpus's, and the block's `encoder ...` stands for `cat dis.y4m`.

#![cfg(unix)]

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap()
}

/// The lines of the first ```sh block after `heading` (the whole README where it is empty).
fn sh_block(text: &str, heading: &str) -> Vec<String> {
    let from = text.find(heading).expect("the README's heading");
    let rest = &text[from..];
    let start = rest.find("```sh\n").expect("an sh block") + "```sh\n".len();
    let end = rest[start..].find("```").unwrap();
    rest[start..start + end].lines().map(String::from).collect()
}

/// Runs `line` with `sh` in `dir`, the test's `vmafx` first on `PATH`.
fn sh(dir: &Path, line: &str) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_vmafx")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .args(["-c", line])
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap()
}

#[test]
fn the_first_line_writes_the_sample_and_prints_the_score_it_names() {
    let text = readme();
    let line = sh_block(&text, "# vmafx")[0].clone();
    // `cargo build ... && ./target/release/vmafx sample ... && ./target/release/vmafx -r ...`:
    // the commands after the build, with the binary under test.
    let (build, rest) = line.split_once(" && ").unwrap();
    assert!(
        build.starts_with("cargo build --release -p vmafx-cli"),
        "{build}"
    );
    let rest = rest.replace("./target/release/vmafx", "vmafx");
    let dir = temp_dir("readme-first-line");
    let out = sh(&dir, &rest);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let score = stdout.lines().last().unwrap();
    assert!(score.starts_with("vmaf_v0.6.1: "), "{stdout}");
    assert!(
        text.contains(&format!("(`{score}`)")),
        "the README does not state the sample's score, {score}"
    );
}

/// Links `name` in `dir` to `target`.
fn link(dir: &Path, name: &str, target: PathBuf) {
    assert!(target.is_file(), "{}", target.display());
    std::os::unix::fs::symlink(target, dir.join(name)).unwrap();
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn every_line_of_the_command_line_block_runs() {
    let Some(corpus) = corpus() else { return };
    let have_ffmpeg = Command::new("ffmpeg").arg("-version").output().is_ok();
    let dir = temp_dir("readme-command-lines");
    let c = |name: &str| corpus.join(name);
    link(&dir, "ref.y4m", c("carphone_176x144_420p8_ref.y4m"));
    link(&dir, "dis.y4m", c("carphone_176x144_420p8_dis.y4m"));
    link(&dir, "ref.yuv", c("bbb_576x324_420p10le_crf35_ref.yuv"));
    link(&dir, "dis.yuv", c("bbb_576x324_420p10le_crf35_dis.yuv"));
    link(&dir, "master.mp4", c("bbb_576x324_420p8_crf35_ref.y4m"));
    link(
        &dir,
        "encode.mkv",
        c("bitstreams/bbb_576x324_420p8_crf35.mkv"),
    );
    let lines = sh_block(&readme(), "## Command line");
    assert!(lines.len() >= 8, "{lines:?}");
    for line in &lines {
        let run = line
            .replace("-w 1920 -h 1080", "-w 576 -h 324")
            .replace("--size 1920x1080 --frames 48", "--size 352x288 --frames 4")
            .replace("encoder ... -f yuv4mpegpipe -", "cat dis.y4m");
        if run.contains("master.mp4") && !have_ffmpeg {
            continue;
        }
        let out = sh(&dir, &run);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{run}\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        if !run.contains("bench") && !run.contains(" -o ") && !run.contains("--window") {
            assert!(stdout.contains("vmaf"), "{run}: {stdout}");
        }
    }
    for written in ["log.json", "report.html", "f.csv"] {
        assert!(
            dir.join(written).is_file() || (written == "report.html" && !have_ffmpeg),
            "{written}"
        );
    }
}
