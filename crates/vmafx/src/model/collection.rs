//! Bootstrap model collections (`vmaf_b_v0.6.3`): a JSON object whose keys `"0"`, `"1"`, ...
//! each hold a whole model. Model `"0"` is the base model, scored under the spec's name
//! (`vmaf`); models `"1"`.. are the bootstrap members, scored as `vmaf_0001`, `vmaf_0002`,
//! .... From the members' untransformed, unclipped scores libvmaf derives `vmaf_bagging`
//! (their mean), `vmaf_stddev` (population standard deviation, scaled by the local slope of
//! the transform), `vmaf_ci_p95_lo` and `vmaf_ci_p95_hi` (2.5th and 97.5th percentiles),
//! each then transformed and clipped by the first member.
//!
//! Pooled collection scores are the pooled per-frame outputs (libvmaf's
//! `vmaf_score_pooled_model_collection` pools each output name), so pooling needs nothing
//! beyond [`ModelCollection::predict`].

use serde_json::Value;

use super::input::ModelFeature;
use super::json::{kind, read_model, ReadFlags, Reader};
use super::single::{PredictFlags, SvmModel};
use crate::error::{Error, Result};
use crate::score::pooling::percentile_of_sorted;

/// A base model with its bootstrap members.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelCollection {
    name: String,
    base: SvmModel,
    members: Vec<SvmModel>,
    /// The union of every model's features, in first-seen order.
    features: Vec<ModelFeature>,
    /// For each model (base first), where its features sit in `features`.
    inputs: Vec<Vec<usize>>,
}

/// The output-name suffixes of the collection statistics, in libvmaf's order.
pub const STAT_SUFFIXES: [&str; 4] = ["_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"];

impl ModelCollection {
    /// Reads a collection from its JSON; `name` is the spec's output name (`vmaf`).
    pub fn read(subject: &str, name: &str, top: &Value, flags: ReadFlags) -> Result<Self> {
        let r = Reader { subject };
        let obj = r.object(top, "collection")?;
        let mut models = Vec::new();
        // Keys are taken in document order while they count up from "0"; others are skipped.
        for (key, value) in obj {
            if *key != models.len().to_string() {
                continue;
            }
            let member_name = if models.is_empty() {
                name.to_string()
            } else {
                format!("{name}_{:04}", models.len())
            };
            let model = read_model(subject, &member_name, value, flags)
                .map_err(|e| e.context(format!("collection model \"{key}\"")))?;
            models.push(model);
        }
        if models.is_empty() {
            let found = if obj.contains_key("model_dict") {
                "a single model".to_string()
            } else {
                format!("an object without key \"0\" ({} keys)", obj.len())
            };
            return Err(Error::invalid(
                subject,
                format!("not a model collection: expected keys \"0\", \"1\", ..., found {found}"),
            ));
        }
        let base = models.remove(0);
        if models.is_empty() {
            return Err(Error::invalid(
                subject,
                "collection has only model \"0\"; bootstrap members \"1\".. are missing",
            ));
        }
        let kind0 = models[0].model_type();
        if !kind0.is_bootstrap() {
            return Err(Error::invalid(
                subject,
                "collection model \"1\": model_dict.model_type must be BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR in a collection",
            ));
        }
        if let Some(i) = models.iter().position(|m| m.model_type() != kind0) {
            return Err(Error::invalid(
                subject,
                format!(
                    "collection model \"{}\": model_dict.model_type differs from model \"1\"",
                    i + 1
                ),
            ));
        }
        let mut c = ModelCollection {
            name: name.to_string(),
            base,
            members: models,
            features: Vec::new(),
            inputs: Vec::new(),
        };
        c.index_features();
        Ok(c)
    }

    /// Rebuilds the union of features and each model's place in it.
    fn index_features(&mut self) {
        let mut features: Vec<ModelFeature> = Vec::new();
        let mut inputs = Vec::with_capacity(self.members.len() + 1);
        for m in std::iter::once(&self.base).chain(&self.members) {
            let idx = m
                .features()
                .iter()
                .map(|f| match features.iter().position(|g| g == f) {
                    Some(i) => i,
                    None => {
                        features.push(f.clone());
                        features.len() - 1
                    }
                })
                .collect();
            inputs.push(idx);
        }
        self.features = features;
        self.inputs = inputs;
    }

    /// Runs `f` on the feature list of every model (base first), then re-indexes.
    pub(crate) fn for_each_feature_list(&mut self, f: &mut dyn FnMut(&mut Vec<ModelFeature>)) {
        f(&mut self.base.features);
        for m in &mut self.members {
            f(&mut m.features);
        }
        self.index_features();
    }

    /// The output name of the base model and the prefix of the others (`vmaf`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Model `"0"`.
    pub fn base(&self) -> &SvmModel {
        &self.base
    }

    /// Models `"1"`.., named `vmaf_0001`...
    pub fn members(&self) -> &[SvmModel] {
        &self.members
    }

    /// Every model's input features, each once, in the order [`Self::predict`] takes them.
    pub fn features(&self) -> &[ModelFeature] {
        &self.features
    }

    /// The names [`Self::predict`] returns, in order.
    pub fn output_names(&self) -> Vec<String> {
        let mut v = vec![self.base.name().to_string()];
        v.extend(self.members.iter().map(|m| m.name().to_string()));
        v.extend(STAT_SUFFIXES.iter().map(|s| format!("{}{s}", self.name)));
        v
    }

    /// One frame's outputs: the base score, each member's score, then bagging, stddev and
    /// the 95% interval.
    pub fn predict(&self, values: &[f64]) -> Result<Vec<(String, f64)>> {
        if values.len() != self.features.len() {
            return Err(Error::invalid(
                self.base.source(),
                format!(
                    "model collection '{}' takes {} feature values, got {}",
                    self.name,
                    self.features.len(),
                    values.len()
                ),
            ));
        }
        let gather = |k: usize| -> Vec<f64> { self.inputs[k].iter().map(|&i| values[i]).collect() };
        let mut out = Vec::with_capacity(self.members.len() + 5);
        out.push((self.base.name().to_string(), self.base.predict(&gather(0))?));
        let raw_flags = PredictFlags {
            disable_clip: true,
            disable_transform: true,
        };
        let mut raw = Vec::with_capacity(self.members.len());
        for (k, m) in self.members.iter().enumerate() {
            let x = gather(k + 1);
            raw.push(m.predict_with(&x, raw_flags)?);
            out.push((m.name().to_string(), m.predict(&x)?));
        }
        let stats = bootstrap_stats(&self.members[0], &mut raw);
        for (suffix, v) in STAT_SUFFIXES.iter().zip(stats) {
            out.push((format!("{}{suffix}", self.name), v));
        }
        Ok(out)
    }
}

/// Bagging score, scaled stddev, and the 95% interval from the members' raw scores, finished
/// (transformed and clipped) by `first` as libvmaf does. Sorts `scores`.
fn bootstrap_stats(first: &SvmModel, scores: &mut [f64]) -> [f64; 4] {
    let n = scores.len() as f64;
    let mut sum = 0.0;
    for s in scores.iter() {
        sum += s;
    }
    let mean = sum / n;
    let mut ssd = 0.0;
    for s in scores.iter() {
        let d = s - mean;
        ssd += d * d;
    }
    let stddev = (ssd / n).sqrt();
    scores.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let lo = percentile_of_sorted(scores, 2.5);
    let hi = percentile_of_sorted(scores, 97.5);

    const DELTA: f64 = 0.01;
    let finish = |y: f64| first.finish(y, PredictFlags::default());
    let slope = (finish(mean + DELTA) - finish(mean - DELTA)) / (2.0 * DELTA);
    [finish(mean), stddev * slope, finish(lo), finish(hi)]
}

/// Whether `v` looks like a collection (an object with key `"0"`), for error messages.
pub(crate) fn looks_like_collection(v: &Value) -> bool {
    v.as_object().is_some_and(|o| o.contains_key("0"))
}

/// Describes a top level that is neither a model nor a collection.
pub(crate) fn neither(subject: &str, v: &Value) -> Error {
    Error::invalid(
        subject,
        format!(
            "model: expected an object with \"model_dict\" (a model) or keys \"0\", \"1\", ... (a collection), found {}",
            if v.is_object() { "an object with neither" } else { kind(v) }
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_interpolates() {
        let s: Vec<f64> = (0..20).map(f64::from).collect();
        assert_eq!(percentile_of_sorted(&s, 2.5), 0.475);
        assert!((percentile_of_sorted(&s, 97.5) - 18.525).abs() < 1e-12);
        assert_eq!(percentile_of_sorted(&[3.0], 50.0), 3.0);
    }
}
