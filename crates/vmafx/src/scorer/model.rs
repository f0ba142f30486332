//! What a [`super::Scorer`] computes: models ([`Model`]) and extractors ([`Feature`]), each
//! with typed options.

use std::path::PathBuf;

use crate::error::Result;
use crate::feature::options::{format_g, split_option_string};
use crate::model::numtext::normalize_numeric;
use crate::model::{FeatureOverload, LoadedModel, ModelSource, ModelSpec, ReadFlags};
use crate::provenance::{sha256_tag, ModelRecord};

/// An option value, typed where it is made and written as text the way libvmaf reads
/// option strings (`true`, `3`, `0.06`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionValue(String);

impl OptionValue {
    /// The value as libvmaf's option strings write it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<bool> for OptionValue {
    fn from(v: bool) -> Self {
        OptionValue(v.to_string())
    }
}

impl From<f64> for OptionValue {
    fn from(v: f64) -> Self {
        OptionValue(format_g(v))
    }
}

impl From<&str> for OptionValue {
    fn from(v: &str) -> Self {
        OptionValue(v.to_string())
    }
}

impl From<String> for OptionValue {
    fn from(v: String) -> Self {
        OptionValue(v)
    }
}

macro_rules! integer_option_values {
    ($($t:ty),*) => {$(
        impl From<$t> for OptionValue {
            fn from(v: $t) -> Self {
                OptionValue(v.to_string())
            }
        }
    )*};
}
integer_option_values!(i32, i64, u32, u64, usize);

/// Where a model's JSON comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Source {
    Builtin(String),
    Path(PathBuf),
    Json { label: String, text: String },
}

/// A VMAF model to score with: a built-in one, a JSON file or JSON text, with libvmaf's
/// model options (output name, `enable_transform`, `disable_clip`, feature overloads).
///
/// ```
/// use vmafx::Model;
///
/// let neg = Model::builtin("vmaf_v0.6.1neg").name("neg");
/// let spec = Model::parse("version=vmaf_v0.6.1neg:name=neg").unwrap();
/// assert_eq!(neg, spec);
/// assert_eq!(neg.label(), "vmaf_v0.6.1neg");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Model {
    source: Source,
    name: Option<String>,
    enable_transform: bool,
    disable_clip: bool,
    overloads: Vec<FeatureOverload>,
}

impl Model {
    fn with(source: Source) -> Model {
        Model {
            source,
            name: None,
            enable_transform: false,
            disable_clip: false,
            overloads: Vec::new(),
        }
    }

    /// A model built into vmafx, by libvmaf's version name (`vmaf_v0.6.1`; the list is
    /// [`crate::model::builtin_versions`]). An unknown version fails when the scorer is made.
    pub fn builtin(version: impl Into<String>) -> Model {
        Model::with(Source::Builtin(version.into()))
    }

    /// A model read from a libvmaf JSON file when the scorer is made.
    pub fn from_path(path: impl Into<PathBuf>) -> Model {
        Model::with(Source::Path(path.into()))
    }

    /// A model from libvmaf JSON text; `label` names it in errors and printed scores.
    pub fn from_json(label: impl Into<String>, json: impl Into<String>) -> Model {
        Model::with(Source::Json {
            label: label.into(),
            text: json.into(),
        })
    }

    /// A model from libvmaf's `--model` option string (`version=vmaf_v0.6.1:name=x`,
    /// `path=m.json:disable_clip`, `...:adm.adm_enhn_gain_limit=1.0`).
    pub fn parse(spec: &str) -> Result<Model> {
        let s = ModelSpec::parse(spec)?;
        let source = match s.source {
            ModelSource::Version(v) => Source::Builtin(v),
            ModelSource::Path(p) => Source::Path(p),
        };
        Ok(Model {
            source,
            name: (s.name != "vmaf").then_some(s.name),
            enable_transform: s.enable_transform,
            disable_clip: s.disable_clip,
            overloads: s.overloads,
        })
    }

    /// Names the model's output (`vmaf` when not given), as libvmaf's `name=`.
    pub fn name(mut self, name: impl Into<String>) -> Model {
        self.name = Some(name.into());
        self
    }

    /// Applies the model's score transform even where its JSON leaves it off.
    pub fn enable_transform(mut self, on: bool) -> Model {
        self.enable_transform = on;
        self
    }

    /// Leaves scores unclipped by the model's score range.
    pub fn disable_clip(mut self, on: bool) -> Model {
        self.disable_clip = on;
        self
    }

    /// Sets `option` of every feature of the model that `extractor` computes, overriding the
    /// model's JSON (libvmaf's `extractor.option=value`, e.g. `adm`, `adm_enhn_gain_limit`).
    pub fn feature_option(
        mut self,
        extractor: impl Into<String>,
        option: impl Into<String>,
        value: impl Into<OptionValue>,
    ) -> Model {
        let value = value.into().0;
        self.overloads.push(FeatureOverload {
            extractor: extractor.into(),
            option: option.into(),
            value: normalize_numeric(&value).unwrap_or(value),
        });
        self
    }

    /// What libvmaf's tool prints before the pooled score: the version, path or label.
    pub fn label(&self) -> String {
        match &self.source {
            Source::Builtin(v) => v.clone(),
            Source::Path(p) => p.display().to_string(),
            Source::Json { label, .. } => label.clone(),
        }
    }

    /// Reads the model with its options applied, with its provenance: the name of its
    /// scores, its version (or path, or label), the SHA-256 of the JSON text it was read
    /// from, its flags (`VMAFX_MODEL_*` bits) and overrides.
    pub(crate) fn load(&self) -> Result<(LoadedModel, ModelRecord)> {
        let name = self.name.clone().unwrap_or_else(|| "vmaf".to_string());
        let record = |text: &str, model: &LoadedModel| ModelRecord {
            name: model.name().to_string(),
            version: self.label(),
            sha256: sha256_tag(text.as_bytes())
                .trim_start_matches("sha256:")
                .to_string(),
            flags: u64::from(self.disable_clip) | u64::from(self.enable_transform) << 1,
            overrides: self
                .overloads
                .iter()
                .map(|o| format!("{}.{}={}", o.extractor, o.option, o.value))
                .collect::<Vec<_>>()
                .join(":"),
        };
        let source = match &self.source {
            Source::Builtin(v) => ModelSource::Version(v.clone()),
            Source::Path(p) => ModelSource::Path(p.clone()),
            Source::Json { label, text } => {
                let flags = ReadFlags {
                    enable_transform: self.enable_transform,
                    disable_clip: self.disable_clip,
                };
                let mut m = LoadedModel::from_json_str(label, &name, text, flags)?;
                for o in &self.overloads {
                    m.override_feature(label, o)?;
                }
                let r = record(text, &m);
                return Ok((m, r));
            }
        };
        let spec = ModelSpec {
            source,
            name,
            disable_clip: self.disable_clip,
            enable_transform: self.enable_transform,
            overloads: self.overloads.clone(),
        };
        let text = LoadedModel::source_text(&spec)?;
        let m = LoadedModel::load_text(&spec, &text)?;
        let r = record(&text, &m);
        Ok((m, r))
    }
}

/// A feature extractor to run beside the models, by libvmaf's name, with typed options.
///
/// ```
/// use vmafx::Feature;
///
/// let typed = Feature::new("psnr").option("enable_chroma", false);
/// assert_eq!(typed, Feature::parse("psnr=enable_chroma=false").unwrap());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature {
    name: String,
    options: Vec<(String, String)>,
}

impl Feature {
    /// The extractor `name` (`psnr`, `vif`, `float_ssim`, ...) with its default options.
    pub fn new(name: impl Into<String>) -> Feature {
        Feature {
            name: name.into(),
            options: Vec::new(),
        }
    }

    /// Sets option `name`; names and values are checked when the scorer is made.
    pub fn option(mut self, name: impl Into<String>, value: impl Into<OptionValue>) -> Feature {
        self.options.push((name.into(), value.into().0));
        self
    }

    /// A feature from libvmaf's `--feature` string: `name` or `name=opt=value:opt=value`.
    pub fn parse(spec: &str) -> Result<Feature> {
        let (name, opts) = spec.split_once('=').unwrap_or((spec, ""));
        Ok(Feature {
            name: name.to_string(),
            options: split_option_string(opts)?,
        })
    }

    /// The extractor's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The options set, as `(name, value)` text in the order given.
    pub fn options(&self) -> &[(String, String)] {
        &self.options
    }
}
