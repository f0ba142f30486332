//! Keeps the white-box test hooks out of the shared library. They exist only with the
//! `test-hooks` feature (the C suite's build); then a version script makes every
//! `vmafx_test_*` and `vmafx_count_*` symbol local in the shared library (the static library
//! keeps them). Without the feature there is nothing to hide.
//!
//! It also sets the `vmafx_no_corpus` cfg where the conformance corpus is absent (as the
//! engine's build script does; see crates/vmafx/build.rs): the example program's test then
//! lists itself as ignored, naming the corpus, unless `CI=true`.

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let hooks = std::env::var_os("CARGO_FEATURE_TEST_HOOKS").is_some();
    println!("cargo:rerun-if-changed=hidden.map");
    println!("cargo::rustc-check-cfg=cfg(vmafx_no_corpus)");
    println!("cargo:rerun-if-env-changed=VMAFX_CONFORMANCE");
    println!("cargo:rerun-if-env-changed=CI");
    let corpus = std::env::var_os("VMAFX_CONFORMANCE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(&dir).join("../../../shared/conformance"));
    let manifest = corpus.join("manifest.json");
    if manifest.is_file() {
        println!("cargo:rerun-if-changed={}", manifest.display());
    } else if std::env::var("CI").as_deref() != Ok("true") {
        println!("cargo:rustc-cfg=vmafx_no_corpus");
    }
    if target_os == "linux" && hooks {
        println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={dir}/hidden.map");
    }
}
