//! Windows while scoring a stream: the frames pushed are cut into windows by a
//! [`WindowClock`], and each window's per-frame model scores are handed to the caller as
//! soon as they are final (the context's live reads), in window order; the last window,
//! cut off by the end of the stream, after the flush.
//!
//! Pooling a window's values with [`crate::score::pool`] gives what
//! [`super::Report::model_pooled`] gives over the same frames, bit for bit: both pool the
//! same per-frame values.

use std::collections::VecDeque;

use crate::error::{Error, Result};
use crate::score::{frame_pts_ns, pool, PoolMethod, WindowClock, WindowLength, WindowSpan};

/// Receives each window once its scores are final, on the thread that pushes the frames.
pub type WindowCallback = Box<dyn FnMut(WindowScores) + Send>;

/// One window of a stream and its model scores.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowScores {
    /// The frames and times of the window (`partial` for the last one, cut off by the end
    /// of the stream, unless it is a whole window by frame count).
    pub span: WindowSpan,
    /// Per model, by its label: its score (its first output) at each scored frame of the
    /// window, in frame order.
    pub models: Vec<(String, Vec<f64>)>,
}

impl WindowScores {
    /// The scores of the model labelled `label` pooled with `method`; `None` for a label
    /// the scorer has no model of.
    pub fn pooled(&self, label: &str, method: PoolMethod) -> Option<f64> {
        self.models
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| pool(v, method))
    }
}

/// The windows being cut while a scorer runs.
pub(crate) struct Watch {
    clock: WindowClock,
    /// The input's frame rate (windows by time need one).
    fps: Option<(u32, u32)>,
    /// Windows cut and not yet handed over, oldest first.
    pending: VecDeque<WindowSpan>,
    sink: WindowCallback,
}

impl Watch {
    pub(crate) fn new(length: WindowLength, sink: WindowCallback) -> Watch {
        Watch {
            clock: WindowClock::new(length),
            fps: None,
            pending: VecDeque::new(),
            sink,
        }
    }
}

/// A window's per-frame scores of each model, by label, in the scorer's model order.
pub(crate) type WindowModels = Vec<(String, Vec<f64>)>;

/// A window's scores per model, or `None` while some are not final yet.
pub(crate) type FinalScores<'a> = dyn FnMut(WindowSpan) -> Result<Option<WindowModels>> + 'a;

impl Watch {
    /// Takes the input's frame rate (`num/den` frames per second).
    pub(crate) fn set_frame_rate(&mut self, fps: Option<(u32, u32)>) {
        self.fps = fps.filter(|f| f.0 > 0 && f.1 > 0);
    }

    /// Feeds frame `index` (just pushed, the `nth` of the stream from 0) to the clock and
    /// hands over the windows whose scores `scores` finds final.
    pub(crate) fn frame(&mut self, index: u64, nth: u64, scores: &mut FinalScores) -> Result<()> {
        let pts = match (self.clock.length(), self.fps) {
            (_, Some(fps)) => frame_pts_ns(nth, fps),
            (WindowLength::Frames(_), None) => frame_pts_ns(nth, (1, 1)),
            (WindowLength::Nanos(_), None) => {
                return Err(Error::invalid(
                    "window",
                    "windows in seconds need the input's frame rate (a y4m F header); \
                     give the length in frames (e.g. 30f)",
                ))
            }
        };
        if let Some(span) = self.clock.frame(index, pts)? {
            self.pending.push_back(span);
        }
        self.hand_over(scores)
    }

    /// After the flush: the last window and every one still waiting.
    pub(crate) fn finish(&mut self, scores: &mut FinalScores) -> Result<()> {
        if let Some(span) = self.clock.finish() {
            self.pending.push_back(span);
        }
        self.hand_over(scores)
    }

    /// Hands over the oldest windows while their scores are final.
    fn hand_over(&mut self, scores: &mut FinalScores) -> Result<()> {
        while let Some(&span) = self.pending.front() {
            let Some(models) = scores(span)? else {
                return Ok(());
            };
            self.pending.pop_front();
            (self.sink)(WindowScores { span, models });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use crate::frame::{Frame, FrameBuilder, PixelFormat, SamplesMut};
    use crate::score::{PoolMethod, WindowLength};
    use crate::{Model, Scorer, ScorerConfig};

    fn scene(t: u32, blur: bool) -> Frame {
        let (w, h) = (64u32, 64u32);
        let mut b = FrameBuilder::new(PixelFormat::Yuv420p, 8, w, h).unwrap();
        if let Some(SamplesMut::U8(y)) = b.plane_mut(0).samples_mut() {
            for (k, v) in y.iter_mut().enumerate() {
                let (i, j) = (k as u32 % w, k as u32 / w);
                *v = if ((i + 3 * t) / 4 + j / 3).is_multiple_of(2) {
                    180
                } else {
                    30 + (t % 5) as u8
                };
            }
            if blur {
                let copy = y.to_vec();
                for k in 1..y.len() - 1 {
                    y[k] =
                        ((copy[k - 1] as u32 + 2 * copy[k] as u32 + copy[k + 1] as u32) / 4) as u8;
                }
            }
        }
        b.build()
    }

    #[test]
    fn windows_come_while_pushing_and_pool_as_the_report() {
        let got = Arc::new(Mutex::new(Vec::new()));
        let sink = got.clone();
        let config = ScorerConfig::new()
            .model(Model::builtin("vmaf_v0.6.1"))
            .on_windows(
                WindowLength::frames(4).unwrap(),
                Box::new(move |w| sink.lock().unwrap().push(w)),
            );
        let mut scorer = Scorer::new(config).unwrap();
        let mut seen_at = Vec::new();
        for t in 0..10 {
            scorer.push(scene(t, false), scene(t, true)).unwrap();
            seen_at.push(got.lock().unwrap().len());
        }
        // Window 0-3 is final once frame 4 is scored (motion2 of frame 3 reads it), and the
        // clock cuts it at frame 4; window 4-7 likewise at frame 8.
        assert_eq!(seen_at, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2]);
        let report = scorer.finish().unwrap();
        let got = got.lock().unwrap();
        assert_eq!(got.len(), 3);
        let spans: Vec<_> = got
            .iter()
            .map(|w| (w.span.first, w.span.last, w.span.partial))
            .collect();
        assert_eq!(spans, [(0, 3, false), (4, 7, false), (8, 9, true)]);
        let label = &got[0].models[0].0;
        for w in got.iter() {
            for m in PoolMethod::ALL {
                let want = report
                    .model_pooled(label, m, w.span.first..w.span.last + 1)
                    .unwrap()
                    .pooled;
                assert_eq!(w.pooled(label, m).unwrap().to_bits(), want.to_bits(), "{m}");
            }
        }
    }

    #[test]
    fn windows_in_seconds_need_a_frame_rate() {
        let config = ScorerConfig::new()
            .model(Model::builtin("vmaf_v0.6.1"))
            .on_windows(WindowLength::seconds(1.0).unwrap(), Box::new(|_| {}));
        let mut scorer = Scorer::new(config).unwrap();
        let e = scorer.push(scene(0, false), scene(0, true)).unwrap_err();
        assert_eq!(e.subject(), "window");
    }
}
