//! A score table prepared for the writers: rows in index order, subsampling applied.

use crate::score::{pool, PoolMethod, ReportInfo, ScoreTable};

/// One frame's row as the writers see it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Row<'a> {
    /// Frame index.
    pub index: u64,
    values: &'a [Option<f64>],
}

impl Row<'_> {
    /// The value of column `j`, if collected.
    pub(super) fn get(&self, j: usize) -> Option<f64> {
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
    pub(super) fn new(table: &'a ScoreTable) -> Self {
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
    pub(super) fn written<'r>(
        &'r self,
        row: &'r Row<'a>,
    ) -> impl Iterator<Item = (usize, f64)> + 'r {
        (0..self.names.len()).filter_map(move |j| row.get(j).map(|v| (j, v)))
    }

    /// The rows libvmaf writes: not skipped by subsampling and holding at least one value.
    pub(super) fn printed<'r>(
        &'r self,
        info: &'r ReportInfo,
    ) -> impl Iterator<Item = Row<'a>> + 'r {
        self.rows
            .iter()
            .copied()
            .filter(move |r| !info.skips(r.index) && self.written(r).next().is_some())
    }

    /// Column `j` pooled every way, or `None` when some frame of `0..pic_count` (not
    /// skipped by subsampling) lacks it, as libvmaf then prints no pooled value.
    pub(super) fn pooled(&self, j: usize, info: &ReportInfo) -> Option<[f64; 4]> {
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
