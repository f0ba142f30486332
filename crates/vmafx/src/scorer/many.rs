//! One reference, many distorted inputs: a bitrate ladder or a CRF search scored in one
//! pass. The reference is read and decoded once; each of its frames (reference-counted) is
//! handed to one scorer per distorted input, each with the configuration of the first, so
//! that every distorted input gets exactly the report of its own pair run.
//!
//! The set has one budget, not one per input: `threads` workers in all, each scoring its
//! share of the inputs (input i on worker i mod threads) one after another on its own
//! thread, so that one set of extractor buffers per worker serves them all
//! ([`crate::feature::scratch`]); with 0 threads everything runs on the reading thread. The
//! reading thread hands each reference frame to every worker and reads the next meanwhile.
//! Scores that depend on the reference alone (motion) are computed once for all the inputs
//! ([`crate::context::ReferenceScores`]).

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use super::{input, Report, Scorer, ScorerConfig, Side};
use crate::context::ReferenceScores;
use crate::error::{Error, Result, Status};
use crate::feature::scratch;
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
    /// by the scorers of every distorted input, and reading runs one frame ahead of the
    /// workers. The configured threads are the whole set's: that many workers (at most one
    /// per distorted input) share the inputs, and the working buffers of each worker's
    /// extractors serve all of its inputs, so memory grows with the threads rather than
    /// with the inputs. Each distorted reader must have the reference's geometry (open it
    /// with [`crate::io::OpenOptions::scale_to`] to scale another size); one with fewer
    /// frames ends its report there ([`Report::ended_first`] says [`Side::Distorted`])
    /// while the others go on. Every scorer has this scorer's models, features, CPU level
    /// and frame limits; progress is reported for the first distorted input's frames, and
    /// windows ([`ScorerConfig::on_windows`]) are refused with more than one distorted
    /// input. One distorted reader is scored as [`Scorer::score_readers`] does.
    pub fn score_readers_many(
        mut self,
        mut reference: VideoReader,
        mut distorted: Vec<VideoReader>,
    ) -> Result<Vec<Report>> {
        if distorted.len() == 1 {
            let d = distorted.remove(0);
            return self.score_readers(reference, d).map(|r| vec![r]);
        }
        if distorted.is_empty() {
            return Err(Error::invalid(
                "distorted",
                "no distorted input to score against the reference",
            ));
        }
        if self.watch.is_some() {
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
        // One budget for the set: `threads` workers in all, each scoring its share of the
        // renditions on its own thread (their contexts score inline), not `threads` each.
        let workers = self.sibling.threads.min(distorted.len());
        let mut renditions = Vec::with_capacity(distorted.len());
        // Motion reads the reference alone: computed once for every rendition.
        let reference_scores = ReferenceScores::new();
        for (i, mut reader) in distorted.into_iter().enumerate() {
            let mut parts = self.sibling.clone_parts();
            parts.threads = 0;
            let mut scorer = Scorer::new(parts)?;
            scorer
                .ctx
                .share_reference_scores(reference_scores.clone())?;
            if i == 0 {
                scorer.progress = self.progress.take();
            }
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
        reference.skip(plan.skip.0)?;
        let stopped = || stop.as_ref().is_some_and(|f| f.load(Ordering::SeqCst));
        let open = AtomicUsize::new(renditions.len());
        let run = Run {
            keep_partial,
            stopped: &stopped,
            open: &open,
        };
        let mut groups: Vec<Vec<(usize, Rendition)>> =
            (0..workers.max(1)).map(|_| Vec::new()).collect();
        for (i, r) in renditions.into_iter().enumerate() {
            groups[i % workers.max(1)].push((i, r));
        }
        let groups = if workers == 0 {
            let mut group = groups.pop().unwrap_or_default();
            let mut lanes = [Lane::Here(&mut group)];
            scratch::shared_on_this_thread(|| {
                read_reference(&mut reference, plan, &run, &mut lanes)
            })?;
            vec![group]
        } else {
            std::thread::scope(|s| {
                let mut senders = Vec::with_capacity(groups.len());
                let mut handles = Vec::with_capacity(groups.len());
                for mut group in groups {
                    let (tx, rx) = sync_channel::<Message>(0);
                    let run = &run;
                    handles.push(s.spawn(move || {
                        let failed =
                            scratch::shared_on_this_thread(|| score_group(&mut group, rx, run));
                        (group, failed)
                    }));
                    senders.push(Lane::Thread(tx));
                }
                let read = read_reference(&mut reference, plan, &run, &mut senders);
                // The workers end once their channel closes.
                drop(senders);
                let mut groups = Vec::with_capacity(handles.len());
                let mut failed: Option<(usize, Error)> = None;
                for h in handles {
                    let (group, f) = h.join().map_err(|_| {
                        Error::new(Status::Internal, "threads", "a worker thread panicked")
                    })?;
                    if let Some((i, e)) = f {
                        if failed.as_ref().is_none_or(|(j, _)| i < *j) {
                            failed = Some((i, e));
                        }
                    }
                    groups.push(group);
                }
                if let Some((_, e)) = failed {
                    return Err(e);
                }
                read.map(|()| groups)
            })?
        };
        let mut renditions: Vec<(usize, Rendition)> = groups.into_iter().flatten().collect();
        renditions.sort_by_key(|(i, _)| *i);
        renditions
            .into_iter()
            .map(|(_, mut r)| {
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

/// What every rendition's scoring shares: whether to keep a partial report, the stop
/// flag, and how many renditions are still paired with the reference's frames.
struct Run<'a> {
    keep_partial: bool,
    stopped: &'a (dyn Fn() -> bool + Sync),
    open: &'a AtomicUsize,
}

/// What the reading thread hands each worker.
enum Message {
    /// The reference's next frame (`None`: it ended).
    Frame(Option<Frame>),
    /// The run ended early: every rendition still open ends with this reason.
    End(PartialReason, String),
}

/// Where the reference's frames go: renditions scored on the reading thread itself (no
/// worker), or a worker's channel.
enum Lane<'g> {
    Here(&'g mut Vec<(usize, Rendition)>),
    Thread(SyncSender<Message>),
}

impl Lane<'_> {
    /// Hands `message` on; an error where the worker stopped (it failed: its error is
    /// taken when it is joined) or a rendition scored here failed.
    fn send(&mut self, message: Message, run: &Run<'_>) -> Result<()> {
        match self {
            Lane::Here(group) => deliver(group, message, run).map_err(|(_, e)| e),
            Lane::Thread(tx) => tx
                .send(message)
                .map_err(|_| Error::new(Status::Internal, "threads", "a worker stopped")),
        }
    }
}

/// Reads the reference once and hands each frame to every lane, until the reference
/// ends, every rendition ended, the frame limit or a stop. A worker that stopped ends the
/// reading with an error (the caller reports the worker's own); reading failures are
/// treated as in a pair run.
fn read_reference(
    reference: &mut VideoReader,
    plan: input::InputPlan,
    run: &Run<'_>,
    lanes: &mut [Lane<'_>],
) -> Result<()> {
    let end_all = |lanes: &mut [Lane<'_>], reason: PartialReason, detail: String| {
        lanes
            .iter_mut()
            .try_for_each(|l| l.send(Message::End(reason, detail.clone()), run))
    };
    let mut pushed = 0u64;
    while run.open.load(Ordering::SeqCst) > 0 {
        if plan.max_frames.is_some_and(|n| pushed >= n) {
            break;
        }
        if (run.stopped)() {
            return end_all(lanes, PartialReason::Interrupted, String::new());
        }
        let frame = match reference.next_frame() {
            Ok(f) => f,
            Err(_) if (run.stopped)() => {
                return end_all(lanes, PartialReason::Interrupted, String::new());
            }
            // Every rendition ended meanwhile: nothing reads this frame.
            Err(_) if run.open.load(Ordering::SeqCst) == 0 => break,
            Err(e) if run.keep_partial && pushed > 0 => {
                return end_all(lanes, PartialReason::InputFailed, e.to_string());
            }
            Err(e) => return Err(e),
        };
        let ended = frame.is_none();
        for lane in lanes.iter_mut() {
            lane.send(Message::Frame(frame.clone()), run)?;
        }
        if ended {
            break;
        }
        pushed += 1;
    }
    Ok(())
}

/// A worker: scores each frame it is handed for every rendition of its group, until the
/// reading ends. A failure is handed back with its rendition's position.
fn score_group(
    group: &mut [(usize, Rendition)],
    rx: Receiver<Message>,
    run: &Run<'_>,
) -> Option<(usize, Error)> {
    for message in rx {
        if let Err(failed) = deliver(group, message, run) {
            return Some(failed);
        }
    }
    None
}

/// Hands `message` to every rendition of `group` still open.
fn deliver(
    group: &mut [(usize, Rendition)],
    message: Message,
    run: &Run<'_>,
) -> std::result::Result<(), (usize, Error)> {
    for (i, r) in group.iter_mut().filter(|(_, r)| r.open) {
        match &message {
            Message::Frame(frame) => r.next(frame.as_ref(), run).map_err(|e| (*i, e))?,
            Message::End(reason, detail) => r.end(*reason, detail.clone()),
        }
        if !r.open {
            run.open.fetch_sub(1, Ordering::SeqCst);
        }
    }
    Ok(())
}

impl Rendition {
    /// Pairs the reference's next frame (`None`: the reference ended) with this input's.
    fn next(&mut self, reference: Option<&Frame>, run: &Run<'_>) -> Result<()> {
        let distorted = match self.reader.next_frame() {
            Ok(d) => d,
            Err(_) if (run.stopped)() => {
                self.end(PartialReason::Interrupted, String::new());
                return Ok(());
            }
            Err(e) if run.keep_partial && self.scorer.pushed > 0 => {
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

impl ScorerConfig {
    /// What decides the scores, without the callbacks: the configuration of the scorer of
    /// another distorted input of one reference.
    pub(crate) fn clone_parts(&self) -> ScorerConfig {
        ScorerConfig {
            models: self.models.clone(),
            model_inputs: self.model_inputs.clone(),
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
