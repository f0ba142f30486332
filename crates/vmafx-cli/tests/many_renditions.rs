//! One reference, several distorted inputs (`-d` repeated) scored in one pass: each log
//! equals the log of its own pair run byte for byte but for the fps line, for two models
//! and the extra features, at 0 and 2 threads, with one distorted input scaled from another
//! size and one shorter than the reference.

mod common;
use common::*;

use std::path::{Path, PathBuf};

const CONFIGS: &[(&str, &[&str])] = &[
    ("vmaf_v0.6.1", &[]),
    (
        "vmaf_v1.0.16_3d0h",
        &["--model", "version=vmaf_v1.0.16_3d0h"],
    ),
    (
        "extra_features",
        &[
            "-n",
            "--feature",
            "psnr",
            "--feature",
            "float_ssim",
            "--feature",
            "float_ms_ssim",
            "--feature",
            "ciede",
            "--feature",
            "psnr_hvs",
            "--feature",
            "cambi",
            "--feature",
            "vif=debug=true",
            "--feature",
            "adm=debug=true",
            "--feature",
            "motion=debug=true",
        ],
    ),
];

fn run_ok(args: &[&str]) -> String {
    let out = vmafx(args);
    assert!(
        out.status.success(),
        "vmafx {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
        + "\n--stderr--\n"
        + &String::from_utf8_lossy(&out.stderr)
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn each_log_of_one_pass_equals_its_pair_run() {
    let Some(dir) = corpus() else { return };
    if !have_ffmpeg() {
        return;
    }
    let tmp = temp_dir("many");
    let reference = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let distorted = dir.join("bbb_576x324_420p8_crf35_dis.y4m");
    let (scaled, short) = (tmp.join("half_size.y4m"), tmp.join("short.y4m"));
    let ff = std::process::Command::new("ffmpeg")
        .args(["-v", "error", "-y", "-i"])
        .arg(&distorted)
        .args(["-vf", "scale=288:162", "-pix_fmt", "yuv420p"])
        .arg(&scaled)
        .output()
        .unwrap();
    assert!(
        ff.status.success(),
        "{}",
        String::from_utf8_lossy(&ff.stderr)
    );
    truncate_y4m(&distorted, &short, 576, 324, 4);
    let renditions: Vec<PathBuf> = vec![distorted.clone(), scaled, short.clone()];
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let mut compared = 0;
    for (config, extra) in CONFIGS {
        for threads in ["0", "2"] {
            let out = tmp.join(format!("{config}_t{threads}"));
            std::fs::create_dir_all(&out).unwrap();
            let mut args = vec![
                "-r".to_string(),
                s(&reference),
                "--json".into(),
                "--threads".into(),
                threads.into(),
                "-o".into(),
                s(&out),
            ];
            for d in &renditions {
                args.extend(["-d".to_string(), s(d)]);
            }
            args.extend(extra.iter().map(|a| a.to_string()));
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let printed = run_ok(&argv);
            let want_warning = format!("\"{}\" ended before \"{}\"", s(&short), s(&reference));
            assert!(printed.contains(&want_warning), "{printed}");
            for d in &renditions {
                let stem = d.file_stem().unwrap().to_str().unwrap();
                let pair_log = tmp.join(format!("{config}_t{threads}_{stem}.json"));
                let mut pair = vec![
                    "-r".to_string(),
                    s(&reference),
                    "-d".into(),
                    s(d),
                    "--json".into(),
                    "--threads".into(),
                    threads.into(),
                    "-o".into(),
                    s(&pair_log),
                ];
                pair.extend(extra.iter().map(|a| a.to_string()));
                let argv: Vec<&str> = pair.iter().map(String::as_str).collect();
                let pair_printed = run_ok(&argv);
                let many_log = out.join(format!("{stem}.json"));
                let (got, want) = (without_fps(&many_log), without_fps(&pair_log));
                assert!(want.len() > 1000, "{config}: the pair log is too short");
                assert!(
                    got == want,
                    "{config} threads {threads}: {} differs from its pair run's log",
                    many_log.display()
                );
                // Each pooled line of the pair run is printed, prefixed by the input's path.
                for line in pair_printed.split("\n--stderr--\n").next().unwrap().lines() {
                    let prefixed = format!("{}: {line}", s(d));
                    assert!(printed.contains(&prefixed), "{printed} lacks {prefixed}");
                }
                compared += 1;
            }
        }
    }
    assert_eq!(compared, CONFIGS.len() * 2 * renditions.len());
}

#[test]
fn two_distorted_inputs_of_one_stem_are_refused_before_reading() {
    let tmp = temp_dir("many-stem");
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    // The files need not exist: the refusal comes before any input is opened.
    let (x, y) = (a.join("enc.y4m"), b.join("enc.y4m"));
    let out = vmafx(&[
        "-r",
        "ref.y4m",
        "-d",
        x.to_str().unwrap(),
        "-d",
        y.to_str().unwrap(),
        "-o",
        tmp.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("have one stem (enc)"), "{err}");
    // -o must be a folder with several -d.
    let file = tmp.join("log.json");
    let out = vmafx(&[
        "-r",
        "ref.y4m",
        "-d",
        "one.y4m",
        "-d",
        "two.y4m",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("names an existing folder"));
}

/// 10-bit renditions (on the path that keeps VIF's reference values for the next
/// rendition of a frame, as 8-bit ones) and a rendition equal to the reference (every
/// distorted variance the reference's): each log equals its pair run's, on one worker
/// (0 and 1 threads) and on two.
#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn ten_bit_renditions_and_a_copy_of_the_reference_equal_their_pair_runs() {
    let Some(dir) = corpus() else { return };
    let tmp = temp_dir("many10");
    let reference = dir.join("bbb_384x216_420p10_crf35_ref.y4m");
    let copy = tmp.join("copy.y4m");
    std::fs::copy(&reference, &copy).unwrap();
    let renditions = [dir.join("bbb_384x216_420p10_crf35_dis.y4m"), copy];
    let s = |p: &Path| p.to_str().unwrap().to_string();
    for threads in ["0", "1", "2"] {
        let out = tmp.join(format!("t{threads}"));
        std::fs::create_dir_all(&out).unwrap();
        let common = [
            "--json",
            "--threads",
            threads,
            "--feature",
            "vif=debug=true",
        ];
        let mut args = vec!["-r".to_string(), s(&reference), "-o".into(), s(&out)];
        for d in &renditions {
            args.extend(["-d".to_string(), s(d)]);
        }
        args.extend(common.iter().map(|a| a.to_string()));
        run_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
        for d in &renditions {
            let stem = d.file_stem().unwrap().to_str().unwrap();
            let pair_log = tmp.join(format!("t{threads}_{stem}.json"));
            let mut pair = vec!["-r".to_string(), s(&reference), "-d".into(), s(d)];
            pair.extend(["-o".to_string(), s(&pair_log)]);
            pair.extend(common.iter().map(|a| a.to_string()));
            run_ok(&pair.iter().map(String::as_str).collect::<Vec<_>>());
            let many_log = out.join(format!("{stem}.json"));
            let (got, want) = (without_fps(&many_log), without_fps(&pair_log));
            assert!(want.len() > 1000, "the pair log of {stem} is too short");
            assert!(
                got == want,
                "threads {threads}: {} differs from its pair run's log",
                many_log.display()
            );
        }
    }
}
