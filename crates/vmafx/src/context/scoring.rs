//! Model scores: prediction per frame from collected features, pooling, and the table that
//! output writers print.

use std::sync::Arc;

use super::collector::Rank;
use super::Context;
use crate::error::{Error, Result};
use crate::feature::name::alias;
use crate::model::LoadedModel;
use crate::output::pooling::{pool, PoolMethod};
use crate::output::ScoreTable;

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
    /// Collector keys of the model's inputs, in the order the model takes them.
    pub fn input_keys(&self) -> &[String] {
        &self.keys
    }
}

impl Context {
    /// Registers the features `model` needs (with its options) and returns a handle for
    /// scoring. A model whose features this build lacks is refused naming the feature.
    pub fn use_model(&mut self, model: LoadedModel) -> Result<ModelHandle> {
        let feats: Vec<(String, Vec<(String, String)>)> = model
            .features()
            .iter()
            .map(|f| (f.name.clone(), f.options.clone()))
            .collect();
        let keys = self
            .use_features_for(&feats)
            .map_err(|e| e.context(format_args!("model '{}'", model.name())))?;
        let handle = ModelHandle {
            model: Arc::new(model),
            keys,
            slot: self.models.len(),
        };
        self.models.push(handle.clone());
        Ok(handle)
    }

    /// The model's named outputs at `index` (`vmaf`, and for collections the bagged score,
    /// members, stddev and interval), also stored in the collector under those names.
    pub fn score_at_index(
        &mut self,
        handle: &ModelHandle,
        index: u64,
    ) -> Result<Vec<(String, f64)>> {
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
        let n = self.collector()?.frame_count();
        for h in self.models.clone() {
            for i in self.kept_indices(n) {
                self.score_at_index(&h, i)?;
            }
        }
        Ok(())
    }

    pub(super) fn scored_indices(&self, low: u64, high: u64) -> Vec<u64> {
        let s = self.config.subsample as u64;
        (low..=high).filter(|i| s <= 1 || i % s == 0).collect()
    }

    /// The model's first output at every scored frame of `low..=high` (subsampled frames
    /// skipped), in frame order: what [`Context::score_pooled`] pools.
    pub fn score_values(&mut self, handle: &ModelHandle, low: u64, high: u64) -> Result<Vec<f64>> {
        Ok(self
            .score_rows(handle, low, high)?
            .into_iter()
            .map(|row| row[0])
            .collect())
    }

    /// Every output of the model (in [`LoadedModel::output_names`] order) at every scored
    /// frame of `low..=high`, one row per frame in frame order.
    pub fn score_rows(
        &mut self,
        handle: &ModelHandle,
        low: u64,
        high: u64,
    ) -> Result<Vec<Vec<f64>>> {
        check_range(low, high)?;
        let mut rows = Vec::new();
        for i in self.scored_indices(low, high) {
            let out = self.score_at_index(handle, i)?;
            rows.push(out.into_iter().map(|(_, v)| v).collect());
        }
        Ok(rows)
    }

    /// The model's first output pooled over frames `low..=high` with `method`, as
    /// libvmaf's `vmaf_score_pooled` (subsampled frames are skipped).
    pub fn score_pooled(
        &mut self,
        handle: &ModelHandle,
        method: PoolMethod,
        low: u64,
        high: u64,
    ) -> Result<f64> {
        Ok(pool(&self.score_values(handle, low, high)?, method))
    }

    /// Feature `name` at every scored frame of `low..=high`, in frame order: what
    /// [`Context::feature_score_pooled`] pools.
    pub fn feature_values(&self, name: &str, low: u64, high: u64) -> Result<Vec<f64>> {
        check_range(low, high)?;
        self.scored_indices(low, high)
            .into_iter()
            .map(|i| self.feature_score_at_index(name, i))
            .collect()
    }

    /// Feature `name` pooled over `low..=high`.
    pub fn feature_score_pooled(
        &self,
        name: &str,
        method: PoolMethod,
        low: u64,
        high: u64,
    ) -> Result<f64> {
        Ok(pool(&self.feature_values(name, low, high)?, method))
    }

    /// Every collected score as the table output writers print: names aliased, in
    /// libvmaf's order, one row per scored frame.
    pub fn score_table(&self) -> Result<ScoreTable> {
        let c = self.collector()?;
        let keys = c.names();
        let n = c.frame_count();
        let frames = self
            .kept_indices(n)
            .into_iter()
            .filter(|&i| n > 0 && keys.iter().any(|k| c.get(k, i).is_some()))
            .map(|i| (i, keys.iter().map(|k| c.get(k, i)).collect()))
            .collect();
        Ok(ScoreTable {
            names: keys.iter().map(|k| alias(k).to_string()).collect(),
            frames,
        })
    }
}

/// A pooled range must not be empty by its bounds.
fn check_range(low: u64, high: u64) -> Result<()> {
    if low > high {
        return Err(Error::invalid(
            "range",
            format!("low index {low} is above high index {high}"),
        ));
    }
    Ok(())
}
