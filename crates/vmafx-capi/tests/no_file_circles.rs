//! No two top-level modules of the C ABI import each other in a circle: the `extern "C"`
//! faces (context, score, score_set, window, ...) lean on the shared state below them
//! (session, context_handle, pooling, window_state, window_live), never back. A file that
//! declares exports with `c_export!` also leans on what the macro's expansion names
//! (`export`: the error, C type and header item modules), so that edge is counted too.

#[path = "../../vmafx-cli/tests/support/circles.rs"]
mod circles;

use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn no_circle_between_the_c_abi_modules() {
    circles::self_check();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut g = circles::graph(&src);
    assert!(g.len() > 30, "read only {} modules", g.len());
    assert!(g.contains_key("export"), "no export module");
    let mut users = 0;
    for (module, refs) in g.iter_mut() {
        let file = src.join(format!("{module}.rs"));
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        if module != "export" && text.contains("c_export! {") {
            refs.insert("export".to_string());
            users += 1;
        }
    }
    assert!(users > 20, "only {users} files declare exports");
    // The export machinery itself reaches no face.
    let below: BTreeSet<&str> = ["c_type", "error", "header_items"].into();
    for r in &g["export"] {
        assert!(below.contains(r.as_str()), "export imports {r}");
    }
    assert_eq!(circles::find_circle(&g), None, "modules in a circle");
}

/// The same check finds the circle this crate had (context, window_live, window, context).
#[test]
fn the_check_finds_the_old_circle() {
    let mut g = std::collections::BTreeMap::new();
    for (a, b) in [
        ("context", "window_live"),
        ("window_live", "window"),
        ("window", "context"),
    ] {
        g.entry(a.to_string())
            .or_insert_with(BTreeSet::new)
            .insert(b.to_string());
    }
    g.entry("score".to_string()).or_default();
    assert!(circles::find_circle(&g).is_some());
}
