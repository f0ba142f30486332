//! What the writers print: the per-frame score table and the run's facts.

use super::pooling::{pool, PoolMethod};

/// Every collected score of a run, one column per metric.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScoreTable {
    /// Metric names in print order (the collector's order), already aliased as printed.
    pub names: Vec<String>,
    /// `(frame index, value per name)`; `None` where that metric was not collected for that
    /// frame. A row shorter than `names` counts as `None` for the missing tail; values past
    /// `names` are ignored. Rows may come in any order; of two rows with one index the first
    /// is used.
    pub frames: Vec<(u64, Vec<Option<f64>>)>,
}

/// The facts of a run the formats print beside the scores.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportInfo {
    /// libvmaf version string (`version` in JSON and XML).
    pub version: String,
    /// The speed reading in frames per second (`fps`; JSON writes a non-finite one as null).
    pub fps: f64,
    /// Picture width (XML `qualityWidth`).
    pub width: u32,
    /// Picture height (XML `qualityHeight`).
    pub height: u32,
    /// Aggregate metrics, in order (`aggregate_metrics`).
    pub aggregate: Vec<(String, f64)>,
    /// libvmaf's `n_subsample`: above 1, only frames whose index is a multiple of it are
    /// written and pooled.
    pub subsample: u32,
    /// Pictures read (libvmaf's `pic_cnt`): a metric is pooled over frames `0..pic_count`
    /// (subsampled), and only if it has a value on every one of them.
    pub pic_count: u64,
}

impl ReportInfo {
    /// Facts for a `width`×`height` run of `pic_count` pictures: libvmaf's version, fps 0,
    /// no subsampling, no aggregate metrics.
    pub fn new(width: u32, height: u32, pic_count: u64) -> Self {
        ReportInfo {
            version: crate::LIBVMAF_VERSION.to_string(),
            fps: 0.0,
            width,
            height,
            aggregate: Vec::new(),
            subsample: 1,
            pic_count,
        }
    }

    /// Whether frame `index` is skipped by subsampling.
    pub(crate) fn skips(&self, index: u64) -> bool {
        self.subsample > 1 && !index.is_multiple_of(u64::from(self.subsample))
    }
}

/// One frame's row as the writers see it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Row<'a> {
    /// Frame index.
    pub index: u64,
    values: &'a [Option<f64>],
}

impl Row<'_> {
    /// The value of column `j`, if collected.
    pub fn get(&self, j: usize) -> Option<f64> {
        self.values.get(j).copied().flatten()
    }
}

/// A table prepared for writing: rows sorted by index, duplicates dropped.
#[derive(Debug)]
pub(crate) struct View<'a> {
    /// The metric names.
    pub names: &'a [String],
    rows: Vec<Row<'a>>,
}

impl<'a> View<'a> {
    /// Sorts `table`'s rows by frame index (stable, keeping the first of duplicates).
    pub fn new(table: &'a ScoreTable) -> Self {
        let mut rows: Vec<Row<'a>> = table
            .frames
            .iter()
            .map(|(index, values)| Row {
                index: *index,
                values,
            })
            .collect();
        rows.sort_by_key(|r| r.index);
        rows.dedup_by_key(|r| r.index);
        View {
            names: &table.names,
            rows,
        }
    }

    /// The `(column, value)` pairs a row prints: its collected values in column order.
    pub fn written<'r>(&'r self, row: &'r Row<'a>) -> impl Iterator<Item = (usize, f64)> + 'r {
        (0..self.names.len()).filter_map(move |j| row.get(j).map(|v| (j, v)))
    }

    /// The rows libvmaf writes: not skipped by subsampling and holding at least one value.
    pub fn printed<'r>(&'r self, info: &'r ReportInfo) -> impl Iterator<Item = Row<'a>> + 'r {
        self.rows
            .iter()
            .copied()
            .filter(move |r| !info.skips(r.index) && self.written(r).next().is_some())
    }

    /// Column `j` pooled every way, or `None` when some frame of `0..pic_count` (not
    /// skipped by subsampling) lacks it, as libvmaf then prints no pooled value.
    pub fn pooled(&self, j: usize, info: &ReportInfo) -> Option<[f64; 4]> {
        let values = self.column(j, info)?;
        Some(PoolMethod::ALL.map(|m| pool(&values, m)))
    }

    /// Column `j` over frames `0..pic_count` in index order, skipping subsampled frames.
    fn column(&self, j: usize, info: &ReportInfo) -> Option<Vec<f64>> {
        if info.pic_count == 0 {
            return None;
        }
        let mut values = Vec::new();
        for index in (0..info.pic_count).filter(|&i| !info.skips(i)) {
            let at = self.rows.binary_search_by_key(&index, |r| r.index).ok()?;
            values.push(self.rows[at].get(j)?);
        }
        Some(values)
    }
}
