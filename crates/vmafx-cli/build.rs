//! Tells a clone without the conformance corpus what its tests leave out.
//!
//! The conformance tests compare the CLI with libvmaf's own logs in `../shared/conformance`
//! (or `VMAFX_CONFORMANCE`). Where that folder has no `manifest.json`, this script sets the
//! `vmafx_no_corpus` cfg, which marks each of them `ignore` with the reason, so `cargo test`
//! lists each as `ignored, no conformance corpus ...` and counts them in its summary
//! (`N ignored`). It prints no cargo warning: a plain `cargo build` of a clean clone stays
//! silent. Under `CI=true` the cfg is not set: the tests run and fail on the missing
//! corpus, as a CI run must.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(vmafx_no_corpus)");
    println!("cargo:rerun-if-env-changed=VMAFX_CONFORMANCE");
    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo:rerun-if-changed=tests");
    let manifest_dir =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = std::env::var_os("VMAFX_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest_dir.join("../../../shared/conformance"));
    let manifest = dir.join("manifest.json");
    // Cargo reruns this script when the manifest appears (a missing path is always stale).
    println!("cargo:rerun-if-changed={}", manifest.display());
    if manifest.is_file() || std::env::var("CI").as_deref() == Ok("true") {
        return;
    }
    println!("cargo:rustc-cfg=vmafx_no_corpus");
}
