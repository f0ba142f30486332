//! The scoring context: registered features, frames in, scores out.
//!
//! A [`Context`] is configured ([`ContextConfig`]), given features (by libvmaf extractor
//! name with `name=value` options, or through a model's feature list), then fed pairs with
//! [`Context::submit`]. [`Context::flush`] ends the input; scores are then read per frame or
//! pooled. Features must all be registered before the first frame, because the first frame
//! fixes the geometry every extractor instance is initialised for.

mod admission;
mod bounds;
pub mod collector;
pub mod config;
mod frame_scorer;
mod frame_window;
mod import_rule;
mod live;
mod reference_scores;
mod scheduler;
mod scoring;
mod window;
mod written;

pub use collector::FeatureCollector;
pub use config::{ContextConfig, FeatureOrder, LogCallback, LogLevel};
pub use frame_scorer::FrameScorer;
pub use frame_window::FrameWindow;
pub(crate) use reference_scores::ReferenceScores;
pub use scheduler::ScoreListener;
pub use scoring::ModelHandle;
pub use written::{Writer, WrittenSeries};

use crate::error::{Error, Result};
use crate::feature::name::{alias, feature_name};
use crate::feature::{registry, Geometry};
use crate::frame::Frame;
use scheduler::{Registration, Scheduler};

enum State {
    /// Accepting features; no frame yet.
    Setup,
    /// Frames are being scored.
    Running(Box<Scheduler>),
    /// Flushed: scores can be read.
    Done(FeatureCollector),
    /// A failure during scoring or flush left nothing to read.
    Failed,
}

/// A scoring context.
pub struct Context {
    config: ContextConfig,
    registrations: Vec<Registration>,
    state: State,
    geometry: Option<Geometry>,
    models: Vec<ModelHandle>,
    /// Memory kinds every registered extractor has already admitted.
    admitted: Vec<crate::frame::MemoryKind>,
    /// Time each registered extractor spent in `extract`, summed over threads.
    extract_time: Vec<std::time::Duration>,
    /// The device attached by [`Context::use_device`] (the CPU without one).
    device: Option<crate::device::Device>,
    /// One past the highest index submitted: reads by index are checked against it.
    frames_in: u64,
    /// The frames fed and kept (every frame unless one chunk is scored).
    window: FrameWindow,
    /// Frames preallocated for the producer ([`Context::preallocate`]).
    pool: Option<crate::frame::pool::FramePool>,
    /// Scores imported before the flush: feature, index, value.
    imported: Vec<(String, u64, f64)>,
    /// Told of every frame scored ([`Context::set_score_listener`]).
    listener: Option<ScoreListener>,
    /// Scorers of whole frames run on every pair ([`Context::use_frame_scorer`]).
    scorers: Vec<Box<dyn FrameScorer>>,
    /// Reference-only scores shared with the other contexts of a set
    /// ([`Context::share_reference_scores`]).
    reference_scores: Option<std::sync::Arc<ReferenceScores>>,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("config", &self.config)
            .field(
                "features",
                &self
                    .registrations
                    .iter()
                    .map(|r| r.info.name)
                    .collect::<Vec<_>>(),
            )
            .field("geometry", &self.geometry)
            .finish()
    }
}

impl Context {
    /// A context with `config`; out-of-range settings are refused naming the field.
    pub fn new(config: ContextConfig) -> Result<Self> {
        config.validate()?;
        Ok(Context {
            config,
            registrations: Vec::new(),
            state: State::Setup,
            geometry: None,
            models: Vec::new(),
            admitted: Vec::new(),
            extract_time: Vec::new(),
            device: None,
            frames_in: 0,
            window: FrameWindow::all(),
            pool: None,
            imported: Vec::new(),
            listener: None,
            scorers: Vec::new(),
            reference_scores: None,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &ContextConfig {
        &self.config
    }

    /// Takes the scores of extractors that read only reference frames (motion) from
    /// `scores`, shared with other contexts made with the same features and fed the same
    /// reference frames, computing those no other context has yet. Before the first frame.
    pub(crate) fn share_reference_scores(
        &mut self,
        scores: std::sync::Arc<ReferenceScores>,
    ) -> Result<()> {
        self.require_setup("reference scores")?;
        self.reference_scores = Some(scores);
        Ok(())
    }

    fn require_setup(&self, what: &str) -> Result<()> {
        match self.state {
            State::Setup => Ok(()),
            _ => Err(Error::invalid(
                what,
                "features and models must be registered before the first frame",
            )),
        }
    }

    /// Registers the extractor `name` with `options` (`name=value` pairs). An extractor
    /// already registered with the same feature parameters is not added twice (as libvmaf,
    /// a second one that differs only by `debug` is dropped). Returns its registration index.
    pub fn use_feature(&mut self, name: &str, options: &[(String, String)]) -> Result<usize> {
        self.require_setup(name)?;
        let info = registry::by_name(name)?;
        let options = info.parse_options(options)?;
        let params = options.non_default_params();
        if let Some(i) = self
            .registrations
            .iter()
            .position(|r| r.info.name == info.name && r.options.non_default_params() == params)
        {
            return Ok(i);
        }
        self.registrations.push(Registration::new(info, options));
        Ok(self.registrations.len() - 1)
    }

    /// Registers the extractor providing each long feature name (with the model's options)
    /// and returns the collector key each will be written under, in the same order.
    pub fn use_features_for(
        &mut self,
        features: &[(String, Vec<(String, String)>)],
    ) -> Result<Vec<String>> {
        let mut keys = Vec::with_capacity(features.len());
        for (fname, opts) in features {
            let info = registry::by_feature(fname).ok_or_else(|| {
                Error::not_supported(
                    fname.clone(),
                    format!("feature '{fname}' is not implemented by this build of vmafx (no extractor provides it)"),
                )
            })?;
            let i = self.use_feature(info.name, opts)?;
            let params = self.registrations[i].options.non_default_params();
            keys.push(feature_name(fname, &params));
        }
        Ok(keys)
    }

    /// Names of the registered extractors, in registration order.
    pub fn features(&self) -> Vec<&'static str> {
        self.registrations.iter().map(|r| r.info.name).collect()
    }

    /// Scores the pair at `index`. Pairs may come out of order within the reorder window;
    /// with threads they are scored in parallel and the results are those of one thread.
    pub fn submit(&mut self, reference: Frame, distorted: Frame, index: u64) -> Result<()> {
        check_pair(&reference, &distorted, index)?;
        if index < self.window.first_fed {
            return Err(Error::invalid(
                format!("frame {index}"),
                format!(
                    "this context's window is fed from frame {}",
                    self.window.first_fed
                ),
            ));
        }
        if !self.admitted.contains(&reference.memory()) {
            self.admit_pair(&reference, &distorted)
                .map_err(|e| e.context(format_args!("frame {index}")))?;
            self.admitted.push(reference.memory());
        }
        let geometry = Geometry {
            format: reference.format(),
            bpc: reference.bpc(),
            width: reference.width(),
            height: reference.height(),
        };
        match &mut self.state {
            State::Setup => {
                if self.registrations.is_empty() && self.scorers.is_empty() {
                    return Err(Error::invalid(
                        "features",
                        "no feature or model registered before the first frame",
                    ));
                }
                let s = Scheduler::start(
                    self.registrations.clone(),
                    geometry,
                    &self.config,
                    &self.window,
                    self.listener.clone(),
                    self.reference_scores.clone(),
                )?;
                self.geometry = Some(geometry);
                self.state = State::Running(Box::new(s));
            }
            State::Running(_) => {}
            State::Done(_) | State::Failed => {
                return Err(Error::invalid(
                    format!("frame {index}"),
                    "the context was already flushed",
                ))
            }
        }
        let State::Running(s) = &mut self.state else {
            unreachable!()
        };
        if s.geometry() != geometry {
            let g = s.geometry();
            return Err(Error::invalid(
                format!("frame {index}"),
                format!(
                    "frame is {} {}-bit {}x{}; this context scores {} {}-bit {}x{}",
                    geometry.format,
                    geometry.bpc,
                    geometry.width,
                    geometry.height,
                    g.format,
                    g.bpc,
                    g.width,
                    g.height
                ),
            ));
        }
        self.run_frame_scorers(&reference, &distorted, index)?;
        let State::Running(s) = &mut self.state else {
            unreachable!()
        };
        s.submit(reference, distorted, index)?;
        self.frames_in = self.frames_in.max(index.saturating_add(1));
        Ok(())
    }

    /// Ends the input: scores buffered frames, then lets temporal features write their last
    /// scores. Afterwards scores can be read. Flushing twice is harmless.
    pub fn flush(&mut self) -> Result<()> {
        match std::mem::replace(&mut self.state, State::Failed) {
            State::Setup => {
                self.state = State::Done(FeatureCollector::new());
                self.collect_imported()
            }
            State::Running(s) => {
                let (c, spent) = s.finish()?;
                self.extract_time = spent;
                self.state = State::Done(c);
                self.collect_imported()
            }
            done @ State::Done(_) => {
                self.state = done;
                Ok(())
            }
            State::Failed => Err(Error::invalid(
                "context",
                "an earlier failure left no scores",
            )),
        }
    }

    /// Whether the context was flushed and its scores are final.
    pub fn scores_final(&self) -> bool {
        matches!(self.state, State::Done(_))
    }

    /// The collected scores (after [`Context::flush`]).
    pub fn collector(&self) -> Result<&FeatureCollector> {
        match &self.state {
            State::Done(c) => Ok(c),
            _ => Err(Error::invalid("context", "scores are read after flush")),
        }
    }

    pub(crate) fn collector_mut(&mut self) -> Result<&mut FeatureCollector> {
        match &mut self.state {
            State::Done(c) => Ok(c),
            _ => Err(Error::invalid("context", "scores are read after flush")),
        }
    }

    /// The score of feature `name` at `index`. `name` may be the collector key or the alias
    /// that outputs print (`integer_adm2` for `VMAF_integer_feature_adm2_score`). `Range`
    /// naming `index` at or past the frames scored; `NotFound` for a frame in range that
    /// has no such score.
    pub fn feature_score_at_index(&self, name: &str, index: u64) -> Result<f64> {
        self.checked_index(index)?;
        let c = self.collector()?;
        if let Some(v) = c.get(name, index) {
            return Ok(v);
        }
        if let Some(key) = c.names().into_iter().find(|k| alias(k) == name) {
            if let Some(v) = c.get(&key, index) {
                return Ok(v);
            }
        }
        Err(Error::not_found(
            format!("{name} at frame {index}"),
            if c.has(name) || c.names().iter().any(|k| alias(k) == name) {
                "no score at this index".to_string()
            } else {
                "no such feature was collected".to_string()
            },
        ))
    }

    /// CPU time each registered extractor spent extracting (summed over worker threads), by
    /// extractor name, after [`Context::flush`]. For benchmarks and profiles.
    pub fn extract_times(&self) -> Vec<(&'static str, std::time::Duration)> {
        self.registrations
            .iter()
            .zip(&self.extract_time)
            .map(|(r, t)| (r.info.name, *t))
            .collect()
    }

    /// The geometry fixed by the first frame.
    pub fn geometry(&self) -> Option<Geometry> {
        self.geometry
    }
}

fn check_pair(reference: &Frame, distorted: &Frame, index: u64) -> Result<()> {
    if !reference.same_geometry(distorted) {
        return Err(Error::invalid(
            format!("frame {index}"),
            format!(
                "reference is {} {}-bit {}x{} but distorted is {} {}-bit {}x{}",
                reference.format(),
                reference.bpc(),
                reference.width(),
                reference.height(),
                distorted.format(),
                distorted.bpc(),
                distorted.width(),
                distorted.height()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests;
