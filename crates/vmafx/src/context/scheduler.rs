//! Running extractors over frame pairs: in index order, on the caller's thread or on workers.
//!
//! Submissions may arrive out of order within a window; a reorder buffer releases them in
//! index order, so previous-reference extractors get the right neighbours and temporal ones
//! see strictly increasing indices. With threads, independent extractors run on N workers
//! (each with its own instances) fed through a bounded queue, so a fast producer blocks
//! rather than buffering frames without bound; temporal extractors run on one thread of
//! their own in order. Every score is ranked by registration, so results and their order
//! do not depend on the thread count (the order follows the configured
//! [`FeatureOrder`], libvmaf's with or without its pool).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::collector::{FeatureCollector, FlushStore, Rank};
use super::config::{ContextConfig, FeatureOrder};
use super::frame_window::FrameWindow;
use super::reference_scores::ReferenceScores;
use crate::error::{Error, Result, Status};
use crate::feature::{
    registry, ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptValues, Ordering,
};
use crate::frame::Frame;
use std::ops::Range;

/// Earlier reference frames the scheduler keeps after a pair is dispatched: as many as the
/// registered previous-reference extractors read (0 without one, 1 for readers of frame
/// n-1, 2 with a reader of frame n-2). [`Scheduler::dispatch`] holds them in `prev` and
/// `prev_prev`.
pub(crate) fn retained_references(regs: &[Registration]) -> u32 {
    regs.iter()
        .map(|r| registry::references_read(r.info, &r.options))
        .max()
        .unwrap_or(0)
        .min(2)
}

/// Jobs that may be in flight at once once a submit returns: each worker's job and the
/// worker queue's, and the temporal lane's job and queue (inline scoring holds none).
pub(crate) fn jobs_in_flight(config: &ContextConfig, temporal: bool) -> u32 {
    if config.threads == 0 {
        return 0;
    }
    let cap = config.max_frames_in_flight as u32;
    let workers = config.threads as u32 + cap;
    workers + if temporal { 1 + cap } else { 0 }
}

/// A registered feature: its extractor, options and collector key for deduplication.
#[derive(Debug, Clone)]
pub(crate) struct Registration {
    pub info: &'static ExtractorInfo,
    pub options: OptValues,
    /// How instances are fed with these options ([`registry::ordering`]).
    pub ordering: Ordering,
}

impl Registration {
    /// The registration of `info` with `options`.
    pub(crate) fn new(info: &'static ExtractorInfo, options: OptValues) -> Self {
        let ordering = registry::ordering(info, &options);
        Registration {
            info,
            options,
            ordering,
        }
    }
}

/// One pair to score, with the previous references it may need.
struct Job {
    index: u64,
    reference: Frame,
    distorted: Frame,
    prev: Option<Frame>,
    prev_prev: Option<Frame>,
}

/// Instances of a subset of the registered features (`None` where another lane owns it).
struct Lane {
    instances: Vec<Option<Box<dyn Extractor>>>,
    /// Time spent in each instance's `extract`, for benchmarks.
    spent: Vec<Duration>,
    /// Indices whose scores are kept: extractors without history skip the others.
    kept: Range<u64>,
    /// Whether this lane runs the temporal extractors (in index order).
    temporal: bool,
}

struct Shared {
    collector: Mutex<FeatureCollector>,
    error: Mutex<Option<Error>>,
    /// The frames each kind of lane has finished.
    done: Mutex<DoneFrames>,
    /// Told each time a frame's scores were written.
    listener: Mutex<Option<ScoreListener>>,
    /// Each registration's [`Rank::stage`] under the configured feature order.
    stages: Vec<u8>,
    /// Reference-only scores shared with the other contexts of a set.
    reference: Option<Arc<ReferenceScores>>,
}

/// The frames a kind of lane has finished: every one below `next`, and those in `ahead`.
#[derive(Debug)]
struct Prefix {
    next: u64,
    ahead: BTreeSet<u64>,
}

impl Prefix {
    fn new(first: u64) -> Prefix {
        Prefix {
            next: first,
            ahead: BTreeSet::new(),
        }
    }

    fn mark(&mut self, index: u64) {
        if index != self.next {
            self.ahead.insert(index);
            return;
        }
        self.next += 1;
        while self.ahead.remove(&self.next) {
            self.next += 1;
        }
    }
}

/// The frames finished by the lanes of extractors without history and by the temporal lane.
#[derive(Debug)]
struct DoneFrames {
    independent: Prefix,
    temporal: Prefix,
}

/// Called (on a worker thread or the submitting one) each time a frame's scores were
/// written to the collector, with no lock of the context held: a live reader's wake-up.
pub type ScoreListener = Arc<dyn Fn() + Send + Sync>;

impl Shared {
    /// Records that `lane` finished frame `index`, then tells the listener.
    fn ran(&self, lane: &Lane, index: u64) {
        {
            let mut d = self.done.lock().unwrap_or_else(|p| p.into_inner());
            if lane.temporal {
                d.temporal.mark(index);
            } else {
                d.independent.mark(index);
            }
        }
        let listener = self
            .listener
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if let Some(l) = listener {
            l();
        }
    }

    fn fail(&self, e: Error) {
        let mut g = self.error.lock().unwrap_or_else(|p| p.into_inner());
        g.get_or_insert(e);
    }
}

/// The [`Rank::stage`] of extractor `info`'s scores under `order`.
fn stage(info: &ExtractorInfo, order: FeatureOrder) -> u8 {
    match order {
        FeatureOrder::Serial => 0,
        FeatureOrder::Pool => u8::from(!registry::on_reading_thread(info)),
    }
}

fn make_instance(reg: &Registration, geometry: Geometry) -> Result<Box<dyn Extractor>> {
    let mut x = reg.info.instantiate(&reg.options)?;
    x.init(geometry)
        .map_err(|e| e.context(format_args!("feature '{}'", reg.info.name)))?;
    Ok(x)
}

impl Lane {
    fn new(
        regs: &[Registration],
        geometry: Geometry,
        temporal: bool,
        window: &FrameWindow,
    ) -> Result<Lane> {
        let mut instances = Vec::with_capacity(regs.len());
        for reg in regs {
            let mine = (reg.ordering == Ordering::Temporal) == temporal;
            instances.push(if mine {
                let mut x = make_instance(reg, geometry)?;
                if window.first_fed > 0 {
                    x.start_at(window.first_fed);
                }
                Some(x)
            } else {
                None
            });
        }
        Ok(Lane {
            spent: vec![Duration::ZERO; instances.len()],
            instances,
            kept: window.kept.clone(),
            temporal,
        })
    }

    fn run(&mut self, job: &Job, regs: &[Registration], subsample: u32, shared: &Shared) {
        for (i, inst) in self.instances.iter_mut().enumerate() {
            let Some(x) = inst else { continue };
            let ordering = regs[i].ordering;
            // libvmaf subsamples only extractors that need no neighbouring frames.
            if ordering == Ordering::Independent
                && subsample > 1
                && !job.index.is_multiple_of(subsample as u64)
            {
                continue;
            }
            // A chunk's pre- and post-roll frames only feed features with history.
            if ordering == Ordering::Independent && !self.kept.contains(&job.index) {
                continue;
            }
            let prev_ok = ordering == Ordering::PrevRef;
            let input = ExtractInput {
                reference: &job.reference,
                distorted: &job.distorted,
                prev_reference: if prev_ok { job.prev.as_ref() } else { None },
                prev_prev_reference: if prev_ok {
                    job.prev_prev.as_ref()
                } else {
                    None
                },
                index: job.index,
            };
            let mut out = FrameScores::default();
            let start = Instant::now();
            let result = match &shared.reference {
                Some(scores) if registry::reads_reference_only(regs[i].info) => scores
                    .get_or_compute(i, job.index, || {
                        x.extract(&input, &mut out)?;
                        Ok(std::mem::take(&mut out.entries))
                    })
                    .map(|entries| out.entries = entries),
                _ => x.extract(&input, &mut out),
            };
            self.spent[i] += start.elapsed();
            if let Err(e) = result {
                shared.fail(e.context(format_args!(
                    "feature '{}' at frame {}",
                    regs[i].info.name, job.index
                )));
                return;
            }
            let mut c = shared.collector.lock().unwrap_or_else(|p| p.into_inner());
            for (pos, (name, index, value)) in out.entries.into_iter().enumerate() {
                let rank = Rank {
                    phase: 0,
                    stage: shared.stages[i],
                    writer: i,
                    index: job.index,
                    position: pos,
                };
                if let Err(e) = c.put(&name, index, value, rank) {
                    shared.fail(e);
                }
            }
        }
    }
}

struct Workers {
    sender: Option<SyncSender<Job>>,
    handles: Vec<JoinHandle<Lane>>,
}

/// A context dropped without a flush still waits for its workers: they finish the pairs
/// they hold and stop, so no thread outlives the frames and extractors it was given.
impl Drop for Workers {
    fn drop(&mut self) {
        self.sender.take();
        for h in self.handles.drain(..) {
            // A panicked worker has nothing left to hand back; the error was recorded.
            let _ = h.join();
        }
    }
}

fn spawn_lane(
    lane: Lane,
    rx: Arc<Mutex<Receiver<Job>>>,
    regs: Arc<Vec<Registration>>,
    subsample: u32,
    shared: Arc<Shared>,
) -> Result<JoinHandle<Lane>> {
    std::thread::Builder::new()
        .name("vmafx-worker".into())
        .spawn(move || {
            let mut lane = lane;
            loop {
                let job = {
                    let guard = rx.lock().unwrap_or_else(|p| p.into_inner());
                    guard.recv()
                };
                match job {
                    Ok(job) => {
                        lane.run(&job, &regs, subsample, &shared);
                        shared.ran(&lane, job.index);
                    }
                    Err(_) => return lane,
                }
            }
        })
        .map_err(|e| {
            Error::new(
                Status::NoMem,
                "threads",
                format!("cannot start a worker: {e}"),
            )
        })
}

impl Workers {
    fn start(
        lanes: Vec<Lane>,
        capacity: usize,
        regs: &Arc<Vec<Registration>>,
        subsample: u32,
        shared: &Arc<Shared>,
    ) -> Result<Workers> {
        let (tx, rx) = sync_channel::<Job>(capacity);
        let rx = Arc::new(Mutex::new(rx));
        let mut handles = Vec::new();
        for lane in lanes {
            handles.push(spawn_lane(
                lane,
                rx.clone(),
                regs.clone(),
                subsample,
                shared.clone(),
            )?);
        }
        Ok(Workers {
            sender: Some(tx),
            handles,
        })
    }

    fn send(&self, job: Job) -> Result<()> {
        self.sender
            .as_ref()
            .expect("workers are running until joined")
            .send(job)
            .map_err(|_| Error::new(Status::Internal, "threads", "a worker thread stopped"))
    }

    fn join(mut self) -> Result<Vec<Lane>> {
        self.sender.take();
        self.handles
            .drain(..)
            .map(|h| {
                h.join().map_err(|_| {
                    Error::new(Status::Internal, "threads", "a worker thread panicked")
                })
            })
            .collect()
    }
}

/// The running state of a context, made at its first frame.
pub(crate) struct Scheduler {
    regs: Arc<Vec<Registration>>,
    geometry: Geometry,
    subsample: u32,
    window: usize,
    shared: Arc<Shared>,
    pending: BTreeMap<u64, (Frame, Frame)>,
    next_index: u64,
    /// Earlier reference frames kept (see [`retained_references`]).
    retain: u32,
    prev: Option<(u64, Frame)>,
    prev_prev: Option<(u64, Frame)>,
    inline: Option<(Lane, Lane)>,
    workers: Option<Workers>,
    temporal: Option<Workers>,
}

impl Scheduler {
    pub(super) fn start(
        regs: Vec<Registration>,
        geometry: Geometry,
        config: &ContextConfig,
        window: &FrameWindow,
        listener: Option<ScoreListener>,
        reference: Option<Arc<ReferenceScores>>,
    ) -> Result<Scheduler> {
        let regs = Arc::new(regs);
        let shared = Arc::new(Shared {
            collector: Mutex::new(FeatureCollector::new()),
            error: Mutex::new(None),
            done: Mutex::new(DoneFrames {
                independent: Prefix::new(window.first_fed),
                temporal: Prefix::new(window.first_fed),
            }),
            listener: Mutex::new(listener),
            stages: regs
                .iter()
                .map(|r| stage(r.info, config.feature_order))
                .collect(),
            reference,
        });
        let subsample = config.subsample;
        let mut s = Scheduler {
            regs: regs.clone(),
            geometry,
            subsample,
            window: config.reorder_window,
            shared: shared.clone(),
            pending: BTreeMap::new(),
            next_index: window.first_fed,
            retain: retained_references(&regs),
            prev: None,
            prev_prev: None,
            inline: None,
            workers: None,
            temporal: None,
        };
        if config.threads == 0 {
            s.inline = Some((
                Lane::new(&regs, geometry, false, window)?,
                Lane::new(&regs, geometry, true, window)?,
            ));
        } else {
            let lanes = (0..config.threads)
                .map(|_| Lane::new(&regs, geometry, false, window))
                .collect::<Result<Vec<_>>>()?;
            // No queue by default: a worker takes each pair from `submit` directly (the
            // reader reads the next pair meanwhile), which keeps fewer frames alive.
            let cap = config.max_frames_in_flight;
            s.workers = Some(Workers::start(lanes, cap, &regs, subsample, &shared)?);
            let has_temporal = regs.iter().any(|r| r.ordering == Ordering::Temporal);
            if has_temporal {
                let lane = Lane::new(&regs, geometry, true, window)?;
                s.temporal = Some(Workers::start(vec![lane], cap, &regs, subsample, &shared)?);
            }
        }
        Ok(s)
    }

    pub(super) fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The scores collected so far (each final once written: the collector refuses a
    /// different value later) and how many frames from the first fed every extractor has
    /// run on (one past the last of them).
    pub(super) fn collected(&self) -> (MutexGuard<'_, FeatureCollector>, u64) {
        let done = {
            let d = self.shared.done.lock().unwrap_or_else(|p| p.into_inner());
            if self.temporal.is_some() || self.inline.is_some() {
                d.independent.next.min(d.temporal.next)
            } else {
                d.independent.next
            }
        };
        let c = self
            .shared
            .collector
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        (c, done)
    }

    /// The registered features.
    pub(super) fn registrations(&self) -> &[Registration] {
        &self.regs
    }

    /// Sets the listener told of every frame scored from now on.
    pub(super) fn set_listener(&self, listener: Option<ScoreListener>) {
        *self
            .shared
            .listener
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = listener;
    }

    pub(super) fn take_error(&self) -> Result<()> {
        match self
            .shared
            .error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    pub(super) fn submit(&mut self, reference: Frame, distorted: Frame, index: u64) -> Result<()> {
        self.take_error()?;
        if index < self.next_index || self.pending.contains_key(&index) {
            return Err(Error::invalid(
                format!("frame {index}"),
                "this index was already submitted",
            ));
        }
        if index - self.next_index >= self.window as u64 {
            return Err(Error::range(
                format!("frame {index}"),
                format!(
                    "index is {} ahead of the next index in order ({}); the reorder window is {}",
                    index - self.next_index,
                    self.next_index,
                    self.window
                ),
            ));
        }
        self.pending.insert(index, (reference, distorted));
        while let Some(entry) = self.pending.first_entry() {
            if *entry.key() != self.next_index {
                break;
            }
            let (index, (r, d)) = entry.remove_entry();
            self.dispatch(index, r, d)?;
            self.next_index = index + 1;
        }
        self.take_error()
    }

    fn neighbour(slot: &Option<(u64, Frame)>, want: Option<u64>) -> Option<Frame> {
        match (slot, want) {
            (Some((i, f)), Some(w)) if *i == w => Some(f.clone()),
            _ => None,
        }
    }

    fn dispatch(&mut self, index: u64, reference: Frame, distorted: Frame) -> Result<()> {
        let prev = Self::neighbour(&self.prev, index.checked_sub(1));
        let prev_prev = Self::neighbour(&self.prev_prev, index.checked_sub(2))
            .or_else(|| Self::neighbour(&self.prev, index.checked_sub(2)));
        // Keep only the earlier references the extractors read: none, n-1, or n-1 and n-2.
        let kept = (self.retain > 0).then(|| (index, reference.clone()));
        self.prev_prev = if self.retain > 1 {
            self.prev.take()
        } else {
            None
        };
        self.prev = kept;
        let job = Job {
            index,
            reference,
            distorted,
            prev,
            prev_prev,
        };
        if let Some((lane, tlane)) = &mut self.inline {
            lane.run(&job, &self.regs, self.subsample, &self.shared);
            tlane.run(&job, &self.regs, self.subsample, &self.shared);
            self.shared.ran(lane, index);
            self.shared.ran(tlane, index);
            return Ok(());
        }
        if let Some(t) = &self.temporal {
            t.send(Job {
                index,
                reference: job.reference.clone(),
                distorted: job.distorted.clone(),
                prev: job.prev.clone(),
                prev_prev: job.prev_prev.clone(),
            })?;
        }
        self.workers
            .as_ref()
            .expect("workers run when not inline")
            .send(job)
    }

    /// Scores what is still buffered, stops the workers, flushes every feature once and
    /// hands back the collector with the time each registered feature spent extracting.
    pub(super) fn finish(mut self) -> Result<(FeatureCollector, Vec<Duration>)> {
        // Frames left behind a gap are scored in order; their missing neighbours are None.
        while let Some((index, (r, d))) = self.pending.pop_first() {
            self.dispatch(index, r, d)?;
            self.next_index = index + 1;
        }
        self.prev = None;
        self.prev_prev = None;
        let mut lanes: Vec<Lane> = Vec::new();
        if let Some((a, b)) = self.inline.take() {
            lanes.push(a);
            lanes.push(b);
        }
        if let Some(w) = self.workers.take() {
            lanes.extend(w.join()?);
        }
        if let Some(t) = self.temporal.take() {
            lanes.extend(t.join()?);
        }
        self.take_error()?;
        let mut collector = std::mem::take(
            &mut *self
                .shared
                .collector
                .lock()
                .unwrap_or_else(|p| p.into_inner()),
        );
        // Flush each feature once, on the first lane holding an instance of it.
        for i in 0..self.regs.len() {
            let Some(x) = lanes.iter_mut().find_map(|l| l.instances[i].as_mut()) else {
                continue;
            };
            let mut store = FlushStore {
                collector: &mut collector,
                rank: Rank {
                    phase: 1,
                    stage: self.shared.stages[i],
                    writer: i,
                    index: 0,
                    position: 0,
                },
                error: None,
            };
            x.flush(&mut store).map_err(|e| {
                e.context(format_args!(
                    "flushing feature '{}'",
                    self.regs[i].info.name
                ))
            })?;
            if let Some(e) = store.error {
                return Err(e);
            }
        }
        let spent = (0..self.regs.len())
            .map(|i| lanes.iter().map(|l| l.spent[i]).sum())
            .collect();
        Ok((collector, spent))
    }
}
