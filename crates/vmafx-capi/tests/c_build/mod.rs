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
