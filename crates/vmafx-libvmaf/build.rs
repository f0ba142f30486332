//! Gives the shared library libvmaf's SONAME, so programs linked against it record
//! `libvmaf.so.3` and find either this library or Netflix's under that name.

fn main() {
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libvmaf.so.3");
    }
}
