//! The test hooks compiled out (builds without the `test-hooks` feature): the engine's
//! calls into [`hooks`](self) stay in place, but every switch is off, every counter does
//! nothing and no failure is ever planted, so the optimiser removes them.

use crate::error::{Error, Status};

pub(crate) use crate::fence::MonotonicClock as TestClock;

/// Switch: an import treats an unsignalled acquire fence as signalled (never set here).
pub(crate) const SKIP_ACQUIRE_WAIT: u32 = 1 << 0;
/// Switch: host-memory imports copy planar planes (never set here).
pub(crate) const FORCE_HOST_COPY: u32 = 1 << 2;
/// No residency override.
pub(crate) const RESIDENCY_OFF: u32 = u32::MAX;

/// Always `false`: no switch exists.
#[inline(always)]
pub(crate) fn switch(_bit: u32) -> bool {
    false
}

/// Nothing is counted.
#[inline(always)]
pub(crate) fn count_host_copy(_bytes: u64) {}

/// Nothing is counted.
#[inline(always)]
pub(crate) fn count_conversion() {}

/// Nothing is counted.
#[inline(always)]
pub(crate) fn count_import_attempt() {}

/// Always `None`: no failure is planted.
#[inline(always)]
pub(crate) fn take_import_failure() -> Option<Status> {
    None
}

/// The error a planted failure would be (unreachable: none is planted).
pub(crate) fn planted_import_error(status: Status) -> Error {
    Error::new(status, "desc", "planted import failure")
}

/// Always [`RESIDENCY_OFF`].
#[inline(always)]
pub(crate) fn import_residency() -> u32 {
    RESIDENCY_OFF
}

/// Nothing is noted.
#[inline(always)]
pub(crate) fn note_retry_wait(_ns: u64) {}
