//! The command-line defects a new user met: the README's multi-model example, `-o -`, the
//! help of `-q`, raw-yuv options given with y4m inputs, an unknown `VMAFX_CPU`, and
//! libvmaf command lines (`--frame_cnt 0`, `--gpumask`, one unnamed model of several).

mod common;
use common::*;

use std::process::Command;

fn clip(dir: &std::path::Path) -> (String, String) {
    let p = |s: &str| {
        dir.join(format!("carphone_176x144_420p8_{s}.y4m"))
            .display()
            .to_string()
    };
    (p("ref"), p("dis"))
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn the_readme_multi_model_example_scores_each_model_under_its_version() {
    let Some(dir) = corpus() else { return };
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.contains("-m version=vmaf_4k_v0.6.1 -m version=vmaf_b_v0.6.3"))
        .expect("the README's multi-model example");
    let (r, d) = clip(&dir);
    let tmp = temp_dir("multi-model");
    let out = tmp.join("log.json");
    let mut args: Vec<String> = line
        .split_whitespace()
        .skip(1)
        .map(|a| match a {
            "ref.y4m" => r.clone(),
            "dis.y4m" => d.clone(),
            _ => a.to_string(),
        })
        .collect();
    args.extend(["--json", "-o", out.to_str().unwrap(), "-q"].map(String::from));
    let run = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args(&args)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let log = read_json(&out);
    // Each model's scores equal its own golden run's `vmaf`.
    for (name, config) in [
        ("vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1"),
        ("vmaf_b_v0.6.3", "vmaf_b_v0.6.3"),
        ("vmaf_b_v0.6.3_bagging", "vmaf_b_v0.6.3"),
    ] {
        let golden = read_json(&dir.join(format!("expected/carphone_176x144_420p8.{config}.json")));
        let golden_name = name.replace(config, "vmaf");
        let (g, w) = (
            log["frames"].as_array().unwrap(),
            golden["frames"].as_array().unwrap(),
        );
        assert_eq!(g.len(), w.len());
        for (i, (g, w)) in g.iter().zip(w).enumerate() {
            let (a, b) = (
                g["metrics"][name]
                    .as_f64()
                    .unwrap_or_else(|| panic!("{name} frame {i}")),
                w["metrics"][&golden_name].as_f64().unwrap(),
            );
            assert!((a - b).abs() <= 1e-4, "{name} frame {i}: {a} vs {b}");
        }
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn two_models_of_one_name_are_refused_before_any_frame_with_the_fix() {
    let Some(dir) = corpus() else { return };
    let (r, d) = clip(&dir);
    let run = vmafx(&[
        "-r",
        &r,
        "-d",
        &d,
        "-m",
        "version=vmaf_v0.6.1:name=x",
        "-m",
        "version=vmaf_4k_v0.6.1:name=x",
    ]);
    assert_eq!(run.status.code(), Some(2));
    let m = String::from_utf8_lossy(&run.stderr);
    assert!(m.contains("both named 'x'") && m.contains(":name="), "{m}");
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn output_dash_writes_the_log_to_stdout_and_the_score_to_stderr() {
    let Some(dir) = corpus() else { return };
    let (r, d) = clip(&dir);
    let tmp = temp_dir("stdout-log");
    let run = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .current_dir(&tmp)
        .args(["-r", &r, "-d", &d, "--json", "-o", "-"])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(!tmp.join("-").exists(), "a file named '-' was written");
    let log: serde_json::Value = serde_json::from_slice(&run.stdout).expect("stdout is the log");
    assert_eq!(log["frames"].as_array().unwrap().len(), 60);
    let mean = log["pooled_metrics"]["vmaf"]["mean"].as_f64().unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains(&format!("vmaf_v0.6.1: {mean:.6}")),
        "stderr: {err}"
    );
}

#[test]
fn the_help_of_q_says_what_it_does() {
    let run = vmafx(&["--help"]);
    let help = String::from_utf8_lossy(&run.stdout);
    let at = help.find("-q, --quiet").expect("-q in the help");
    let text: String = help[at..].lines().take(2).collect::<Vec<_>>().join(" ");
    assert!(
        text.contains("progress") && text.contains("pooled score"),
        "{text}"
    );
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn raw_options_with_y4m_inputs_are_warned_about() {
    let Some(dir) = corpus() else { return };
    let (r, d) = clip(&dir);
    let args = ["-r", &r, "-d", &d, "--frame_cnt", "2", "-q"];
    let quiet = vmafx(&args);
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("warning"));
    let mut with_raw = args.to_vec();
    with_raw.extend(["-w", "176", "-h", "144", "-p", "420", "-b", "8"]);
    let run = vmafx(&with_raw);
    assert!(run.status.success());
    let m = String::from_utf8_lossy(&run.stderr);
    assert!(
        m.contains("warning") && m.contains("-w/-h/-p/-b") && m.contains("ignored"),
        "{m}"
    );
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn an_unknown_vmafx_cpu_is_refused_naming_the_levels() {
    let Some(dir) = corpus() else { return };
    let (r, d) = clip(&dir);
    let run = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .env("VMAFX_CPU", "avx3")
        .args(["-r", &r, "-d", &d])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let m = String::from_utf8_lossy(&run.stderr);
    for word in ["VMAFX_CPU", "avx3", "scalar", "avx2", "avx512"] {
        assert!(m.contains(word), "{word} missing: {m}");
    }
    assert!(run.stdout.is_empty(), "no score printed");
    let ok = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .env("VMAFX_CPU", "Scalar")
        .args(["-r", &r, "-d", &d, "--frame_cnt", "1", "-q"])
        .output()
        .unwrap();
    assert!(ok.status.success(), "a known level in any case is taken");
    let unset = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .env("VMAFX_CPU", "")
        .args(["-r", &r, "-d", &d, "--frame_cnt", "1", "-q"])
        .output()
        .unwrap();
    assert!(
        unset.status.success(),
        "an empty VMAFX_CPU is no cap: {}",
        String::from_utf8_lossy(&unset.stderr)
    );
}

/// The frames a JSON log written to standard output lists, and its pooled metrics' names.
fn frames_and_pooled(args: &[&str]) -> (usize, Vec<String>) {
    let mut all = args.to_vec();
    all.extend(["-q", "--json", "-o", "-"]);
    let run = vmafx(&all);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let pooled = v["pooled_metrics"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    (v["frames"].as_array().unwrap().len(), pooled)
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn libvmaf_command_lines_read_as_libvmaf_reads_them() {
    let Some(dir) = corpus() else { return };
    let (r, d) = clip(&dir);
    let (all, _) = frames_and_pooled(&["-r", &r, "-d", &d]);
    assert!(all > 2);
    // `--frame_cnt 0` is no limit, and `--gpumask` is taken (and changes nothing).
    assert_eq!(
        frames_and_pooled(&["-r", &r, "-d", &d, "--frame_cnt", "0"]).0,
        all
    );
    assert_eq!(
        frames_and_pooled(&["-r", &r, "-d", &d, "--frame_cnt", "2"]).0,
        2
    );
    assert_eq!(
        frames_and_pooled(&["-r", &r, "-d", &d, "--gpumask", "1"]).0,
        all
    );
    // One model without a name beside a named one is `vmaf`, as in libvmaf's logs.
    let m = [
        "-m",
        "version=vmaf_v0.6.1neg",
        "-m",
        "version=vmaf_4k_v0.6.1:name=k",
    ];
    let (_, pooled) = frames_and_pooled(&[&["-r", &r, "-d", &d][..], &m[..]].concat());
    assert!(pooled.contains(&"vmaf".to_string()), "{pooled:?}");
    assert!(pooled.contains(&"k".to_string()), "{pooled:?}");
}
