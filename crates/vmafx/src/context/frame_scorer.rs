//! Scorers of whole frames that live outside the extractor registry (a tiny ONNX model, a
//! caller's own metric): the context runs each on every pair it is fed, on the caller's
//! thread in submission order, and collects the score under the scorer's feature name with
//! the imported scores, so it is read, pooled and written like any other feature.

use super::{Context, State};
use crate::error::{Error, Result};
use crate::frame::Frame;

/// A per-frame scorer the context runs ([`Context::use_frame_scorer`]).
pub trait FrameScorer: Send {
    /// The feature name the scores are collected under.
    fn name(&self) -> &str;
    /// The score of the pair at `index`; an error stops the run and names the frame.
    fn score(&mut self, reference: &Frame, distorted: &Frame, index: u64) -> Result<f64>;
}

impl Context {
    /// Runs `scorer` on every pair fed from now on (before the first frame, as features).
    /// A name the context already scores under is `Invalid` naming it.
    pub fn use_frame_scorer(&mut self, scorer: Box<dyn FrameScorer>) -> Result<()> {
        let name = scorer.name().to_string();
        if !matches!(self.state, State::Setup) {
            return Err(Error::invalid(
                name,
                "frame scorers must be added before the first frame",
            ));
        }
        if name.is_empty() {
            return Err(Error::invalid("frame scorer", "an empty feature name"));
        }
        if self.scorers.iter().any(|s| s.name() == name) {
            return Err(Error::invalid(
                name,
                "a frame scorer of this name is already attached",
            ));
        }
        self.scorers.push(scorer);
        Ok(())
    }

    /// Whether a frame scorer is attached.
    pub fn has_frame_scorers(&self) -> bool {
        !self.scorers.is_empty()
    }

    /// Runs every attached scorer on the pair at `index`, keeping the scores for the flush.
    pub(super) fn run_frame_scorers(
        &mut self,
        reference: &Frame,
        distorted: &Frame,
        index: u64,
    ) -> Result<()> {
        for s in &mut self.scorers {
            let v = s
                .score(reference, distorted, index)
                .map_err(|e| e.context(format_args!("frame {index}")))?;
            self.imported.push((s.name().to_string(), index, v));
        }
        Ok(())
    }
}
