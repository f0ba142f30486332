//! Helpers every C face shares: C strings in, log levels and log callbacks of the caller.

use std::ffi::{c_char, c_void, CStr};
use std::sync::Arc;

use vmafx::context::LogLevel;
use vmafx::Status;

use crate::abi::VmafxLogCallback;
use crate::error::{fail, null, CResult};

/// A C string parameter named `name`.
///
/// # Safety
/// `s` is NULL or NUL-terminated.
pub(crate) unsafe fn c_str<'a>(s: *const c_char, name: &str) -> CResult<&'a str> {
    if s.is_null() {
        return Err(null(name));
    }
    // SAFETY: non-NULL and NUL-terminated (the caller's contract).
    unsafe { CStr::from_ptr(s) }
        .to_str()
        .map_err(|_| fail(Status::Invalid, name, "not UTF-8"))
}

/// The engine's log level for a `VmafxLogLevel` value.
pub(crate) fn log_level(v: u32) -> CResult<LogLevel> {
    Ok(match v {
        0 => LogLevel::None,
        1 => LogLevel::Error,
        2 => LogLevel::Warning,
        3 => LogLevel::Info,
        4 => LogLevel::Debug,
        _ => {
            return Err(fail(
                Status::Invalid,
                "config.log_level",
                format!("{v} is not a log level"),
            ))
        }
    })
}

/// The caller's log callback and user pointer as an engine log callback (`None` for NULL).
pub(crate) fn log_callback(
    cb: VmafxLogCallback,
    user: *mut c_void,
) -> Option<vmafx::context::LogCallback> {
    struct User(*mut c_void);
    // SAFETY: the ABI requires the caller's log callback to be thread-safe; the pointer is
    // only passed back to it.
    unsafe impl Send for User {}
    // SAFETY: as above.
    unsafe impl Sync for User {}
    let cb = cb?;
    let user = User(user);
    Some(Arc::new(move |level: LogLevel, msg: &str| {
        let text = std::ffi::CString::new(msg.replace('\0', " ")).unwrap_or_default();
        let u = &user;
        // SAFETY: the caller's callback with a NUL-terminated line valid for the call.
        unsafe { cb(level as u32, text.as_ptr(), u.0) }
    }))
}
