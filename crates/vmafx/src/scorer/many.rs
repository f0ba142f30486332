//! One reference, many distorted inputs: a bitrate ladder or a CRF search scored in one
//! pass. The reference is read and decoded once; each of its frames (reference-counted) is
//! handed to one scorer per distorted input, each with the configuration of the first, so
//! that every distorted input gets exactly the report of its own pair run.

use std::path::Path;
use std::sync::atomic::Ordering;

use super::{input, Report, Scorer, ScorerConfig, Side};
use crate::error::{Error, Result};
use crate::frame::Frame;
use crate::io::VideoReader;
use crate::score::PartialReason;

/// One distorted input being scored: its scorer, its reader and how its run ended.
struct Rendition {
    scorer: Scorer,
    reader: VideoReader,
    /// Still paired with the reference's frames.
    open: bool,
    ended_first: Option<Side>,
    partial: Option<(PartialReason, String)>,
}

impl Scorer {
    /// Opens the reference and every distorted file (as [`Scorer::score_files`]) and scores
    /// them in one pass: see [`Scorer::score_readers_many`].
    pub fn score_many<P: AsRef<Path>>(
        self,
        reference: impl AsRef<Path>,
        distorted: &[P],
    ) -> Result<Vec<Report>> {
        let opts = crate::io::OpenOptions {
            raw: self.input.raw,
            ..Default::default()
        };
        let r = VideoReader::open_input(reference.as_ref(), &opts)
            .map_err(|e| e.context("reference"))?;
        let mut readers = Vec::with_capacity(distorted.len());
        for d in distorted {
            let opts = crate::io::OpenOptions {
                scale_to: Some((r.geometry().width, r.geometry().height)),
                ..opts.clone()
            };
            readers.push(
                VideoReader::open_input(d.as_ref(), &opts).map_err(|e| e.context("distorted"))?,
            );
        }
        self.score_readers_many(r, readers)
    }

    /// Scores every distorted reader against one reference reader in one pass, and hands
    /// back one [`Report`] per distorted reader, in their order, each equal to the report
    /// [`Scorer::score_readers`] gives for that pair alone.
    ///
    /// The reference is read and decoded once: each of its frames is shared (not copied)
    /// by the scorers of every distorted input, and reading never runs further ahead than
    /// one pair run's queue. Each distorted reader must have the reference's geometry (open
    /// it with [`crate::io::OpenOptions::scale_to`] to scale another size); one with fewer
    /// frames ends its report there ([`Report::ended_first`] says
    /// [`Side::Distorted`]) while the others go on. Every scorer has this scorer's models,
    /// features, threads, CPU level and frame limits; progress is reported for the
    /// reference's frames, and windows ([`ScorerConfig::on_windows`]) are refused with more
    /// than one distorted input.
    pub fn score_readers_many(
        self,
        mut reference: VideoReader,
        distorted: Vec<VideoReader>,
    ) -> Result<Vec<Report>> {
        if distorted.is_empty() {
            return Err(Error::invalid(
                "distorted",
                "no distorted input to score against the reference",
            ));
        }
        if distorted.len() > 1 && self.watch.is_some() {
            return Err(Error::invalid(
                "windows",
                "live windows watch one distorted input; score the renditions one at a time",
            ));
        }
        for d in &distorted {
            input::check_geometry(&reference, d)?;
        }
        let plan = self.input;
        let stop = self.stop.clone();
        let keep_partial = self.keep_partial;
        let mut scorers = Vec::with_capacity(distorted.len());
        for _ in 1..distorted.len() {
            scorers.push(Scorer::new(self.sibling.clone_parts())?);
        }
        scorers.insert(0, self);
        reference.skip(plan.skip.0)?;
        let mut renditions = Vec::with_capacity(distorted.len());
        for (mut scorer, mut reader) in scorers.into_iter().zip(distorted) {
            scorer.set_frame_rate(reader.frame_rate().or(reference.frame_rate()));
            reader.skip(plan.skip.1)?;
            scorer.total = plan.total(&reference, &reader);
            renditions.push(Rendition {
                scorer,
                reader,
                open: true,
                ended_first: None,
                partial: None,
            });
        }
        let stopped = || stop.as_ref().is_some_and(|f| f.load(Ordering::SeqCst));
        let mut pushed = 0u64;
        while renditions.iter().any(|r| r.open) {
            if plan.max_frames.is_some_and(|n| pushed >= n) {
                break;
            }
            if stopped() {
                end_all(&mut renditions, PartialReason::Interrupted, String::new());
                break;
            }
            let frame = match reference.next_frame() {
                Ok(f) => f,
                Err(_) if stopped() => {
                    end_all(&mut renditions, PartialReason::Interrupted, String::new());
                    break;
                }
                Err(e) if keep_partial && pushed > 0 => {
                    end_all(&mut renditions, PartialReason::InputFailed, e.to_string());
                    break;
                }
                Err(e) => return Err(e),
            };
            for r in renditions.iter_mut().filter(|r| r.open) {
                r.next(frame.as_ref(), keep_partial, &stopped)?;
            }
            if frame.is_none() {
                break;
            }
            pushed += 1;
        }
        renditions
            .into_iter()
            .map(|mut r| {
                // A decoder stopped by the same Ctrl-C may end its output cleanly.
                if r.partial.is_none() && stopped() {
                    r.partial = Some((PartialReason::Interrupted, String::new()));
                    r.ended_first = None;
                }
                if r.scorer.pushed == 0 && r.partial.is_none() && plan.max_frames != Some(0) {
                    return Err(super::no_frames(
                        &reference,
                        &r.reader,
                        r.ended_first,
                        plan.skip,
                    ));
                }
                r.scorer.finish_with(r.ended_first, r.partial)
            })
            .collect()
    }
}

impl Rendition {
    /// Pairs the reference's next frame (`None`: the reference ended) with this input's.
    fn next(
        &mut self,
        reference: Option<&Frame>,
        keep_partial: bool,
        stopped: &dyn Fn() -> bool,
    ) -> Result<()> {
        let distorted = match self.reader.next_frame() {
            Ok(d) => d,
            Err(_) if stopped() => {
                self.end(PartialReason::Interrupted, String::new());
                return Ok(());
            }
            Err(e) if keep_partial && self.scorer.pushed > 0 => {
                self.end(PartialReason::InputFailed, e.to_string());
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        match (reference, distorted) {
            (Some(r), Some(d)) => return self.scorer.push(r.clone(), d),
            (None, None) => {}
            (None, Some(_)) => self.ended_first = Some(Side::Reference),
            (Some(_), None) => self.ended_first = Some(Side::Distorted),
        }
        self.open = false;
        Ok(())
    }

    fn end(&mut self, reason: PartialReason, detail: String) {
        self.partial = Some((reason, detail));
        self.open = false;
    }
}

/// Ends every input still open with `reason`.
fn end_all(renditions: &mut [Rendition], reason: PartialReason, detail: String) {
    for r in renditions.iter_mut().filter(|r| r.open) {
        r.end(reason, detail.clone());
    }
}

impl ScorerConfig {
    /// What decides the scores, without the callbacks: the configuration of the scorer of
    /// another distorted input of one reference.
    pub(crate) fn clone_parts(&self) -> ScorerConfig {
        ScorerConfig {
            models: self.models.clone(),
            features: self.features.clone(),
            threads: self.threads,
            cpu_level: self.cpu_level,
            subsample: self.subsample,
            raw: self.raw,
            skip: self.skip,
            max_frames: self.max_frames,
            progress: None,
            stop: self.stop.clone(),
            keep_partial: self.keep_partial,
            windows: None,
            feature_order: self.feature_order,
            frame_scorers: self.frame_scorers.clone(),
        }
    }
}
