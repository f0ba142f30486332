//! libvmaf's `--aom_ctc` and `--nflx_ctc` presets, and `-n` with models: what libvmaf's
//! tool scores for them, checked against the corpus goldens and the presets spelled out.

mod common;
use common::*;

use std::path::{Path, PathBuf};

/// The 576x324 pair (large enough for MS-SSIM and cambi) and a folder for logs.
fn pair(dir: &Path) -> (String, String) {
    let p = |s: &str| {
        dir.join(format!("bbb_576x324_420p8_crf35_{s}.y4m"))
            .display()
            .to_string()
    };
    (p("ref"), p("dis"))
}

/// The JSON log of `vmafx -r R -d D ARGS` (which must succeed), without its fps line.
fn log_of(tmp: &Path, name: &str, rd: &(String, String), args: &[&str]) -> String {
    let out: PathBuf = tmp.join(format!("{name}.json"));
    let base = ["-r", &rd.0, "-d", &rd.1, "--json", "-q", "-o"];
    let o = vmafx(&[&base[..], &[out.to_str().unwrap()], args].concat());
    assert!(
        o.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    without_fps(&out)
}

/// Per-frame values of `metric` in a JSON log's text.
fn column(log: &str, metric: &str) -> Vec<f64> {
    let v: serde_json::Value = serde_json::from_str(log).unwrap();
    v["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["metrics"][metric].as_f64().unwrap())
        .collect()
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn aom_ctc_scores_the_models_and_features_libvmafs_preset_names() {
    let Some(dir) = corpus() else { return };
    let rd = pair(&dir);
    let tmp = temp_dir("aom-ctc");
    let ctc = log_of(&tmp, "ctc", &rd, &["--aom_ctc", "v7.0"]);
    // libvmaf's v7.0 spelled out: v1.0's models and features, cambi (v3.0), single-scale
    // SSIM (v7.0, in the place of v1.0's).
    let spelled = log_of(
        &tmp,
        "spelled",
        &rd,
        &[
            "-m",
            "version=vmaf_v0.6.1:name=vmaf",
            "-m",
            "version=vmaf_v0.6.1neg:name=vmaf_neg",
            "--feature",
            "psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5",
            "--feature",
            "ciede",
            "--feature",
            "float_ssim=scale=1:enable_db=true:clip_db=true",
            "--feature",
            "float_ms_ssim=enable_db=true:clip_db=true",
            "--feature",
            "psnr_hvs",
            "--feature",
            "cambi",
        ],
    );
    assert_eq!(ctc, spelled);
    // The two models' scores are their goldens'.
    let golden = |model: &str| {
        let p = dir.join(format!("expected/bbb_576x324_420p8_crf35.{model}.json"));
        column(&std::fs::read_to_string(p).unwrap(), "vmaf")
    };
    assert_eq!(column(&ctc, "vmaf"), golden("vmaf_v0.6.1"));
    assert_eq!(column(&ctc, "vmaf_neg"), golden("vmaf_v0.6.1neg"));
    let v: serde_json::Value = serde_json::from_str(&ctc).unwrap();
    assert!(v["aggregate_metrics"]["apsnr_y"].is_f64(), "{ctc}");
    // v2.0 has no cambi; v3.0 adds it.
    let v2 = log_of(&tmp, "v2", &rd, &["--aom_ctc", "v2.0"]);
    assert!(!v2.contains("\"cambi\""));
    assert!(log_of(&tmp, "v3", &rd, &["--aom_ctc", "v3.0"]).contains("\"cambi\""));
    // A preset stands where it is given: v7.0's SSIM takes the place of the first float_ssim
    // given before it, as libvmaf's tool replaces it.
    let before = log_of(
        &tmp,
        "before",
        &rd,
        &["--feature", "float_ssim", "--aom_ctc", "v7.0"],
    );
    assert_ne!(before, ctc);
    assert!(before.contains("\"float_ssim\""), "{before}");
    // A version libvmaf does not know is refused by name.
    let o = vmafx(&["-r", &rd.0, "-d", &rd.1, "--aom_ctc", "v8.0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("v8.0"));
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn nflx_ctc_scores_the_4k_models_and_its_features() {
    let Some(dir) = corpus() else { return };
    let rd = pair(&dir);
    let tmp = temp_dir("nflx-ctc");
    let ctc = log_of(&tmp, "ctc", &rd, &["--nflx_ctc", "v1.0"]);
    let spelled = log_of(
        &tmp,
        "spelled",
        &rd,
        &[
            "-m",
            "version=vmaf_4k_v0.6.1:name=vmaf",
            "-m",
            "version=vmaf_4k_v0.6.1neg:name=vmaf_neg",
            "--feature",
            "psnr=enable_chroma=true:enable_apsnr=true",
            "--feature",
            "float_ssim=enable_db=true:clip_db=true",
            "--feature",
            "cambi",
        ],
    );
    assert_eq!(ctc, spelled);
    let golden =
        std::fs::read_to_string(dir.join("expected/bbb_576x324_420p8_crf35.vmaf_4k_v0.6.1.json"))
            .unwrap();
    assert_eq!(column(&ctc, "vmaf"), column(&golden, "vmaf"));
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn no_prediction_with_a_model_writes_its_features_and_no_score() {
    let Some(dir) = corpus() else { return };
    let rd = pair(&dir);
    let tmp = temp_dir("n-model");
    let log = log_of(&tmp, "n", &rd, &["-n", "-m", "version=vmaf_v0.6.1"]);
    let v: serde_json::Value = serde_json::from_str(&log).unwrap();
    let golden = read_json(&dir.join("expected/bbb_576x324_420p8_crf35.vmaf_v0.6.1.json"));
    // libvmaf's tool writes the model's features as its golden run does, and no `vmaf`.
    let frames = v["frames"].as_array().unwrap();
    let want = golden["frames"].as_array().unwrap();
    assert_eq!(frames.len(), want.len());
    for (f, w) in frames.iter().zip(want) {
        let mut w = w["metrics"].as_object().unwrap().clone();
        w.remove("vmaf");
        assert_eq!(f["metrics"].as_object().unwrap(), &w);
    }
    assert!(v["pooled_metrics"].get("vmaf").is_none());
    // -n with nothing to extract is still refused.
    let o = vmafx(&["-r", &rd.0, "-d", &rd.1, "-n"]);
    assert_eq!(o.status.code(), Some(2));
}
