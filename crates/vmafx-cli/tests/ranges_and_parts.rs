//! Ranges outside the video, inputs without frames and partial logs that do not belong
//! together: each is an error that names what is wrong (the range and the frame count, the
//! input without frames, the part's file and the field), never an empty or short log; and
//! psnr's whole-run values, logged for a whole run and refused for a part.

mod common;
use common::*;

use std::path::{Path, PathBuf};

/// A 4:2:0 8-bit 64x48 y4m of `frames` frames of a moving ramp; `noise` perturbs it.
fn write_y4m(path: &Path, frames: u32, noise: u32) {
    let (w, h) = (64u32, 48u32);
    let mut bytes = format!("YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n").into_bytes();
    for t in 0..frames {
        bytes.extend_from_slice(b"FRAME\n");
        for j in 0..h {
            for i in 0..w {
                let v = (i * 3 + j * 2 + t * 7) + ((i * 7 + j * 13 + t) % (noise + 1));
                bytes.push((v % 200 + 20) as u8);
            }
        }
        bytes.extend(std::iter::repeat_n(128u8, (w * h / 2) as usize));
    }
    std::fs::write(path, bytes).unwrap();
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A reference and a distorted copy of `frames` frames in `dir`.
fn pair(dir: &Path, frames: u32, noise: u32) -> (PathBuf, PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let (r, d) = (dir.join("ref.y4m"), dir.join("dis.y4m"));
    write_y4m(&r, frames, 0);
    write_y4m(&d, frames, noise);
    (r, d)
}

/// Scores frames `range` of `r` and `d` (psnr only, fast) into `out`; the process's output.
fn part(r: &Path, d: &Path, range: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut a = vec![
        "-r",
        s(r),
        "-d",
        s(d),
        "-n",
        "--feature",
        "psnr",
        "-q",
        "--frames",
        range,
        "-o",
        s(out),
    ];
    a.extend(extra);
    vmafx(&a)
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The `error:` line of a run's standard error (warnings before it may name both inputs).
fn error_line(o: &std::process::Output) -> String {
    let e = stderr(o);
    e.lines()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_else(|| panic!("no error line: {e}"))
        .to_string()
}

#[test]
fn ranges_outside_the_video_are_errors_naming_the_range_and_the_frame_count() {
    let tmp = temp_dir("ranges-outside");
    let (r, d) = pair(&tmp, 10, 7);
    let out = tmp.join("p.json");
    for (range, shown) in [("20..30", "20..30"), ("5..40", "5..40"), ("10..", "10..")] {
        let o = part(&r, &d, range, &out, &[]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "--frames {range}: {e}");
        assert!(
            e.contains(shown) && e.contains("10 frames") && e.contains("outside the video"),
            "--frames {range}: {e}"
        );
    }
    assert!(
        !out.exists(),
        "no partial log is written for a range outside the video"
    );
    // A frame limit ends the video too.
    let o = part(&r, &d, "3..8", &out, &["--frame_cnt", "5"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("3..8") && e.contains("5 frames"), "{e}");
    // Ranges inside it, up to its very end, are scored.
    let o = part(&r, &d, "5..10", &out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read_json(&out)["frames"].as_array().unwrap().len(), 5);
}

#[test]
fn a_distorted_input_without_frames_is_named_not_the_reference() {
    let tmp = temp_dir("distorted-empty");
    let (r, _) = pair(&tmp, 3, 0);
    let header_only = tmp.join("header_only_dis.y4m");
    std::fs::write(&header_only, "YUV4MPEG2 W64 H48 F25:1 Ip A1:1 C420jpeg\n").unwrap();
    let empty = tmp.join("empty_dis.y4m");
    std::fs::write(&empty, "").unwrap();
    for dis in [&header_only, &empty] {
        let o = vmafx(&["-r", s(&r), "-d", s(dis), "-n", "--feature", "psnr", "-q"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let e = error_line(&o);
        assert!(
            e.contains(s(dis)) && !e.contains(s(&r)),
            "names {} only: {e}",
            dis.display()
        );
    }
    // From a pipe (the standard input): named `-`, as the distorted input.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args(["-r", s(&r), "-d", "-", "-n", "--feature", "psnr", "-q"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"YUV4MPEG2 W64 H48 F25:1 Ip A1:1 C420jpeg\n")
            .unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = error_line(&o);
    assert!(
        e.contains("distorted input") && e.contains("-:") && !e.contains(s(&r)),
        "{e}"
    );
    // The reference without frames is named as the reference.
    let o = vmafx(&[
        "-r",
        s(&header_only),
        "-d",
        s(&r),
        "-n",
        "--feature",
        "psnr",
    ]);
    let e = error_line(&o);
    assert!(
        e.contains("reference input") && e.contains(s(&header_only)),
        "{e}"
    );
}

#[test]
fn merges_refuse_parts_of_another_video_or_that_stop_before_its_end() {
    let tmp = temp_dir("merge-origin");
    let (r, d) = pair(&tmp.join("one"), 10, 7);
    let p = |name: &str| tmp.join(name);
    let ok = |o: std::process::Output| assert!(o.status.success(), "{}", stderr(&o));
    ok(part(&r, &d, "0..5", &p("a.json"), &[]));
    ok(part(&r, &d, "5..10", &p("b.json"), &[]));
    ok(part(&r, &d, "5..8", &p("short.json"), &[]));
    // Another video under the same file names (another folder).
    let (r2, d2) = pair(&tmp.join("two"), 10, 3);
    ok(part(&r2, &d2, "5..10", &p("other_video.json"), &[]));
    // The same video, copied under other names: its parts still merge.
    let copy = tmp.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    let (rc, dc) = (copy.join("master.y4m"), copy.join("encode.y4m"));
    std::fs::copy(&r, &rc).unwrap();
    std::fs::copy(&d, &dc).unwrap();
    ok(part(&rc, &dc, "5..10", &p("copied.json"), &[]));
    // The same first frames, a longer file.
    let (r3, d3) = pair(&tmp.join("three"), 12, 7);
    ok(part(&r3, &d3, "5..12", &p("longer.json"), &[]));

    let merge = |parts: &[&Path]| {
        let out = p("m.json");
        let mut a = vec!["merge", "-q", "--json", "-o", s(&out)];
        a.extend(parts.iter().map(|x| s(x)));
        vmafx(&a)
    };
    let refused = |parts: &[&Path], names: &str, field: &str| {
        let o = merge(parts);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{parts:?} must be refused: {e}");
        assert!(e.contains(names) && e.contains(field), "{parts:?}: {e}");
    };
    ok(merge(&[&p("b.json"), &p("a.json")]));
    ok(merge(&[&p("a.json"), &p("copied.json")]));
    refused(
        &[&p("a.json"), &p("other_video.json")],
        "other_video.json",
        "distorted digest",
    );
    refused(&[&p("a.json"), &p("longer.json")], "longer.json", "size");
    refused(&[&p("a.json"), &p("short.json")], "short.json", "8..10");
    refused(&[&p("a.json")], "a.json", "5..10");
    // A part written before origins were recorded (layout 1) is refused, not trusted.
    let mut old = read_json(&p("a.json"));
    let section = old["vmafx_partial"].as_object_mut().unwrap();
    section.insert("layout".into(), 1.into());
    section.remove("origin");
    std::fs::write(p("old.json"), old.to_string()).unwrap();
    refused(&[&p("old.json"), &p("b.json")], "old.json", "older vmafx");
}

#[test]
fn whole_run_psnr_is_logged_and_refused_for_ranges_of_frames() {
    let tmp = temp_dir("apsnr");
    let (r, d) = pair(&tmp, 4, 5);
    let log = tmp.join("log.json");
    let feature = "psnr=enable_apsnr=true:enable_mse=true";
    let run = |out: &Path, extra: &[&str]| {
        let base = [
            "-r",
            s(&r),
            "-d",
            s(&d),
            "-n",
            "--feature",
            feature,
            "-q",
            "-o",
            s(out),
        ];
        vmafx(&[&base[..], extra].concat())
    };
    let o = run(&log, &["--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    // The luma's whole-run PSNR from the frames' MSEs (64x48 pixels each).
    let mse: Vec<f64> = v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["metrics"]["mse_y"].as_f64().unwrap())
        .collect();
    let sse: f64 = mse.iter().map(|m| (m * 64.0 * 48.0).round()).sum();
    let want = 10.0 * (255.0f64 * 255.0 * 4.0 * 64.0 * 48.0 / sse).log10();
    let got = v["aggregate_metrics"]["apsnr_y"].as_f64().unwrap();
    assert!((got - want).abs() < 1e-6, "{got} against {want}");
    assert!(v["aggregate_metrics"]["apsnr_cr"].is_f64());
    // A part of the video cannot give it: refused, not written without it.
    let out = tmp.join("part.json");
    let o = run(&out, &["--frames", "0.."]);
    assert!(!o.status.success());
    assert!(
        error_line(&o).contains("aggregate_metrics"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}
