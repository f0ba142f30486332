//! Per-frame scores of a range of frames, and the merge of consecutive ranges.

use std::collections::HashMap;
use std::ops::Range;

use crate::error::{Error, Result};
use crate::score::{ReportInfo, ScoreTable};

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
