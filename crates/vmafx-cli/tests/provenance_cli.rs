//! `vmafx --provenance` and `vmafx report verify`: the 576x324 pair scored with the record
//! in its JSON log, the log verified, tampered copies refused naming the file and the field,
//! and the plain log unchanged (no `provenance` member; libvmaf's log byte for byte).

mod common;

use std::path::{Path, PathBuf};

use common::{corpus, read_json, temp_dir, vmafx};

/// Scores the 576x324 pair into `out` with `extra` options; the process output.
fn score(dir: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let r = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let d = dir.join("bbb_576x324_420p8_crf35_dis.y4m");
    let mut args = vec![
        "-r",
        r.to_str().unwrap(),
        "-d",
        d.to_str().unwrap(),
        "-q",
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    vmafx(&args)
}

/// `vmafx report verify LOG [--rerun R]`: (exit code, stdout, stderr).
fn verify(log: &Path, rerun: Option<&Path>) -> (i32, String, String) {
    let mut args = vec!["report", "verify", log.to_str().unwrap()];
    if let Some(r) = rerun {
        args.extend(["--rerun", r.to_str().unwrap()]);
    }
    let o = vmafx(&args);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A copy of `log` at `to` with the first `from` replaced by `with` (which must occur).
fn tampered(log: &Path, to: PathBuf, from: &str, with: &str) -> PathBuf {
    let text = std::fs::read_to_string(log).unwrap();
    assert!(text.contains(from), "{from} not in {}", log.display());
    std::fs::write(&to, text.replacen(from, with, 1)).unwrap();
    to
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn the_json_log_carries_its_record_and_verifies() {
    let Some(dir) = corpus() else { return };
    let tmp = temp_dir("provenance");
    let (plain, with) = (tmp.join("plain.json"), tmp.join("prov.json"));
    assert!(score(&dir, &plain, &["--json"]).status.success());
    assert!(score(&dir, &with, &["--json", "--provenance"])
        .status
        .success());

    // Not asked for: no record. Asked for: libvmaf's members unchanged, the record last.
    let p = read_json(&plain);
    let w = read_json(&with);
    assert!(p.get("provenance").is_none());
    for key in ["frames", "pooled_metrics", "aggregate_metrics"] {
        assert_eq!(p[key], w[key], "{key}");
    }
    let record = &w["provenance"];
    assert_eq!(record["models"][0]["version"], "vmaf_v0.6.1");
    assert_eq!(record["n_frames"], "10");
    assert_eq!(record["frame_width"], 576);
    assert_eq!(record["pix_fmt"], "yuv420p");
    let golden = read_json(&dir.join("expected/bbb_576x324_420p8_crf35.vmaf_v0.6.1.json"));
    assert_eq!(
        format!(
            "{:.6}",
            w["pooled_metrics"]["vmaf"]["mean"].as_f64().unwrap()
        ),
        format!(
            "{:.6}",
            golden["pooled_metrics"]["vmaf"]["mean"].as_f64().unwrap()
        )
    );

    let (code, out, err) = verify(&with, None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("verified") && out.contains("10 frames"),
        "{out}"
    );
    // The plain log has no record to check.
    let (code, _, err) = verify(&plain, None);
    assert_eq!(code, 1);
    assert!(
        err.contains("plain.json") && err.contains("provenance"),
        "{err}"
    );

    // A field of the record changed: its digest no longer covers it.
    let simd = format!("\"simd\":{}", record["simd"]);
    let t = tampered(&with, tmp.join("simd.json"), &simd, "\"simd\":\"other\"");
    let (code, _, err) = verify(&t, None);
    assert_eq!(code, 1);
    assert!(
        err.contains("simd.json") && err.contains("provenance.digest differs"),
        "{err}"
    );

    // A score changed: its pooled values no longer agree with it.
    let v3 = format!(
        "\"vmaf\": {:.6}",
        w["frames"][3]["metrics"]["vmaf"].as_f64().unwrap()
    );
    let t = tampered(&with, tmp.join("score.json"), &v3, "\"vmaf\": 99.000000");
    let (code, _, err) = verify(&t, None);
    assert_eq!(code, 1);
    assert!(
        err.contains("score.json") && err.contains("pooled_metrics.vmaf."),
        "{err}"
    );

    // Against a re-run: equal, and the changed score named by its frame.
    let rerun = tmp.join("rerun.json");
    assert!(score(&dir, &rerun, &["--json", "--provenance"])
        .status
        .success());
    let (code, out, err) = verify(&with, Some(&rerun));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("every score equal"), "{out}");
    let (code, _, err) = verify(&t, Some(&rerun));
    assert_eq!(code, 1);
    assert!(
        err.contains("score.json") && err.contains("frames[3].metrics.vmaf differs"),
        "{err}"
    );
    // A re-run with another model differs in the record's configuration (the first field
    // in the record's key order: the features neg's options rename).
    let other = tmp.join("other.json");
    let o = score(
        &dir,
        &other,
        &["--json", "--provenance", "-m", "version=vmaf_v0.6.1neg"],
    );
    assert!(o.status.success());
    let (code, _, err) = verify(&with, Some(&other));
    assert_eq!(code, 1);
    assert!(
        err.contains("(against") && err.contains("provenance.features[1].feature differs"),
        "{err}"
    );

    // Byte for byte, the log with the record is libvmaf's log (fps aside) up to its last
    // brace, then the record.
    let no_fps = |p: &Path| -> String {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("\"fps\""))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (a, b) = (no_fps(&plain), no_fps(&with));
    let head = a.strip_suffix("\n}").unwrap();
    assert!(b.starts_with(head), "the record changed libvmaf's members");
    assert!(b[head.len()..].starts_with(",\n  \"provenance\": {"));

    // Several encodes of one reference: each log carries its own record and verifies.
    let logs = tmp.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let r = dir.join("bbb_576x324_420p8_crf35_ref.y4m");
    let d = dir.join("bbb_576x324_420p8_crf35_dis.y4m");
    let o = vmafx(&[
        "-r",
        r.to_str().unwrap(),
        "-d",
        d.to_str().unwrap(),
        "-d",
        r.to_str().unwrap(),
        "-q",
        "--json",
        "--provenance",
        "-o",
        logs.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for stem in ["bbb_576x324_420p8_crf35_dis", "bbb_576x324_420p8_crf35_ref"] {
        let log = logs.join(format!("{stem}.json"));
        let (code, _, err) = verify(&log, None);
        assert_eq!(code, 0, "{stem}: {err}");
    }
    let (code, _, err) = verify(&logs.join("bbb_576x324_420p8_crf35_dis.json"), Some(&with));
    assert_eq!(code, 0, "{err}");

    // XML carries the element; CSV has no place for the record.
    let xml = tmp.join("prov.xml");
    assert!(score(&dir, &xml, &["--xml", "--provenance"])
        .status
        .success());
    assert!(std::fs::read_to_string(&xml)
        .unwrap()
        .contains("<provenance "));
    let o = score(&dir, &tmp.join("x.csv"), &["--csv", "--provenance"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&tmp);
}
