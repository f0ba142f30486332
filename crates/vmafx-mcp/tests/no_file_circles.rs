//! No two top-level modules of the MCP server import each other in a circle: transports lean
//! on the server, the server on its tools, the tools on runs and provenance, never back.

#[path = "../../vmafx-cli/tests/support/circles.rs"]
mod circles;

#[test]
fn no_circle_between_the_mcp_servers_modules() {
    circles::self_check();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = circles::graph(&src);
    assert!(g.len() >= 6, "read only {} modules", g.len());
    assert_eq!(circles::find_circle(&g), None, "modules in a circle");
}
