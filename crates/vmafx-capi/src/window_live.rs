//! The machinery behind window scores: each context's completion thread, which completes
//! windows as their frames become final, and its callback thread, which runs the windows'
//! callbacks in completion order.
//!
//! Lock order: the context's engine lock, then [`Live::state`], then a window's own lock.
//! The engine's score listener takes only [`Live::state`]. The completion thread sleeps on a
//! condition variable until a frame was scored or a call fed the context (no polling).

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use vmafx::Status;

use crate::session::Inner;
use crate::window_state::{complete, VmafxWindow, VmafxWindowResult};

/// At most this many windows of one context are open at a time.
pub const MAX_OPEN_WINDOWS: usize = 1024;

/// What the two threads of a context share with the calls.
#[derive(Default)]
pub(crate) struct LiveState {
    /// Windows not yet completed, oldest first.
    pub open: Vec<Arc<VmafxWindow>>,
    /// Bumped by every change that may complete a window.
    generation: u64,
    /// Completed windows whose callbacks are due, in completion order.
    callbacks: VecDeque<Arc<VmafxWindow>>,
    /// Set by the context's destruction: complete what is left and stop.
    stop: bool,
    /// The completion thread has stopped: no more callbacks will be queued.
    completer_done: bool,
}

/// A context's window state and threads.
#[derive(Default)]
pub(crate) struct Live {
    state: Mutex<LiveState>,
    wake: Condvar,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Live {
    pub(crate) fn lock(&self) -> MutexGuard<'_, LiveState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Tells the completion thread that something may have completed a window.
    pub(crate) fn signal(&self) {
        let mut s = self.lock();
        s.generation = s.generation.wrapping_add(1);
        drop(s);
        self.wake.notify_all();
    }

    /// Windows open and not released.
    pub(crate) fn open_count(s: &LiveState) -> usize {
        s.open.iter().filter(|w| !w.is_released()).count()
    }

    /// Starts both threads unless they run: the completion thread over `engine`.
    pub(crate) fn start(self: &Arc<Self>, engine: &Arc<Mutex<Inner>>) -> Result<(), String> {
        let mut threads = self.threads.lock().unwrap_or_else(|p| p.into_inner());
        if !threads.is_empty() {
            return Ok(());
        }
        let (live, eng) = (self.clone(), Arc::downgrade(engine));
        let completer = std::thread::Builder::new()
            .name("vmafx-windows".into())
            .spawn(move || live.complete_loop(&eng))
            .map_err(|e| e.to_string())?;
        threads.push(completer);
        let live = self.clone();
        match std::thread::Builder::new()
            .name("vmafx-window-callbacks".into())
            .spawn(move || live.callback_loop())
        {
            Ok(t) => threads.push(t),
            Err(e) => {
                drop(threads);
                self.stop();
                return Err(e.to_string());
            }
        }
        Ok(())
    }

    /// Completes what it can, then every window left with `VMAFX_E_INVALID`, runs every
    /// callback and stops both threads (the context is being destroyed).
    pub(crate) fn stop(&self) {
        self.lock().stop = true;
        self.wake.notify_all();
        let threads: Vec<_> = self
            .threads
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
            .collect();
        for t in threads {
            // A thread that panicked has nothing left to do.
            let _ = t.join();
        }
        // No thread ran: complete the open windows here.
        let left: Vec<_> = std::mem::take(&mut self.lock().open);
        for w in left {
            w.finish(destroyed(&w));
        }
    }

    fn complete_loop(&self, engine: &std::sync::Weak<Mutex<Inner>>) {
        let mut seen = u64::MAX;
        loop {
            let (open, stop) = {
                let mut s = self.lock();
                while s.generation == seen && !s.stop {
                    s = self.wake.wait(s).unwrap_or_else(|p| p.into_inner());
                }
                seen = s.generation;
                (s.open.clone(), s.stop)
            };
            let done = match engine.upgrade() {
                Some(e) => {
                    let mut inner = e.lock().unwrap_or_else(|p| p.into_inner());
                    open.iter()
                        .filter_map(|w| {
                            if w.is_released() {
                                return Some((w.clone(), None));
                            }
                            complete(&mut inner, w).map(|r| (w.clone(), Some(r)))
                        })
                        .collect::<Vec<_>>()
                }
                None => Vec::new(),
            };
            let mut s = self.lock();
            for (w, result) in done {
                s.open.retain(|o| !Arc::ptr_eq(o, &w));
                if let Some(r) = result {
                    w.finish(r);
                    if w.has_callback() {
                        s.callbacks.push_back(w);
                    }
                }
            }
            if stop {
                for w in std::mem::take(&mut s.open) {
                    if !w.is_released() {
                        w.finish(destroyed(&w));
                        if w.has_callback() {
                            s.callbacks.push_back(w);
                        }
                    }
                }
                s.completer_done = true;
                drop(s);
                self.wake.notify_all();
                return;
            }
            drop(s);
            self.wake.notify_all();
        }
    }

    fn callback_loop(&self) {
        loop {
            let next = {
                let mut s = self.lock();
                loop {
                    if let Some(w) = s.callbacks.pop_front() {
                        break Some(w);
                    }
                    if s.completer_done {
                        break None;
                    }
                    s = self.wake.wait(s).unwrap_or_else(|p| p.into_inner());
                }
            };
            match next {
                Some(w) => w.run_callback(),
                None => return,
            }
        }
    }
}

/// The result of a window whose context was destroyed before it completed.
fn destroyed(w: &VmafxWindow) -> VmafxWindowResult {
    let mut r = w.empty_result();
    r.status = Status::Invalid.code();
    r
}
