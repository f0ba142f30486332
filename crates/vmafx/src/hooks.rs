//! Test-only switches and counters of the device-frame path (ADR-1929 item 13).
//!
//! Everything here is a process-global atomic. The counters record every copy of imported
//! pixels through host memory and every planarisation of a semi-planar import, so a test
//! can assert that a path made no silent host copy. The switches plant the defects the
//! fence and copy tests must be able to see: with one set, a test that still passes cannot
//! see the defect. They exist only in test builds and with the `test-hooks` cargo feature
//! (which the C ABI crate's white-box C tests turn on); every other build compiles
//! `hooks_off.rs` in their place, whose switches are constant off and whose counters do
//! nothing, so a release library has no switch that plants a defect.
//!
//! The virtual clock replaces the monotonic clock of host fence waits while it is on: each
//! poll advances it by [`crate::fence::POLL_INTERVAL`] instead of sleeping, so a test sees a
//! ten-second bound hold without waiting ten seconds.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use crate::error::{Error, Status};
use crate::fence::{MonotonicClock, WaitClock};

/// Switch: an import treats an unsignalled acquire fence as signalled.
pub const SKIP_ACQUIRE_WAIT: u32 = 1 << 0;
/// Switch: a submit signals its frames' release fences when it returns, before the engine
/// has dropped its counts (read by the context's submit).
pub const EARLY_RELEASE: u32 = 1 << 1;
/// Switch: host-memory imports copy planar planes instead of binding them.
pub const FORCE_HOST_COPY: u32 = 1 << 2;

/// No residency override ([`set_import_residency`]).
pub const RESIDENCY_OFF: u32 = u32::MAX;

static SWITCHES: AtomicU32 = AtomicU32::new(0);
static HOST_COPIES: AtomicU64 = AtomicU64::new(0);
static HOST_COPY_BYTES: AtomicU64 = AtomicU64::new(0);
static CONVERSIONS: AtomicU64 = AtomicU64::new(0);
static IMPORT_ATTEMPTS: AtomicU64 = AtomicU64::new(0);
static FAIL_STATUS: AtomicI32 = AtomicI32::new(0);
static FAIL_COUNT: AtomicU32 = AtomicU32::new(0);
static RESIDENCY: AtomicU32 = AtomicU32::new(RESIDENCY_OFF);
static VIRTUAL_CLOCK: AtomicBool = AtomicBool::new(false);
static VIRTUAL_NOW_NS: AtomicU64 = AtomicU64::new(0);
static LAST_RETRY_WAIT_NS: AtomicU64 = AtomicU64::new(0);

/// Sets the switch mask (a combination of the switch constants; 0 clears every defect).
pub fn set_switches(mask: u32) {
    SWITCHES.store(mask, Ordering::SeqCst);
}

/// Whether every bit of `bit` is set.
pub fn switch(bit: u32) -> bool {
    bit != 0 && SWITCHES.load(Ordering::SeqCst) & bit == bit
}

/// Records one copy of `bytes` bytes of imported pixels through host memory.
pub fn count_host_copy(bytes: u64) {
    HOST_COPIES.fetch_add(1, Ordering::SeqCst);
    HOST_COPY_BYTES.fetch_add(bytes, Ordering::SeqCst);
}

/// Records one planarisation (de-interleave or shift) of an import.
pub fn count_conversion() {
    CONVERSIONS.fetch_add(1, Ordering::SeqCst);
}

/// Records one import attempt.
pub fn count_import_attempt() {
    IMPORT_ATTEMPTS.fetch_add(1, Ordering::SeqCst);
}

/// Host copies recorded since the last reset.
pub fn host_copies() -> u64 {
    HOST_COPIES.load(Ordering::SeqCst)
}

/// Bytes copied through host memory since the last reset.
pub fn host_copy_bytes() -> u64 {
    HOST_COPY_BYTES.load(Ordering::SeqCst)
}

/// Conversions recorded since the last reset.
pub fn conversions() -> u64 {
    CONVERSIONS.load(Ordering::SeqCst)
}

/// Import attempts recorded since the last reset.
pub fn import_attempts() -> u64 {
    IMPORT_ATTEMPTS.load(Ordering::SeqCst)
}

/// Clears every counter (the switches, the planted failures and the clock stay).
pub fn reset_counters() {
    for c in [
        &HOST_COPIES,
        &HOST_COPY_BYTES,
        &CONVERSIONS,
        &IMPORT_ATTEMPTS,
        &LAST_RETRY_WAIT_NS,
    ] {
        c.store(0, Ordering::SeqCst);
    }
}

/// The next `count` imports fail with `status` before they read their descriptor (a
/// transient failure for the import-rule retry tests). `Status::Ok` or 0 clears it.
pub fn fail_imports(status: Status, count: u32) {
    FAIL_STATUS.store(status.code(), Ordering::SeqCst);
    FAIL_COUNT.store(
        if status == Status::Ok { 0 } else { count },
        Ordering::SeqCst,
    );
}

/// The planted failure the current import takes, if one is left (each call uses one).
pub fn take_import_failure() -> Option<Status> {
    let taken = FAIL_COUNT.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    if taken.is_err() {
        return None;
    }
    Status::from_code(FAIL_STATUS.load(Ordering::SeqCst))
}

/// The planted failure as the error an import returns.
pub fn planted_import_error(status: Status) -> Error {
    Error::new(
        status,
        "desc",
        format!("planted import failure ({status}, test hook)"),
    )
}

/// Imported frames claim `backend` (a C ABI backend value) as their residency;
/// [`RESIDENCY_OFF`] restores their device's.
pub fn set_import_residency(backend: u32) {
    RESIDENCY.store(backend, Ordering::SeqCst);
}

/// The residency override, or [`RESIDENCY_OFF`].
pub fn import_residency() -> u32 {
    RESIDENCY.load(Ordering::SeqCst)
}

/// Turns the virtual clock on or off (turning it on starts it at 0).
pub fn set_virtual_clock(on: bool) {
    if on {
        VIRTUAL_NOW_NS.store(0, Ordering::SeqCst);
    }
    VIRTUAL_CLOCK.store(on, Ordering::SeqCst);
}

/// Whether fence waits read the virtual clock.
pub fn clock_is_virtual() -> bool {
    VIRTUAL_CLOCK.load(Ordering::SeqCst)
}

/// Now on the test clock, in nanoseconds: the virtual time, or the monotonic one.
pub fn clock_now_ns() -> u64 {
    TestClock.now().as_nanos().min(u64::MAX as u128) as u64
}

/// Advances the virtual clock by `ns` (no effect on the monotonic clock).
pub fn clock_advance(ns: u64) {
    VIRTUAL_NOW_NS.fetch_add(ns, Ordering::SeqCst);
}

/// Notes the host wait the import rule allowed itself before its retry.
pub fn note_retry_wait(ns: u64) {
    LAST_RETRY_WAIT_NS.store(ns, Ordering::SeqCst);
}

/// The wait last noted by [`note_retry_wait`] (0 before the first).
pub fn last_retry_wait_ns() -> u64 {
    LAST_RETRY_WAIT_NS.load(Ordering::SeqCst)
}

/// The clock host fence waits use: virtual while [`clock_is_virtual`], else monotonic.
#[derive(Debug, Clone, Copy, Default)]
pub struct TestClock;

impl WaitClock for TestClock {
    fn now(&self) -> Duration {
        if clock_is_virtual() {
            Duration::from_nanos(VIRTUAL_NOW_NS.load(Ordering::SeqCst))
        } else {
            MonotonicClock.now()
        }
    }

    fn sleep(&self, d: Duration) {
        if clock_is_virtual() {
            clock_advance(d.as_nanos().min(u64::MAX as u128) as u64);
        } else {
            MonotonicClock.sleep(d);
        }
    }
}

/// Serialises the tests of this crate that touch the process-global hooks.
#[cfg(test)]
pub(crate) fn test_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fence::Fence;

    #[test]
    fn planted_failures_run_out() {
        let _g = test_lock();
        fail_imports(Status::Busy, 2);
        assert_eq!(take_import_failure(), Some(Status::Busy));
        assert_eq!(take_import_failure(), Some(Status::Busy));
        assert_eq!(take_import_failure(), None);
    }

    #[test]
    fn virtual_clock_bounds_a_long_wait_without_waiting() {
        let _g = test_lock();
        set_virtual_clock(true);
        let start = std::time::Instant::now();
        let e = Fence::new()
            .wait_with_clock(Duration::from_secs(10), "fence", &TestClock)
            .unwrap_err();
        set_virtual_clock(false);
        assert_eq!(e.status(), Status::Timeout);
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn switches_are_bits() {
        let _g = test_lock();
        set_switches(SKIP_ACQUIRE_WAIT | FORCE_HOST_COPY);
        assert!(switch(SKIP_ACQUIRE_WAIT) && switch(FORCE_HOST_COPY) && !switch(EARLY_RELEASE));
        set_switches(0);
        assert!(!switch(SKIP_ACQUIRE_WAIT));
    }
}
