//! Gives the shared library libvmaf's SONAME, so programs linked against it record
//! `libvmaf.so.3` and find either this library or Netflix's under that name. libvmafx's
//! functions, linked in for the bridge, are exported too (a program may use both APIs), except
//! libvmafx's white-box test hooks, which its own version script keeps local. The hooks exist
//! only when a workspace test build turns on libvmafx's `test-hooks` feature, which this
//! script cannot see, so the linker is told that names the script lists may be absent.

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    println!("cargo:rerun-if-changed=hidden.map");
    if target_os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libvmaf.so.3");
        // rustc hands the linker an anonymous version script of its own; rust-lld (the
        // x86-64 default) merges ours with it, GNU ld refuses two ("anonymous version tag
        // cannot be combined"). Elsewhere (aarch64's cross-build links with gcc) the hooks,
        // which only a workspace test build has, stay exported.
        if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64") {
            println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={dir}/hidden.map");
            println!("cargo:rustc-cdylib-link-arg=-Wl,--undefined-version");
        }
    }
}
