//! What a context holds of a producer's frames, and frames and scores the producer hands
//! it directly: the retention and in-flight bounds a producer sizes its pool by, frames
//! preallocated by the context (counted like pool frames, ADR-1929 item 11), and scores
//! computed outside the library.

use super::collector::Rank;
use super::scheduler::{jobs_in_flight, retained_references};
use super::{Context, State};
use crate::error::{Error, Result, Status};
use crate::feature::Ordering;
use crate::frame::pool::FramePool;
use crate::frame::Frame;

impl Context {
    /// How many earlier reference frames the context keeps once a submit returns: as many
    /// as its previous-reference extractors read (0 for a context without one, such as
    /// psnr alone or with temporal features that keep their own state; 1 for motion; 2 for
    /// a reader of frame n-2, such as motion with `motion_five_frame_window`).
    pub fn frame_retention(&self) -> u32 {
        retained_references(&self.registrations)
    }

    /// The most frames of each input the context holds once a submit of pairs in index
    /// order returns: the retained references, and with worker threads every job in
    /// flight (each worker's and the queues', the temporal lane's included) with its frame
    /// and the earlier references it reads. A pair submitted ahead of the next index in
    /// order waits in the reorder window and adds one frame of each input until then.
    pub fn max_in_flight(&self) -> u32 {
        let temporal = self
            .registrations
            .iter()
            .any(|r| r.ordering == Ordering::Temporal);
        let jobs = jobs_in_flight(&self.config, temporal);
        let r = self.frame_retention();
        r + jobs * (r + 1)
    }

    /// Gives the context the frames a producer fills and submits (libvmaf's preallocated
    /// pictures; [`FramePool::new`] allocates them): once per context, a second call is
    /// `Busy`.
    pub fn preallocate(&mut self, pool: FramePool) -> Result<()> {
        if self.pool.is_some() {
            return Err(Error::new(
                Status::Busy,
                "context",
                "frames were already preallocated for this context",
            ));
        }
        self.pool = Some(pool);
        Ok(())
    }

    /// A free preallocated frame, its planes as the last user left them. It returns to
    /// the context's pool where its last count drops; `Busy` while every frame is in use,
    /// `Invalid` before [`Context::preallocate`].
    pub fn acquire_frame(&self) -> Result<Frame> {
        self.pool
            .as_ref()
            .ok_or_else(|| Error::invalid("context", "no frames were preallocated"))?
            .acquire()
    }

    /// Records `value` as the score of `feature` at `index`, computed outside the library.
    /// Before the flush the score waits and is collected with the extracted ones; a score
    /// the context already holds with another value is `Invalid` naming it.
    pub fn import_score(&mut self, feature: &str, index: u64, value: f64) -> Result<()> {
        if feature.is_empty() {
            return Err(Error::invalid("feature", "an empty feature name"));
        }
        if let Some((_, _, old)) = self
            .imported
            .iter()
            .find(|(n, i, _)| n == feature && *i == index)
        {
            if old.to_bits() != value.to_bits() {
                return Err(Error::invalid(
                    format!("{feature} at frame {index}"),
                    format!("score already imported as {old}; refusing {value}"),
                ));
            }
            return Ok(());
        }
        match &mut self.state {
            State::Done(c) => c.put(feature, index, value, imported_rank(index)),
            State::Failed => Err(Error::invalid(
                "context",
                "an earlier failure left no scores",
            )),
            _ => {
                self.imported.push((feature.to_string(), index, value));
                Ok(())
            }
        }
    }

    /// Collects the scores imported before the flush (called once the context is done).
    pub(super) fn collect_imported(&mut self) -> Result<()> {
        let imported = std::mem::take(&mut self.imported);
        let c = self.collector_mut()?;
        for (name, index, value) in imported {
            c.put(&name, index, value, imported_rank(index))?;
        }
        Ok(())
    }
}

/// Imported scores list after every extracted feature of their frame.
fn imported_rank(index: u64) -> Rank {
    Rank {
        phase: 1,
        stage: 0,
        index,
        writer: usize::MAX,
        position: 0,
    }
}
