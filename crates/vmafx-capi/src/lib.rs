//! VMAFx's C ABI over the vmafx engine.
//!
//! A thin, audited layer of `unsafe`: each exported function checks its pointers and the
//! `struct_size` of each struct it reads, converts the C structs into the engine's types,
//! calls the safe engine API, and reports a failure as a `VmafxError` naming what failed
//! (see [`error`]). Every body runs under `catch_unwind`, so a bug is
//! `VMAFX_E_INTERNAL` naming the function, never an unwind across the C boundary.
//!
//! The C headers in `include/vmafx/` are generated from the definitions here by
//! [`headers`] (a test fails when the checked-in files drift).

pub mod abi;
pub mod bridge;
pub mod c_type;
pub mod context;
mod context_handle;
pub mod context_options;
pub mod converter;
pub mod device;
pub mod dnn;
// The runtime behind dnn.h: vmafx-dnn with the `dnn` feature, refusals without it.
#[cfg(feature = "dnn")]
mod dnn_runtime;
#[cfg(not(feature = "dnn"))]
#[path = "dnn_runtime_off.rs"]
mod dnn_runtime;
pub mod error;
pub mod error_api;
pub mod export;
pub mod fence;
mod ffi;
pub mod frame;
pub mod header_items;
pub mod headers;
#[cfg(feature = "test-hooks")]
pub mod hooks;
mod host_buffer;
pub mod import;
pub mod import_rule;
pub mod introspect;
pub mod mcp;
pub mod model;
pub mod model_ops;
pub mod model_set;
pub mod options;
pub mod pool;
mod pooling;
pub mod producer;
pub mod provenance;
mod record;
pub mod report;
pub mod score;
mod score_out;
pub mod score_set;
mod session;
/// SHA-256 of model bytes (also used by the libvmaf drop-in).
pub mod sha256;
mod sized;
pub mod version;
pub mod window;
pub mod window_clock;
mod window_live;
mod window_state;
