//! Compiles the C tests in `tests/c/` with gcc against the static library, runs them, and
//! checks that the shared library exports none of the white-box test hooks.
//!
//! Cargo names the libraries after the Rust target, `libvmafx_capi.{a,so}` (what C users
//! link as `-lvmafx` is what `cargo cinstall` writes, docs/C.md). Under `cargo test` they
//! are built with the `test-hooks` feature (this crate's dev-dependency on itself), so the
//! static library carries the hidden `vmafx_test_*` hooks the white-box C tests call.

use std::path::{Path, PathBuf};
use std::process::Command;

mod c_build;
use c_build::{lib_dir, link_flags, sanitizer_flags};

/// The static library cargo builds for this crate.
const STATIC_LIB: &str = "libvmafx_capi.a";
/// The shared library cargo builds for this crate.
const SHARED_LIB: &str = "libvmafx_capi.so";

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The directory a C test runs in (its scratch files, and what it reads).
fn scratch_dir() -> PathBuf {
    let (scratch, _) = sanitizer_flags();
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(scratch);
    std::fs::create_dir_all(&out_dir).expect("scratch directory");
    out_dir
}

fn run_c_test(name: &str) {
    run_c_test_in(name, &scratch_dir());
}

/// Compiles and runs the C test `name` with `run_dir` its working directory.
fn run_c_test_in(name: &str, run_dir: &Path) {
    let lib = lib_dir(STATIC_LIB).join(STATIC_LIB);
    let (_, sanitize) = sanitizer_flags();
    let out_dir = scratch_dir();
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
        .arg(crate_dir().join("private"))
        .arg(format!(
            "-DVMAFX_MODEL_DIR=\"{}\"",
            crate_dir().join("../vmafx/models").display()
        ))
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
    // In the scratch directory: a test that writes files (reports) writes them there.
    let ran = Command::new(&exe)
        .current_dir(run_dir)
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
fn devices() {
    run_c_test("test_devices");
}

#[test]
fn fences() {
    run_c_test("test_fences");
}

#[test]
fn import() {
    run_c_test("test_import");
}

#[test]
fn producer_bounds_fences_and_preallocated_frames() {
    run_c_test("test_producer");
}

#[test]
fn import_formats_of_0_1_11() {
    run_c_test("test_formats");
}

#[test]
fn frame_converters() {
    run_c_test("test_convert");
}

#[test]
fn context() {
    run_c_test("test_context");
}

#[test]
fn scores() {
    run_c_test("test_scores");
}

#[test]
fn pools() {
    run_c_test("test_pools");
}

#[test]
fn ranges_past_the_frames_scored() {
    run_c_test("test_ranges");
}

#[test]
fn introspection() {
    run_c_test("test_introspect");
}

#[test]
fn model_sets() {
    run_c_test("test_model_sets");
}

#[test]
fn planted_defects() {
    run_c_test("test_defects");
}

#[test]
fn windows_and_the_window_clock() {
    run_c_test("test_windows");
}

#[test]
fn provenance_records() {
    run_c_test("test_provenance");
}

#[test]
fn reports() {
    run_c_test("test_report");
}

/// Tiny models (dnn.h): the models test_dnn.c runs, written where it runs, then the test.
#[test]
fn tiny_models() {
    use vmafx_dnn::{digest, sample};
    let dir = scratch_dir().join("dnn");
    std::fs::create_dir_all(&dir).expect("dnn scratch directory");
    let invert = sample::invert_filter(Some(3), Some(4));
    for (name, bytes) in [
        ("invert.onnx", invert.clone()),
        ("mad.onnx", sample::mean_abs_diff(None, None, 100.0)),
        ("mad8.onnx", sample::mean_abs_diff(Some(8), Some(16), 100.0)),
        ("floor.onnx", sample::off_allowlist()),
    ] {
        std::fs::write(dir.join(name), bytes).expect("model written");
    }
    let entry = |file: &str, sha: &str| {
        format!(r#"{{"onnx":"{file}","sha256":"{sha}","sigstore_bundle":"{file}.sigstore.json"}}"#)
    };
    let registry = format!(
        r#"{{"models":[{},{}]}}"#,
        entry("invert.onnx", &digest::sha256_hex(&invert)),
        entry("mad.onnx", &"0".repeat(64))
    );
    std::fs::write(dir.join("registry.json"), registry).expect("registry written");
    std::fs::write(dir.join("invert.onnx.sigstore.json"), "{}").expect("bundle written");
    // Stand-ins for cosign (the real one needs the network): record the arguments, exit 0
    // or say why and exit 1. test_dnn.c puts each directory on PATH in turn.
    for (sub, tail) in [
        ("cosign_ok", "exit 0\n"),
        (
            "cosign_no",
            "echo 'Error: no matching signatures' >&2\nexit 1\n",
        ),
    ] {
        use std::os::unix::fs::PermissionsExt;
        let bin = dir.join(sub);
        std::fs::create_dir_all(&bin).expect("stand-in directory");
        let script = format!("#!/bin/sh\nprintf '%s\\n' \"$@\" > argv.txt\n{tail}");
        let path = bin.join("cosign");
        std::fs::write(&path, script).expect("stand-in cosign written");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .expect("stand-in cosign executable");
    }
    run_c_test_in("test_dnn", &dir);
}

#[test]
fn context_options_sample_range_side_data_and_default_colour() {
    run_c_test("test_context_options");
}

#[test]
fn bad_input() {
    run_c_test("test_bad_input");
}

/// Names and parameter lists of the C exports declared in `src/<file>` (each by
/// `c_export!`, its C documentation `#[c = ..]` just before `pub [unsafe] fn NAME(`).
fn exported(file: &str) -> Vec<(String, String)> {
    let src = std::fs::read_to_string(crate_dir().join("src").join(file)).expect("source file");
    src.split("#[c = ")
        .skip(1)
        .filter_map(|s| {
            let (_, s) = s.split_once("fn ")?;
            let (name, rest) = s.split_once('(')?;
            // The macro's own patterns (`$name:ident`) are no export.
            if name.contains('$') {
                return None;
            }
            let params = rest.split_once(')').map_or("", |p| p.0);
            Some((name.trim().to_string(), params.to_string()))
        })
        .collect()
}

/// Every exported function has a row in the C bad-input table; the test hooks, which take
/// no pointer, are the only ones left out.
#[test]
fn every_exported_function_has_a_bad_input_row() {
    let table = std::fs::read_to_string(crate_dir().join("tests/c/test_bad_input.c"))
        .expect("test_bad_input.c");
    let mut files: Vec<String> = std::fs::read_dir(crate_dir().join("src"))
        .expect("src")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".rs"))
        .collect();
    files.sort();
    let mut checked = 0;
    for file in &files {
        for (name, params) in exported(file) {
            if file == "hooks.rs" {
                assert!(
                    !params.contains('*'),
                    "hook {name} takes a pointer: give it a row"
                );
                continue;
            }
            let has_row = ["ROW(", "SIZED(", "VALUE("]
                .iter()
                .any(|m| table.contains(&format!("{m}{name},")));
            assert!(
                has_row,
                "{name} (src/{file}) has no row in tests/c/test_bad_input.c"
            );
            checked += 1;
        }
    }
    assert!(checked >= 57, "found only {checked} exported functions");
}

/// Names of the hook functions defined in src/hooks.rs.
fn hook_names() -> Vec<String> {
    let src = std::fs::read_to_string(crate_dir().join("src/hooks.rs")).expect("hooks.rs");
    src.split("fn ")
        .skip(1)
        .filter_map(|s| s.split('(').next())
        .filter(|n| n.starts_with("vmafx_"))
        .map(str::to_string)
        .collect()
}

#[test]
fn version_script_hides_every_hook() {
    let map = std::fs::read_to_string(crate_dir().join("hidden.map")).expect("hidden.map");
    let hooks = hook_names();
    assert!(hooks.len() >= 20, "found {} hooks", hooks.len());
    for h in &hooks {
        assert!(
            map.contains(&format!(" {h};")),
            "{h} is missing from hidden.map"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn shared_library_exports_no_hook() {
    let so = lib_dir(SHARED_LIB).join(SHARED_LIB);
    let nm = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&so)
        .output()
        .expect("nm runs");
    assert!(nm.status.success());
    let syms = String::from_utf8_lossy(&nm.stdout);
    let exported = |name: &str| syms.lines().any(|l| l.ends_with(&format!(" {name}")));
    for h in hook_names() {
        assert!(!exported(&h), "{h} is exported from {}", so.display());
    }
    for public in [
        "vmafx_frame_import",
        "vmafx_fence_wait",
        "vmafx_device_create",
    ] {
        assert!(exported(public), "{public} is not exported");
    }
}

/// The functions of VMAFx's ABI 0.1.11 (`tests/vmafx_0.1.11_functions.txt`): name and, for
/// the libvmaf bridge, the library other than libvmafx that exports it.
fn abi_functions() -> Vec<(String, Option<String>)> {
    let text = std::fs::read_to_string(crate_dir().join("tests/vmafx_0.1.11_functions.txt"))
        .expect("tests/vmafx_0.1.11_functions.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next().unwrap_or_default().to_string();
            (name, words.next().map(str::to_string))
        })
        .collect()
}

/// `nm -D --defined-only` of the shared library: exactly the 0.1.11 functions libvmafx
/// carries (the list less the libvmaf bridge), and no other `vmafx_` function.
#[cfg(target_os = "linux")]
#[test]
fn shared_library_exports_the_functions_of_abi_0_1_11() {
    let so = lib_dir(SHARED_LIB).join(SHARED_LIB);
    let nm = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&so)
        .output()
        .expect("nm runs");
    assert!(nm.status.success());
    let mut exported: Vec<String> = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .filter(|s| s.starts_with("vmafx_"))
        .map(str::to_string)
        .collect();
    exported.sort();
    exported.dedup();
    let all = abi_functions();
    assert_eq!(
        all.len(),
        135,
        "the list holds 0.1.8's 134 and signal_on_release"
    );
    let mut want: Vec<String> = all
        .into_iter()
        .filter(|(_, lib)| lib.is_none())
        .map(|(n, _)| n)
        .collect();
    want.sort();
    let missing: Vec<_> = want.iter().filter(|n| !exported.contains(n)).collect();
    let extra: Vec<_> = exported.iter().filter(|n| !want.contains(n)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{}: missing {missing:?}, not in the ABI {extra:?}",
        so.display()
    );
}

#[test]
fn mcp_server_over_a_socket_descriptors_and_sse() {
    run_c_test("test_mcp");
}
