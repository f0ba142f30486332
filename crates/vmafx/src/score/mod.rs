//! Scores after extraction: the per-frame score table a context collects, the facts of a
//! run, libvmaf's pooling of per-frame scores into one, exact chunk plans and merges (and what
//! a part belongs to), and the window clock that cuts a live stream into windows.
//! The context fills these; the output writers only print them.

pub mod chunk;
pub mod origin;
pub mod partial;
pub mod pelorus;
pub mod pooling;
pub mod table;
pub mod window_clock;

pub use chunk::{merge, plan, Chunk, ChunkPlan, PartialScores};
pub use origin::{check_parts, PartOrigin, PartRecord};
pub use partial::{Partial, PartialReason};
pub use pooling::{percentile, pool, pool_weighted, PoolMethod};
pub use table::{ReportInfo, ScoreTable};
pub use window_clock::{frame_pts_ns, WindowClock, WindowLength, WindowSpan};
