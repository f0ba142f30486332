//! Model scores: prediction per frame from collected features, pooling, and the table that
//! output writers print.

use std::sync::Arc;

use super::collector::Rank;
use super::Context;
use crate::error::{Error, Result};
use crate::feature::name::alias;
use crate::model::LoadedModel;
use crate::score::{pool, PoolMethod, ScoreTable};

/// A model registered with a context: the model and the collector key of each input.
#[derive(Clone)]
pub struct ModelHandle {
    model: Arc<LoadedModel>,
    keys: Vec<String>,
    slot: usize,
}

impl std::fmt::Debug for ModelHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelHandle")
            .field("name", &self.model.name())
            .field("inputs", &self.keys)
            .finish()
    }
}

impl ModelHandle {
    /// The model.
    pub fn model(&self) -> &LoadedModel {
        &self.model
    }
    /// The collector slot the model's scores are written under.
    pub(crate) fn slot(&self) -> usize {
        self.slot
    }

    /// Collector keys of the model's inputs, in the order the model takes them.
    pub fn input_keys(&self) -> &[String] {
        &self.keys
    }
}

impl Context {
    /// Registers the features `model` needs (with its options) and returns a handle for
    /// scoring. A model whose features this build lacks is refused naming the feature.
    pub fn use_model(&mut self, model: LoadedModel) -> Result<ModelHandle> {
        let keys = self.use_model_inputs(&model)?;
        let handle = ModelHandle {
            model: Arc::new(model),
            keys,
            slot: self.models.len(),
        };
        self.models.push(handle.clone());
        Ok(handle)
    }

    /// Registers the features `model` needs (with its options), without the model, and
    /// returns their collector keys in the order the model takes them (libvmaf's
    /// `vmaf_use_features_from_model`).
    pub fn use_model_inputs(&mut self, model: &LoadedModel) -> Result<Vec<String>> {
        let feats: Vec<(String, Vec<(String, String)>)> = model
            .features()
            .iter()
            .map(|f| (f.name.clone(), f.options.clone()))
            .collect();
        self.use_features_for(&feats)
            .map_err(|e| e.context(format_args!("model '{}'", model.name())))
    }

    /// The model's named outputs at `index` (`vmaf`, and for collections the bagged score,
    /// members, stddev and interval), also stored in the collector under those names.
    /// `Range` naming `index` at or past the frames scored.
    pub fn score_at_index(
        &mut self,
        handle: &ModelHandle,
        index: u64,
    ) -> Result<Vec<(String, f64)>> {
        self.checked_index(index)?;
        let inputs = handle
            .keys
            .iter()
            .map(|k| self.feature_score_at_index(k, index))
            .collect::<Result<Vec<f64>>>()
            .map_err(|e| e.context(format_args!("model '{}'", handle.model.name())))?;
        let outputs = handle.model.predict(&inputs)?;
        let c = self.collector_mut()?;
        for (pos, (name, v)) in outputs.iter().enumerate() {
            let rank = Rank {
                phase: 2,
                stage: 0,
                writer: handle.slot,
                index: 0,
                position: pos,
            };
            c.put(name, index, *v, rank)?;
        }
        Ok(outputs)
    }

    /// Predicts every scored frame for every registered model (what the command line does
    /// before writing a log).
    pub fn predict_all(&mut self) -> Result<()> {
        let n = self.frames_scored()?;
        for h in self.models.clone() {
            for i in self.kept_indices(n) {
                self.score_at_index(&h, i)?;
            }
        }
        Ok(())
    }

    /// Frames `first..end` not skipped by subsampling. Callers bound `end` by the frames
    /// scored first ([`Context::checked_range`]), so the walk is never longer than the run.
    pub(super) fn scored_indices(&self, first: u64, end: u64) -> impl Iterator<Item = u64> {
        let s = u64::from(self.config.subsample.max(1));
        (first..end).filter(move |i| i % s == 0)
    }

    /// One past the last frame that was submitted or holds a score (after flush).
    pub fn frames_scored(&self) -> Result<u64> {
        Ok(self.collector()?.frame_count().max(self.frames_in))
    }

    /// `first..=last` as a half-open range after checking it against the frames scored:
    /// `Range` naming `first` when it is above `last`, naming `last` when it is at or past
    /// the frames scored (every index is, in a context that scored none). Checked before
    /// anything is allocated for the range.
    fn checked_range(&self, first: u64, last: u64) -> Result<(u64, u64)> {
        let n = self.frames_scored()?;
        if first > last {
            return Err(Error::range(
                "first",
                format!("first frame {first} is above last frame {last}"),
            ));
        }
        if last >= n {
            return Err(Error::range("last", past_the_end(last, n)));
        }
        Ok((first, last + 1))
    }

    /// `index` checked against the frames scored: `Range` naming `index` past the end.
    pub fn checked_index(&self, index: u64) -> Result<u64> {
        let n = self.frames_scored()?;
        if index >= n {
            return Err(Error::range("index", past_the_end(index, n)));
        }
        Ok(index)
    }

    /// The model's first output at every scored frame of `first..=last` (subsampled frames
    /// skipped), in frame order: what [`Context::score_pooled`] pools. A range reaching
    /// past the frames scored is `Range`, naming `first` or `last`.
    pub fn score_values(
        &mut self,
        handle: &ModelHandle,
        first: u64,
        last: u64,
    ) -> Result<Vec<f64>> {
        Ok(self
            .score_rows(handle, first, last)?
            .into_iter()
            .map(|row| row[0])
            .collect())
    }

    /// Every output of the model (in [`LoadedModel::output_names`] order) at every scored
    /// frame of `first..=last`, one row per frame in frame order; the range is checked as
    /// [`Context::score_values`] checks it.
    pub fn score_rows(
        &mut self,
        handle: &ModelHandle,
        first: u64,
        last: u64,
    ) -> Result<Vec<Vec<f64>>> {
        let (first, end) = self.checked_range(first, last)?;
        let mut rows = Vec::new();
        for i in self.scored_indices(first, end) {
            let out = self.score_at_index(handle, i)?;
            rows.push(out.into_iter().map(|(_, v)| v).collect());
        }
        Ok(rows)
    }

    /// The model's first output pooled over frames `first..=last` with `method`, as
    /// libvmaf's `vmaf_score_pooled` (subsampled frames are skipped); the range is checked
    /// as [`Context::score_values`] checks it.
    pub fn score_pooled(
        &mut self,
        handle: &ModelHandle,
        method: PoolMethod,
        first: u64,
        last: u64,
    ) -> Result<f64> {
        Ok(pool(&self.score_values(handle, first, last)?, method))
    }

    /// Feature `name` at every scored frame of `first..=last`, in frame order: what
    /// [`Context::feature_score_pooled`] pools; the range is checked as
    /// [`Context::score_values`] checks it.
    pub fn feature_values(&self, name: &str, first: u64, last: u64) -> Result<Vec<f64>> {
        let (first, end) = self.checked_range(first, last)?;
        self.scored_indices(first, end)
            .map(|i| self.feature_score_at_index(name, i))
            .collect()
    }

    /// Feature `name` pooled over `first..=last`.
    pub fn feature_score_pooled(
        &self,
        name: &str,
        method: PoolMethod,
        first: u64,
        last: u64,
    ) -> Result<f64> {
        Ok(pool(&self.feature_values(name, first, last)?, method))
    }

    /// Every collected score as the table output writers print: names aliased, in
    /// libvmaf's order, one row per scored frame.
    pub fn score_table(&self) -> Result<ScoreTable> {
        let c = self.collector()?;
        let keys = c.names();
        let n = c.frame_count();
        let frames = self
            .kept_indices(n)
            .filter(|&i| keys.iter().any(|k| c.get(k, i).is_some()))
            .map(|i| (i, keys.iter().map(|k| c.get(k, i)).collect()))
            .collect();
        Ok(ScoreTable {
            names: keys.iter().map(|k| alias(k).to_string()).collect(),
            frames,
        })
    }
}

/// Why an index at or past the frames scored is refused.
fn past_the_end(index: u64, scored: u64) -> String {
    match scored {
        0 => format!("frame {index} was not scored: the context scored no frame"),
        n => format!(
            "frame {index} is past the last frame scored ({} of {n} frames)",
            n - 1
        ),
    }
}
