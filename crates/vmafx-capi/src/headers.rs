//! The generator of `include/vmafx/*.h` and `private/vmafx/frame_import_hooks.h`.
//!
//! The headers are written from the definitions in this crate: enum values come from the
//! engine's enums, each struct field is tied to the Rust field by `offset_of!` (and the
//! generator checks the C layout it writes lands every field at the Rust offset), and each
//! declared function names the Rust function that implements it, so a missing or renamed
//! function does not compile. The `tests` module regenerates every header and fails when a
//! checked-in file differs (`VMAFX_BLESS=1` rewrites them).

mod context_h;
mod dnn_h;
mod emit;
mod frame_h;
#[cfg(feature = "test-hooks")]
mod hooks_h;
mod mcp_h;
mod misc_h;
mod provenance_h;
mod report_h;
mod score_h;
mod window_h;

pub use crate::header_items::{Field, Header, Item};
pub use emit::render;

/// Every header this crate ships: path relative to the crate root, and its text.
pub fn all() -> Vec<(&'static str, String)> {
    #[cfg_attr(not(feature = "test-hooks"), allow(unused_mut))]
    let mut headers = vec![
        misc_h::vmafx_h(),
        misc_h::version_h(),
        misc_h::types_h(),
        misc_h::error_h(),
        misc_h::device_h(),
        frame_h::frame_h(),
        score_h::model_h(),
        context_h::context_h(),
        score_h::score_h(),
        provenance_h::provenance_h(),
        report_h::report_h(),
        misc_h::bridge_h(),
        mcp_h::mcp_h(),
        dnn_h::dnn_h(),
    ];
    #[cfg(feature = "test-hooks")]
    headers.push(hooks_h::hooks_h());
    headers.iter().map(|h| (h.path, render(h))).collect()
}

#[cfg(test)]
mod tests;
