//! vmafx: a video quality engine that scores exactly as libvmaf does.
//!
//! The path of a frame: a reader or producer makes a [`frame::Frame`] (host, pooled or
//! imported; reference-counted), the [`context::Context`] admits it, extractors in
//! [`feature`] score it on worker threads into the collector, [`model`] predicts and pools,
//! and [`output`] writes libvmaf's log formats.

pub mod chunk;
pub mod context;
pub mod cpu;
pub mod device;
pub mod error;
pub mod feature;
pub mod fence;
pub mod frame;
pub mod hooks;
pub mod io;
pub mod model;
pub mod output;

#[cfg(test)]
#[allow(dead_code)]
pub(crate) mod testutil;

pub use error::{Error, Result, Status};
pub use fence::Fence;
pub use frame::{Frame, FrameBuilder, MemoryKind, PixelFormat};

/// The libvmaf version whose output vmafx reproduces (written as `version` in logs).
pub const LIBVMAF_VERSION: &str = "3.2.0";

/// This crate's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
