//! Shared helpers for the command-line tests: the corpus, running `vmafx`, reading logs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The conformance corpus; its absence fails the test (tests that need it are ignored
/// through the `vmafx_no_corpus` cfg instead, unless `CI=true`). Always `Some`.
pub fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("VMAFX_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance")
        });
    if dir.join("manifest.json").is_file() {
        return Some(dir);
    }
    panic!("conformance corpus missing at {}", dir.display());
}

/// Runs the `vmafx` binary with `args`.
pub fn vmafx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args(args)
        .output()
        .expect("run vmafx")
}

/// A fresh temporary folder for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vmafx-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The clips of the corpus (id, reference, distorted, raw-yuv arguments if not y4m).
pub fn clips(dir: &Path) -> Vec<(String, PathBuf, PathBuf, Vec<String>)> {
    let ids = [
        "carphone_176x144_420p8",
        "bbb_576x324_420p8_crf35",
        "bbb_384x216_420p10_crf35",
        "bbb_352x288_422p8_crf38",
        "bbb_320x180_444p8_crf38",
        "bbb_351x287_420p8_odd",
        "bbb_320x180_420p8_identical",
        "bbb_384x216_420p8_scenecut",
    ];
    ids.iter()
        .map(|id| {
            (
                id.to_string(),
                dir.join(format!("{id}_ref.y4m")),
                dir.join(format!("{id}_dis.y4m")),
                Vec::new(),
            )
        })
        .collect()
}

/// A parsed JSON log.
pub fn read_json(p: &Path) -> serde_json::Value {
    serde_json::from_str(
        &std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Compares per-frame metrics of `got` with `want`: integer-derived values print identically
/// at 6 decimals; model scores (`vmaf*` names) agree within 1e-4. Returns the count checked.
pub fn compare_logs(
    clip: &str,
    config: &str,
    got: &serde_json::Value,
    want: &serde_json::Value,
) -> usize {
    let (gf, wf) = (
        got["frames"].as_array().unwrap(),
        want["frames"].as_array().unwrap(),
    );
    assert_eq!(gf.len(), wf.len(), "{clip} {config}: frame count");
    let mut n = 0;
    for (i, (g, w)) in gf.iter().zip(wf).enumerate() {
        let (gm, wm) = (
            g["metrics"].as_object().unwrap(),
            w["metrics"].as_object().unwrap(),
        );
        let gk: Vec<_> = gm.keys().collect();
        let wk: Vec<_> = wm.keys().collect();
        assert_eq!(gk, wk, "{clip} {config} frame {i}: metric names and order");
        for (k, wv) in wm {
            let gv = &gm[k];
            match (gv.as_f64(), wv.as_f64()) {
                (Some(a), Some(b)) if k.starts_with("vmaf") => {
                    assert!(
                        (a - b).abs() <= 1e-4,
                        "{clip} {config} frame {i} {k}: vmafx {a:.6} libvmaf {b:.6}"
                    )
                }
                (Some(a), Some(b)) => assert!(
                    format!("{a:.6}") == format!("{b:.6}"),
                    "{clip} {config} frame {i} {k}: vmafx {a:.6} libvmaf {b:.6}"
                ),
                (None, None) => {}
                (a, b) => panic!("{clip} {config} frame {i} {k}: vmafx {a:?} libvmaf {b:?}"),
            }
            n += 1;
        }
    }
    n
}

/// Whether this processor's single-precision reciprocal estimate (`rcpss`) gives the bits of
/// the processor libvmaf's goldens were made on. libvmaf's x86 float ADM divides with it, and
/// the estimate is not specified bit for bit (it differs between vendors), so float ADM, and
/// the float models built on it, can print libvmaf's goldens exactly only where it matches.
/// The check is a hash of the estimate over 4096 mantissas, recorded on an Intel Xeon whose
/// scores equal every golden.
pub fn rcp_as_goldens() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cvtss_f32, _mm_rcp_ss, _mm_set_ss};
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for i in 0..4096u32 {
            let x = f32::from_bits(0x3f80_0000 | (i << 11));
            // SAFETY: SSE is part of the x86-64 baseline; the intrinsics touch no memory.
            let r = unsafe { _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))) };
            h = (h ^ r.to_bits() as u64).wrapping_mul(0x100_0000_01b3);
        }
        h == 0x9c86_4eea_04c6_2325
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the ffmpeg program runs here; where it does not, says so (tests that need it then
/// skip), and fails under `CI=true`.
pub fn have_ffmpeg() -> bool {
    let ok = Command::new("ffmpeg")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "ffmpeg is missing (CI=true): apt-get install -y ffmpeg"
        );
        eprintln!("skipping: no ffmpeg program on PATH (apt-get install -y ffmpeg)");
    }
    ok
}

/// Runs `vmafx` with `args`, killing it and failing the test where it runs past `limit`
/// (a hang); its standard output and error go to files under `dir`.
pub fn vmafx_within(args: &[&str], dir: &Path, limit: std::time::Duration) -> Output {
    use std::process::Stdio;
    let (out, err) = (dir.join("vmafx.stdout"), dir.join("vmafx.stderr"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_vmafx"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .expect("run vmafx");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "vmafx {args:?} still ran after {limit:?} (a hang); stderr: {}",
                std::fs::read_to_string(&err).unwrap_or_default()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    Output {
        status,
        stdout: std::fs::read(&out).unwrap_or_default(),
        stderr: std::fs::read(&err).unwrap_or_default(),
    }
}

/// Every tag named `name` of the page with its attributes and inner text.
pub fn tags(page: &str, name: &str) -> Vec<(std::collections::HashMap<String, String>, String)> {
    let dom = tl::parse(page, tl::ParserOptions::default()).expect("the page parses");
    let parser = dom.parser();
    dom.query_selector(name)
        .expect("a selector")
        .filter_map(|h| h.get(parser)?.as_tag().cloned())
        .map(|t| {
            let attrs = t
                .attributes()
                .iter()
                .map(|(k, v)| {
                    (
                        k.into_owned(),
                        v.map(|v| v.into_owned()).unwrap_or_default(),
                    )
                })
                .collect();
            (attrs, t.inner_text(parser).into_owned())
        })
        .collect()
}

/// The first `n` frames of the 4:2:0 8-bit y4m `src` (no FRAME parameters) as `dst`.
pub fn truncate_y4m(src: &Path, dst: &Path, width: usize, height: usize, n: usize) {
    let bytes = std::fs::read(src).unwrap();
    let header = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    let frame = b"FRAME\n".len() + width * height * 3 / 2;
    std::fs::write(dst, &bytes[..header + n * frame]).unwrap();
}

/// The log at `p` without its fps lines (the one value that differs between two runs of
/// the same scoring).
pub fn without_fps(p: &Path) -> String {
    std::fs::read_to_string(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .lines()
        .filter(|l| !l.trim_start().starts_with("\"fps\""))
        .collect::<Vec<_>>()
        .join("\n")
}
