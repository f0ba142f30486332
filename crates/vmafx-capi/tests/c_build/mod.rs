//! What the C suites of libvmafx and of the libvmaf drop-in share: where cargo put the
//! library under test, and the `VMAFX_C_SANITIZE` compiler flags.

use std::path::PathBuf;

/// The directory cargo put the library `name` in (this test's `deps` or its parent).
pub fn lib_dir(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps directory").to_path_buf();
    for dir in [deps.clone(), deps.parent().unwrap_or(&deps).to_path_buf()] {
        if dir.join(name).exists() {
            return dir;
        }
    }
    panic!("{name} not found beside {}", exe.display());
}

/// `VMAFX_C_SANITIZE` (e.g. `address,undefined` or `thread`): the scratch folder's name and
/// the `-fsanitize=` flags for that list; a sanitizer report fails the test. Unset: no
/// sanitizer.
pub fn sanitizer_flags() -> (String, Vec<String>) {
    match std::env::var("VMAFX_C_SANITIZE") {
        Ok(s) if !s.is_empty() => (
            format!("c_suite_{}", s.replace(',', "_")),
            vec![
                format!("-fsanitize={s}"),
                "-fno-sanitize-recover=all".into(),
                "-fno-omit-frame-pointer".into(),
                "-g".into(),
            ],
        ),
        _ => ("c_suite".into(), Vec::new()),
    }
}

/// Linker flags for the C tests: each links a static library of a few hundred MiB (the
/// engine with debug info), which GNU ld takes about 5 s for and rustup's own `rust-lld`
/// (found through rustc's sysroot, as `gcc-ld/ld.lld`) under 1 s; `--gc-sections` drops
/// what the test does not call. Without that toolchain directory gcc's default linker is
/// used. What the C tests check does not depend on the linker.
pub fn link_flags() -> Vec<String> {
    static FLAGS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    FLAGS.get_or_init(find_link_flags).clone()
}

/// [`link_flags`], asked of rustc once per test process.
fn find_link_flags() -> Vec<String> {
    let mut flags = vec!["-Wl,--gc-sections".to_string()];
    let sysroot = std::process::Command::new(std::env::var("RUSTC").unwrap_or("rustc".into()))
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let host = format!("{}-unknown-linux-gnu", std::env::consts::ARCH);
    if let Some(gcc_ld) = sysroot.map(|s| s.join("lib/rustlib").join(host).join("bin/gcc-ld")) {
        if gcc_ld.join("ld.lld").exists() {
            flags.push(format!("-B{}", gcc_ld.display()));
            flags.push("-fuse-ld=lld".into());
        }
    }
    flags
}
