//! `--window`: a distorted stream piped to `-d -` by another thread, frame by frame, gets one
//! line per second of video, each printed while the stream is still coming, with the pooled
//! scores a normal run gives over the same frames.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{temp_dir, vmafx};
use vmafx::{Model, PoolMethod, Scorer, ScorerConfig};

const FRAMES: u64 = 48;

/// A 48-frame sample pair at 24 frames per second.
fn pair(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let d = dir.to_str().unwrap();
    let out = vmafx(&[
        "sample", "--dir", d, "--width", "96", "--height", "64", "--frames", "48",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (r, dis) = (dir.join("sample_ref.y4m"), dir.join("sample_dis.y4m"));
    for p in [&r, &dis] {
        let bytes = std::fs::read(p).unwrap();
        let header_end = bytes.iter().position(|&b| b == b'\n').unwrap();
        let header = String::from_utf8(bytes[..header_end].to_vec()).unwrap();
        assert!(header.contains(" F25:1 "), "{header}");
        let mut fixed = header.replace(" F25:1 ", " F24:1 ").into_bytes();
        fixed.extend_from_slice(&bytes[header_end..]);
        std::fs::write(p, fixed).unwrap();
    }
    (r, dis)
}

/// The line `--window` prints for frames `first..=last`, from a normal run's report.
fn expected(report: &vmafx::Report, first: u64, last: u64) -> String {
    let p = |m| {
        report
            .model_pooled("vmaf", m, first..last + 1)
            .unwrap()
            .pooled
    };
    format!(
        "vmaf_v0.6.1: mean {:.6} min {:.6} harmonic_mean {:.6}",
        p(PoolMethod::Mean),
        p(PoolMethod::Min),
        p(PoolMethod::HarmonicMean)
    )
}

#[test]
fn windows_of_a_piped_stream_are_printed_while_it_comes() {
    let dir = temp_dir("window-pipe");
    let (r, d) = pair(&dir);
    let report = Scorer::new(ScorerConfig::new().model(Model::builtin("vmaf_v0.6.1")))
        .unwrap()
        .score_files(&r, &d)
        .unwrap();
    assert_eq!(report.frame_count(), FRAMES);

    let mut child = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args(["-r", r.to_str().unwrap(), "-d", "-", "--window", "1s", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    // The writer sends the header and 30 frames, then waits until the first window's line
    // was read before it sends the rest: the line must come from the frames it had.
    let bytes = std::fs::read(&d).unwrap();
    let header_end = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    let frame_len = (bytes.len() - header_end) / FRAMES as usize;
    let (seen_tx, seen_rx) = mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&bytes[..header_end]).unwrap();
        let mut waited = None;
        for i in 0..FRAMES as usize {
            if i == 30 {
                waited = Some(seen_rx.recv_timeout(Duration::from_secs(120)).is_ok());
            }
            let at = header_end + i * frame_len;
            for chunk in bytes[at..at + frame_len].chunks(1000) {
                stdin.write_all(chunk).unwrap();
                stdin.flush().unwrap();
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        waited
    });
    let mut lines = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        if line.starts_with("window ") && lines.is_empty() {
            let _ = seen_tx.send(());
        }
        lines.push(line);
    }
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(status.success(), "{err}");
    assert_eq!(
        writer.join().unwrap(),
        Some(true),
        "window 0 was printed before frames 30-47 were sent"
    );
    let windows: Vec<&String> = lines.iter().filter(|l| l.starts_with("window ")).collect();
    assert_eq!(windows.len(), 2, "one line per second of video: {lines:?}");
    assert_eq!(
        *windows[0],
        format!(
            "window 0: frames 0-23 (0.000-1.000 s) {}",
            expected(&report, 0, 23)
        )
    );
    assert_eq!(
        *windows[1],
        format!(
            "window 1: frames 24-47 (1.000-2.000 s) {} (partial)",
            expected(&report, 24, 47)
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn window_lengths_in_frames_and_bad_ones() {
    let dir = temp_dir("window-frames");
    let (r, d) = pair(&dir);
    let out = vmafx(&[
        "-r",
        r.to_str().unwrap(),
        "-d",
        d.to_str().unwrap(),
        "--window",
        "20f",
        "-q",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let firsts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("window "))
        .map(|l| l.split(" (").next().unwrap())
        .collect();
    assert_eq!(
        firsts,
        [
            "window 0: frames 0-19",
            "window 1: frames 20-39",
            "window 2: frames 40-47"
        ]
    );
    for bad in ["0f", "2m", "0s"] {
        let out = vmafx(&[
            "-r",
            r.to_str().unwrap(),
            "-d",
            d.to_str().unwrap(),
            "--window",
            bad,
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--window"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
