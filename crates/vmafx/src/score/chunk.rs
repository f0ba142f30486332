//! Exact chunks: split a video's frames `[0, N)` into chunks, and join the chunks'
//! per-frame scores into what one pass scores. Pure data: scoring a chunk (feeding it the
//! frames its features reach before and after it) is [`crate::Scorer::score_range`].
//!
//! libvmaf's temporal features read neighbouring frames (motion the previous one, motion2
//! the next), so naive chunks differ from one pass at every boundary. Each chunk is fed as
//! far as its features reach ([`Reach`]), frames keep their index in the whole video (so
//! frame 0 keeps its own rules), and only the chunk's own rows are kept. [`merge`] joins
//! the rows; pooled values are then computed over the merged rows, never from chunk means.

use std::collections::HashMap;
use std::ops::Range;

use super::table::{ReportInfo, ScoreTable};
use crate::error::{Error, Result};
use crate::feature::Reach;

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

/// The per-frame scores of frames `frames` of a video: one chunk, or (merged) all of them.
#[derive(Debug, Clone, PartialEq)]
pub struct PartialScores {
    /// The frames scored (rows outside it are not listed).
    pub frames: Range<u64>,
    /// Picture width.
    pub width: u32,
    /// Picture height.
    pub height: u32,
    /// libvmaf's `n_subsample` (1: every frame).
    pub subsample: u32,
    /// The rows, with the metric names in print order.
    pub table: ScoreTable,
}

impl PartialScores {
    /// Whether these are the scores of a whole video (frames from 0).
    pub fn is_whole(&self) -> bool {
        self.frames.start == 0
    }

    /// The facts a log of these scores prints. Pooled values cover frames from 0 to the
    /// end, so only a whole video's log has them.
    pub fn report_info(&self, fps: f64) -> ReportInfo {
        ReportInfo {
            fps,
            subsample: self.subsample,
            ..ReportInfo::new(self.width, self.height, self.frames.end)
        }
    }
}

/// Joins consecutive parts of one video (in any order) into the scores of frames from the
/// first part's start to the last part's end, as one pass gives them: each part's rows
/// are kept as they are, and the metric names take the order of the part holding frame 0
/// (whose run matches one pass's); names only other parts hold follow in their order.
/// Parts must be of one picture size and subsampling, and their frames must follow each
/// other without gaps or overlaps; empty parts (chunks past the end) are allowed.
pub fn merge(parts: impl IntoIterator<Item = PartialScores>) -> Result<PartialScores> {
    let mut parts: Vec<PartialScores> = parts.into_iter().collect();
    parts.sort_by_key(|p| (p.frames.start, p.frames.end));
    let Some(first) = parts.first() else {
        return Err(Error::invalid("parts", "nothing to merge: no part given"));
    };
    let (width, height, subsample) = (first.width, first.height, first.subsample);
    let start = first.frames.start;
    let mut end = start;
    let mut names: Vec<String> = Vec::new();
    let mut column: HashMap<String, usize> = HashMap::new();
    for p in &parts {
        if (p.width, p.height, p.subsample) != (width, height, subsample) {
            return Err(Error::invalid(
                format!("part {}..{}", p.frames.start, p.frames.end),
                format!(
                    "scored {}x{} with subsample {}, but the first part {}x{} with subsample {}",
                    p.width, p.height, p.subsample, width, height, subsample
                ),
            ));
        }
        if p.frames.start != end {
            let what = if p.frames.start > end {
                "a gap"
            } else {
                "an overlap"
            };
            return Err(Error::invalid(
                format!("part {}..{}", p.frames.start, p.frames.end),
                format!("{what}: the parts before it end at frame {end}"),
            ));
        }
        end = p.frames.end;
        for n in &p.table.names {
            if !column.contains_key(n) {
                column.insert(n.clone(), names.len());
                names.push(n.clone());
            }
        }
    }
    let mut frames = Vec::new();
    for p in &parts {
        let map: Vec<usize> = p.table.names.iter().map(|n| column[n]).collect();
        for (index, values) in &p.table.frames {
            if !p.frames.contains(index) {
                return Err(Error::invalid(
                    format!("part {}..{}", p.frames.start, p.frames.end),
                    format!("holds a row for frame {index}, outside its frames"),
                ));
            }
            let mut row = vec![None; names.len()];
            for (j, v) in values.iter().enumerate().take(map.len()) {
                row[map[j]] = *v;
            }
            frames.push((*index, row));
        }
    }
    frames.sort_by_key(|(i, _)| *i);
    Ok(PartialScores {
        frames: start..end,
        width,
        height,
        subsample,
        table: ScoreTable { names, frames },
    })
}

#[cfg(test)]
#[path = "chunk_tests.rs"]
mod tests;
