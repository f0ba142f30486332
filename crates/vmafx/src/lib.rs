//! vmafx: a video quality engine that scores exactly as libvmaf does.
//!
//! Most callers need only the front door: a [`Scorer`] made from a [`ScorerConfig`] scores
//! two files (or frames pushed one pair at a time) and returns a [`Report`]:
//!
//! ```no_run
//! use vmafx::{Model, Scorer, ScorerConfig};
//!
//! let scorer = Scorer::new(ScorerConfig::new().model(Model::builtin("vmaf_v0.6.1")))?;
//! let report = scorer.score_files("ref.y4m", "dis.y4m")?;
//! println!("vmaf_v0.6.1: {:.6}", report.model("vmaf_v0.6.1")?.pooled);
//! # Ok::<(), vmafx::Error>(())
//! ```
//!
//! The path of a frame: a reader or producer makes a [`frame::Frame`] (host, pooled or
//! imported; reference-counted), the [`context::Context`] admits it, extractors in
//! [`feature`] score it on worker threads into the collector, [`model`] predicts and pools,
//! and [`output`] writes libvmaf's log formats.
//!
//! # Two tiers
//!
//! - **The front door**, at the crate root: [`Scorer`], [`ScorerConfig`], [`Report`],
//!   [`Model`], [`Feature`], [`Frame`], [`Error`] and the types they take and give. This is
//!   what the README, the examples and the Python package use; it follows semver.
//! - **The engine tier**, the modules ([`context`], [`frame`], [`fence`], [`device`], [`io`],
//!   [`feature`], [`model`], [`score`], [`output`], [`cpu`]): the pieces the C faces
//!   (`vmafx-capi`, the libvmaf drop-in) and the command line assemble themselves, such as
//!   contexts that take imported frames, fences and pools, model collections, partial scores
//!   and their merge. It is public so those crates can be built on it; it follows semver too,
//!   but expect it to grow with VMAFx's C ABI.
//!
//! Everything else (kernel tables and their dispatch, extractor plumbing, helpers) is private:
//! `#![deny(unreachable_pub)]` keeps `pub` for what is reachable.

#![deny(unreachable_pub)]

pub mod context;
pub mod cpu;
pub mod device;
pub mod error;
pub mod feature;
pub mod fence;
pub mod frame;
pub mod io;
pub mod model;
pub mod output;
pub mod provenance;
pub mod score;
pub mod scorer;
mod version;

// White-box test hooks: public with the `test-hooks` feature (and in this crate's tests);
// elsewhere a private module of no-ops in their place.
#[cfg(any(test, feature = "test-hooks"))]
pub mod hooks;
#[cfg(not(any(test, feature = "test-hooks")))]
#[path = "hooks_off.rs"]
mod hooks;

#[cfg(test)]
#[allow(dead_code)]
pub(crate) mod testutil;

#[cfg(test)]
mod tests;

pub use error::{Error, Result, Status};
pub use fence::Fence;
pub use frame::{Frame, FrameBuilder, MemoryKind, PixelFormat};
pub use output::OutputFormat;
pub use score::PoolMethod;
pub use scorer::{
    Bootstrap, Feature, FrameRow, Model, ModelParts, ModelScores, OptionValue, Progress, Report,
    ReportParts, Scorer, ScorerConfig, Side, WindowScores,
};
pub use version::{LIBVMAF_VERSION, VERSION};
