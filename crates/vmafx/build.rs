//! Tells a clone without the conformance corpus what its tests leave out.
//!
//! The corpus tests compare with libvmaf's own logs in `../shared/conformance` (or
//! `VMAFX_CONFORMANCE`). Where that folder has no `manifest.json`, this script sets the
//! `vmafx_no_corpus` cfg, which marks each of them `ignore` with the reason, so `cargo test`
//! lists each as `ignored, no conformance corpus ...` and counts them in its summary
//! (`N ignored`). It prints no cargo warning: a plain `cargo build` of a clean clone stays
//! silent. Under `CI=true` the cfg is not set: the tests run and fail on the missing
//! corpus, as a CI run must. `vmafx-cli` has the same script; this one also records the
//! build facts a provenance record carries ([`build_facts`]).
//!
//! A missing manifest is not watched (cargo would then rebuild the crate on every run);
//! after adding the corpus to a clone, `touch` this file or set `VMAFX_CONFORMANCE`.

use std::path::PathBuf;

fn main() {
    build_facts();
    println!("cargo::rustc-check-cfg=cfg(vmafx_no_corpus)");
    println!("cargo:rerun-if-env-changed=VMAFX_CONFORMANCE");
    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo:rerun-if-changed=build.rs");
    let manifest_dir =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = std::env::var_os("VMAFX_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest_dir.join("../../../shared/conformance"));
    let manifest = dir.join("manifest.json");
    if manifest.is_file() {
        // Rerun if the corpus goes away.
        println!("cargo:rerun-if-changed={}", manifest.display());
        return;
    }
    if std::env::var("CI").as_deref() != Ok("true") {
        println!("cargo:rustc-cfg=vmafx_no_corpus");
    }
}

/// The build facts a provenance record carries: the compiler's version, the profile and the
/// optimisation level (`VMAFX_COMMIT`, when set, names the commit).
fn build_facts() {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "rustc unknown".into());
    println!("cargo:rustc-env=VMAFX_RUSTC_VERSION={version}");
    for (var, name) in [
        ("PROFILE", "VMAFX_BUILD_PROFILE"),
        ("OPT_LEVEL", "VMAFX_OPT_LEVEL"),
    ] {
        let v = std::env::var(var).unwrap_or_else(|_| "unknown".into());
        println!("cargo:rustc-env={name}={v}");
    }
    println!("cargo:rerun-if-env-changed=VMAFX_COMMIT");
}
