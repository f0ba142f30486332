//! libvmaf's own C API (`libvmaf.so.3`) on the vmafx engine.
//!
//! Programs written against libvmaf 3.2's headers (FFmpeg's `libvmaf` filter, GStreamer's
//! vmaf element, ...) link this library unchanged and score with vmafx. Every function
//! answers 0 or a negative errno value as libvmaf does; no panic crosses the boundary
//! (`guard`). Pictures from [`picture::vmaf_picture_alloc`] become engine frames without a
//! copy: the frame holds the picture's buffer until the engine lets go of it.

mod binding;
pub mod bridge;
pub mod context;
pub mod dictionary;
pub mod ffi;
pub mod model;
pub mod picture;
mod report;
mod scores;

use std::ffi::{c_char, c_int, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use vmafx::error::{Error, Status};

/// errno values libvmaf returns (negated), as Linux numbers them.
pub mod errno {
    use std::ffi::c_int;
    /// Out of memory.
    pub const ENOMEM: c_int = 12;
    /// Resource busy.
    pub const EBUSY: c_int = 16;
    /// Invalid argument: libvmaf's answer to almost every misuse.
    pub const EINVAL: c_int = 22;
    /// Try again: a score that is not final yet.
    pub const EAGAIN: c_int = 11;
}

/// Runs `f` and returns its answer, or `-EINVAL` if it panicked, so that no unwinding
/// crosses into C (the panic message still goes to stderr through the panic hook).
pub(crate) fn guard(f: impl FnOnce() -> c_int) -> c_int {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(-errno::EINVAL)
}

/// The negative errno libvmaf gives for what the engine reported as `e`.
pub(crate) fn errno_of(e: &Error) -> c_int {
    -match e.status() {
        Status::NoMem => errno::ENOMEM,
        Status::Busy => errno::EBUSY,
        Status::Pending => errno::EAGAIN,
        _ => errno::EINVAL,
    }
}

/// 0 for `Ok`, the errno of the error otherwise.
pub(crate) fn code(r: vmafx::Result<()>) -> c_int {
    match r {
        Ok(()) => 0,
        Err(e) => errno_of(&e),
    }
}

/// The UTF-8 text of a C string, or `None` for NULL or invalid UTF-8.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that stays valid for `'a`.
pub(crate) unsafe fn text<'a>(p: *const c_char) -> Option<&'a str> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    unsafe { CStr::from_ptr(p) }.to_str().ok()
}

/// libvmaf's version string.
#[no_mangle]
pub extern "C" fn vmaf_version() -> *const c_char {
    c"3.2.0".as_ptr()
}
