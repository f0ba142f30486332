//! VMAF on every conformance clip with libvmaf's four classic models and the integer
//! debug features, against libvmaf's own logs: every integer feature identical at 6
//! decimals, every VMAF score within 1e-4, names and order as libvmaf prints them.

mod common;
use common::*;

const CONFIGS: &[(&str, &[&str])] = &[
    ("vmaf_v0.6.1", &[]),
    ("vmaf_4k_v0.6.1", &["--model", "version=vmaf_4k_v0.6.1"]),
    ("vmaf_v0.6.1neg", &["--model", "version=vmaf_v0.6.1neg"]),
    ("vmaf_b_v0.6.3", &["--model", "version=vmaf_b_v0.6.3"]),
    (
        "integer_features_debug",
        &[
            "-n",
            "--feature",
            "vif=debug=true",
            "--feature",
            "adm=debug=true",
            "--feature",
            "motion=debug=true",
        ],
    ),
];

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn vmaf_matches_libvmaf_on_every_clip_and_model() {
    let Some(dir) = corpus() else { return };
    let tmp = temp_dir("vmaf");
    let mut checked = 0;
    for (clip, r, d, _) in clips(&dir) {
        for (config, extra) in CONFIGS {
            let want = read_json(&dir.join(format!("expected/{clip}.{config}.json")));
            let out = tmp.join(format!("{clip}.{config}.json"));
            let mut args = vec![
                "-r",
                r.to_str().unwrap(),
                "-d",
                d.to_str().unwrap(),
                "--json",
                "-o",
                out.to_str().unwrap(),
                "-q",
            ];
            args.extend_from_slice(extra);
            let run = vmafx(&args);
            assert!(
                run.status.success(),
                "{clip} {config}: {}",
                String::from_utf8_lossy(&run.stderr)
            );
            checked += compare_logs(&clip, config, &read_json(&out), &want);
        }
    }
    eprintln!("checked {checked} per-frame values");
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn threads_give_identical_logs() {
    let Some(dir) = corpus() else { return };
    let tmp = temp_dir("threads");
    let r = dir.join("bbb_384x216_420p8_scenecut_ref.y4m");
    let d = dir.join("bbb_384x216_420p8_scenecut_dis.y4m");
    let mut logs = Vec::new();
    for threads in ["0", "2", "3"] {
        let out = tmp.join(format!("t{threads}.json"));
        let run = vmafx(&[
            "-r",
            r.to_str().unwrap(),
            "-d",
            d.to_str().unwrap(),
            "--threads",
            threads,
            "--feature",
            "psnr",
            "--json",
            "-o",
            out.to_str().unwrap(),
            "-q",
        ]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let mut v = read_json(&out);
        v["fps"] = serde_json::Value::Null;
        logs.push(v);
    }
    // Any thread pool gives one log; without one, the same log but for the order.
    assert_eq!(logs[1], logs[2]);
    let names = |v: &serde_json::Value| -> Vec<String> {
        v["frames"][0]["metrics"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    let (serial, pool) = (names(&logs[0]), names(&logs[1]));
    assert_eq!(pool, names(&logs[2]));
    // libvmaf's tool: psnr (an extractor libvmaf flags temporal) after the model's features
    // without threads, before them with --threads N (it runs on the reading thread while
    // the pool scores the rest).
    let psnr = ["psnr_y", "psnr_cb", "psnr_cr"].map(String::from);
    let rest: Vec<String> = serial
        .iter()
        .filter(|n| !psnr.contains(n))
        .cloned()
        .collect();
    let vif3 = rest.iter().position(|n| n == "integer_vif_scale3").unwrap();
    let want_serial = [&rest[..=vif3], &psnr[..], &rest[vif3 + 1..]].concat();
    assert_eq!(serial, want_serial);
    assert_eq!(pool, [&psnr[..], &rest[..]].concat());
    // The values are the same (serde_json's maps compare without regard to order).
    assert_eq!(logs[0], logs[1]);
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn plain_run_prints_the_pooled_default_model_score_and_writes_nothing() {
    let Some(dir) = corpus() else { return };
    let r = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let d = dir.join("bbb_576x324_420p8_crf35_dis.y4m");
    let run = vmafx(&["-r", r.to_str().unwrap(), "-d", d.to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let out = String::from_utf8_lossy(&run.stdout);
    // MANIFEST.md: libvmaf's pooled mean for this clip is 73.343961.
    let line = out
        .lines()
        .find(|l| l.starts_with("vmaf_v0.6.1: "))
        .unwrap_or_else(|| panic!("{out}"));
    let v: f64 = line["vmaf_v0.6.1: ".len()..].parse().unwrap();
    assert!((v - 73.343961).abs() <= 1e-4, "{v}");
}
