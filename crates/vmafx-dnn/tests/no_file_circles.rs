//! No two top-level modules of the tiny-model runtime import each other in a circle: the
//! scorer leans on sessions, sessions on the checks (limits, allowlist, sidecar, digest),
//! never back.

#[path = "../../vmafx-cli/tests/support/circles.rs"]
mod circles;

#[test]
fn no_circle_between_the_runtime_s_modules() {
    circles::self_check();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = circles::graph(&src);
    assert!(g.len() >= 9, "read only {} modules", g.len());
    assert_eq!(circles::find_circle(&g), None, "modules in a circle");
}
