//! `vmafx bench --each` times every built-in model and every feature extractor alone, one
//! row each, and `--feature` scores features without a model.

mod common;
use common::*;

/// The row labels `--each` prints (the first column), in order.
fn labels(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip(1)
        .filter(|l| l.contains(" fps ") || l.contains(" not scored: "))
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn each_prints_a_row_for_every_model_and_feature() {
    let out = vmafx(&["bench", "--size", "96x64", "--frames", "2", "--each"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let got = labels(&text);
    let mut want: Vec<String> = vmafx::model::builtin_versions()
        .iter()
        .map(|v| format!("model {v}"))
        .collect();
    want.extend(
        vmafx::feature::registry::all()
            .iter()
            .map(|i| format!("feature {}", i.name)),
    );
    assert_eq!(got, want, "{text}");
    // The integer default model and psnr score this input.
    for row in ["model vmaf_v0.6.1 ", "feature psnr "] {
        let line = text.lines().find(|l| l.starts_with(row)).unwrap();
        assert!(line.contains(" fps "), "{line}");
    }
}

#[test]
fn features_alone_are_timed_without_a_model() {
    let out = vmafx(&[
        "bench",
        "--size",
        "96x64",
        "--frames",
        "2",
        "--feature",
        "psnr=enable_chroma=false",
        "--feature",
        "ciede",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("scoring psnr=enable_chroma=false, ciede"),
        "{text}"
    );
    for name in ["psnr", "ciede"] {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(name) && l.contains("ms/frame")),
            "{text}"
        );
    }
    assert!(!text.contains("vif"), "no model was asked for: {text}");
}
