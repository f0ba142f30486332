use serde_json::Value;

use super::printf::ScoreFormat;
use super::report::json_report;
use super::*;
use crate::score::ScoreTable;

fn record() -> Record {
    let mut r = Record {
        abi: Some([0, 1, 11]),
        active_backend: "cpu".into(),
        n_extractors: 1,
        simd: "avx2".into(),
        device_name: "cpu".into(),
        device_runtime: "x86_64".into(),
        n_subsample: 1,
        frame_width: 176,
        frame_height: 144,
        pix_fmt: ("yuv420p".into(), 1),
        bpc: 8,
        n_frames: 2,
        models: vec![ModelRecord {
            name: "vmaf".into(),
            version: "vmaf_v0.6.1".into(),
            sha256: "ab".repeat(32),
            flags: 0,
            overrides: String::new(),
        }],
        annotations: vec![("input".into(), "a\"b\n".into())],
        scores_digest: scores_digest([("psnr_y".to_string(), 0, 30.5)]),
        elapsed_ns: 5,
        ..Record::default()
    };
    r.seal();
    r
}

#[test]
fn canonical_json_sorts_keys_and_has_no_whitespace() {
    let v: Value =
        serde_json::from_str(r#"{"b": [1, {"z": "x", "a": null}], "a": "\u0001é"}"#).unwrap();
    assert_eq!(
        canonical_json(&v),
        "{\"a\":\"\\u0001é\",\"b\":[1,{\"a\":null,\"z\":\"x\"}]}"
    );
}

#[test]
fn digest_covers_the_record_not_the_timing() {
    let r = record();
    assert!(r.digest.starts_with("sha256:") && r.digest.len() == 71);
    let mut later = r.clone();
    later.elapsed_ns = 99;
    later.seal();
    assert_eq!(later.digest, r.digest, "timing changed the digest");
    let mut noted = r.clone();
    noted.annotations.push(("k".into(), "v".into()));
    noted.seal();
    assert_ne!(
        noted.digest, r.digest,
        "an annotation left the digest alone"
    );
    assert!(r.json(true).contains("\"elapsed_ns\":\"5\""));
    assert!(!r.json(false).contains("elapsed_ns"));
    assert!(r.json(false).starts_with("{\"abi_major\":0,"));
    assert_eq!(digest_of_value(&r.to_value(true)), r.digest);
}

#[test]
fn scores_digest_depends_on_every_bit_not_on_order() {
    let a = scores_digest([("b".to_string(), 1, 1.0), ("a".to_string(), 0, 2.0)]);
    let b = scores_digest([("a".to_string(), 0, 2.0), ("b".to_string(), 1, 1.0)]);
    assert_eq!(a, b);
    let c = scores_digest([
        ("a".to_string(), 0, f64::from_bits(2.0f64.to_bits() + 1)),
        ("b".to_string(), 1, 1.0),
    ]);
    assert_ne!(a, c);
}

#[test]
fn printf_formats_as_c_does() {
    let f = |fmt: &str, x: f64| ScoreFormat::parse(fmt).unwrap().format(x);
    assert_eq!(f("%.6f", 76.66890), "76.668900");
    assert_eq!(f("%g", 100000.0), "100000");
    assert_eq!(f("%g", 1000000.0), "1e+06");
    assert_eq!(f("%g", 0.0001), "0.0001");
    assert_eq!(f("%g", 0.00001), "1e-05");
    assert_eq!(f("%.17g", 0.1), "0.10000000000000001");
    assert_eq!(f("%.3e", -1234.5), "-1.234e+03");
    assert_eq!(f("%8.2f", 1.23456), "    1.23");
    assert_eq!(f("%-8.2f", 1.23456), "1.23    ");
    assert_eq!(f("%+.1f", 2.0), "+2.0");
    for bad in ["", "%d", "%.6f%", "x%f", "%s", "%.99f"] {
        assert!(ScoreFormat::parse(bad).is_err(), "{bad} accepted");
    }
    let lossless = ScoreFormat::parse("%.17g").unwrap();
    assert!(lossless.is_lossless());
    assert!(!ScoreFormat::parse("%.6f").unwrap().is_lossless());
    for x in [0.1, 1.0 / 3.0, 97.12345678901234, 1e-300, 6.02e23] {
        assert_eq!(
            lossless.format(x).parse::<f64>().unwrap().to_bits(),
            x.to_bits()
        );
    }
}

fn report(value: f64) -> Value {
    let table = ScoreTable {
        names: vec!["psnr_y".into(), "vmaf".into()],
        frames: vec![
            (0, vec![Some(30.5), Some(value)]),
            (1, vec![Some(31.0), Some(70.0)]),
        ],
    };
    let mut r = record();
    r.scores_digest = scores_digest([
        ("psnr_y".to_string(), 0, 30.5),
        ("vmaf".to_string(), 0, value),
        ("psnr_y".to_string(), 1, 31.0),
        ("vmaf".to_string(), 1, 70.0),
    ]);
    r.seal();
    let fmt = ScoreFormat::parse("%.17g").unwrap();
    serde_json::from_str(&json_report(&table, &r, "%.17g", &fmt)).unwrap()
}

#[test]
fn verify_accepts_a_rerun_and_names_the_first_planted_field() {
    let a = report(71.25);
    assert_eq!(verify(&a, None), Ok(()));
    assert_eq!(verify(&a, Some(&report(71.25))), Ok(()));
    let field = |r: Result<(), Mismatch>| r.unwrap_err().field;
    assert_eq!(
        field(verify(&a, Some(&report(71.5)))),
        "frames[0].metrics.vmaf"
    );
    let mut planted = a.clone();
    planted["provenance"]["models"][0]["sha256"] = Value::from("0".repeat(64));
    assert_eq!(
        field(verify(&planted, Some(&a))),
        "provenance.models[0].sha256"
    );
    assert_eq!(field(verify(&planted, None)), "provenance.digest");
    let mut score = a.clone();
    score["frames"][1]["metrics"]["vmaf"] = Value::from(1.0);
    assert_eq!(field(verify(&score, None)), "provenance.scores_digest");
    let mut env = a.clone();
    env["provenance"]["compiler"] = Value::from("other");
    // Environment fields (the build, the device, timing) may differ from a re-run.
    assert_eq!(verify(&a, Some(&env)), Ok(()));
}
