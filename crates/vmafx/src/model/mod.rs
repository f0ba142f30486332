//! libvmaf's models: reading the JSON format, the RBF ν-SVR prediction around it, bootstrap
//! collections, the `--model` option string and the built-in models.
//!
//! A model maps one frame's feature values to a score: normalise each feature
//! (`linear_rescale`), run the SVM, map the prediction back, transform it (when enabled) and
//! clip it (unless disabled). [`LoadedModel::load`] takes a [`ModelSpec`]; like libvmaf it
//! reads a single model first and, when the JSON is not one, a collection.

mod builtin;
mod collection;
mod input;
mod json;
pub(crate) mod numtext;
mod options;
mod single;
mod svm;
mod transform;
mod unique_keys;

#[cfg(test)]
mod tests;

use serde_json::Value;

pub use builtin::builtin_versions;
pub use collection::{ModelCollection, STAT_SUFFIXES};
pub use input::ModelFeature;
pub use json::{ReadFlags, MAX_FEATURES, MAX_KNOTS};
pub use options::{FeatureOverload, ModelSource, ModelSpec};
pub use single::{ModelType, PredictFlags, SvmModel};
pub use transform::{Norm, ScoreTransform};

use crate::error::{Error, Result};

/// A model or a bootstrap collection, as `--model` loads either.
#[derive(Debug, Clone)]
pub enum LoadedModel {
    /// A single model: one output.
    Single(SvmModel),
    /// A bootstrap collection: the base score, each member's score and the statistics.
    Collection(ModelCollection),
}

impl LoadedModel {
    /// Loads the built-in model of `version=` or the file of `path=`, applying the spec's
    /// name, flags and feature overloads.
    pub fn load(spec: &ModelSpec) -> Result<LoadedModel> {
        Self::load_text(spec, &Self::source_text(spec)?)
    }

    /// The JSON text `spec` names, as [`LoadedModel::load`] reads it: the built-in model's,
    /// or the file's (whose bytes it is, so a hash of it is the file's).
    pub fn source_text(spec: &ModelSpec) -> Result<std::borrow::Cow<'static, str>> {
        let subject = spec.subject();
        Ok(match &spec.source {
            ModelSource::Version(v) => std::borrow::Cow::Borrowed(builtin::builtin_json(v)?),
            ModelSource::Path(p) => {
                std::borrow::Cow::Owned(std::fs::read_to_string(p).map_err(|e| {
                    let hint = if p.extension().is_some_and(|x| x == "pkl") {
                        " (pkl models are not supported, use json)"
                    } else {
                        ""
                    };
                    Error::io(&subject, format!("cannot read model file: {e}{hint}"))
                })?)
            }
        })
    }

    /// [`LoadedModel::load`] from `text`, the JSON [`LoadedModel::source_text`] read for
    /// `spec`.
    pub fn load_text(spec: &ModelSpec, text: &str) -> Result<LoadedModel> {
        let subject = spec.subject();
        let flags = ReadFlags {
            enable_transform: spec.enable_transform,
            disable_clip: spec.disable_clip,
        };
        let mut loaded = Self::from_json_str(&subject, &spec.name, text, flags)?;
        for o in &spec.overloads {
            loaded.overload(&subject, o)?;
        }
        Ok(loaded)
    }

    /// Sets `o.option = o.value` on every feature of every model that extractor
    /// `o.extractor` computes (a loaded model's `--model ...:extractor.option=value`);
    /// `NotFound` naming `subject` when the model has no feature of that extractor.
    pub fn override_feature(&mut self, subject: &str, o: &FeatureOverload) -> Result<()> {
        self.overload(subject, o)
    }

    /// Reads a model or collection from JSON text; `subject` names it in errors, `name` is
    /// its output name.
    pub fn from_json_str(subject: &str, name: &str, text: &str, flags: ReadFlags) -> Result<Self> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| Error::invalid(subject, format!("not valid JSON: {e}")))?;
        unique_keys::check(text).map_err(|e| Error::invalid(subject, e))?;
        if value.get("model_dict").is_some() {
            return Ok(LoadedModel::Single(json::read_model(
                subject, name, &value, flags,
            )?));
        }
        if collection::looks_like_collection(&value) {
            return Ok(LoadedModel::Collection(ModelCollection::read(
                subject, name, &value, flags,
            )?));
        }
        Err(collection::neither(subject, &value))
    }

    /// The output name: `vmaf` unless `name=` was given.
    pub fn name(&self) -> &str {
        match self {
            LoadedModel::Single(m) => m.name(),
            LoadedModel::Collection(c) => c.name(),
        }
    }

    /// The input features, in the order [`Self::predict`] takes their values.
    pub fn features(&self) -> &[ModelFeature] {
        match self {
            LoadedModel::Single(m) => m.features(),
            LoadedModel::Collection(c) => c.features(),
        }
    }

    /// The output names [`Self::predict`] returns, in libvmaf's print order.
    pub fn output_names(&self) -> Vec<String> {
        match self {
            LoadedModel::Single(m) => vec![m.name().to_string()],
            LoadedModel::Collection(c) => c.output_names(),
        }
    }

    /// The named outputs for one frame, in libvmaf's print order: `[("vmaf", s)]` for a
    /// model; `vmaf`, `vmaf_0001`.., `vmaf_bagging`, `vmaf_stddev`, `vmaf_ci_p95_lo`,
    /// `vmaf_ci_p95_hi` for a collection. Pooled scores are these outputs pooled per name.
    pub fn predict(&self, values: &[f64]) -> Result<Vec<(String, f64)>> {
        match self {
            LoadedModel::Single(m) => Ok(vec![(m.name().to_string(), m.predict(values)?)]),
            LoadedModel::Collection(c) => c.predict(values),
        }
    }

    /// Sets `o.option = o.value` on every feature (of every model) that extractor
    /// `o.extractor` computes, replacing a value from the JSON.
    fn overload(&mut self, subject: &str, o: &FeatureOverload) -> Result<()> {
        let mut hits = 0;
        let mut apply = |features: &mut Vec<ModelFeature>| {
            for f in features.iter_mut() {
                let by = crate::feature::registry::by_feature(&f.name);
                if by.map(|e| e.name) != Some(o.extractor.as_str()) {
                    continue;
                }
                hits += 1;
                match f.options.iter_mut().find(|(k, _)| *k == o.option) {
                    Some(slot) => slot.1 = o.value.clone(),
                    None => f.options.push((o.option.clone(), o.value.clone())),
                }
            }
        };
        match self {
            LoadedModel::Single(m) => apply(&mut m.features),
            LoadedModel::Collection(c) => c.for_each_feature_list(&mut apply),
        }
        if hits == 0 {
            return Err(Error::not_found(
                subject,
                format!(
                    "overload {}.{}: no feature of this model is computed by extractor '{}'",
                    o.extractor, o.option, o.extractor
                ),
            ));
        }
        Ok(())
    }
}
