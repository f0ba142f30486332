//! Ctrl-C and the progress callback while the engine scores with the GIL released: after
//! every frame the scoring thread takes the GIL, runs Python's signal handlers
//! (`PyErr_CheckSignals`, so Ctrl-C raises `KeyboardInterrupt` between two frames) and the
//! caller's `progress(done, total)`; an exception from either stops the run at the next
//! frame and is raised once the engine hands back.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use vmafx::{Progress, ScorerConfig};

/// What a run's frame hook found: the stop flag it set and the exception to raise.
pub struct Watch {
    stop: Arc<AtomicBool>,
    error: Arc<Mutex<Option<PyErr>>>,
}

impl Watch {
    /// `config` with the frame hook (signals, then `progress`) and its stop flag.
    pub fn install(config: ScorerConfig, progress: Option<PyObject>) -> (ScorerConfig, Watch) {
        let stop = Arc::new(AtomicBool::new(false));
        let error: Arc<Mutex<Option<PyErr>>> = Arc::new(Mutex::new(None));
        let (flag, slot) = (Arc::clone(&stop), Arc::clone(&error));
        let hook: Box<dyn FnMut(Progress) + Send> = Box::new(move |p: Progress| {
            if flag.load(Ordering::SeqCst) {
                return;
            }
            Python::with_gil(|py| {
                let outcome = py.check_signals().and_then(|()| match &progress {
                    Some(cb) => cb.call1(py, (p.done, p.total)).map(|_| ()),
                    None => Ok(()),
                });
                if let Err(e) = outcome {
                    *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                    flag.store(true, Ordering::SeqCst);
                }
            });
        });
        let config = config.on_progress(hook).stop_when(Arc::clone(&stop));
        (config, Watch { stop, error })
    }

    /// The exception the hook met, if any (the run was then stopped).
    pub fn raised(&self) -> Option<PyErr> {
        if !self.stop.load(Ordering::SeqCst) {
            return None;
        }
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}
