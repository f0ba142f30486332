//! The engine's module graph follows the path of a frame (docs/ARCHITECTURE.md): no module
//! imports one in its own or a higher layer, and no files import each other in a circle
//! (kernel folders included).
//!
//! The check reads `src/` as text: it walks the module tree from `lib.rs` (following
//! `mod` declarations and `#[path]`, marking `#[cfg(test)]` modules and inline
//! `#[cfg(test)] mod .. { }` blocks as test code), and takes every `crate::`, `super::` and
//! `self::` path, every `use child::..` in a module file, and every path through a name the
//! file bound (`use super::x86;` then `x86::avx2::KERNELS`, or `mod conv;` then
//! `conv::run`) as an import; a visibility (`pub(in crate::a)`) is none. Re-exports
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
    &["error", "version"],
    &["fence", "cpu"],
    &["hooks"],
    &["frame"],
    &["device", "io"],
    &["feature"],
    &["score"],
    &["model"],
    &["context", "output"],
    &["provenance"],
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

/// No two files of the engine import each other, directly or around a loop: the last
/// circles (a parent module and a child that used each other's items, in device/, model/
/// and scorer/) are gone, and issue 22 asked for none under `feature/`.
#[test]
fn no_circle_between_files() {
    let src = engine_src();
    let files = read_tree(&src);
    let circles = file_circles(&src, &files);
    assert!(
        circles.is_empty(),
        "files that import each other in a circle:\n{circles:?}"
    );
}

/// The check finds what it is for: in a small tree written for it, an upward import, a
/// module without a layer, a circle between files of two modules, a circle inside one
/// kernel's folder, and one there seen only through a bound name (a dispatch listing
/// `x86::avx2::KERNEL` while that file imports the dispatch back); and none of what is
/// allowed (a test-only import, a re-export, a `pub(in ..)` visibility).
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
        "pub mod adm;\npub mod vif;\nuse crate::frame::Frame;\npub struct Geometry;\n",
    );
    write(
        "feature/adm/mod.rs",
        "mod dwt;\nuse dwt::run;\npub fn step() {}\n",
    );
    write("feature/adm/dwt.rs", "use super::step;\npub fn run() {}\n");
    write(
        "feature/vif/mod.rs",
        "mod dispatch;\nmod x86;\npub fn table() -> u8 {\n    dispatch::KERNELS[0]\n}\n",
    );
    write(
        "feature/vif/dispatch.rs",
        "use super::x86;\npub static KERNELS: [u8; 1] = [x86::avx2::KERNEL];\n",
    );
    write("feature/vif/x86/mod.rs", "pub(super) mod avx2;\n");
    write(
        "feature/vif/x86/avx2.rs",
        "use crate::feature::vif::dispatch::KERNELS;\npub(in crate::feature::vif) const KERNEL: u8 = 0;\n",
    );
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
    let circle = |files: &[&str]| files.iter().map(|f| f.to_string()).collect::<Vec<_>>();
    assert_eq!(
        circles,
        vec![
            // adm's module and its file calling each other.
            circle(&["feature/adm/dwt.rs", "feature/adm/mod.rs"]),
            // frame/mod.rs -> feature/mod.rs (the upward import) and back through `Frame`.
            circle(&["feature/mod.rs", "frame/mod.rs"]),
            // The dispatch names `x86::avx2::KERNEL` through `use super::x86;`, and avx2
            // imports the dispatch back; its `pub(in crate::feature::vif)` is no import of
            // vif's module, which stays out of the circle.
            circle(&["feature/vif/dispatch.rs", "feature/vif/x86/avx2.rs"]),
        ]
    );
}
