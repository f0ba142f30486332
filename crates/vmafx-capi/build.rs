//! Keeps the white-box test hooks out of the shared library: a version script makes every
//! `vmafx_test_*` and `vmafx_count_*` symbol local there (the static library keeps them).

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    println!("cargo:rerun-if-changed=hidden.map");
    if target_os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={dir}/hidden.map");
    }
}
