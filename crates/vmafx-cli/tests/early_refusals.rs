//! What a script reading `vmafx`'s output relies on: a run that fails prints no pooled
//! score on standard output, and an option the run cannot honour is refused before the
//! first frame is read, not after the video is scored.

#![cfg(unix)]

mod common;
use common::*;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A raw 4:2:0 8-bit file of `frames` frames of `w`x`h`, its samples a moving ramp.
fn raw_yuv(path: &std::path::Path, w: usize, h: usize, frames: usize, shift: usize) {
    let size = w * h * 3 / 2;
    let bytes: Vec<u8> = (0..frames * size)
        .map(|i| ((i % size) / 7 + (i / size) * 5 + shift) as u8)
        .collect();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_wrong_raw_width_fails_without_a_pooled_score_on_stdout() {
    let dir = temp_dir("early-raw-width");
    let (r, d) = (dir.join("ref.yuv"), dir.join("dis.yuv"));
    raw_yuv(&r, 576, 324, 3, 0);
    raw_yuv(&d, 576, 324, 3, 3);
    let (r, d) = (r.to_str().unwrap(), d.to_str().unwrap());
    let raw = ["-h", "324", "-p", "420", "-b", "8"];
    // The right width scores, and prints the pooled score.
    let good = vmafx(&[&["-r", r, "-d", d, "-w", "576"][..], &raw].concat());
    assert!(good.status.success(), "{good:?}");
    let out = String::from_utf8_lossy(&good.stdout);
    assert!(out.starts_with("vmaf_v0.6.1: "), "{out}");
    // 577 misreads every frame and cuts the third short: the run fails, and standard output
    // holds nothing a script could take for the score.
    let bad = vmafx(&[&["-r", r, "-d", d, "-w", "577"][..], &raw].concat());
    assert_eq!(bad.status.code(), Some(1), "{bad:?}");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("truncated"), "{err}");
    assert!(
        bad.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&bad.stdout)
    );
}

/// How long a run that should end by itself is given (it ends at once; the margin is for a
/// loaded machine).
const LONG: Duration = Duration::from_secs(60);

/// Runs vmafx with `args` on the distorted video from standard input, sending only the y4m
/// header and keeping the pipe open: a run that reads a frame waits for ever, so one that
/// ends by itself decided before reading any. Returns (exit code, stderr), or `None` where
/// it was still waiting after `wait` (then it is killed).
fn run_before_any_frame(tag: &str, wait: Duration, args: &[&str]) -> Option<(Option<i32>, String)> {
    let dir = temp_dir(tag);
    let out = vmafx(&["sample", "--dir", dir.to_str().unwrap(), "--frames", "4"]);
    assert!(out.status.success(), "{out:?}");
    let r = dir.join("sample_ref.y4m");
    let d = std::fs::read(dir.join("sample_dis.y4m")).unwrap();
    let header = &d[..=d.iter().position(|&b| b == b'\n').unwrap()];
    let mut child = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args(["-r", r.to_str().unwrap(), "-d", "-", "-q"])
        .args(args)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A run that refuses before opening its inputs may have gone already (a broken pipe).
    let _ = stdin.write_all(header);
    let start = Instant::now();
    while start.elapsed() < wait {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            drop(stdin);
            return Some((status.code(), String::from_utf8_lossy(&out.stderr).into()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    drop(stdin);
    let _ = child.wait();
    None
}

#[test]
fn a_bad_html_plot_name_is_refused_before_the_first_frame() {
    let (code, err) = run_before_any_frame(
        "early-plot-bad",
        LONG,
        &["--html", "page.html", "--html-plot", "nope"],
    )
    .expect("vmafx waited for a frame instead of refusing --html-plot nope");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--html-plot nope: no such metric") && err.contains("integer_motion2"),
        "{err}"
    );
}

#[test]
fn a_good_html_plot_name_is_not_refused() {
    // The same run with a metric the log holds waits for its frames (it is killed).
    assert!(run_before_any_frame(
        "early-plot-good",
        Duration::from_secs(3),
        &["--html", "page.html", "--html-plot", "integer_motion2"],
    )
    .is_none());
}

#[test]
fn html_plot_without_html_and_a_log_in_a_missing_folder_are_refused_before_the_first_frame() {
    let (code, err) =
        run_before_any_frame("early-plot-alone", LONG, &["--html-plot", "vmaf"]).expect("refused");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--html-plot needs --html"), "{err}");
    let (code, err) =
        run_before_any_frame("early-log-dir", LONG, &["-o", "no-such-folder/log.xml"])
            .expect("refused");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no-such-folder"), "{err}");
}
