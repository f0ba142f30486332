//! Scoring one chunk of a longer video: the frames a context is fed and those it keeps.
//!
//! A chunk `[a, b)` is fed from `a - before` (its pre-roll) to `b + after` (its post-roll),
//! as far as its features reach (see [`crate::feature::Reach`]). Frames keep their indices
//! in the whole video, so first-frame rules apply only at frame 0. Extractors that score
//! each pair on its own run on the kept frames only; extractors with history run on every
//! frame fed, are told where the feed starts ([`crate::feature::Extractor::start_at`]) and
//! write nothing they would need earlier frames for. Models predict, and the score table
//! lists, the kept frames only.

use super::frame_window::FrameWindow;
use super::{Context, State};
use crate::error::{Error, Result};
use crate::feature::{registry, Reach};

impl Context {
    /// Limits the context to one chunk: frames are submitted from `window.first_fed`, and
    /// only the scores of `window.kept` are predicted and listed. Set before the first frame.
    pub fn set_window(&mut self, window: FrameWindow) -> Result<()> {
        if !matches!(self.state, State::Setup) {
            return Err(Error::invalid(
                "window",
                "the frame window must be set before the first frame",
            ));
        }
        if window.first_fed > window.kept.start || window.kept.start > window.kept.end {
            return Err(Error::invalid(
                "window",
                format!(
                    "frames are fed from {} but {}..{} are kept; the feed must start at or \
                     before the first kept frame",
                    window.first_fed, window.kept.start, window.kept.end
                ),
            ));
        }
        self.window = window;
        Ok(())
    }

    /// The frame window (every frame unless [`Context::set_window`] limited it).
    pub fn window(&self) -> &FrameWindow {
        &self.window
    }

    /// How far the registered features' scores reach into neighbouring frames together.
    pub fn reach(&self) -> Reach {
        self.registrations.iter().fold(Reach::NONE, |r, reg| {
            r.union(registry::reach(reg.info, &reg.options))
        })
    }

    /// The first registered extractor that writes whole-run values (`aggregate_metrics`),
    /// which a part of a video cannot give and partial logs do not keep.
    pub fn aggregate_writer(&self) -> Option<&'static str> {
        self.registrations
            .iter()
            .find(|reg| registry::writes_aggregates(reg.info, &reg.options))
            .map(|reg| reg.info.name)
    }

    /// The kept indices (subsampled) below `n`, in order.
    pub(super) fn kept_indices(&self, n: u64) -> impl Iterator<Item = u64> {
        let end = n.min(self.window.kept.end);
        self.scored_indices(self.window.kept.start.min(end), end)
    }
}
