//! Keeps the white-box test hooks out of the shared library. They exist only with the
//! `test-hooks` feature (the C suite's build); then a version script makes every
//! `vmafx_test_*` and `vmafx_count_*` symbol local in the shared library (the static library
//! keeps them). Without the feature there is nothing to hide.

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let hooks = std::env::var_os("CARGO_FEATURE_TEST_HOOKS").is_some();
    println!("cargo:rerun-if-changed=hidden.map");
    if target_os == "linux" && hooks {
        println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={dir}/hidden.map");
    }
}
