//! [`ScorerConfig`]: what a [`super::Scorer`] computes and how it runs.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::context::FeatureOrder;
use crate::cpu::CpuLevel;
use crate::io::RawParams;

use super::model::{Feature, Model};

/// How far a scoring run has come, handed to [`ScorerConfig::on_progress`] after each pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Progress {
    /// Frame pairs scored so far.
    pub done: u64,
    /// Pairs the run will score, where known: from the files' sizes when reading files
    /// (capped by [`ScorerConfig::max_frames`]), or the cap alone for pushed pairs.
    pub total: Option<u64>,
}

impl Progress {
    pub(crate) fn new(done: u64, total: Option<u64>) -> Self {
        Progress { done, total }
    }
}

/// Receives [`Progress`]; the library itself prints nothing.
pub type ProgressCallback = Box<dyn FnMut(Progress) + Send>;

/// Makes a per-frame scorer for each context a [`super::Scorer`] creates (a tiny ONNX model,
/// a caller's metric): see [`ScorerConfig::frame_scorer`].
pub type FrameScorerFactory =
    Arc<dyn Fn() -> crate::error::Result<Box<dyn crate::context::FrameScorer>> + Send + Sync>;

/// What a [`super::Scorer`] computes and how: models, extractors, threads, CPU level,
/// subsampling, and for files the input format, frames skipped and frame limit.
///
/// Built with chained setters; [`ScorerConfig::default`] computes nothing (add a model or a
/// feature).
#[derive(Default)]
pub struct ScorerConfig {
    pub(crate) models: Vec<Model>,
    pub(crate) model_inputs: Vec<Model>,
    pub(crate) features: Vec<Feature>,
    pub(crate) threads: usize,
    pub(crate) cpu_level: Option<CpuLevel>,
    pub(crate) subsample: u32,
    pub(crate) raw: Option<RawParams>,
    pub(crate) skip: (u64, u64),
    pub(crate) max_frames: Option<u64>,
    pub(crate) progress: Option<ProgressCallback>,
    pub(crate) stop: Option<Arc<AtomicBool>>,
    pub(crate) keep_partial: bool,
    pub(crate) windows: Option<(crate::score::WindowLength, super::WindowCallback)>,
    pub(crate) feature_order: FeatureOrder,
    pub(crate) frame_scorers: Vec<FrameScorerFactory>,
}

impl std::fmt::Debug for ScorerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScorerConfig")
            .field("models", &self.models)
            .field("model_inputs", &self.model_inputs)
            .field("features", &self.features)
            .field("threads", &self.threads)
            .field("cpu_level", &self.cpu_level)
            .field("subsample", &self.subsample)
            .field("raw", &self.raw)
            .field("skip", &self.skip)
            .field("max_frames", &self.max_frames)
            .field("on_progress", &self.progress.is_some())
            .field("stop", &self.stop.is_some())
            .field("keep_partial", &self.keep_partial)
            .field("windows", &self.windows.as_ref().map(|w| w.0))
            .field("feature_order", &self.feature_order)
            .field("frame_scorers", &self.frame_scorers.len())
            .finish()
    }
}

impl ScorerConfig {
    /// A configuration that computes nothing yet: the same as [`ScorerConfig::default`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a model; its outputs are predicted for every frame and pooled in the report.
    pub fn model(mut self, model: Model) -> Self {
        self.models.push(model);
        self
    }

    /// Adds the features `model` reads, with the options it gives them, without predicting
    /// the model: its inputs are reported as features, and no model score is (libvmaf's
    /// tool with `--no_prediction` and `--model`). They are registered after the predicted
    /// models' and before [`ScorerConfig::feature`]'s, as libvmaf registers a model's.
    ///
    /// ```no_run
    /// use vmafx::{Model, Scorer, ScorerConfig};
    /// let config = ScorerConfig::new().model_inputs(Model::builtin("vmaf_v0.6.1"));
    /// let report = Scorer::new(config)?.score_files("ref.y4m", "dis.y4m")?;
    /// assert!(report.names().iter().any(|n| n == "integer_vif_scale0"));
    /// # Ok::<(), vmafx::Error>(())
    /// ```
    pub fn model_inputs(mut self, model: Model) -> Self {
        self.model_inputs.push(model);
        self
    }

    /// Adds a per-frame scorer outside the extractor registry: `make` is called once per
    /// context the run creates, and each frame's score is reported (and pooled) as a feature
    /// of the scorer's name ([`crate::context::FrameScorer`]).
    pub fn frame_scorer(mut self, make: FrameScorerFactory) -> Self {
        self.frame_scorers.push(make);
        self
    }

    /// Adds an extractor whose scores are reported beside the models'.
    pub fn feature(mut self, feature: Feature) -> Self {
        self.features.push(feature);
        self
    }

    /// Worker threads, as libvmaf's `n_threads`: 0 (the default) scores on the caller's
    /// thread; N starts N workers (but one worker for psnr alone is none: handing it each
    /// pair would cost about what scoring it does). Scores are the same for every count.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// The order the report lists features in: libvmaf's without a thread pool (the
    /// default, whatever `threads` is) or with one ([`FeatureOrder`]).
    pub fn feature_order(mut self, order: FeatureOrder) -> Self {
        self.feature_order = order;
        self
    }

    /// Caps the instruction-set level of the kernels for this run (never above what the CPU
    /// runs). Every level gives the same scores; this is for comparisons and diagnosis.
    pub fn cpu_level(mut self, cap: CpuLevel) -> Self {
        self.cpu_level = Some(cap);
        self
    }

    /// Scores every n-th frame only, as libvmaf's `n_subsample` (0 and 1: every frame).
    pub fn subsample(mut self, n: u32) -> Self {
        self.subsample = n;
        self
    }

    /// How to read raw `.yuv` files (y4m files describe themselves).
    pub fn raw_input(mut self, raw: RawParams) -> Self {
        self.raw = Some(raw);
        self
    }

    /// Frames passed over at the start of the reference and of the distorted file.
    pub fn skip_frames(mut self, reference: u64, distorted: u64) -> Self {
        self.skip = (reference, distorted);
        self
    }

    /// Scores at most `n` pairs from files.
    pub fn max_frames(mut self, n: u64) -> Self {
        self.max_frames = Some(n);
        self
    }

    /// Calls `callback` after every pair scored (a terminal bar, a log line, a channel).
    pub fn on_progress(mut self, callback: ProgressCallback) -> Self {
        self.progress = Some(callback);
        self
    }

    /// Cuts the stream into windows of `length` (in time, from the input's frame rate, or
    /// in frames) and hands each one's model scores to `callback` as soon as they are
    /// final, in window order, on the thread that scores; the last window after the end of
    /// the stream. Windows in time need an input with a frame rate (y4m).
    pub fn on_windows(
        mut self,
        length: crate::score::WindowLength,
        callback: super::WindowCallback,
    ) -> Self {
        self.windows = Some((length, callback));
        self
    }

    /// A flag that stops a run reading files (a Ctrl-C handler sets it): no further pair is
    /// read once it is set, the pairs already submitted are finished, and the report comes
    /// back marked partial ([`super::Report::partial`], reason `interrupted`).
    pub fn stop_when(mut self, flag: Arc<AtomicBool>) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Where an input fails while being read (a decoder that dies, a stream cut mid-frame),
    /// hand back the report of the pairs scored so far, marked partial with the error's text
    /// (reason `input_failed`), instead of the error alone. Off by default: a caller that
    /// does not look at [`super::Report::partial`] never takes a short report for a whole one.
    pub fn keep_partial(mut self, keep: bool) -> Self {
        self.keep_partial = keep;
        self
    }
}
