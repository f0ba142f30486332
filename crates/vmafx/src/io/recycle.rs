//! [`PlaneRecycler`]: the planes of a reader's released frames, kept for its next frames.
//!
//! A 1080p frame is megabytes of fresh pages when allocated anew: the kernel faults and
//! clears each one, several percent of a whole run and more with two workers. A reader's
//! frames all have one geometry, so where a frame's last count drops its planes come back
//! here and the next frame is read into them. Only planes the reader made come back, and
//! every sample a frame exposes is overwritten by the next read (row padding, never
//! written, stays as the first allocation zeroed it), so a recycled frame is
//! indistinguishable from a new one.

use std::sync::{Arc, Mutex};

use crate::frame::{Plane, ReleaseHook};

/// Plane sets kept at most: more than a context holds in flight by default, few enough
/// that a burst of frames does not pin its memory for the rest of the run.
pub(crate) const KEEP: usize = 8;

/// Free plane sets shared between a reader and the release hooks of its frames.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlaneRecycler {
    free: Arc<Mutex<Vec<Vec<Plane>>>>,
}

impl PlaneRecycler {
    /// A set of planes a released frame gave back, if there is one.
    pub(crate) fn take(&self) -> Option<Vec<Plane>> {
        self.free.lock().unwrap_or_else(|p| p.into_inner()).pop()
    }

    /// The hook for a new frame: gives its planes back where its last count drops (or
    /// frees them where [`KEEP`] sets are already waiting).
    pub(crate) fn hook(&self) -> ReleaseHook {
        let free = Arc::clone(&self.free);
        Box::new(move |planes| {
            let mut free = free.lock().unwrap_or_else(|p| p.into_inner());
            if free.len() < KEEP {
                free.push(planes);
            }
        })
    }

    /// Plane sets waiting now.
    #[cfg(test)]
    pub(crate) fn waiting(&self) -> usize {
        self.free.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_at_most_keep_sets() {
        let r = PlaneRecycler::default();
        let hooks: Vec<_> = (0..KEEP + 3).map(|_| r.hook()).collect();
        for hook in hooks {
            hook(vec![Plane::zeroed(4, 2, false)]);
        }
        assert_eq!(r.waiting(), KEEP);
        assert!(r.take().is_some_and(|set| set.len() == 1));
        assert_eq!(r.waiting(), KEEP - 1);
    }
}
