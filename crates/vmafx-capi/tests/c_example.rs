//! The example program of docs/C.md (`examples/score_y4m.c`) built as the document builds it
//! without cargo-c, against the static and against the shared library, and run on the
//! conformance corpus's 576x324 pair: it must print libvmaf's pooled VMAF from the golden log.

use std::path::{Path, PathBuf};
use std::process::Command;

#[allow(dead_code)] // the sanitizer flags are the C suites'
mod c_build;
use c_build::lib_dir;

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn corpus() -> PathBuf {
    std::env::var_os("VMAFX_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate_dir().join("../../../shared/conformance"))
}

/// `cc examples/score_y4m.c -I include LIBRARY... -o EXE`, as docs/C.md writes it.
fn build(exe: &Path, library: &[String]) {
    let out = Command::new("cc")
        .args([
            "-std=c11",
            "-D_POSIX_C_SOURCE=200809L",
            "-Wall",
            "-Wextra",
            "-Werror",
        ])
        .arg(crate_dir().join("examples/score_y4m.c"))
        .arg("-I")
        .arg(crate_dir().join("include"))
        .args(library)
        .arg("-o")
        .arg(exe)
        .output()
        .expect("cc runs (the example needs a C compiler)");
    assert!(
        out.status.success(),
        "score_y4m.c did not build:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// libvmaf's pooled mean for the pair, as its `vmaf` tool prints it.
fn golden(dir: &Path) -> String {
    let log = dir.join("expected/bbb_576x324_420p8_crf35.vmaf_v0.6.1.json");
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&log).expect("golden log")).unwrap();
    let mean = log["pooled_metrics"]["vmaf"]["mean"].as_f64().unwrap();
    format!("vmaf_v0.6.1: {mean:.6}\n")
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn the_example_program_scores_the_576x324_pair_as_libvmaf() {
    let dir = corpus();
    let want = golden(&dir);
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c_example");
    std::fs::create_dir_all(&scratch).unwrap();
    let stat = lib_dir("libvmafx_capi.a");
    let shared = lib_dir("libvmafx_capi.so");
    let links = [
        (
            "static",
            vec![
                stat.join("libvmafx_capi.a").display().to_string(),
                "-lpthread".into(),
                "-ldl".into(),
                "-lm".into(),
            ],
        ),
        (
            "shared",
            vec![
                format!("-L{}", shared.display()),
                "-lvmafx_capi".into(),
                format!("-Wl,-rpath,{}", shared.display()),
            ],
        ),
    ];
    for (how, library) in links {
        let exe = scratch.join(format!("score_y4m_{how}"));
        build(&exe, &library);
        let run = Command::new(&exe)
            .arg(dir.join("bbb_576x324_420p8_crf35_ref.y4m"))
            .arg(dir.join("bbb_576x324_420p8_crf35_dis.y4m"))
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{how}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&run.stdout), want, "{how}");
    }
    // A usage error is told, not scored.
    let run = Command::new(scratch.join("score_y4m_static"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(run.stdout.is_empty());
}
