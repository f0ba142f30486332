//! The front door: a [`Scorer`] made from a [`ScorerConfig`] scores two files, two readers
//! or pairs pushed one at a time, and hands back a [`Report`].
//!
//! It is a thin layer over [`crate::context::Context`]: models and extractors are
//! registered when the scorer is made (so a bad model or option fails before any frame is
//! read), pairs are submitted in order, and at the end every model is predicted for every
//! frame so that the report is plain data read through `&self`.

mod config;
mod input;
mod many;
mod merge;
mod model;
mod range;
mod report;
mod windows;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::context::{Context, ContextConfig, ModelHandle};
use crate::cpu::CpuLevel;
use crate::error::{Error, Result};
use crate::feature::registry;
use crate::frame::Frame;
use crate::io::VideoReader;
use crate::model::LoadedModel;
use crate::provenance::{context_record, ModelRecord, Record};
use crate::score::{Partial, PartialReason, ReportInfo, WindowSpan};

pub use config::{FrameScorerFactory, Progress, ProgressCallback, ScorerConfig};
pub use merge::{ModelParts, ReportParts};
pub use model::{Feature, Model, OptionValue};
pub use report::{Bootstrap, FrameRow, ModelScores, Report, Side};
pub use windows::{WindowCallback, WindowScores};

use report::ModelColumns;

/// Scores distorted video against its reference with libvmaf's models and features,
/// bit-exactly as libvmaf does.
///
/// Two files (y4m, or raw yuv described by [`ScorerConfig::raw_input`]):
///
/// ```no_run
/// use vmafx::{Model, Scorer, ScorerConfig};
///
/// let scorer = Scorer::new(ScorerConfig::new().model(Model::builtin("vmaf_v0.6.1")))?;
/// let report = scorer.score_files("ref.y4m", "dis.y4m")?;
/// println!("vmaf_v0.6.1: {:.6}", report.model("vmaf_v0.6.1")?.pooled);
/// # Ok::<(), vmafx::Error>(())
/// ```
///
/// Frames decoded by the caller, one pair at a time (here a synthetic moving scene and a
/// blurred copy, made in memory):
///
/// ```
/// use vmafx::{FrameBuilder, Model, PixelFormat, PoolMethod, Scorer, ScorerConfig};
///
/// fn scene(t: u32, blur: bool) -> vmafx::Frame {
///     let (w, h) = (64u32, 64u32);
///     let mut b = FrameBuilder::new(PixelFormat::Yuv420p, 8, w, h).unwrap();
///     if let Some(vmafx::frame::SamplesMut::U8(y)) = b.plane_mut(0).samples_mut() {
///         for (k, v) in y.iter_mut().enumerate() {
///             let (i, j) = (k as u32 % w, k as u32 / w);
///             let checker = ((i + t) / 3 + j / 3) % 2 == 0;
///             *v = if checker { 200 } else { 50 };
///         }
///         if blur {
///             let copy = y.to_vec();
///             for k in 1..y.len() - 1 {
///                 y[k] = ((copy[k - 1] as u32 + 2 * copy[k] as u32 + copy[k + 1] as u32) / 4) as u8;
///             }
///         }
///     }
///     b.build()
/// }
///
/// let config = ScorerConfig::new().model(Model::builtin("vmaf_v0.6.1"));
/// let mut scorer = Scorer::new(config)?;
/// for t in 0..4 {
///     scorer.push(scene(t, false), scene(t, true))?;
/// }
/// let report = scorer.finish()?;
/// let vmaf = report.model("vmaf_v0.6.1")?;
/// assert!(vmaf.pooled > 0.0 && vmaf.pooled < 100.0);
/// let worst = report.model_pooled("vmaf", PoolMethod::Min, ..)?;
/// assert!(worst.pooled <= vmaf.pooled);
/// let later = report.model_pooled("vmaf", PoolMethod::Mean, 1..4)?; // frames 1, 2 and 3
/// assert!(later.pooled >= worst.pooled);
/// assert_eq!(report.frames().count(), 4);
/// # Ok::<(), vmafx::Error>(())
/// ```
pub struct Scorer {
    ctx: Context,
    models: Vec<(String, ModelHandle)>,
    /// Each model's part of the provenance record, in the order of `models`.
    model_records: Vec<ModelRecord>,
    cpu_level: Option<CpuLevel>,
    progress: Option<ProgressCallback>,
    total: Option<u64>,
    input: input::InputPlan,
    pushed: u64,
    /// The index of the first pair pushed (above 0 where a range is scored).
    first: u64,
    /// The frames whose scores the report keeps (every frame unless a range is scored).
    kept: std::ops::Range<u64>,
    started: Option<Instant>,
    size: (u32, u32),
    subsample: u32,
    stop: Option<Arc<AtomicBool>>,
    keep_partial: bool,
    /// Windows cut while scoring ([`ScorerConfig::on_windows`]).
    watch: Option<windows::Watch>,
    /// The configuration without its callbacks: the scorers of further distorted inputs
    /// of one reference are made from it ([`Scorer::score_readers_many`]).
    sibling: ScorerConfig,
}

impl std::fmt::Debug for Scorer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scorer")
            .field("context", &self.ctx)
            .field("models", &self.models)
            .field("pushed", &self.pushed)
            .finish()
    }
}

impl Scorer {
    /// Loads the models and registers every extractor: a missing model file, an unknown
    /// feature or option, or a configuration that computes nothing fails here, naming it.
    pub fn new(config: ScorerConfig) -> Result<Scorer> {
        if config.models.is_empty()
            && config.model_inputs.is_empty()
            && config.features.is_empty()
            && config.frame_scorers.is_empty()
        {
            return Err(Error::invalid(
                "config",
                "nothing to score: add a model or a feature",
            ));
        }
        let sibling = config.clone_parts();
        let mut ctx = Context::new(ContextConfig {
            threads: threads_for(&config),
            subsample: config.subsample,
            feature_order: config.feature_order,
            ..Default::default()
        })?;
        let mut models = Vec::with_capacity(config.models.len());
        let mut model_records = Vec::with_capacity(config.models.len());
        for m in &config.models {
            // Every failure names the model file (or built-in version), not only the feature.
            let (loaded, record): (LoadedModel, ModelRecord) =
                m.load().map_err(|e| naming_model(e, m))?;
            let handle = ctx.use_model(loaded).map_err(|e| naming_model(e, m))?;
            models.push((m.label(), handle));
            model_records.push(record);
        }
        for m in &config.model_inputs {
            let (loaded, _) = m.load().map_err(|e| naming_model(e, m))?;
            ctx.use_model_inputs(&loaded)
                .map_err(|e| naming_model(e, m))?;
        }
        for f in &config.features {
            ctx.use_feature(f.name(), f.options())?;
        }
        for make in &config.frame_scorers {
            ctx.use_frame_scorer(make()?)?;
        }
        Ok(Scorer {
            ctx,
            models,
            model_records,
            cpu_level: config.cpu_level,
            progress: config.progress,
            total: config.max_frames,
            input: input::InputPlan {
                raw: config.raw,
                skip: config.skip,
                max_frames: config.max_frames,
            },
            pushed: 0,
            first: 0,
            kept: 0..u64::MAX,
            started: None,
            size: (0, 0),
            subsample: config.subsample,
            stop: config.stop,
            keep_partial: config.keep_partial,
            watch: config
                .windows
                .map(|(length, sink)| windows::Watch::new(length, sink)),
            sibling,
        })
    }

    /// Scores the next pair. Every pair must have the geometry of the first.
    pub fn push(&mut self, reference: Frame, distorted: Frame) -> Result<()> {
        let index = self.first + self.pushed;
        self.started.get_or_insert_with(Instant::now);
        if self.pushed == 0 {
            self.size = (reference.width(), reference.height());
        }
        let ctx = &mut self.ctx;
        match self.cpu_level {
            // Extractors pick their kernels when the first pair starts them, on this thread.
            Some(cap) => crate::cpu::with_level(cap, || ctx.submit(reference, distorted, index)),
            None => ctx.submit(reference, distorted, index),
        }?;
        self.pushed += 1;
        if let Some(cb) = &mut self.progress {
            cb(Progress::new(self.pushed, self.total));
        }
        let first = self.first;
        let (ctx, models) = (&mut self.ctx, &self.models);
        match &mut self.watch {
            Some(w) => w.frame(index, index - first, &mut |s| window_scores(ctx, models, s)),
            None => Ok(()),
        }
    }

    /// Pairs pushed so far.
    pub fn frames_pushed(&self) -> u64 {
        self.pushed
    }

    /// Ends the input and computes everything the report holds: the last temporal scores,
    /// every model's prediction for every frame, and the table the logs print.
    pub fn finish(self) -> Result<Report> {
        self.finish_with(None, None)
    }

    /// Opens both files and scores them: see [`Scorer::score_readers`]. y4m and raw yuv
    /// (as [`ScorerConfig::raw_input`] describes) are read natively; any other file is
    /// decoded by the `ffmpeg` program on `PATH` ([`crate::io::OpenOptions`]).
    pub fn score_files(
        self,
        reference: impl AsRef<Path>,
        distorted: impl AsRef<Path>,
    ) -> Result<Report> {
        let (r, d) = self.open_pair(reference.as_ref(), distorted.as_ref())?;
        self.score_readers(r, d)
    }

    fn open_pair(&self, reference: &Path, distorted: &Path) -> Result<(VideoReader, VideoReader)> {
        let opts = crate::io::OpenOptions {
            raw: self.input.raw,
            ..Default::default()
        };
        let r = VideoReader::open_input(reference, &opts).map_err(|e| e.context("reference"))?;
        let d = VideoReader::open_input(distorted, &opts).map_err(|e| e.context("distorted"))?;
        Ok((r, d))
    }

    /// Scores the pairs of two readers of one geometry, after the configured skips and up to
    /// the configured frame limit; where one input ends first the pairs both had are scored
    /// and [`Report::ended_first`] says which ended.
    pub fn score_readers(
        mut self,
        mut reference: VideoReader,
        mut distorted: VideoReader,
    ) -> Result<Report> {
        input::check_geometry(&reference, &distorted)?;
        self.set_frame_rate(distorted.frame_rate().or(reference.frame_rate()));
        let plan = self.input;
        reference.skip(plan.skip.0)?;
        distorted.skip(plan.skip.1)?;
        self.total = plan.total(&reference, &distorted);
        let stopped = |s: &Self| s.stop.as_ref().is_some_and(|f| f.load(Ordering::SeqCst));
        let mut partial = None;
        let ended_first = loop {
            if plan.max_frames.is_some_and(|n| self.pushed >= n) {
                break None;
            }
            if stopped(&self) {
                partial = Some((PartialReason::Interrupted, String::new()));
                break None;
            }
            let pair = reference
                .next_frame()
                .and_then(|r| Ok((r, distorted.next_frame()?)));
            let pair = match pair {
                Ok(p) => p,
                // A decoder killed by the same Ctrl-C fails its read: still an interruption.
                Err(_) if stopped(&self) => {
                    partial = Some((PartialReason::Interrupted, String::new()));
                    break None;
                }
                Err(e) if self.keep_partial && self.pushed > 0 => {
                    partial = Some((PartialReason::InputFailed, e.to_string()));
                    break None;
                }
                Err(e) => return Err(e),
            };
            match pair {
                (Some(r), Some(d)) => self.push(r, d)?,
                (None, None) => break None,
                (None, Some(_)) => break Some(Side::Reference),
                (Some(_), None) => break Some(Side::Distorted),
            }
        };
        // A decoder stopped by the same Ctrl-C may end its output cleanly: still interrupted.
        let ended_first = match partial {
            None if stopped(&self) => {
                partial = Some((PartialReason::Interrupted, String::new()));
                None
            }
            _ => ended_first,
        };
        // Nothing scored although nothing stopped the run: the input that had no frame is
        // named (the distorted one where only it was empty).
        if self.pushed == 0 && partial.is_none() && plan.max_frames != Some(0) {
            return Err(no_frames(&reference, &distorted, ended_first, plan.skip));
        }
        self.finish_with(ended_first, partial)
    }

    fn finish_with(
        mut self,
        ended_first: Option<Side>,
        partial: Option<(PartialReason, String)>,
    ) -> Result<Report> {
        self.ctx.flush()?;
        if let Some(w) = &mut self.watch {
            let (ctx, models) = (&mut self.ctx, &self.models);
            w.finish(&mut |s| window_scores(ctx, models, s))?;
        }
        let fps = match self.started {
            Some(t) => self.pushed as f64 / t.elapsed().as_secs_f64().max(1e-9),
            None => 0.0,
        };
        self.ctx.predict_all()?;
        let table = self.ctx.score_table()?;
        let keys = self.ctx.collector()?.names();
        // The kept frames that exist: a range past the end of the input holds none.
        let end = self.first + self.pushed;
        let start = self.kept.start.min(end);
        let frames = start..self.kept.end.min(end).max(start);
        let models = self
            .models
            .iter()
            .map(|(label, h)| {
                let outputs = h
                    .model()
                    .output_names()
                    .iter()
                    .map(|n| keys.iter().position(|k| k == n))
                    .collect::<Option<Vec<usize>>>()
                    .unwrap_or_default();
                ModelColumns {
                    label: label.clone(),
                    name: h.model().name().to_string(),
                    bootstrap: matches!(h.model(), LoadedModel::Collection(_)),
                    outputs,
                }
            })
            .collect();
        let info = ReportInfo {
            fps,
            subsample: self.subsample.max(1),
            aggregate: self.ctx.collector()?.aggregates().to_vec(),
            partial: partial.map(|(reason, detail)| Partial {
                reason,
                frames: frames.end - frames.start,
                detail,
            }),
            ..ReportInfo::new(self.size.0, self.size.1, frames.end)
        };
        let provenance = self.provenance();
        Ok(Report {
            frames,
            table,
            keys,
            models,
            info,
            ended_first,
            provenance: Some(provenance),
        })
    }
}

impl Scorer {
    /// Tells the windows the input's frame rate (`num/den` frames per second).
    pub(crate) fn set_frame_rate(&mut self, fps: Option<(u32, u32)>) {
        if let Some(w) = &mut self.watch {
            w.set_frame_rate(fps);
        }
    }

    /// The sealed provenance record of the run: the context's part, the models', the CPU
    /// level the kernels ran at (under the configured cap) and the time from the first pair
    /// to now.
    fn provenance(&self) -> Record {
        let simd = match self.cpu_level {
            Some(cap) => crate::cpu::with_level(cap, crate::cpu::level),
            None => crate::cpu::level(),
        };
        let mut r = Record {
            simd: simd.name().to_string(),
            models: self.model_records.clone(),
            elapsed_ns: self.started.map_or(0, |t| {
                u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX)
            }),
            ..context_record(&self.ctx)
        };
        r.seal();
        r
    }
}

/// The error for a pair of readers of which one (`ended_first`) or both had no frame after
/// the skips: its subject is the empty input's path.
fn no_frames(
    reference: &VideoReader,
    distorted: &VideoReader,
    ended_first: Option<Side>,
    skip: (u64, u64),
) -> Error {
    let empty = |r: &VideoReader, skipped: u64| {
        let name = r.path().display().to_string();
        match skipped {
            0 => (name, String::from("it has no frame")),
            n => (name, format!("it has no frame after the {n} skipped")),
        }
    };
    match ended_first {
        Some(Side::Distorted) => {
            let (name, why) = empty(distorted, skip.1);
            Error::invalid(name, format!("distorted input: {why}; nothing to score"))
        }
        Some(Side::Reference) => {
            let (name, why) = empty(reference, skip.0);
            Error::invalid(name, format!("reference input: {why}; nothing to score"))
        }
        None => {
            let (r, rw) = empty(reference, skip.0);
            let (d, dw) = empty(distorted, skip.1);
            Error::invalid(
                format!("{r} and {d}"),
                format!("reference input {r}: {rw}; distorted input {d}: {dw}; nothing to score"),
            )
        }
    }
}

/// The window `span`'s per-frame scores of every model (its first output), by label;
/// `None` while any is not final.
fn window_scores(
    ctx: &mut Context,
    models: &[(String, ModelHandle)],
    span: WindowSpan,
) -> Result<Option<windows::WindowModels>> {
    let mut out = Vec::with_capacity(models.len());
    for (label, h) in models {
        match ctx.final_score_rows(h, span.first, span.last)? {
            Some(rows) => out.push((label.clone(), rows.iter().map(|r| r[0]).collect())),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// The context's worker threads for `config`: as configured, except that one worker for
/// light extractors only ([`registry::light`], psnr) is none: such a pair is scored in
/// about the time it takes to hand it to a worker and wake it, so the caller's thread
/// scores it while it reads the next (the scores do not depend on the thread count).
fn threads_for(config: &ScorerConfig) -> usize {
    let light = config.models.is_empty()
        && config
            .features
            .iter()
            .all(|f| registry::by_name(f.name()).is_ok_and(registry::light));
    if config.threads == 1 && light {
        0
    } else {
        config.threads
    }
}

/// `e` with the model's label (its file, or its built-in version) as the subject; what the
/// error named before (a feature, an option) stays in its message.
fn naming_model(e: Error, m: &Model) -> Error {
    let label = m.label();
    if e.subject() == label {
        return e;
    }
    let message = if e.message().contains(e.subject()) {
        e.message().to_string()
    } else {
        format!("{}: {}", e.subject(), e.message())
    };
    Error::new(e.status(), label, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_worker_for_psnr_alone_is_the_callers_thread() {
        let psnr = || ScorerConfig::new().feature(Feature::parse("psnr").unwrap());
        assert_eq!(threads_for(&psnr().threads(1)), 0);
        assert_eq!(threads_for(&psnr().threads(0)), 0);
        assert_eq!(threads_for(&psnr().threads(2)), 2);
        let with_ssim = psnr().feature(Feature::parse("float_ssim").unwrap());
        assert_eq!(threads_for(&with_ssim.threads(1)), 1);
        let model = ScorerConfig::new().model(Model::builtin("vmaf_v0.6.1"));
        assert_eq!(threads_for(&model.threads(1)), 1);
    }
}
