//! No two top-level modules of the command line import each other in a circle (one file's
//! job leans on another's, never back).

#[path = "support/circles.rs"]
mod circles;

#[test]
fn no_circle_between_the_command_lines_modules() {
    circles::self_check();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = circles::graph(&src);
    assert!(g.len() > 10, "read only {} modules", g.len());
    assert_eq!(circles::find_circle(&g), None, "modules in a circle");
}
