//! Every golden run of the corpus, replayed with `vmafx` from `manifest.json`: the same
//! arguments libvmaf's `vmaf` got (every model by `version=`, `vmaf_4k_v0.6.1neg` included),
//! compared with libvmaf's log. Where libvmaf
//! failed, vmafx must fail too, with a message, and never print a score.
//!
//! Every value, model scores and floating-point features included, must print as libvmaf's
//! at 6 decimals. Float ADM divides with the processor's reciprocal estimate as libvmaf's
//! x86 build does (`float_adm/kernel.rs`), so its values are libvmaf's on the same kind of
//! processor.

mod common;
use common::*;

use std::path::Path;

struct Tally {
    values: usize,
    identical: usize,
    /// The processor's reciprocal estimate is the goldens' machine's (`rcp_as_goldens`).
    strict: bool,
    /// Values accepted by `near_golden` (only when not `strict`).
    near: usize,
}

/// Off the goldens' kind of processor, what float ADM's reciprocal estimate may move: model
/// scores within 1e-4, float features within 1e-5, float ADM numerator totals within two
/// f32 steps plus the printed rounding. Integer features must still print identically.
fn near_golden(config: &str, name: &str, a: f64, b: f64) -> bool {
    let float = config.starts_with("vmaf_float")
        || config == "float_features_debug"
        || name.starts_with("float_");
    let d = (a - b).abs();
    if name.starts_with("vmaf") {
        d <= 1e-4
    } else if !float {
        false
    } else if name.starts_with("adm_num") {
        let f = b as f32;
        d <= 2.0 * (f32::from_bits(f.to_bits() + 1) - f) as f64 + 1e-6
    } else {
        d <= 1e-5
    }
}

fn compare(
    clip: &str,
    config: &str,
    got: &serde_json::Value,
    want: &serde_json::Value,
    t: &mut Tally,
) {
    let (gf, wf) = (
        got["frames"].as_array().unwrap(),
        want["frames"].as_array().unwrap(),
    );
    assert_eq!(gf.len(), wf.len(), "{clip} {config}: frame count");
    for (i, (g, w)) in gf.iter().zip(wf).enumerate() {
        let (gm, wm) = (
            g["metrics"].as_object().unwrap(),
            w["metrics"].as_object().unwrap(),
        );
        assert_eq!(
            gm.keys().collect::<Vec<_>>(),
            wm.keys().collect::<Vec<_>>(),
            "{clip} {config} frame {i}: metric names and order"
        );
        for (k, wv) in wm {
            t.values += 1;
            let (a, b) = match (gm[k].as_f64(), wv.as_f64()) {
                (Some(a), Some(b)) => (a, b),
                (None, None) => {
                    t.identical += 1;
                    continue;
                }
                (a, b) => panic!("{clip} {config} frame {i} {k}: vmafx {a:?} libvmaf {b:?}"),
            };
            let same = format!("{a:.6}") == format!("{b:.6}");
            t.identical += same as usize;
            // Every value prints as libvmaf's, the float features' included (float_adm
            // divides as libvmaf's x86 build does), unless this processor's reciprocal
            // estimate is not the goldens' machine's: then float values may differ a little.
            let near = !t.strict && near_golden(config, k, a, b);
            t.near += (!same && near) as usize;
            assert!(
                same || near,
                "{clip} {config} frame {i} {k}: vmafx {a:.6} libvmaf {b:.6}"
            );
        }
    }
}

fn vmafx_args(args: &[String], out: &Path) -> Vec<String> {
    let mut v = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" | "--output" => {
                it.next();
                v.push("-o".into());
                v.push(out.display().to_string());
            }
            m if m.starts_with("path=models/") => {
                let name = m
                    .trim_start_matches("path=models/")
                    .trim_end_matches(".json");
                v.push(format!("version={name}"));
            }
            _ => v.push(a.clone()),
        }
    }
    v.push("-q".into());
    v
}

/// Writes `line` to the process's standard error itself, past the test harness's capture
/// (which takes only `print!` and `eprint!` output, and shows it only for a failing test), so
/// a plain `cargo test` shows how many values were identical and how many only near.
fn shown(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn every_golden_run_of_the_corpus() {
    let Some(dir) = corpus() else { return };
    let root = dir.parent().unwrap().to_path_buf();
    let manifest = read_json(&dir.join("manifest.json"));
    let tmp = temp_dir("manifest");
    let mut t = Tally {
        values: 0,
        identical: 0,
        strict: rcp_as_goldens(),
        near: 0,
    };
    if !t.strict {
        shown(
            "note: this processor's reciprocal estimate is not the goldens' machine's: float \
             values within the bounds of near_golden are accepted",
        );
    }
    let (mut runs, mut refused) = (0, 0);
    // Clips with a golden of the built-in vmaf_4k_v0.6.1neg, and those vmafx matched by
    // `version=` (both counted, so a golden skipped or run by path fails the test).
    let (mut neg4k_goldens, mut neg4k_by_version) = (0, 0);
    for clip in manifest["clips"].as_array().unwrap() {
        let id = clip["id"].as_str().unwrap();
        for g in clip["goldens"].as_array().unwrap() {
            let config = g["config"].as_str().unwrap();
            let args: Vec<String> = g["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string())
                .collect();
            let out = tmp.join(format!("{id}.{config}.{runs}.json"));
            let args = vmafx_args(&args, &out);
            let neg4k = config == "vmaf_4k_v0.6.1neg";
            neg4k_goldens += neg4k as usize;
            let run = std::process::Command::new(env!("CARGO_BIN_EXE_vmafx"))
                .current_dir(&root)
                .args(&args)
                .output()
                .unwrap();
            runs += 1;
            if g["rc"].as_i64() != Some(0) {
                assert!(
                    !run.status.success(),
                    "{id} {config}: libvmaf failed ({}) but vmafx succeeded",
                    g["rc"]
                );
                assert_eq!(
                    run.status.code(),
                    Some(1),
                    "{id} {config}: a clean failure, not a crash"
                );
                let msg = String::from_utf8_lossy(&run.stderr);
                assert!(
                    msg.contains("error:") && msg.len() > 20,
                    "{id} {config}: unclear message: {msg}"
                );
                assert!(!out.exists(), "{id} {config}: a failed run wrote a log");
                refused += 1;
                continue;
            }
            assert!(
                run.status.success(),
                "{id} {config}: {}",
                String::from_utf8_lossy(&run.stderr)
            );
            let want = read_json(&root.join(g["file"].as_str().unwrap()));
            compare(id, config, &read_json(&out), &want, &mut t);
            neg4k_by_version +=
                (neg4k && args.iter().any(|a| a == "version=vmaf_4k_v0.6.1neg")) as usize;
        }
    }
    shown(&format!(
        "manifest conformance: {runs} runs ({refused} refused as libvmaf failed), {} values, {} \
         identical at 6 decimals, {} near (another processor's reciprocal estimate)",
        t.values, t.identical, t.near
    ));
    shown(&format!(
        "vmaf_4k_v0.6.1neg by version=: {neg4k_by_version} of {neg4k_goldens} goldens"
    ));
    assert!(runs > 100);
    assert!(
        neg4k_goldens >= 10,
        "{neg4k_goldens} vmaf_4k_v0.6.1neg goldens"
    );
    assert_eq!(neg4k_by_version, neg4k_goldens);
}
