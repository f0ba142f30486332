//! Scores after extraction: the per-frame score table a context collects, the facts of a
//! run, and libvmaf's pooling of per-frame scores into one. The context fills these; the
//! output writers only print them.

pub mod partial;
pub mod pooling;
pub mod table;

pub use partial::{Partial, PartialReason};
pub use pooling::{percentile, pool, PoolMethod};
pub use table::{ReportInfo, ScoreTable};
