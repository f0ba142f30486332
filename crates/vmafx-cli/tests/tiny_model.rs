//! `--tiny-model`: a tiny ONNX model (written by `vmafx_dnn::sample`, the mean absolute luma
//! difference times 100) scores the 576x324 pair beside VMAF; its per-frame scores are
//! checked against the same sum computed here from the clips, its pooled mean against the
//! frames', and VMAF stays 73.343961. Runs in a build with the `dnn` feature
//! (`cargo test -p vmafx-cli --features dnn --test tiny_model`); without it, `--tiny-model`
//! must be refused saying so.

mod common;
use common::{corpus, temp_dir, vmafx};

#[cfg(feature = "dnn")]
#[test]
fn a_tiny_model_scores_the_576x324_pair_beside_vmaf() {
    let dir = corpus().unwrap();
    let (w, h) = (576usize, 324usize);
    let tmp = temp_dir("tiny-model");
    let model = tmp.join("mad.onnx");
    std::fs::write(&model, vmafx_dnn::sample::mean_abs_diff(None, None, 100.0)).unwrap();
    let log = tmp.join("log.json");
    let r = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let d = dir.join("bbb_576x324_420p8_crf35_dis.y4m");
    let out = vmafx(&[
        "-r",
        r.to_str().unwrap(),
        "-d",
        d.to_str().unwrap(),
        "--tiny-model",
        model.to_str().unwrap(),
        "--json",
        "-o",
        log.to_str().unwrap(),
        "-q",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&log).unwrap()).unwrap();
    let vmaf = j["pooled_metrics"]["vmaf"]["mean"].as_f64().unwrap();
    assert_eq!(format!("{vmaf:.6}"), "73.343961");

    // The same sum, from the raw luma of the .yuv twins of the clips.
    let ry = std::fs::read(dir.join("bbb_576x324_420p8_crf35_ref.yuv")).unwrap();
    let dy = std::fs::read(dir.join("bbb_576x324_420p8_crf35_dis.yuv")).unwrap();
    let frame_bytes = w * h * 3 / 2;
    let frames = j["frames"].as_array().unwrap();
    assert_eq!(frames.len(), ry.len() / frame_bytes);
    let mut sum = 0.0;
    for (i, f) in frames.iter().enumerate() {
        let got = f["metrics"]["mad"]
            .as_f64()
            .unwrap_or_else(|| panic!("frame {i}: {f}"));
        let (a, b) = (
            &ry[i * frame_bytes..][..w * h],
            &dy[i * frame_bytes..][..w * h],
        );
        let want = 100.0
            * a.iter()
                .zip(b)
                .map(|(&x, &y)| (x as f64 - y as f64).abs() / 255.0)
                .sum::<f64>()
            / (w * h) as f64;
        assert!((got - want).abs() < 1e-3, "frame {i}: {got} vs {want}");
        assert!(got > 0.0, "frame {i}: the clips differ");
        sum += got;
    }
    let pooled = j["pooled_metrics"]["mad"]["mean"].as_f64().unwrap();
    assert!(
        (pooled - sum / frames.len() as f64).abs() < 1e-3,
        "{pooled}"
    );

    // A model off the allowlist is refused before any frame, naming its path.
    let bad = tmp.join("floor.onnx");
    std::fs::write(&bad, vmafx_dnn::sample::off_allowlist()).unwrap();
    let out = vmafx(&[
        "-r",
        r.to_str().unwrap(),
        "-d",
        d.to_str().unwrap(),
        "--tiny-model",
        bad.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("floor.onnx") && err.contains("Floor"), "{err}");
}

/// `--tiny-model-verify` with a stand-in `cosign` first on the child's PATH (the real one
/// needs the network): a refusal stops the run before the model is opened (an off-allowlist
/// model is refused for its signature, not its operator), naming the model, cosign's exit
/// status and its last stderr line; an acceptance lets the model score.
#[cfg(feature = "dnn")]
#[test]
fn tiny_model_verify_asks_cosign_before_opening_the_model() {
    use std::os::unix::fs::PermissionsExt;
    use std::process::Command;
    let dir = corpus().unwrap();
    let r = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let d = dir.join("bbb_576x324_420p8_crf35_dis.y4m");
    let tmp = temp_dir("tiny-model-verify");
    let mut entries = Vec::new();
    for (name, bytes) in [
        (
            "mad.onnx",
            vmafx_dnn::sample::mean_abs_diff(None, None, 100.0),
        ),
        ("floor.onnx", vmafx_dnn::sample::off_allowlist()),
    ] {
        std::fs::write(tmp.join(name), &bytes).unwrap();
        std::fs::write(tmp.join(format!("{name}.sigstore.json")), "{}").unwrap();
        entries.push(format!(
            r#"{{"onnx":"{name}","sha256":"{}","sigstore_bundle":"{name}.sigstore.json"}}"#,
            vmafx_dnn::digest::sha256_hex(&bytes)
        ));
    }
    let registry = format!(r#"{{"models":[{}]}}"#, entries.join(","));
    std::fs::write(tmp.join("registry.json"), registry).unwrap();
    for (sub, tail) in [
        ("ok", "exit 0\n"),
        ("no", "echo 'Error: no matching signatures' >&2\nexit 1\n"),
    ] {
        let bin = tmp.join(sub);
        std::fs::create_dir_all(&bin).unwrap();
        let script = format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\n{tail}",
            tmp.join("argv.txt").display()
        );
        std::fs::write(bin.join("cosign"), script).unwrap();
        std::fs::set_permissions(bin.join("cosign"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }
    let run = |path: &str, model: &str| {
        Command::new(env!("CARGO_BIN_EXE_vmafx"))
            .env("PATH", tmp.join(path))
            .args(["-r", r.to_str().unwrap(), "-d", d.to_str().unwrap()])
            .args([
                "--frame_cnt",
                "2",
                "--tiny-model-verify",
                "-q",
                "--tiny-model",
            ])
            .arg(tmp.join(model))
            .output()
            .unwrap()
    };
    let out = run("no", "floor.onnx");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("floor.onnx")
            && err.contains("status 1")
            && err.contains("no matching signatures")
            && !err.contains("Floor"),
        "{err}"
    );
    let argv = std::fs::read_to_string(tmp.join("argv.txt")).unwrap();
    let bundle = format!(
        "--bundle={}",
        tmp.join("floor.onnx.sigstore.json").display()
    );
    assert_eq!(
        argv.lines().collect::<Vec<_>>(),
        [
            "verify-blob",
            bundle.as_str(),
            "--certificate-identity-regexp",
            "https://github.com/VMAFx/vmafx/.github/workflows/.+",
            "--certificate-oidc-issuer",
            "https://token.actions.githubusercontent.com",
            tmp.join("floor.onnx").to_str().unwrap(),
        ]
    );
    let out = run("missing", "mad.onnx");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mad.onnx") && err.contains("cosign"), "{err}");
    let out = run("ok", "mad.onnx");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[cfg(not(feature = "dnn"))]
#[test]
fn tiny_model_is_refused_without_the_runtime() {
    let tmp = temp_dir("tiny-model-off");
    let model = tmp.join("mad.onnx");
    std::fs::write(&model, vmafx_dnn::sample::mean_abs_diff(None, None, 1.0)).unwrap();
    let dir = corpus().unwrap();
    let r = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let out = vmafx(&[
        "-r",
        r.to_str().unwrap(),
        "-d",
        r.to_str().unwrap(),
        "--tiny-model",
        model.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("built without tiny-model support") && err.contains("mad.onnx"),
        "{err}"
    );
}
