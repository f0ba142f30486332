//! Scores of a live stream: a range of frames read while later frames still come in, as
//! soon as every score it needs is final.
//!
//! A score in the collector is final once written (the collector refuses a different value
//! later). Some scores are written only by an extractor's flush (motion2 and motion3 of
//! `motion`), yet depend only on a few frames around theirs; those are derived early by a
//! fresh instance of the extractor flushed over the scores collected so far, as one chunk
//! fed from the range's pre-roll to the last frame every extractor ran on. Chunks
//! give one pass's scores for their own frames ([`crate::score::chunk`]), so a value
//! derived early equals the flush's. The values are the ones the reads after the flush give
//! ([`Context::feature_values`], [`Context::score_rows`]), bit for bit.

use std::ops::Range;

use super::collector::{FeatureCollector, Rank};
use super::scheduler::{Registration, ScoreListener};
use super::{Context, ModelHandle, State};
use crate::error::{Error, Result};
use crate::feature::name::alias;
use crate::feature::{registry, Reach, ScoreStore};

impl Context {
    /// Sets the function told each time a frame's scores were written (on a worker thread
    /// or the submitting one, with no lock of the context held); `None` removes it. A live
    /// reader wakes on it and looks with [`Context::final_feature_values`] or
    /// [`Context::final_score_rows`].
    pub fn set_score_listener(&mut self, listener: Option<ScoreListener>) {
        self.listener = listener.clone();
        if let State::Running(s) = &self.state {
            s.set_listener(listener);
        }
    }

    /// One past the highest index submitted.
    pub fn frames_submitted(&self) -> u64 {
        self.frames_in
    }

    /// Feature `name` at every scored frame of `first..=last` once all of them are final
    /// (`None` before): before the flush from the scores collected so far, after it what
    /// [`Context::feature_values`] gives (and its errors: a range past the frames scored,
    /// a score that never came). `first` above `last` is `Range` naming `first`.
    pub fn final_feature_values(
        &mut self,
        name: &str,
        first: u64,
        last: u64,
    ) -> Result<Option<Vec<f64>>> {
        if matches!(self.state, State::Done(_)) {
            return self.feature_values(name, first, last).map(Some);
        }
        let Some(live) = self.live(first, last)? else {
            return Ok(None);
        };
        let values = live.values(self, first, last, |scores, i| scores.get(name, i));
        Ok(values)
    }

    /// Every output of `handle`'s model at every scored frame of `first..=last` once all of
    /// them are final (`None` before), as [`Context::score_rows`] gives them after the
    /// flush (and, after it, with its errors).
    pub fn final_score_rows(
        &mut self,
        handle: &ModelHandle,
        first: u64,
        last: u64,
    ) -> Result<Option<Vec<Vec<f64>>>> {
        if matches!(self.state, State::Done(_)) {
            return self.score_rows(handle, first, last).map(Some);
        }
        let Some(live) = self.live(first, last)? else {
            return Ok(None);
        };
        let Some(inputs) = live.values(self, first, last, |scores, i| {
            let row: Option<Vec<f64>> = handle
                .input_keys()
                .iter()
                .map(|k| scores.get(k, i))
                .collect();
            row.map(|r| r.into_iter().collect::<Vec<f64>>())
        }) else {
            return Ok(None);
        };
        inputs
            .into_iter()
            .map(|row| {
                let out = handle
                    .model()
                    .predict(&row)
                    .map_err(|e| e.context(format_args!("model '{}'", handle.model().name())))?;
                Ok(out.into_iter().map(|(_, v)| v).collect())
            })
            .collect::<Result<Vec<Vec<f64>>>>()
            .map(Some)
    }

    /// The scores collected so far, when `first..=last` was submitted; `None` before.
    fn live(&self, first: u64, last: u64) -> Result<Option<LiveRange>> {
        if first > last {
            return Err(Error::range(
                "first",
                format!("first frame {first} is above last frame {last}"),
            ));
        }
        match &self.state {
            State::Running(_) if last < self.frames_in => Ok(Some(LiveRange)),
            State::Setup | State::Running(_) => Ok(None),
            State::Failed => Err(Error::invalid(
                "context",
                "an earlier failure left no scores",
            )),
            State::Done(_) => Ok(None),
        }
    }
}

/// Marks a range whose frames were all submitted to a running context.
struct LiveRange;

impl LiveRange {
    /// `row(scores, i)` for every scored frame of `first..=last`, or `None` while one is not
    /// final: first from the collected scores alone, then with the early-derived ones.
    fn values<T>(
        &self,
        ctx: &Context,
        first: u64,
        last: u64,
        row: impl Fn(&Scores<'_>, u64) -> Option<T>,
    ) -> Option<Vec<T>> {
        let State::Running(s) = &ctx.state else {
            return None;
        };
        let (collector, done) = s.collected();
        let indices: Vec<u64> = ctx.scored_indices(first, last + 1).collect();
        let mut scores = Scores {
            collector: &collector,
            late: None,
        };
        if let Some(v) = indices.iter().map(|&i| row(&scores, i)).collect() {
            return Some(v);
        }
        scores.late = Some(derive_late(
            s.registrations(),
            &collector,
            ctx.window.first_fed,
            first,
            last,
            done,
        )?);
        indices.iter().map(|&i| row(&scores, i)).collect()
    }
}

/// The collected scores and those derived early, read by name or by printed alias.
struct Scores<'a> {
    collector: &'a FeatureCollector,
    late: Option<(FeatureCollector, Range<u64>)>,
}

impl Scores<'_> {
    fn get(&self, name: &str, index: u64) -> Option<f64> {
        self.exact(name, index).or_else(|| {
            let keys = self.collector.names().into_iter();
            let late_keys = self.late.iter().flat_map(|(c, _)| c.names());
            keys.chain(late_keys)
                .find(|k| alias(k) == name)
                .and_then(|k| self.exact(&k, index))
        })
    }

    fn exact(&self, name: &str, index: u64) -> Option<f64> {
        self.collector.get(name, index).or_else(|| {
            let (late, valid) = self.late.as_ref()?;
            valid
                .contains(&index)
                .then(|| late.get(name, index))
                .flatten()
        })
    }
}

/// The flush-written scores of every extractor with history over `first..=last`, from fresh
/// instances flushed over the collected scores as a chunk fed from `first`'s pre-roll to
/// `done`; with the frames whose values are exact. `None` while a frame of the range is
/// within an extractor's reach of `done`, or for an extractor that cannot be chunked.
fn derive_late(
    regs: &[Registration],
    collector: &FeatureCollector,
    first_fed: u64,
    first: u64,
    last: u64,
    done: u64,
) -> Option<(FeatureCollector, Range<u64>)> {
    let mut late = FeatureCollector::new();
    for reg in regs {
        let (before, after) = match registry::reach(reg.info, &reg.options) {
            Reach::Frames { before, after } => (before, after),
            Reach::Unbounded(_) => return None,
        };
        if (before, after) == (0, 0) {
            continue;
        }
        if last.checked_add(after)? >= done {
            return None;
        }
        let mut x = reg.info.instantiate(&reg.options).ok()?;
        let start = first.saturating_sub(before).max(first_fed);
        if start > 0 {
            x.start_at(start);
        }
        let mut store = ChunkStore {
            base: collector,
            fed_end: done,
            out: &mut late,
        };
        x.flush(&mut store).ok()?;
    }
    Some((late, first..last + 1))
}

/// The collected scores of frames fed so far as a chunk's store: reads stop at the end of
/// the feed, writes go to a separate collector.
struct ChunkStore<'a> {
    base: &'a FeatureCollector,
    fed_end: u64,
    out: &'a mut FeatureCollector,
}

impl ScoreStore for ChunkStore<'_> {
    fn get(&self, name: &str, index: u64) -> Option<f64> {
        if index >= self.fed_end {
            return None;
        }
        self.base
            .get(name, index)
            .or_else(|| self.out.get(name, index))
    }

    fn put(&mut self, name: &str, index: u64, value: f64) {
        let rank = Rank {
            phase: 1,
            stage: 0,
            index: 0,
            writer: 0,
            position: 0,
        };
        // A value the flush writes twice is the same value; a clash is left out.
        let _ = self.out.put(name, index, value, rank);
    }

    fn put_aggregate(&mut self, name: &str, value: f64) {
        // Whole-run values come from extractors with unbounded reach, which a chunk never
        // flushes (`derive_late`); kept beside the late scores all the same.
        self.out.put_aggregate(name, value);
    }
}

#[cfg(test)]
#[path = "live_tests.rs"]
mod tests;
