//! The versions a run names: the libvmaf whose scores vmafx reproduces, and this crate's
//! own. A leaf module, so that the log writers below the crate root can name them.

/// The libvmaf version whose output vmafx reproduces (written as `version` in logs).
pub const LIBVMAF_VERSION: &str = "3.2.0";

/// This crate's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
