//! Compiles the drop-in's C tests (`tests/c/`) with gcc against `libvmaf.a` and libvmaf's
//! headers from `include/`, runs them, and checks the shared library's SONAME and exports.
//! `VMAFX_C_SANITIZE=address,undefined` builds the C side with those sanitizers.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../vmafx-capi/tests/c_build/mod.rs"]
mod c_build;
use c_build::{lib_dir, link_flags, sanitizer_flags};

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run_c_test(name: &str) {
    let lib = lib_dir("libvmaf.a").join("libvmaf.a");
    let (scratch, sanitize) = sanitizer_flags();
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("libvmaf")
        .join(scratch);
    std::fs::create_dir_all(&out_dir).expect("scratch directory");
    let exe = out_dir.join(name);
    let src = crate_dir().join("tests/c").join(format!("{name}.c"));
    let compiled = Command::new("gcc")
        .args([
            "-std=c11",
            "-D_POSIX_C_SOURCE=200809L",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O1",
        ])
        .args(&sanitize)
        .arg("-I")
        .arg(crate_dir().join("include"))
        .arg("-I")
        .arg(crate_dir().join("../vmafx-capi/include"))
        .arg(&src)
        .arg(&lib)
        .args(link_flags())
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .output()
        .expect("gcc runs (the C suite needs gcc)");
    assert!(
        compiled.status.success(),
        "{name}.c did not compile:\n{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let ran = Command::new(&exe)
        .env("TMPDIR", &out_dir)
        .output()
        .expect("C test runs");
    let stdout = String::from_utf8_lossy(&ran.stdout);
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert!(ran.status.success(), "{name} failed:\n{stdout}\n{stderr}");
    assert!(
        stdout.contains(" 0 failed"),
        "{name} printed no result:\n{stdout}"
    );
}

#[test]
fn abi_layout() {
    run_c_test("abi_layout");
}

#[test]
fn scoring() {
    run_c_test("test_scoring");
}

#[test]
fn bad_calls() {
    run_c_test("test_bad_calls");
}

#[test]
fn bridge() {
    run_c_test("test_bridge");
}

/// Every function the headers declare is defined by this crate, and this crate defines no
/// other C function (libvmaf's API and the frame bridge, no more).
#[test]
fn headers_match_exports() {
    let mut declared = Vec::new();
    for h in [
        "libvmaf/libvmaf.h",
        "libvmaf/model.h",
        "libvmaf/picture.h",
        "libvmaf/feature.h",
        "vmafx/libvmaf_frame_bridge.h",
    ] {
        let text = std::fs::read_to_string(crate_dir().join("include").join(h)).expect("header");
        for part in text.split('(').map(|s| s.trim_end()) {
            let name = part.rsplit([' ', '*', '\n']).next().unwrap_or("");
            if (name.starts_with("vmaf_") || name.starts_with("vmafx_"))
                && !part.ends_with("typedef struct")
            {
                declared.push(name.to_string());
            }
        }
    }
    declared.sort();
    declared.dedup();
    let mut defined = Vec::new();
    for entry in std::fs::read_dir(crate_dir().join("src")).expect("src") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("source");
        for part in text.split("extern \"C\" fn ").skip(1) {
            if let Some((name, _)) = part.split_once('(') {
                defined.push(name.trim().to_string());
            }
        }
    }
    defined.sort();
    assert_eq!(declared, defined);
}

/// The shared library records libvmaf's SONAME, so programs linked to it ask for
/// `libvmaf.so.3`.
#[test]
fn soname_is_libvmaf_so_3() {
    let so = lib_dir("libvmaf.so").join("libvmaf.so");
    let Ok(out) = Command::new("readelf").arg("-d").arg(&so).output() else {
        eprintln!("skipping: no readelf");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Library soname: [libvmaf.so.3]"),
        "no SONAME libvmaf.so.3 in {}:\n{text}",
        so.display()
    );
}

/// `nm -D --defined-only` of `libvmaf.so` lists every function of VMAFx's ABI 0.1.11
/// (`crates/vmafx-capi/tests/vmafx_0.1.11_functions.txt`): libvmafx's, linked in, and the
/// libvmaf bridge of this crate.
#[cfg(target_os = "linux")]
#[test]
fn shared_library_exports_every_function_of_abi_0_1_11() {
    let so = lib_dir("libvmaf.so").join("libvmaf.so");
    let nm = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&so)
        .output()
        .expect("nm runs");
    assert!(nm.status.success());
    let syms = String::from_utf8_lossy(&nm.stdout);
    let exported: Vec<&str> = syms
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .collect();
    let list =
        std::fs::read_to_string(crate_dir().join("../vmafx-capi/tests/vmafx_0.1.11_functions.txt"))
            .expect("the 0.1.11 list");
    let names: Vec<&str> = list
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names.len(), 135);
    let missing: Vec<_> = names.iter().filter(|n| !exported.contains(n)).collect();
    assert!(missing.is_empty(), "{} lacks {missing:?}", so.display());
}
