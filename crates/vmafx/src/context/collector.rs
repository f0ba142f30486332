//! The feature collector: per-frame scores keyed by libvmaf's feature names.
//!
//! Scores arrive from worker threads in any order, yet outputs list features in one order:
//! the order libvmaf's collector would receive them first. Each name carries a rank (phase:
//! extraction, flush, then model; the stage, which with libvmaf's thread pool puts the
//! extractors libvmaf runs on the reading thread first; the frame being processed when it
//! was first written; the writer's registration index; the position within that call) and
//! listings sort by it.

use std::collections::HashMap;

use crate::error::{Error, Result};

/// When a score was written, for ordering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rank {
    /// 0 extraction, 1 flush, 2 model prediction.
    pub phase: u8,
    /// 0 for every writer in the serial order; in the pool order
    /// ([`super::FeatureOrder::Pool`]) 0 for the extractors libvmaf runs on the reading
    /// thread and 1 for those its pool runs.
    pub stage: u8,
    /// Index of the frame being processed when the score was first written (a temporal
    /// feature may write an earlier index late, and then ranks where it wrote it).
    pub index: u64,
    /// Registration index of the writer.
    pub writer: usize,
    /// Position within that write.
    pub position: usize,
}

/// One series as [`FeatureCollector::series`] lists it: name, rank, (index, value) pairs.
pub type SeriesView<'a> = (&'a str, Rank, Vec<(u64, f64)>);

#[derive(Debug, Clone)]
struct Series {
    name: String,
    rank: Rank,
    values: Vec<Option<f64>>,
}

/// Collected scores.
#[derive(Debug, Default)]
pub struct FeatureCollector {
    by_name: HashMap<String, usize>,
    series: Vec<Series>,
    aggregates: Vec<(String, f64)>,
}

impl FeatureCollector {
    /// An empty collector.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records `value` for `name` at `index`. Writing the same value twice is harmless; a
    /// different value for a score already collected is refused.
    pub fn put(&mut self, name: &str, index: u64, value: f64, rank: Rank) -> Result<()> {
        let i = match self.by_name.get(name) {
            Some(&i) => i,
            None => {
                self.series.push(Series {
                    name: name.to_string(),
                    rank,
                    values: Vec::new(),
                });
                self.by_name.insert(name.to_string(), self.series.len() - 1);
                self.series.len() - 1
            }
        };
        let s = &mut self.series[i];
        if rank < s.rank {
            s.rank = rank;
        }
        let idx = usize::try_from(index)
            .map_err(|_| Error::range("frame index", format!("{index} is too large")))?;
        if s.values.len() <= idx {
            s.values.resize(idx + 1, None);
        }
        match s.values[idx] {
            Some(old) if old.to_bits() != value.to_bits() && !(old.is_nan() && value.is_nan()) => {
                Err(Error::invalid(
                    format!("{name} at frame {index}"),
                    format!("score already collected as {old}; refusing to overwrite with {value}"),
                ))
            }
            _ => {
                s.values[idx] = Some(value);
                Ok(())
            }
        }
    }

    /// The score of `name` at `index`.
    pub fn get(&self, name: &str, index: u64) -> Option<f64> {
        let s = &self.series[*self.by_name.get(name)?];
        s.values
            .get(usize::try_from(index).ok()?)
            .copied()
            .flatten()
    }

    /// Whether any score of `name` was collected.
    pub fn has(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Feature names in output order.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<_> = self.series.iter().collect();
        v.sort_by_key(|s| s.rank);
        v.into_iter().map(|s| s.name.clone()).collect()
    }

    /// The rank of series `name`.
    pub fn rank_of(&self, name: &str) -> Option<Rank> {
        Some(self.series[*self.by_name.get(name)?].rank)
    }

    /// Every series: its name, rank and the (index, value) pairs written, in index order.
    pub fn series(&self) -> Vec<SeriesView<'_>> {
        self.series
            .iter()
            .map(|s| {
                let values = s
                    .values
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| v.map(|v| (i as u64, v)))
                    .collect();
                (s.name.as_str(), s.rank, values)
            })
            .collect()
    }

    /// Records the whole-run value `value` of `name` (replacing an earlier one).
    pub fn put_aggregate(&mut self, name: &str, value: f64) {
        match self.aggregates.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.aggregates.push((name.to_string(), value)),
        }
    }

    /// The whole-run values (libvmaf's `aggregate_metrics`), in the order first written.
    pub fn aggregates(&self) -> &[(String, f64)] {
        &self.aggregates
    }

    /// One past the highest index with any score.
    pub fn frame_count(&self) -> u64 {
        self.series
            .iter()
            .map(|s| s.values.len() as u64)
            .max()
            .unwrap_or(0)
    }
}

/// A [`crate::feature::ScoreStore`] over a collector, writing with a fixed phase and writer.
pub(crate) struct FlushStore<'a> {
    pub collector: &'a mut FeatureCollector,
    pub rank: Rank,
    pub error: Option<Error>,
}

impl crate::feature::ScoreStore for FlushStore<'_> {
    fn get(&self, name: &str, index: u64) -> Option<f64> {
        self.collector.get(name, index)
    }

    fn put(&mut self, name: &str, index: u64, value: f64) {
        self.rank.position += 1;
        if let Err(e) = self.collector.put(name, index, value, self.rank) {
            self.error.get_or_insert(e);
        }
    }

    fn put_aggregate(&mut self, name: &str, value: f64) {
        self.collector.put_aggregate(name, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(phase: u8, writer: usize, index: u64, position: usize) -> Rank {
        Rank {
            phase,
            stage: 0,
            writer,
            index,
            position,
        }
    }

    #[test]
    fn order_follows_rank_not_arrival() {
        let mut c = FeatureCollector::new();
        c.put("vif", 1, 0.5, r(0, 2, 1, 0)).unwrap();
        c.put("adm", 1, 0.9, r(0, 0, 1, 0)).unwrap();
        c.put("vif", 0, 0.4, r(0, 2, 0, 0)).unwrap();
        c.put("adm", 0, 0.8, r(0, 0, 0, 0)).unwrap();
        c.put("vmaf", 0, 80.0, r(2, 0, 0, 0)).unwrap();
        c.put("motion2", 0, 1.0, r(1, 1, 0, 0)).unwrap();
        assert_eq!(c.names(), ["adm", "vif", "motion2", "vmaf"]);
        assert_eq!(c.get("vif", 0), Some(0.4));
        assert_eq!(c.get("vif", 7), None);
        assert_eq!(c.frame_count(), 2);
    }

    #[test]
    fn stage_orders_before_frame_and_writer() {
        // libvmaf's pool order: a reading-thread writer (stage 0) registered last, and even
        // first written at a later frame, lists before the pool's writers (stage 1).
        let mut c = FeatureCollector::new();
        let staged = |stage, writer, index| Rank {
            stage,
            ..r(0, writer, index, 0)
        };
        c.put("adm", 0, 0.9, staged(1, 0, 0)).unwrap();
        c.put("motion3", 0, 1.0, staged(0, 2, 1)).unwrap();
        c.put("psnr_y", 0, 30.0, staged(0, 1, 0)).unwrap();
        c.put("vif", 0, 0.4, staged(1, 3, 0)).unwrap();
        assert_eq!(c.names(), ["psnr_y", "motion3", "adm", "vif"]);
    }

    #[test]
    fn overwrite_with_other_value_is_refused() {
        let mut c = FeatureCollector::new();
        c.put("a", 0, 1.0, r(0, 0, 0, 0)).unwrap();
        c.put("a", 0, 1.0, r(0, 0, 0, 0)).unwrap();
        let e = c.put("a", 0, 2.0, r(0, 0, 0, 0)).unwrap_err();
        assert_eq!(e.subject(), "a at frame 0");
    }
}
