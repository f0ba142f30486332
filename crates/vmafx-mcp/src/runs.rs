//! The runs a server has scored, kept so later calls can read their scores and provenance.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use serde_json::Value;

/// How many finished runs a server keeps (the oldest goes first).
pub const KEPT_RUNS: usize = 32;

/// One finished run: its report, the engine's provenance record of it and its inputs.
#[derive(Debug)]
pub(crate) struct Run {
    pub id: u64,
    pub report: vmafx::Report,
    pub provenance: Value,
    pub inputs: Value,
}

/// The kept runs, shared by every transport of a server.
#[derive(Debug, Default)]
pub(crate) struct Runs {
    inner: Mutex<(u64, VecDeque<Arc<Run>>)>,
}

impl Runs {
    /// Keeps a finished run and returns it with its new id (1, 2, ...).
    pub fn add(&self, report: vmafx::Report, provenance: Value, inputs: Value) -> Arc<Run> {
        let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        g.0 += 1;
        let run = Arc::new(Run {
            id: g.0,
            report,
            provenance,
            inputs,
        });
        if g.1.len() == KEPT_RUNS {
            g.1.pop_front();
        }
        g.1.push_back(run.clone());
        run
    }

    /// Run `id`, or the latest when `id` is `None`.
    pub fn get(&self, id: Option<u64>) -> Option<Arc<Run>> {
        let g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        match id {
            None => g.1.back().cloned(),
            Some(id) => g.1.iter().find(|r| r.id == id).cloned(),
        }
    }
}
