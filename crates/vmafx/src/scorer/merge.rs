//! Reports of consecutive frame ranges joined into the one-pass report, and a report as
//! plain data (to store a partial report and read it back, as the CLI's partial logs do).

use std::collections::HashMap;
use std::ops::Range;

use super::report::{ModelColumns, Report, Side};
use crate::error::{Error, Result};
use crate::score::{merge, PartialScores, ReportInfo, ScoreTable};

/// A model of a report as plain data: its label, output name, whether it is a bootstrap
/// collection, and the printed names of its outputs (the score first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelParts {
    /// The version, path or label the model was given by.
    pub label: String,
    /// The model's output name (`vmaf` unless renamed).
    pub name: String,
    /// Whether the last four outputs are a collection's bagging, stddev and interval.
    pub bootstrap: bool,
    /// The printed names of its outputs, in the model's order.
    pub outputs: Vec<String>,
}

/// Everything a [`Report`] holds, as plain data: [`Report::to_parts`] and
/// [`Report::from_parts`] convert both ways without losing a bit.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportParts {
    /// The frames covered ([`Report::frame_range`]).
    pub frames: Range<u64>,
    /// Picture width.
    pub width: u32,
    /// Picture height.
    pub height: u32,
    /// libvmaf's `n_subsample` (1: every frame).
    pub subsample: u32,
    /// Frames scored per second of the run.
    pub fps: f64,
    /// The rows, with the printed names of the columns.
    pub table: ScoreTable,
    /// The engine's key of each column (libvmaf's long names), one per printed name.
    pub keys: Vec<String>,
    /// The models, in the order they were added.
    pub models: Vec<ModelParts>,
    /// Which input ended first, where one did.
    pub ended_first: Option<Side>,
}

impl Report {
    /// This report as plain data.
    pub fn to_parts(&self) -> ReportParts {
        ReportParts {
            frames: self.frames.clone(),
            width: self.info.width,
            height: self.info.height,
            subsample: self.info.subsample,
            fps: self.info.fps,
            table: self.table.clone(),
            keys: self.keys.clone(),
            models: self
                .models
                .iter()
                .map(|m| ModelParts {
                    label: m.label.clone(),
                    name: m.name.clone(),
                    bootstrap: m.bootstrap,
                    outputs: m
                        .outputs
                        .iter()
                        .map(|&j| self.table.names[j].clone())
                        .collect(),
                })
                .collect(),
            ended_first: self.ended_first,
        }
    }

    /// The report `parts` describe, checked: one key per column, every model output a
    /// column, rows in frame order within `frames` and no longer than the columns.
    pub fn from_parts(parts: ReportParts) -> Result<Report> {
        let ReportParts {
            frames,
            width,
            height,
            subsample,
            fps,
            table,
            keys,
            models,
            ended_first,
        } = parts;
        let bad = |m: String| Error::invalid("report", m);
        if frames.start > frames.end {
            return Err(bad(format!(
                "{}..{} is not a range",
                frames.start, frames.end
            )));
        }
        if keys.len() != table.names.len() {
            return Err(bad(format!(
                "{} keys for {} columns",
                keys.len(),
                table.names.len()
            )));
        }
        let mut last = None;
        for (index, row) in &table.frames {
            if !frames.contains(index) || last.is_some_and(|l| l >= *index) {
                return Err(bad(format!(
                    "a row for frame {index} out of order or outside frames {}..{}",
                    frames.start, frames.end
                )));
            }
            if row.len() > table.names.len() {
                return Err(bad(format!(
                    "frame {index} has {} values for {} columns",
                    row.len(),
                    table.names.len()
                )));
            }
            last = Some(*index);
        }
        let column = |n: &str| table.names.iter().position(|c| c == n);
        let models = models
            .into_iter()
            .map(|m| {
                let outputs = m
                    .outputs
                    .iter()
                    .map(|o| {
                        column(o).ok_or_else(|| bad(format!("model {}: no column {o}", m.label)))
                    })
                    .collect::<Result<Vec<usize>>>()?;
                Ok(ModelColumns {
                    label: m.label,
                    name: m.name,
                    outputs,
                    bootstrap: m.bootstrap,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let info = ReportInfo {
            fps,
            subsample: subsample.max(1),
            ..ReportInfo::new(width, height, frames.end)
        };
        Ok(Report {
            frames,
            table,
            keys,
            models,
            info,
            ended_first,
            provenance: None,
        })
    }

    /// Joins the reports of consecutive frame ranges of one video (as
    /// [`super::Scorer::score_range`] gives them, in any order) into the report one pass
    /// gives: every part's rows are kept as they are and the pooled values are computed
    /// over the merged rows, so each per-frame and pooled value equals one pass's, bit for
    /// bit. Parts must follow each other without gaps or overlaps and come from one
    /// configuration (same models, picture size and subsampling): anything else is
    /// refused naming the part. Empty parts (ranges past the end) are allowed.
    ///
    /// The merged `fps` is the frames over the parts' summed scoring time; which input
    /// ended first is the last part's.
    pub fn merge(parts: impl IntoIterator<Item = Report>) -> Result<Report> {
        let mut parts: Vec<Report> = parts.into_iter().collect();
        parts.sort_by_key(|p| (p.frames.start, p.frames.end));
        let Some(first) = parts.first() else {
            return Err(Error::invalid("parts", "nothing to merge: no part given"));
        };
        // Models by label, name and kind; a part whose frames were all subsampled away
        // lists no output column, so the outputs come from the first part that has them.
        let kinds = |r: &Report| -> Vec<(String, String, bool)> {
            r.models
                .iter()
                .map(|m| (m.label.clone(), m.name.clone(), m.bootstrap))
                .collect()
        };
        let want = kinds(first);
        for p in &parts[1..] {
            if kinds(p) != want {
                let (a, b) = (&p.frames, &first.frames);
                return Err(Error::invalid(
                    format!("part {}..{}", a.start, a.end),
                    format!(
                        "scored other models than part {}..{} ({:?} against {:?})",
                        b.start,
                        b.end,
                        p.models.iter().map(|m| &m.label).collect::<Vec<_>>(),
                        first.models.iter().map(|m| &m.label).collect::<Vec<_>>()
                    ),
                ));
            }
        }
        let mut models = first.to_parts().models;
        for (k, m) in models.iter_mut().enumerate() {
            if let Some(p) = parts.iter().find(|p| !p.models[k].outputs.is_empty()) {
                m.outputs = p.to_parts().models.swap_remove(k).outputs;
            }
        }
        // A range past the end holds no frame (nor a picture size): nothing to join.
        if parts.iter().any(|p| p.frame_count() > 0) {
            parts.retain(|p| p.frame_count() > 0);
        }
        let mut key_of: HashMap<&str, &str> = HashMap::new();
        for p in &parts {
            for (n, k) in p.table.names.iter().zip(&p.keys) {
                key_of.entry(n).or_insert(k);
            }
        }
        let merged = merge(parts.iter().map(|p| PartialScores {
            frames: p.frames.clone(),
            width: p.info.width,
            height: p.info.height,
            subsample: p.info.subsample,
            table: p.table.clone(),
        }))?;
        let keys = merged
            .table
            .names
            .iter()
            .map(|n| key_of.get(n.as_str()).map_or(n.clone(), |k| k.to_string()))
            .collect();
        let seconds: f64 = parts
            .iter()
            .filter(|p| p.info.fps > 0.0)
            .map(|p| p.frame_count() as f64 / p.info.fps)
            .sum();
        let frames = merged.frames.end - merged.frames.start;
        let fps = if seconds > 0.0 {
            frames as f64 / seconds
        } else {
            0.0
        };
        let ended_first = parts.last().and_then(|p| p.ended_first);
        Report::from_parts(ReportParts {
            frames: merged.frames,
            width: merged.width,
            height: merged.height,
            subsample: merged.subsample,
            fps,
            table: merged.table,
            keys,
            models,
            ended_first,
        })
    }
}
