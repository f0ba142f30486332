//! Scoring a range of frames exactly as one pass over the whole pair scores them.

use std::ops::Range;
use std::path::Path;

use std::sync::atomic::Ordering;

use super::{input, Report, Scorer, Side};
use crate::context::FrameWindow;
use crate::error::{Error, Result};
use crate::feature::Reach;
use crate::io::VideoReader;
use crate::score::PartialReason;

impl Scorer {
    /// The first registered feature that writes whole-run values ([`Report::aggregates`]:
    /// psnr with `enable_apsnr`), if one is: a face that writes parts of a video for a
    /// later merge refuses such a scorer before scoring, rather than drop them.
    pub fn aggregate_writer(&self) -> Option<&'static str> {
        self.ctx.aggregate_writer()
    }

    /// How far the registered models' and features' scores reach into neighbouring frames:
    /// what [`crate::score::plan`] needs to split a video into exact chunks.
    pub fn reach(&self) -> Reach {
        self.ctx.reach()
    }

    /// Opens both files (as [`Scorer::score_files`]) and scores frames `frames` only: see
    /// [`Scorer::score_readers_range`].
    pub fn score_range(
        self,
        reference: impl AsRef<Path>,
        distorted: impl AsRef<Path>,
        frames: Range<u64>,
    ) -> Result<Report> {
        let (r, d) = self.open_pair(reference.as_ref(), distorted.as_ref())?;
        self.score_readers_range(r, d, frames)
    }

    /// Scores frames `frames` of two readers (opened at their first frame; frame 0 is the
    /// first after the configured skips) as one pass over the whole pair would: the
    /// readers pass over the frames before the chunk's pre-roll (y4m and raw yuv seek by
    /// byte offset; a decoded input is decoded from its start and the frames before are
    /// dropped, which is frame-accurate but costs their decoding), the chunk is fed as far
    /// as its features reach ([`Scorer::reach`]) and the report keeps only its own rows.
    ///
    /// The range must lie within the video: a range that holds no frame, or whose end lies
    /// past the last frame the inputs (or the frame limit) give, is refused naming the
    /// range and the video's frame count. `frames.end` may be `u64::MAX` for "to the end",
    /// and `0..u64::MAX` is one pass. Reports of consecutive ranges join with
    /// [`Report::merge`] into the one-pass report, value for value. A feature whose
    /// history is unbounded refuses any range but the whole video, and so does one that
    /// writes whole-run values ([`Report::aggregates`]: psnr's `enable_apsnr`), which the
    /// whole video's report carries as [`Scorer::score_readers`] gives them. A stop flag
    /// ([`super::ScorerConfig::stop_when`]) ends the range between two frames; the report
    /// is then marked partial ([`Report::partial`]).
    pub fn score_readers_range(
        mut self,
        mut reference: VideoReader,
        mut distorted: VideoReader,
        frames: Range<u64>,
    ) -> Result<Report> {
        input::check_geometry(&reference, &distorted)?;
        if frames.start >= frames.end {
            return Err(Error::range(
                format!("frames {}..{}", frames.start, frames.end),
                "the range holds no frame (its end must lie above its start)",
            ));
        }
        let whole = frames.start == 0 && frames.end == u64::MAX;
        if let Some(name) = self.ctx.aggregate_writer().filter(|_| !whole) {
            return Err(Error::not_supported(
                format!("feature '{name}'"),
                "its whole-run values (aggregate_metrics) cannot come from a part of the \
                 video, nor be joined from parts: score the whole video in one pass \
                 (score_files; the CLI without --frames; Python's score without frames)",
            ));
        }
        let (before, after) =
            match self.ctx.reach() {
                Reach::Frames { before, after } => (before, after),
                Reach::Unbounded(name) if !whole => return Err(Error::not_supported(
                    format!("feature '{name}'"),
                    "its scores depend on every earlier frame: only a whole video can be scored",
                )),
                Reach::Unbounded(_) => (0, 0),
            };
        let plan = self.input;
        reference.skip(plan.skip.0)?;
        distorted.skip(plan.skip.1)?;
        // A frame limit ends the video where it stops.
        let video_end = plan.max_frames.unwrap_or(u64::MAX);
        let kept = frames.start.min(video_end)..frames.end.min(video_end);
        let first_fed = kept.start.saturating_sub(before);
        let fed_end = kept.end.saturating_add(after).min(video_end);
        self.ctx.set_window(FrameWindow {
            first_fed,
            kept: kept.clone(),
        })?;
        self.total = plan
            .total(&reference, &distorted)
            .map(|n| n.min(fed_end).saturating_sub(first_fed));
        let got = reference.skip(first_fed)?.min(distorted.skip(first_fed)?);
        self.first = got;
        self.kept = kept;
        let mut ended_first = None;
        // Where the inputs ended: the video's frame count, known once one ends.
        let mut video_len = (got < first_fed).then_some(got);
        let mut partial = None;
        // Where an input ends before the pre-roll, nothing of this range exists.
        if got == first_fed {
            while self.first + self.pushed < fed_end {
                if self.stop.as_ref().is_some_and(|f| f.load(Ordering::SeqCst)) {
                    partial = Some((PartialReason::Interrupted, String::new()));
                    break;
                }
                let at = self.first + self.pushed;
                match (reference.next_frame()?, distorted.next_frame()?) {
                    (Some(r), Some(d)) => self.push(r, d)?,
                    (None, None) => {
                        video_len = Some(at);
                        break;
                    }
                    (None, Some(_)) => {
                        ended_first = Some(Side::Reference);
                        video_len = Some(at);
                        break;
                    }
                    (Some(_), None) => {
                        ended_first = Some(Side::Distorted);
                        video_len = Some(at);
                        break;
                    }
                }
            }
        }
        // No pair at all: the input without frames is named, whatever the range.
        if video_len == Some(0) && partial.is_none() {
            let had = |r: &VideoReader, skip: u64| r.position() > skip;
            let empty = match (had(&reference, plan.skip.0), had(&distorted, plan.skip.1)) {
                (true, false) => Some(Side::Distorted),
                (false, true) => Some(Side::Reference),
                _ => None,
            };
            return Err(super::no_frames(&reference, &distorted, empty, plan.skip));
        }
        let open_end = frames.end == u64::MAX;
        let outside = |n: &u64| frames.start >= *n || (frames.end > *n && !open_end);
        let by_input = video_len.filter(outside);
        let by_limit = plan.max_frames.filter(outside);
        let video_frames = match (by_input, by_limit) {
            (Some(n), Some(m)) => Some(n.min(m)),
            (n, m) => n.or(m),
        };
        if let (Some(n), None) = (video_frames, &partial) {
            let why = if by_input == Some(n) {
                format!(
                    "the video has {n} frames (frames 0..{n}; the shorter of {} and {} ends \
                     there)",
                    reference.path().display(),
                    distorted.path().display()
                )
            } else {
                format!("the frame limit scores {n} frames (frames 0..{n})")
            };
            let end = if open_end {
                String::new()
            } else {
                frames.end.to_string()
            };
            return Err(Error::range(
                format!("frames {}..{end}", frames.start),
                format!("the range lies outside the video: {why}"),
            ));
        }
        self.finish_with(ended_first, partial)
    }
}
