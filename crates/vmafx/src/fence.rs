//! Fences: set-once signals that order a producer and the engine (ADR-1929 items 2-4).
//!
//! A HOST fence is a reference-counted flag that is set once and never cleared; cloning a
//! [`Fence`] adds a reference. Waiting polls with short sleeps against a monotonic clock, so
//! a wait with a timeout of zero is a non-blocking query that answers [`WaitOutcome::Pending`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::{Error, Result, Status};

/// Kinds of fence, with VMAFx's C ABI values. Only `None` and `Host` are implemented on
/// the CPU device; the others are declared so backends add them without an ABI change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum FenceKind {
    /// No fence: the resource is ready.
    None = 0,
    /// A library-owned host flag.
    Host = 1,
    /// A CUDA event.
    CudaEvent = 2,
    /// A HIP event.
    HipEvent = 3,
    /// A SYCL event.
    SyclEvent = 4,
    /// A Linux sync_file descriptor.
    SyncFile = 5,
    /// A Metal shared event.
    MetalSharedEvent = 6,
    /// A Windows shared fence handle.
    Win32Shared = 7,
}

impl FenceKind {
    /// The kind for a C ABI value, if the value names one.
    pub fn from_u32(v: u32) -> Option<Self> {
        Some(match v {
            0 => Self::None,
            1 => Self::Host,
            2 => Self::CudaEvent,
            3 => Self::HipEvent,
            4 => Self::SyclEvent,
            5 => Self::SyncFile,
            6 => Self::MetalSharedEvent,
            7 => Self::Win32Shared,
            _ => return None,
        })
    }

    /// The C ABI name of the kind.
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "VMAFX_FENCE_NONE",
            Self::Host => "VMAFX_FENCE_HOST",
            Self::CudaEvent => "VMAFX_FENCE_CUDA_EVENT",
            Self::HipEvent => "VMAFX_FENCE_HIP_EVENT",
            Self::SyclEvent => "VMAFX_FENCE_SYCL_EVENT",
            Self::SyncFile => "VMAFX_FENCE_SYNC_FILE",
            Self::MetalSharedEvent => "VMAFX_FENCE_METAL_SHARED_EVENT",
            Self::Win32Shared => "VMAFX_FENCE_WIN32_SHARED",
        }
    }
}

/// What a wait found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitOutcome {
    /// The fence is signalled.
    Signalled,
    /// A zero-timeout poll found it unsignalled (not an error).
    Pending,
}

/// How long one poll sleeps between looks at the flag.
pub const POLL_INTERVAL: Duration = Duration::from_micros(50);

#[derive(Debug, Default)]
struct FenceState {
    signalled: AtomicBool,
}

/// A host fence: a shared, set-once flag. `Clone` is one more reference.
///
/// ```
/// use std::time::Duration;
/// use vmafx::fence::WaitOutcome;
/// use vmafx::Fence;
///
/// let written = Fence::new();
/// let producer = written.clone();
/// let t = std::thread::spawn(move || producer.signal());
/// let outcome = written.wait(Duration::from_secs(5), "written")?;
/// t.join().unwrap();
/// assert_eq!(outcome, WaitOutcome::Signalled);
/// assert!(written.is_signalled());
/// # Ok::<(), vmafx::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Fence {
    state: Arc<FenceState>,
}

impl Fence {
    /// A new, unsignalled host fence.
    pub fn new() -> Self {
        Self::default()
    }

    /// A fence that is already signalled.
    pub fn signalled() -> Self {
        let f = Self::new();
        f.signal();
        f
    }

    /// Sets the flag. Signalling twice is harmless.
    pub fn signal(&self) {
        self.state.signalled.store(true, Ordering::Release);
    }

    /// Whether the flag is set.
    pub fn is_signalled(&self) -> bool {
        self.state.signalled.load(Ordering::Acquire)
    }

    /// Whether two handles share one fence.
    pub fn same_as(&self, other: &Fence) -> bool {
        Arc::ptr_eq(&self.state, &other.state)
    }

    /// The number of handles sharing this fence.
    pub fn ref_count(&self) -> usize {
        Arc::strong_count(&self.state)
    }

    /// Waits until signalled or until `timeout` passes on a monotonic clock.
    ///
    /// A zero timeout is a poll: [`WaitOutcome::Pending`] when unsignalled, never an error.
    /// An expired non-zero timeout is [`Status::Timeout`] naming `name`.
    pub fn wait(&self, timeout: Duration, name: &str) -> Result<WaitOutcome> {
        self.wait_with_clock(timeout, name, &MonotonicClock)
    }

    /// As [`Fence::wait`], measuring time with `clock` (tests use a virtual clock).
    pub fn wait_with_clock(
        &self,
        timeout: Duration,
        name: &str,
        clock: &dyn WaitClock,
    ) -> Result<WaitOutcome> {
        if self.is_signalled() {
            return Ok(WaitOutcome::Signalled);
        }
        if timeout.is_zero() {
            return Ok(WaitOutcome::Pending);
        }
        let start = clock.now();
        loop {
            if self.is_signalled() {
                return Ok(WaitOutcome::Signalled);
            }
            if clock.now().saturating_sub(start) >= timeout {
                return Err(Error::new(
                    Status::Timeout,
                    name,
                    format!("fence not signalled within {} ns", timeout.as_nanos()),
                ));
            }
            clock.sleep(POLL_INTERVAL);
        }
    }
}

/// A clock for fence waits: the real monotonic clock, or a test's virtual one.
pub trait WaitClock: Sync {
    /// Time since an arbitrary fixed start.
    fn now(&self) -> Duration;
    /// Lets `d` pass.
    fn sleep(&self, d: Duration);
}

/// The process's monotonic clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct MonotonicClock;

fn process_start() -> Instant {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *START.get_or_init(Instant::now)
}

impl WaitClock for MonotonicClock {
    fn now(&self) -> Duration {
        process_start().elapsed()
    }
    fn sleep(&self, d: Duration) {
        std::thread::sleep(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poll_is_pending_then_signalled() {
        let f = Fence::new();
        assert_eq!(f.wait(Duration::ZERO, "f").unwrap(), WaitOutcome::Pending);
        let g = f.clone();
        g.signal();
        g.signal();
        assert_eq!(f.wait(Duration::ZERO, "f").unwrap(), WaitOutcome::Signalled);
        assert_eq!(f.ref_count(), 2);
    }

    #[test]
    fn expired_wait_is_timeout_naming_fence() {
        let f = Fence::new();
        let e = f
            .wait(Duration::from_millis(2), "acquire fence")
            .unwrap_err();
        assert_eq!(e.status(), Status::Timeout);
        assert_eq!(e.subject(), "acquire fence");
    }

    #[test]
    fn signal_from_another_thread_ends_wait() {
        let f = Fence::new();
        let g = f.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(5));
            g.signal();
        });
        assert_eq!(
            f.wait(Duration::from_secs(5), "f").unwrap(),
            WaitOutcome::Signalled
        );
        t.join().unwrap();
    }
}
