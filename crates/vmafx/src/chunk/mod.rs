//! Exact chunked scoring: split a video's frames into chunks, score each on its own
//! (another thread, process or machine), merge the results into what one pass scores.
//!
//! libvmaf's temporal features read neighbouring frames (motion the previous one, motion2
//! the next), so naive chunks differ from one pass at every boundary. Here each chunk is
//! fed the frames its features reach before and after it ([`crate::feature::Reach`]), frames
//! keep their index in the whole video (so frame 0 keeps its own rules), and only the
//! chunk's own rows are kept ([`crate::context::FrameWindow`]). [`merge`] joins the rows;
//! pooled values are then computed over the merged rows, never from chunk means.
//!
//! [`plan`] splits `[0, N)`; [`score_range`] scores one chunk of two readers;
//! [`merge`] joins the parts into a [`PartialScores`] covering every frame, which the
//! [`crate::output`] writers print as libvmaf's log.

mod merge;
mod score;
#[cfg(test)]
mod tests;

use std::ops::Range;

use crate::error::{Error, Result};
use crate::feature::Reach;

pub use merge::{merge, PartialScores};
pub use score::{score_range, Setup};

/// One chunk: the frames it scores and the frames it must be fed for them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Frames whose scores this chunk gives.
    pub frames: Range<u64>,
    /// Frames it reads: `frames` widened by the features' reach, within the video.
    pub fed: Range<u64>,
}

/// Chunks covering frames `[0, frames)` in order, without gaps or overlaps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkPlan {
    /// Frames in the video.
    pub frames: u64,
    /// The chunks, in frame order.
    pub chunks: Vec<Chunk>,
}

/// Splits frames `[0, frames)` into chunks of `chunk_frames` (the last may be shorter),
/// each fed as far as `reach` says. A reach that is unbounded cannot be split exactly and
/// is refused naming the extractor, unless one chunk covers the video.
pub fn plan(frames: u64, chunk_frames: u64, reach: Reach) -> Result<ChunkPlan> {
    if chunk_frames == 0 {
        return Err(Error::range(
            "chunk_frames",
            "a chunk holds at least 1 frame",
        ));
    }
    let (before, after) = match reach {
        Reach::Frames { before, after } => (before, after),
        Reach::Unbounded(name) if chunk_frames < frames => {
            return Err(Error::not_supported(
                format!("feature '{name}'"),
                format!(
                    "its scores depend on every earlier frame, so {frames} frames cannot be \
                     split into chunks of {chunk_frames} exactly; score them in one chunk"
                ),
            ))
        }
        Reach::Unbounded(_) => (0, 0),
    };
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < frames {
        let end = start.saturating_add(chunk_frames).min(frames);
        chunks.push(Chunk {
            frames: start..end,
            fed: start.saturating_sub(before)..end.saturating_add(after).min(frames),
        });
        start = end;
    }
    Ok(ChunkPlan { frames, chunks })
}
