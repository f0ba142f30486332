//! Scores that depend on the reference frames alone (motion), computed once for every
//! context scoring one reference against several distorted inputs
//! ([`crate::Scorer::score_readers_many`]) and handed to each of them.
//!
//! The contexts of such a set are made from one configuration, so their registrations
//! match position for position and they are fed the same reference frames at the same
//! indices: the scores of registration `r` at frame `i` are the same for all of them. The
//! first context to need them computes them while holding that slot, so that another
//! context asking meanwhile waits and takes them instead of computing them again. Slots
//! far behind the newest frame are dropped (the contexts of a set run within a frame or two
//! of one another); a context that finds none computes the scores itself, which gives the
//! same values.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::error::Result;

/// One extractor's scores at one frame: (feature, index, value) as written.
pub(crate) type Entries = Vec<(String, u64, f64)>;

/// How many frames behind the newest a slot is kept.
const KEPT_BEHIND: u64 = 16;

/// A slot: empty until its scores are computed.
type Slot = Arc<Mutex<Option<Entries>>>;

/// Reference-only scores of a set of contexts, by (registration, frame index).
#[derive(Debug, Default)]
pub(crate) struct ReferenceScores {
    slots: Mutex<BTreeMap<(u64, usize), Slot>>,
}

impl ReferenceScores {
    /// An empty store, to hand to every context of a set.
    pub(crate) fn new() -> Arc<ReferenceScores> {
        Arc::new(ReferenceScores::default())
    }

    /// The scores of registration `reg` at frame `index`: those another context computed,
    /// or `compute`'s (kept for the others). A failure is handed back and kept for none.
    pub(crate) fn get_or_compute(
        &self,
        reg: usize,
        index: u64,
        compute: impl FnOnce() -> Result<Entries>,
    ) -> Result<Entries> {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
            let slot = slots.entry((index, reg)).or_default().clone();
            let oldest = index.saturating_sub(KEPT_BEHIND);
            while slots.first_key_value().is_some_and(|(k, _)| k.0 < oldest) {
                slots.pop_first();
            }
            slot
        };
        let mut held = slot.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(entries) = held.as_ref() {
            return Ok(entries.clone());
        }
        let entries = compute()?;
        *held = Some(entries.clone());
        Ok(entries)
    }

    /// How many slots are held (for tests).
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.slots.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn entry(v: f64) -> Result<Entries> {
        Ok(vec![("f".into(), 0, v)])
    }

    #[test]
    fn scores_are_computed_once_per_registration_and_frame() {
        let s = ReferenceScores::new();
        let mut calls = 0;
        let mut get = |reg, index, v| {
            s.get_or_compute(reg, index, || {
                calls += 1;
                entry(v)
            })
            .unwrap()[0]
                .2
        };
        assert_eq!(get(0, 5, 1.0), 1.0);
        assert_eq!(get(0, 5, 2.0), 1.0);
        assert_eq!(get(1, 5, 3.0), 3.0);
        assert_eq!(get(0, 6, 4.0), 4.0);
        assert_eq!(calls, 3);
    }

    #[test]
    fn a_failure_is_kept_for_none_and_old_frames_are_dropped() {
        let s = ReferenceScores::new();
        let failed = s.get_or_compute(0, 0, || Err(Error::invalid("x", "no")));
        assert!(failed.is_err());
        assert_eq!(s.get_or_compute(0, 0, || entry(7.0)).unwrap()[0].2, 7.0);
        for i in 1..=40 {
            s.get_or_compute(0, i, || entry(i as f64)).unwrap();
        }
        assert_eq!(s.held(), KEPT_BEHIND as usize + 1);
        // A dropped frame is computed again, by whoever asks.
        assert_eq!(s.get_or_compute(0, 0, || entry(9.0)).unwrap()[0].2, 9.0);
    }
}
