//! A long run with flat memory: frames generated here are piped into `vmafx` (the
//! distorted on standard input, the reference through a named pipe), the process's resident
//! memory is sampled from /proc as the frames go in, and the log must hold every frame.
//!
//! 10,000 64x64 frames by default (a few seconds); `VMAFX_SOAK_FRAMES=100000` for the long
//! soak whose figures docs/RELIABILITY.md gives. The run prints its samples.

#![cfg(target_os = "linux")]

mod common;
use common::*;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const W: usize = 64;
const H: usize = 64;
const FRAME: usize = W * H * 3 / 2;
/// Distinct pictures the generator cycles through.
const PICTURES: usize = 16;
/// Growth allowed from the first tenth's peak to the last tenth's, beyond the scores kept.
const SLACK: u64 = 4 << 20;

/// Picture `k` of the reference (a moving checkerboard) or of the distorted (the same with
/// noise that depends on `k`).
fn picture(k: usize, distorted: bool) -> Vec<u8> {
    let mut p = vec![128u8; FRAME];
    let mut seed = 0x9e37_79b9_u32.wrapping_mul(k as u32 + 1);
    for y in 0..H {
        for x in 0..W {
            let on = ((x + 2 * k) / 4 + y / 4).is_multiple_of(2);
            let mut v: i32 = if on { 190 } else { 60 };
            if distorted {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                v += (seed % 31) as i32 - 15;
            }
            p[y * W + x] = v.clamp(0, 255) as u8;
        }
    }
    p
}

fn vm_kib(pid: u32, key: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_long_piped_run_keeps_memory_flat_and_logs_every_frame() {
    let frames: usize = std::env::var("VMAFX_SOAK_FRAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let dir = temp_dir("soak");
    let fifo = dir.join("ref.y4m");
    let o = Command::new("mkfifo").arg(&fifo).output().expect("mkfifo");
    assert!(o.status.success());
    let log = dir.join("soak.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args([
            "-r",
            fifo.to_str().unwrap(),
            "-d",
            "-",
            "--json",
            "-q",
            "-o",
        ])
        .arg(&log)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let header = format!("YUV4MPEG2 W{W} H{H} F25:1 Ip A1:1 C420jpeg\n");
    let refs: Vec<Vec<u8>> = (0..PICTURES).map(|k| picture(k, false)).collect();
    let diss: Vec<Vec<u8>> = (0..PICTURES).map(|k| picture(k, true)).collect();
    let (head, fifo2) = (header.clone(), fifo.clone());
    let feeder = std::thread::spawn(move || {
        let mut w = std::io::BufWriter::new(
            std::fs::OpenOptions::new()
                .write(true)
                .open(&fifo2)
                .unwrap(),
        );
        w.write_all(head.as_bytes()).unwrap();
        for i in 0..frames {
            w.write_all(b"FRAME\n").unwrap();
            w.write_all(&refs[i % PICTURES]).unwrap();
        }
    });
    let mut stdin = std::io::BufWriter::new(child.stdin.take().unwrap());
    stdin.write_all(header.as_bytes()).unwrap();
    let every = (frames / 100).max(1);
    let mut samples: Vec<(usize, u64)> = Vec::new();
    for i in 0..frames {
        stdin.write_all(b"FRAME\n").unwrap();
        stdin.write_all(&diss[i % PICTURES]).unwrap();
        if (i + 1) % every == 0 {
            stdin.flush().unwrap();
            if let Some(kib) = vm_kib(pid, "VmRSS:") {
                samples.push((i + 1, kib));
            }
        }
    }
    drop(stdin);
    feeder.join().unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tenth = |lo: usize, hi: usize| {
        samples
            .iter()
            .filter(|&&(n, _)| n > lo && n <= hi)
            .map(|&(_, k)| k)
            .max()
            .unwrap()
    };
    let first = tenth(0, frames / 10);
    let last = tenth(frames - frames / 10, frames);
    let peak = samples.iter().map(|s| s.1).max().unwrap();
    eprintln!("soak: {frames} frames, RSS samples (frames written, KiB): {samples:?}");
    eprintln!(
        "soak: first tenth peak {first} KiB, last tenth peak {last} KiB, run peak {peak} KiB"
    );
    // What legitimately grows with the run: the score table, ~15 scores of 16 bytes a frame.
    let scores = (frames as u64 * 15 * 16) >> 10;
    assert!(
        last <= first + (SLACK >> 10) + scores,
        "memory grew from {first} KiB to {last} KiB over {frames} frames"
    );
    let log = read_json(&log);
    let nums: Vec<u64> = log["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["frameNum"].as_u64().unwrap())
        .collect();
    assert_eq!(nums.len(), frames);
    assert!(nums.iter().enumerate().all(|(i, &n)| n == i as u64));
    assert!(log.get("partial").is_none());
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}
