//! Faults of real runs, end to end through the `vmafx` binary: a decoder that dies
//! halfway, a pipe cut mid-frame, a log that cannot be written, Ctrl-C. Each keeps the
//! frames scored in a log marked partial (or leaves no cut log), names what failed, and
//! exits with its own status.

#![cfg(unix)]

mod common;
use common::*;

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const W: u32 = 64;
const H: u32 = 64;
/// Bytes of one 64x64 4:2:0 frame's samples.
const FRAME: usize = (W * H * 3 / 2) as usize;
/// The header line `vmafx sample` writes for 64x64.
const Y4M_HEADER: &str = "YUV4MPEG2 W64 H64 F25:1 Ip A1:1 C420mpeg2\n";

/// A 64x64 sample pair of `frames` frames in `dir`: (reference, distorted).
fn sample(dir: &Path, frames: u32) -> (PathBuf, PathBuf) {
    let out = vmafx(&[
        "sample",
        "--dir",
        dir.to_str().unwrap(),
        "--width",
        &W.to_string(),
        "--height",
        &H.to_string(),
        "--frames",
        &frames.to_string(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let d = dir.join("sample_dis.y4m");
    assert!(std::fs::read(&d)
        .unwrap()
        .starts_with(Y4M_HEADER.as_bytes()));
    (dir.join("sample_ref.y4m"), d)
}

/// Bytes of the y4m header line of `y4m` (with its newline).
fn header_len(y4m: &[u8]) -> usize {
    y4m.iter().position(|&b| b == b'\n').unwrap() + 1
}

fn executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A fake ffmpeg in `dir` running `body`, and an ffprobe beside it that describes a 64x64
/// 4:2:0 stream (so the real ffprobe is not asked about a file that is no video).
fn fake_ffmpeg(dir: &Path, body: &str) -> PathBuf {
    let ffmpeg = dir.join("ffmpeg");
    executable(&ffmpeg, &format!("#!/bin/sh\n{body}\n"));
    executable(
        &dir.join("ffprobe"),
        "#!/bin/sh\nprintf 'codec_name=h264\\nwidth=64\\nheight=64\\npix_fmt=yuv420p\\nnb_frames=10\\n'\n",
    );
    ffmpeg
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The frame numbers of a JSON log and its partial mark (reason, frames).
fn frames_and_mark(log: &serde_json::Value) -> (Vec<u64>, Option<(String, u64)>) {
    let nums = log["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["frameNum"].as_u64().unwrap())
        .collect();
    let mark = log.get("partial").map(|p| {
        (
            p["reason"].as_str().unwrap().to_string(),
            p["frames"].as_u64().unwrap(),
        )
    });
    (nums, mark)
}

/// A partial log holds exactly what a run of its first `n` frames gives (`--frame_cnt n`):
/// the same per-frame metrics (the last frame's temporal scores included) and pooled scores.
fn same_as_first_frames(partial: &serde_json::Value, dir: &Path, r: &Path, d: &Path, n: usize) {
    let out = dir.join(format!("first-{n}.json"));
    let o = vmafx(&[
        "-r",
        r.to_str().unwrap(),
        "-d",
        d.to_str().unwrap(),
        "--frame_cnt",
        &n.to_string(),
        "--json",
        "-q",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = read_json(&out);
    assert_eq!(partial["frames"], first["frames"]);
    assert_eq!(partial["pooled_metrics"], first["pooled_metrics"]);
}

/// Runs the fake decoder `body` (which sees `$SRC`, the distorted y4m) on a file that is no
/// y4m, and returns the run's output and its JSON log.
fn run_fake_decoder(tag: &str, body: &str, n: usize) -> (std::process::Output, serde_json::Value) {
    let dir = temp_dir(tag);
    let (r, d) = sample(&dir, 10);
    let ffmpeg = fake_ffmpeg(&dir, &format!("SRC='{}'\n{body}", d.display()));
    let enc = dir.join("enc.mkv");
    std::fs::write(&enc, [0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]).unwrap();
    let log = dir.join("log.json");
    let out = vmafx(&[
        "-r",
        r.to_str().unwrap(),
        "-d",
        enc.to_str().unwrap(),
        "--ffmpeg",
        ffmpeg.to_str().unwrap(),
        "--json",
        "-q",
        "-o",
        log.to_str().unwrap(),
    ]);
    let log = read_json(&log);
    same_as_first_frames(&log, &dir, &r, &d, n);
    (out, log)
}

#[test]
fn a_decoder_that_fails_halfway_names_the_input_and_frame_and_keeps_a_partial_log() {
    let hdr = Y4M_HEADER.len();
    // Three whole frames and part of the fourth, then a failure.
    let bytes = hdr + 3 * (FRAME + 6) + 100;
    let (out, log) = run_fake_decoder(
        "fault-ffmpeg-exit",
        &format!("head -c {bytes} \"$SRC\"\necho 'enc.mkv: corrupt packet' >&2\nexit 1"),
        3,
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("enc.mkv") && e.contains("frame 3, after 3 whole frames"),
        "{e}"
    );
    assert!(
        e.contains("corrupt packet") && e.contains("exit status 1"),
        "{e}"
    );
    assert!(
        e.contains("holds the 3 frames scored, marked partial"),
        "{e}"
    );
    let (nums, mark) = frames_and_mark(&log);
    assert_eq!(nums, vec![0, 1, 2]);
    assert_eq!(mark, Some(("input_failed".to_string(), 3)));
    assert!(log["partial"]["detail"]
        .as_str()
        .unwrap()
        .contains("enc.mkv"));
}

#[test]
fn a_decoder_killed_halfway_is_reported_as_killed_with_a_partial_log() {
    let hdr = Y4M_HEADER.len();
    let bytes = hdr + 5 * (FRAME + 6);
    let (out, log) = run_fake_decoder(
        "fault-ffmpeg-kill",
        &format!("head -c {bytes} \"$SRC\"\nkill -9 $$"),
        5,
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("enc.mkv") && e.contains("killed by a signal"),
        "{e}"
    );
    assert!(e.contains("frame 5, after 5 whole frames"), "{e}");
    let (nums, mark) = frames_and_mark(&log);
    assert_eq!(nums, (0..5).collect::<Vec<u64>>());
    assert_eq!(mark, Some(("input_failed".to_string(), 5)));
}

/// Whether the real ffmpeg runs here (skip otherwise; under CI=true it must).
fn have_ffmpeg() -> bool {
    let ok = Command::new("ffmpeg")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "ffmpeg is missing (CI=true)"
        );
        eprintln!("skipping: no ffmpeg on PATH");
    }
    ok
}

#[test]
fn a_real_ffmpeg_killed_mid_run_leaves_a_partial_log_of_whole_frames() {
    if !have_ffmpeg() {
        return;
    }
    let dir = temp_dir("fault-real-ffmpeg");
    let (r, d) = sample(&dir, 200);
    let enc = dir.join("dis.mkv");
    let o = Command::new("ffmpeg")
        .args(["-nostdin", "-v", "error", "-y", "-i"])
        .arg(&d)
        .args(["-c:v", "ffv1"])
        .arg(&enc)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // The real decoder, paced at 25 frames a second, killed after a second.
    let wrapper = dir.join("ffmpeg-wrapper");
    executable(
        &wrapper,
        "#!/bin/sh\nffmpeg -re \"$@\" &\np=$!\nsleep 1\nkill -9 $p\nwait $p\n",
    );
    let log = dir.join("log.json");
    let out = vmafx(&[
        "-r",
        r.to_str().unwrap(),
        "-d",
        enc.to_str().unwrap(),
        "--ffmpeg",
        wrapper.to_str().unwrap(),
        "--json",
        "-q",
        "-o",
        log.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("dis.mkv") && e.contains("exit status 137"),
        "{e}"
    );
    let log = read_json(&log);
    let (nums, mark) = frames_and_mark(&log);
    let n = nums.len();
    assert!(n > 0 && n < 200, "{n} frames");
    assert_eq!(nums, (0..n as u64).collect::<Vec<_>>());
    assert_eq!(mark, Some(("input_failed".to_string(), n as u64)));
    assert!(e.contains(&format!("after {n} whole frames")), "{e}");
    same_as_first_frames(&log, &dir, &r, &d, n);
}

/// The distorted input cut 100 bytes into frame 3's samples.
fn cut_stream(d: &Path) -> Vec<u8> {
    let bytes = std::fs::read(d).unwrap();
    let cut = header_len(&bytes) + 3 * (FRAME + 6) + 6 + 100;
    bytes[..cut].to_vec()
}

fn check_cut(out: &std::process::Output, log: &Path, name: &str) {
    assert_eq!(out.status.code(), Some(1), "{}", stderr(out));
    let e = stderr(out);
    assert!(e.contains(&format!("{name}: frame 3 at byte")), "{e}");
    assert!(
        e.contains(&format!("after 100 of the frame's {FRAME} bytes")),
        "{e}"
    );
    let (nums, mark) = frames_and_mark(&read_json(log));
    assert_eq!(nums, vec![0, 1, 2]);
    assert_eq!(mark, Some(("input_failed".to_string(), 3)));
}

#[test]
fn standard_input_cut_mid_frame_names_frame_and_bytes_and_keeps_a_partial_log() {
    let dir = temp_dir("fault-stdin-cut");
    let (r, d) = sample(&dir, 6);
    let log = dir.join("log.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args([
            "-r",
            r.to_str().unwrap(),
            "-d",
            "-",
            "--json",
            "-q",
            "-o",
            log.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&cut_stream(&d))
        .unwrap();
    let out = child.wait_with_output().unwrap();
    check_cut(&out, &log, "-");
}

fn mkfifo(path: &Path) {
    let o = Command::new("mkfifo").arg(path).output().expect("mkfifo");
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_named_pipe_cut_mid_frame_names_frame_and_bytes_and_keeps_a_partial_log() {
    let dir = temp_dir("fault-fifo-cut");
    let (r, d) = sample(&dir, 6);
    let fifo = dir.join("dis.y4m");
    mkfifo(&fifo);
    let bytes = cut_stream(&d);
    let fifo2 = fifo.clone();
    let feeder = std::thread::spawn(move || {
        std::fs::OpenOptions::new()
            .write(true)
            .open(&fifo2)
            .unwrap()
            .write_all(&bytes)
            .unwrap();
    });
    let log = dir.join("log.json");
    let out = vmafx(&[
        "-r",
        r.to_str().unwrap(),
        "-d",
        fifo.to_str().unwrap(),
        "--json",
        "-q",
        "-o",
        log.to_str().unwrap(),
    ]);
    feeder.join().unwrap();
    check_cut(&out, &log, fifo.to_str().unwrap());
}

#[test]
fn a_full_device_or_missing_folder_is_a_clear_error() {
    let dir = temp_dir("fault-log-dest");
    let (r, d) = sample(&dir, 3);
    let (r, d) = (r.to_str().unwrap(), d.to_str().unwrap());
    if Path::new("/dev/full").exists() {
        let out = vmafx(&["-r", r, "-d", d, "--json", "-q", "-o", "/dev/full"]);
        assert_eq!(out.status.code(), Some(1));
        let e = stderr(&out);
        assert!(
            e.contains("/dev/full") && e.contains("No space left on device"),
            "{e}"
        );
    }
    let missing = dir.join("no-such-folder/log.json");
    let out = vmafx(&[
        "-r",
        r,
        "-d",
        d,
        "--json",
        "-q",
        "-o",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(missing.to_str().unwrap()),
        "{}",
        stderr(&out)
    );
    let folder = dir.join("a-folder");
    std::fs::create_dir(&folder).unwrap();
    let out = vmafx(&[
        "-r",
        r,
        "-d",
        d,
        "--json",
        "-q",
        "-o",
        folder.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("is a directory"), "{}", stderr(&out));
}

#[test]
fn a_disk_that_fills_while_the_log_is_written_leaves_the_old_log_and_no_cut_file() {
    let dir = temp_dir("fault-disk-full");
    let (r, d) = sample(&dir, 20);
    let logs = dir.join("logs");
    std::fs::create_dir(&logs).unwrap();
    let log = logs.join("log.json");
    std::fs::write(&log, "the previous log\n").unwrap();
    // A file-size limit of 4 KiB (8 blocks of 512 bytes) makes the write fail past it as
    // a full disk would (EFBIG, with SIGXFSZ ignored), where the log needs ~25 KiB.
    let script = format!(
        "trap '' XFSZ; ulimit -f 8; exec '{}' -r '{}' -d '{}' --json -q -o '{}'",
        env!("CARGO_BIN_EXE_vmafx"),
        r.display(),
        d.display(),
        log.display()
    );
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(log.to_str().unwrap()),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "the previous log\n");
    let left: Vec<_> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 1, "temporary files left: {left:?}");
}

#[test]
fn ctrl_c_finishes_the_frames_read_writes_a_partial_log_and_exits_130() {
    let dir = temp_dir("fault-sigint");
    let (r, d) = sample(&dir, 40);
    let bytes = std::fs::read(&d).unwrap();
    let hdr = header_len(&bytes);
    let fifo = dir.join("slow.y4m");
    mkfifo(&fifo);
    let log = dir.join("log.json");
    let child = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args([
            "-r",
            r.to_str().unwrap(),
            "-d",
            fifo.to_str().unwrap(),
            "--json",
            "-q",
            "-o",
            log.to_str().unwrap(),
        ])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    let mut pipe = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    // Twelve frames, then a pause in which the run waits for frame 12; Ctrl-C; frame 12.
    const K: usize = 12;
    let frame = |i: usize| &bytes[hdr + i * (FRAME + 6)..hdr + (i + 1) * (FRAME + 6)];
    pipe.write_all(&bytes[..hdr]).unwrap();
    for i in 0..K {
        pipe.write_all(frame(i)).unwrap();
    }
    std::thread::sleep(Duration::from_millis(1500));
    let k = Command::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(k.success());
    std::thread::sleep(Duration::from_millis(300));
    pipe.write_all(frame(K)).unwrap();
    // The run stops before reading another pair, though the pipe stays open.
    let out = child.wait_with_output().unwrap();
    drop(pipe);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains(&format!(
            "holds the {} frames scored, marked partial",
            K + 1
        )),
        "{e}"
    );
    let log = read_json(&log);
    let (nums, mark) = frames_and_mark(&log);
    assert_eq!(nums, (0..=K as u64).collect::<Vec<_>>());
    assert_eq!(mark, Some(("interrupted".to_string(), K as u64 + 1)));
    assert_eq!(log["partial"]["detail"], "");
    same_as_first_frames(&log, &dir, &r, &d, K + 1);
}

#[test]
fn ctrl_c_at_the_terminal_stops_the_decoder_too_and_the_run_is_still_interrupted() {
    use std::os::unix::process::CommandExt;
    // The terminal sends SIGINT to the whole process group: here the fake decoder ends its
    // output cleanly on it, which must not pass for the end of the video.
    const K: usize = 4;
    let dir = temp_dir("fault-sigint-group");
    let (r, d) = sample(&dir, 10);
    let bytes = Y4M_HEADER.len() + K * (FRAME + 6);
    let ffmpeg = fake_ffmpeg(
        &dir,
        &format!(
            "trap 'exit 0' INT\nhead -c {bytes} '{}'\nwhile :; do sleep 0.05; done",
            d.display()
        ),
    );
    let enc = dir.join("enc.mkv");
    std::fs::write(&enc, [0x1a, 0x45, 0xdf, 0xa3]).unwrap();
    let log = dir.join("log.json");
    let child = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args([
            "-r",
            r.to_str().unwrap(),
            "-d",
            enc.to_str().unwrap(),
            "--ffmpeg",
        ])
        .arg(&ffmpeg)
        .args(["--json", "-q", "-o", log.to_str().unwrap()])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let group = format!("-{}", child.id());
    let k = Command::new("kill")
        .args(["-INT", "--", &group])
        .status()
        .unwrap();
    assert!(k.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(!e.contains("ended before"), "{e}");
    let log = read_json(&log);
    let (nums, mark) = frames_and_mark(&log);
    assert_eq!(nums, (0..K as u64).collect::<Vec<_>>());
    assert_eq!(mark, Some(("interrupted".to_string(), K as u64)));
}
