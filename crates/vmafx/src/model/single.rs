//! One VMAF model: its features, their normalisation, the SVM, transform and clip, and the
//! per-frame prediction libvmaf makes with them.

use super::input::ModelFeature;
use super::svm::Svm;
use super::transform::{clip, Norm, ScoreTransform};
use crate::error::{Error, Result};

/// The `model_type` of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelType {
    /// `LIBSVMNUSVR`: a plain model.
    SvmNuSvr,
    /// `BOOTSTRAP_LIBSVMNUSVR`: a member of a bootstrap collection.
    BootstrapSvmNuSvr,
    /// `RESIDUEBOOTSTRAP_LIBSVMNUSVR`: a member of a residue-bootstrap collection.
    ResidueBootstrapSvmNuSvr,
}

impl ModelType {
    /// The type from its JSON spelling.
    pub fn from_json(s: &str) -> Option<ModelType> {
        match s {
            "LIBSVMNUSVR" => Some(ModelType::SvmNuSvr),
            "BOOTSTRAP_LIBSVMNUSVR" => Some(ModelType::BootstrapSvmNuSvr),
            "RESIDUEBOOTSTRAP_LIBSVMNUSVR" => Some(ModelType::ResidueBootstrapSvmNuSvr),
            _ => None,
        }
    }

    /// Whether models of this type form bootstrap collections.
    pub fn is_bootstrap(self) -> bool {
        !matches!(self, ModelType::SvmNuSvr)
    }
}

/// Per-call switches of [`SvmModel::predict_with`] (libvmaf's prediction flags).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PredictFlags {
    /// Skip the score clip.
    pub disable_clip: bool,
    /// Skip the score transform.
    pub disable_transform: bool,
}

/// A single VMAF model, ready to predict.
#[derive(Debug, Clone, PartialEq)]
pub struct SvmModel {
    pub(crate) source: String,
    pub(crate) name: String,
    pub(crate) model_type: ModelType,
    pub(crate) norm: Norm,
    /// Slope and intercept of the prediction (entry 0 of `slopes`/`intercepts`).
    pub(crate) out_scale: (f64, f64),
    pub(crate) features: Vec<ModelFeature>,
    /// Slope and intercept of each feature (entries 1.. of `slopes`/`intercepts`).
    pub(crate) feature_scale: Vec<(f64, f64)>,
    pub(crate) clip: Option<(f64, f64)>,
    pub(crate) transform: ScoreTransform,
    pub(crate) chroma_correction: Option<f64>,
    pub(crate) svm: Svm,
}

impl SvmModel {
    /// The output name (`vmaf` unless the spec gave `name=`; `vmaf_0001`.. in collections).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where the model came from (its built-in version or path), as errors name it.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The `model_type` of the JSON.
    pub fn model_type(&self) -> ModelType {
        self.model_type
    }

    /// The input features, in the order [`SvmModel::predict`] takes their values.
    pub fn features(&self) -> &[ModelFeature] {
        &self.features
    }

    /// The score clip `[min, max]`, unless absent or disabled.
    pub fn score_clip(&self) -> Option<(f64, f64)> {
        self.clip
    }

    /// The score transform (see [`ScoreTransform::enabled`]).
    pub fn score_transform(&self) -> &ScoreTransform {
        &self.transform
    }

    /// The number of support vectors of the SVM.
    pub fn support_vectors(&self) -> usize {
        self.svm.support_vectors()
    }

    /// The score for one frame's feature values (in `Model::features` order).
    pub fn predict(&self, values: &[f64]) -> Result<f64> {
        self.predict_with(values, PredictFlags::default())
    }

    /// The score with transform or clip switched off by `flags`.
    pub fn predict_with(&self, values: &[f64], flags: PredictFlags) -> Result<f64> {
        if values.len() != self.features.len() {
            return Err(Error::invalid(
                &self.source,
                format!(
                    "model '{}' takes {} feature values, got {}",
                    self.name,
                    self.features.len(),
                    values.len()
                ),
            ));
        }
        let mut x: Vec<f64> = values
            .iter()
            .zip(&self.feature_scale)
            .map(|(&v, &(s, i))| self.norm.apply(s, i, v))
            .collect();
        if let Some(c) = self.chroma_correction {
            self.correct_chroma(&mut x, c);
        }
        let raw = self.svm.predict(&x);
        let y = self.norm.invert(self.out_scale.0, self.out_scale.1, raw);
        Ok(self.finish(y, flags))
    }

    /// Transform then clip, as both per-frame prediction and collection statistics apply
    /// them.
    pub(crate) fn finish(&self, y: f64, flags: PredictFlags) -> f64 {
        let y = if flags.disable_transform {
            y
        } else {
            self.transform.apply(y)
        };
        match self.clip {
            Some(range) if !flags.disable_clip => clip(y, range),
            _ => y,
        }
    }

    /// libvmaf's chroma-from-luma correction: when the (denormalised) `speed_chroma`
    /// feature is exactly 0, it is replaced by `c − c·adm3`. The feature indices were
    /// checked when the model was read.
    fn correct_chroma(&self, x: &mut [f64], c: f64) {
        let find = |sub: &str| self.features.iter().position(|f| f.name.contains(sub));
        let (Some(guiding), Some(guided)) = (find("adm3"), find("speed_chroma")) else {
            return;
        };
        let denorm = |i: usize, v: f64| {
            let (s, b) = self.feature_scale[i];
            self.norm.invert(s, b, v)
        };
        if denorm(guided, x[guided]) != 0.0 {
            return;
        }
        let corrected = -c * denorm(guiding, x[guiding]) + c;
        let (s, b) = self.feature_scale[guided];
        x[guided] = self.norm.apply(s, b, corrected);
    }
}
