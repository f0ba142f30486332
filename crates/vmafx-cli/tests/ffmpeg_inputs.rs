//! Compressed inputs through the ffmpeg program: the corpus's bitstreams give the golden
//! logs of their y4m pairs; a lower-resolution encode is scaled as a person would scale it
//! by hand; decode failures and a missing ffmpeg are clear errors naming the input.
//! Tests that need ffmpeg skip with a message where it is absent, and fail under CI=true.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Command;

fn ffmpeg(args: &[&str]) {
    let out = Command::new("ffmpeg")
        .args(["-nostdin", "-hide_banner", "-v", "error", "-y"])
        .args(args)
        .output()
        .expect("run ffmpeg");
    assert!(
        out.status.success(),
        "ffmpeg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn is_float_config(config: &str) -> bool {
    config.starts_with("vmaf_float") || config == "float_features_debug"
}

/// The golden's arguments with the y4m reference, `dis` as the distorted input and `out`
/// as the log; raw yuv parameters dropped, models named as vmafx takes them.
fn args_for(golden: &[String], reference: &str, dis: &str, out: &Path) -> Vec<String> {
    let mut v = Vec::new();
    let mut it = golden.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-r" | "--reference" => {
                it.next();
                v.extend(["-r".into(), reference.into()]);
            }
            "-d" | "--distorted" => {
                it.next();
                v.extend(["-d".into(), dis.into()]);
            }
            "-o" | "--output" => {
                it.next();
                v.extend(["-o".into(), s(out).into()]);
            }
            "-w" | "--width" | "-h" | "--height" | "-p" | "--pixel_format" | "-b"
            | "--bitdepth" => {
                it.next();
            }
            m if m.starts_with("path=models/") && !m.contains("vmaf_4k_v0.6.1neg") => {
                v.push(format!(
                    "version={}",
                    m.trim_start_matches("path=models/")
                        .trim_end_matches(".json")
                ))
            }
            "version=vmaf_4k_v0.6.1neg" => v.push("path=models/vmaf_4k_v0.6.1neg.json".into()),
            _ => v.push(a.clone()),
        }
    }
    v.push("-q".into());
    v
}

fn run_in(root: &Path, args: &[String]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .current_dir(root)
        .args(args)
        .output()
        .unwrap()
}

/// The log without its speed reading.
fn scores(v: &serde_json::Value) -> serde_json::Value {
    let mut v = v.clone();
    v.as_object_mut().unwrap().remove("fps");
    v
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn each_bitstream_gives_the_golden_logs_of_its_y4m_pair() {
    let Some(dir) = corpus() else { return };
    if !have_ffmpeg() {
        return;
    }
    let root = dir.parent().unwrap().to_path_buf();
    let manifest = read_json(&dir.join("manifest.json"));
    let tmp = temp_dir("bitstreams");
    let mut streams: Vec<PathBuf> = std::fs::read_dir(dir.join("bitstreams"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mkv"))
        .collect();
    streams.sort();
    assert!(streams.len() >= 5, "bitstreams: {streams:?}");
    let (mut runs, mut refused, mut values, mut own) = (0, 0, 0, 0);
    for mkv in &streams {
        let id = mkv.file_stem().unwrap().to_str().unwrap();
        let clip = manifest["clips"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id}: not in the manifest"));
        let reference = clip["ref"].as_str().unwrap();
        let mkv_rel = format!("conformance/bitstreams/{id}.mkv");
        let mut seen = Vec::new();
        for g in clip["goldens"].as_array().unwrap() {
            let config = g["config"].as_str().unwrap();
            if seen.contains(&config) {
                continue; // the y4m pair's run first; raw variants of it repeat configs
            }
            seen.push(config);
            let golden: Vec<String> = g["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string())
                .collect();
            let out = tmp.join(format!("{id}.{config}.mkv.json"));
            let run = run_in(&root, &args_for(&golden, reference, &mkv_rel, &out));
            runs += 1;
            if g["rc"].as_i64() != Some(0) {
                assert_eq!(run.status.code(), Some(1), "{id} {config}: libvmaf failed");
                assert!(!out.exists(), "{id} {config}: a failed run wrote a log");
                refused += 1;
                continue;
            }
            assert!(
                run.status.success(),
                "{id} {config}: {}",
                String::from_utf8_lossy(&run.stderr)
            );
            let got = read_json(&out);
            if is_float_config(config) {
                // Float features match libvmaf within tolerances (manifest_conformance);
                // here the decoded frames must give exactly what the y4m pair gives.
                let y4m_out = tmp.join(format!("{id}.{config}.y4m.json"));
                let dis = clip["dis"].as_str().unwrap();
                let y4m_run = run_in(&root, &args_for(&golden, reference, dis, &y4m_out));
                assert!(y4m_run.status.success(), "{id} {config}: y4m pair");
                assert_eq!(
                    scores(&got),
                    scores(&read_json(&y4m_out)),
                    "{id} {config}: the bitstream's log differs from the y4m pair's"
                );
                own += 1;
            } else {
                let want = read_json(&root.join(g["file"].as_str().unwrap()));
                values += compare_logs(id, config, &got, &want);
            }
        }
    }
    eprintln!(
        "{} bitstreams, {runs} runs ({refused} refused as libvmaf failed, {own} float runs \
         compared with vmafx's y4m run), {values} values equal to the goldens",
        streams.len()
    );
    assert!(runs >= 5 * 15 && values > 1000);
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn a_smaller_encode_is_scaled_as_by_hand_with_bicubic() {
    let Some(dir) = corpus() else { return };
    if !have_ffmpeg() {
        return;
    }
    let tmp = temp_dir("scale");
    let reference = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let (w, h) = (576, 324);
    // An encode at a lower resolution, as a ladder rung would be.
    let small = tmp.join("small.mkv");
    let encoded = ["libx264", "mpeg4", "ffv1"].iter().any(|codec| {
        Command::new("ffmpeg")
            .args(["-nostdin", "-v", "error", "-y", "-i", s(&reference)])
            .args(["-vf", "scale=384:216", "-c:v", codec, s(&small)])
            .status()
            .is_ok_and(|st| st.success())
    });
    assert!(encoded, "no encoder of libx264, mpeg4, ffv1 in this ffmpeg");
    // By hand: ffmpeg scales it to the reference's size with bicubic, into y4m.
    let by_hand = tmp.join("by_hand.y4m");
    ffmpeg(&[
        "-i",
        s(&small),
        "-fps_mode",
        "passthrough",
        "-vf",
        &format!("scale={w}:{h}:flags=bicubic"),
        "-pix_fmt",
        "yuv420p",
        "-strict",
        "-1",
        "-f",
        "yuv4mpegpipe",
        s(&by_hand),
    ]);
    let score = |dis: &Path, out: &Path| {
        let run = vmafx(&[
            "-r",
            s(&reference),
            "-d",
            s(dis),
            "--feature",
            "psnr",
            "--json",
            "-o",
            s(out),
        ]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        String::from_utf8_lossy(&run.stderr).into_owned()
    };
    let (a, b) = (tmp.join("auto.json"), tmp.join("hand.json"));
    let said = score(&small, &a);
    assert!(
        said.contains("scaling") && said.contains("384x216") && said.contains("576x324"),
        "stderr: {said}"
    );
    score(&by_hand, &b);
    let (a, b) = (read_json(&a), read_json(&b));
    assert_eq!(a["frames"].as_array().unwrap().len(), 10);
    assert_eq!(
        scores(&a),
        scores(&b),
        "vmafx's scaling differs from ffmpeg's by hand"
    );
    let vmaf = a["pooled_metrics"]["vmaf"]["mean"].as_f64().unwrap();
    eprintln!("384x216 encode scaled to 576x324: VMAF {vmaf:.6}, equal to scaling by hand");

    // A y4m of another size is scaled too, and --no-scale refuses it.
    let small_y4m = tmp.join("small.y4m");
    ffmpeg(&[
        "-i",
        s(&small),
        "-strict",
        "-1",
        "-f",
        "yuv4mpegpipe",
        s(&small_y4m),
    ]);
    let c = tmp.join("y4m.json");
    score(&small_y4m, &c);
    assert_eq!(scores(&read_json(&c)), scores(&b), "y4m input scaled alike");
    let refused = vmafx(&["-r", s(&reference), "-d", s(&small_y4m), "--no-scale"]);
    assert_eq!(refused.status.code(), Some(1));
    let m = String::from_utf8_lossy(&refused.stderr);
    assert!(m.contains("--no-scale") && m.contains("384x216"), "{m}");
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn frame_counts_and_rates_that_differ_are_reported_with_both_numbers() {
    let Some(dir) = corpus() else { return };
    if !have_ffmpeg() {
        return;
    }
    let tmp = temp_dir("sync");
    let reference = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let short = tmp.join("short.mkv");
    ffmpeg(&[
        "-i",
        s(&reference),
        "-frames:v",
        "6",
        "-r",
        "30",
        "-c:v",
        "ffv1",
        s(&short),
    ]);
    let out = tmp.join("log.json");
    let run = vmafx(&[
        "-r",
        s(&reference),
        "-d",
        s(&short),
        "--json",
        "-o",
        s(&out),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let m = String::from_utf8_lossy(&run.stderr);
    assert!(
        m.contains("frame counts differ") && m.contains("has 10") && m.contains("has 6"),
        "{m}"
    );
    assert!(
        m.contains("frame rates differ") && m.contains("25 fps") && m.contains("30 fps"),
        "{m}"
    );
    assert_eq!(read_json(&out)["frames"].as_array().unwrap().len(), 6);
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn a_file_ffmpeg_cannot_decode_fails_with_its_message_and_name() {
    let Some(dir) = corpus() else { return };
    if !have_ffmpeg() {
        return;
    }
    let tmp = temp_dir("undecodable");
    let bad = tmp.join("broken.mkv");
    // A Matroska signature followed by garbage.
    let mut bytes = vec![0x1a, 0x45, 0xdf, 0xa3];
    bytes.extend((0..4000u32).map(|i| (i * 7919 % 251) as u8));
    std::fs::write(&bad, bytes).unwrap();
    let reference = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let run = vmafx(&["-r", s(&reference), "-d", s(&bad)]);
    assert_eq!(run.status.code(), Some(1));
    let m = String::from_utf8_lossy(&run.stderr);
    assert!(m.contains("broken.mkv") && m.contains("cannot"), "{m}");
    assert!(!m.contains("panicked"), "{m}");
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn a_missing_ffmpeg_names_the_input_and_how_to_install_it() {
    let Some(dir) = corpus() else { return };
    let tmp = temp_dir("no-ffmpeg");
    let mkv = dir.join("bitstreams/bbb_576x324_420p8_crf35.mkv");
    let reference = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    // No ffmpeg on PATH.
    let run = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .env("PATH", &tmp)
        .args(["-r", s(&reference), "-d", s(&mkv)])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let m = String::from_utf8_lossy(&run.stderr);
    assert!(
        m.contains("bbb_576x324_420p8_crf35.mkv") && m.contains("apt-get install ffmpeg"),
        "{m}"
    );
    // A --ffmpeg that does not exist.
    let run = vmafx(&[
        "-r",
        s(&reference),
        "-d",
        s(&mkv),
        "--ffmpeg",
        "/nonexistent/ffmpeg",
    ]);
    let m = String::from_utf8_lossy(&run.stderr);
    assert!(
        m.contains("/nonexistent/ffmpeg") && m.contains("--ffmpeg"),
        "{m}"
    );
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn standard_input_and_a_named_pipe_read_y4m() {
    let Some(dir) = corpus() else { return };
    let tmp = temp_dir("streams");
    let r = dir.join("carphone_176x144_420p8_ref.y4m");
    let d = dir.join("carphone_176x144_420p8_dis.y4m");
    let file_log = tmp.join("file.json");
    assert!(
        vmafx(&["-r", s(&r), "-d", s(&d), "--json", "-o", s(&file_log)])
            .status
            .success()
    );
    let want = scores(&read_json(&file_log));

    let stdin_log = tmp.join("stdin.json");
    let run = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args(["-r", s(&r), "-d", "-", "--json", "-o", s(&stdin_log)])
        .stdin(std::fs::File::open(&d).unwrap())
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(scores(&read_json(&stdin_log)), want, "from standard input");

    #[cfg(unix)]
    {
        let fifo = tmp.join("dis.fifo");
        let made = Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|st| st.success()) {
            let (src, pipe) = (d.clone(), fifo.clone());
            let writer = std::thread::spawn(move || {
                let mut out = std::fs::OpenOptions::new().write(true).open(pipe).unwrap();
                std::io::copy(&mut std::fs::File::open(src).unwrap(), &mut out).unwrap();
            });
            let pipe_log = tmp.join("fifo.json");
            let run = vmafx(&["-r", s(&r), "-d", s(&fifo), "--json", "-o", s(&pipe_log)]);
            writer.join().unwrap();
            assert!(
                run.status.success(),
                "{}",
                String::from_utf8_lossy(&run.stderr)
            );
            assert_eq!(scores(&read_json(&pipe_log)), want, "from a named pipe");
        }
    }
}
