//! The engine's module graph follows the path of a frame (docs/ARCHITECTURE.md): no module
//! imports one in its own or a higher layer, and no two files outside one kernel's folder
//! import each other in a circle.
//!
//! The check reads `src/` as text: it walks the module tree from `lib.rs` (following
//! `mod` declarations and `#[path]`, marking `#[cfg(test)]` modules and inline
//! `#[cfg(test)] mod .. { }` blocks as test code), and takes every `crate::`, `super::` and
//! `self::` path and every `use child::..` in a module file as an import. Re-exports
//! (`pub use`) name what a module offers rather than what it uses, so they count for the
//! layers but not for circles. Test code may also import the test-only modules (`testutil`,
//! `tests`), which sit above everything.

mod check;
mod scan;

use std::path::{Path, PathBuf};

use check::{file_circles, layer_violations};
use scan::read_tree;

/// The engine's layers, lowest first: a module may import any module of a lower layer and
/// none of its own or a higher one. `scorer` is the front door above everything.
const LAYERS: &[&[&str]] = &[
    &["error"],
    &["fence", "cpu"],
    &["hooks"],
    &["frame"],
    &["device", "io"],
    &["feature"],
    &["score"],
    &["model"],
    &["context", "output"],
    &["scorer"],
];

/// Top-level modules that exist only in test builds; test code may import them.
const TEST_ONLY: &[&str] = &["testutil", "tests"];

fn engine_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_imports_its_own_layer_or_a_higher_one() {
    let src = engine_src();
    let files = read_tree(&src);
    assert!(files.len() > 100, "read only {} files", files.len());
    let bad = layer_violations(&src, &files);
    assert!(
        bad.is_empty(),
        "imports against the layers:\n{}",
        bad.join("\n")
    );
}

#[test]
fn no_circle_between_files_outside_a_kernel_folder() {
    let src = engine_src();
    let files = read_tree(&src);
    let circles = file_circles(&src, &files);
    assert!(
        circles.is_empty(),
        "files that import each other in a circle:\n{circles:?}"
    );
}

/// The check finds what it is for: in a small tree written for it, an upward import, a
/// module without a layer, a circle between files of two modules, and none of what is
/// allowed (a test-only import, a re-export, a circle inside one kernel's folder).
#[test]
fn the_checks_catch_a_planted_upward_import_and_circle() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("module_graph_planted");
    let _ = std::fs::remove_dir_all(&dir);
    let write = |path: &str, text: &str| {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "lib.rs",
        "pub mod error;\npub mod frame;\npub mod feature;\npub mod stray;\n#[cfg(test)]\nmod testutil;\npub use error::Error;\n",
    );
    write("error.rs", "pub struct Error;\n");
    write(
        "frame/mod.rs",
        "mod pool;\npub use pool::Pool;\nuse crate::Error;\nuse crate::feature::Geometry;\n#[cfg(test)]\nmod tests {\n    use crate::testutil::load;\n}\n",
    );
    write("frame/pool.rs", "use super::Frame;\npub struct Pool;\n");
    write(
        "feature/mod.rs",
        "pub mod adm;\nuse crate::frame::Frame;\npub struct Geometry;\n",
    );
    write(
        "feature/adm/mod.rs",
        "mod dwt;\nuse dwt::run;\npub fn step() {}\n",
    );
    write("feature/adm/dwt.rs", "use super::step;\npub fn run() {}\n");
    write("stray.rs", "use crate::error::Error;\n");
    write(
        "testutil.rs",
        "use crate::feature::Geometry;\npub fn load() {}\n",
    );
    let files = read_tree(&dir);
    let bad = layer_violations(&dir, &files);
    assert!(
        bad.iter()
            .any(|b| b.starts_with("frame/mod.rs:4:") && b.contains("`feature`")),
        "{bad:?}"
    );
    assert!(
        bad.iter().any(|b| b.contains("`stray` has no layer")),
        "{bad:?}"
    );
    assert_eq!(bad.len(), 2, "only the two planted faults: {bad:?}");
    let circles = file_circles(&dir, &files);
    // frame/mod.rs -> feature/mod.rs (the upward import) and back through `Frame`.
    assert_eq!(
        circles,
        vec![vec![
            "feature/mod.rs".to_string(),
            "frame/mod.rs".to_string()
        ]]
    );
}
