//! The transports that carry JSON-RPC messages to a [`Server`](crate::Server): file
//! descriptors (stdio), a Unix domain socket, and server-sent events on loopback HTTP.

mod fd;
pub(crate) mod lines;
pub(crate) mod sse;
pub mod stdio;
pub(crate) mod uds;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A transport running on its own thread; [`Running::stop`] (or dropping it) stops it and
/// joins the thread.
#[derive(Debug)]
pub struct Running {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Running {
    pub(crate) fn new(stop: Arc<AtomicBool>, thread: JoinHandle<()>) -> Running {
        Running {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops the transport and waits for its threads to end (within about 50 ms of a pending
    /// read; a tool call in progress finishes first).
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}
