//! Scoring one chunk of a pair of readers.

use std::ops::Range;

use super::merge::PartialScores;
use crate::context::{Context, ContextConfig, FrameWindow};
use crate::error::{Error, Result};
use crate::feature::Reach;
use crate::io::VideoReader;
use crate::model::LoadedModel;

/// What to score: the context settings, the models and the extra features (libvmaf
/// extractor names with `name=value` options), as the command line's `--model` and
/// `--feature` give them.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// Threads, subsampling and the rest.
    pub config: ContextConfig,
    /// Models, in the order their outputs are listed.
    pub models: Vec<LoadedModel>,
    /// Extra extractors by name, with their options.
    pub features: Vec<(String, Vec<(String, String)>)>,
}

impl Setup {
    /// A context with every model and feature registered, limited to `window`.
    pub fn context(&self, window: FrameWindow) -> Result<Context> {
        let mut ctx = Context::new(self.config.clone())?;
        for m in &self.models {
            ctx.use_model(m.clone())?;
        }
        for (name, opts) in &self.features {
            ctx.use_feature(name, opts)?;
        }
        if self.models.is_empty() && self.features.is_empty() {
            return Err(Error::invalid(
                "features",
                "nothing to score: no model and no feature",
            ));
        }
        ctx.set_window(window)?;
        Ok(ctx)
    }

    /// How far the registered features reach into neighbouring frames, for [`super::plan`].
    pub fn reach(&self) -> Result<Reach> {
        Ok(self.context(FrameWindow::all())?.reach())
    }
}

/// Scores frames `frames` of `reference` and `distorted` (both opened at frame 0) as one
/// pass over the whole pair would: the readers skip to the chunk's pre-roll, the chunk is
/// fed as far as its features reach, and only its own rows are kept. Where the files end
/// early the chunk ends with them (a chunk past the end is empty); `frames.end` may be
/// `u64::MAX` for "to the end". One pass is `0..u64::MAX`.
pub fn score_range(
    setup: &Setup,
    reference: &mut VideoReader,
    distorted: &mut VideoReader,
    frames: Range<u64>,
) -> Result<PartialScores> {
    let (rg, dg) = (reference.geometry(), distorted.geometry());
    if rg != dg {
        return Err(Error::invalid(
            "distorted",
            format!(
                "videos are incompatible: the reference is {} {}-bit {}x{} but the distorted \
                 is {} {}-bit {}x{}",
                rg.format, rg.bpc, rg.width, rg.height, dg.format, dg.bpc, dg.width, dg.height
            ),
        ));
    }
    if frames.start > frames.end {
        return Err(Error::invalid(
            "frames",
            format!("{}..{} is not a range", frames.start, frames.end),
        ));
    }
    let probe = setup.context(FrameWindow::all())?;
    let (before, after) = match probe.reach() {
        Reach::Frames { before, after } => (before, after),
        Reach::Unbounded(name) if frames.start > 0 || frames.end != u64::MAX => {
            return Err(Error::not_supported(
                format!("feature '{name}'"),
                "its scores depend on every earlier frame: only a whole video can be scored",
            ))
        }
        Reach::Unbounded(_) => (0, 0),
    };
    drop(probe);
    let first_fed = frames.start.saturating_sub(before);
    let fed_end = frames.end.saturating_add(after);
    let mut ctx = setup.context(FrameWindow {
        first_fed,
        kept: frames.clone(),
    })?;

    for (reader, what) in [
        (&mut *reference, "reference"),
        (&mut *distorted, "distorted"),
    ] {
        let at = reader.position();
        if at > first_fed {
            return Err(Error::invalid(
                what,
                format!("the reader is at frame {at}, past frame {first_fed} where this chunk is fed from"),
            ));
        }
    }
    reference.skip(first_fed - reference.position())?;
    distorted.skip(first_fed - distorted.position())?;
    // Where a file ends before the pre-roll, nothing of this chunk exists.
    let mut index = reference.position().min(distorted.position());
    if index == first_fed {
        while index < fed_end {
            let (Some(r), Some(d)) = (reference.next_frame()?, distorted.next_frame()?) else {
                break;
            };
            ctx.submit(r, d, index)?;
            index += 1;
        }
    }
    ctx.flush()?;
    ctx.predict_all()?;
    let table = ctx.score_table()?;
    let start = frames.start.min(index);
    Ok(PartialScores {
        frames: start..frames.end.min(index).max(start),
        width: rg.width,
        height: rg.height,
        subsample: setup.config.subsample.max(1),
        table,
    })
}
