//! error.h's functions: a status's name and what a `VmafxError` holds.

use std::ffi::{c_char, CStr};

use vmafx::Status;

use crate::c_export;
use crate::c_type::VmafxStatus;
use crate::error::VmafxError;

c_export! {
    /// Name of a status code, or `VMAFX_UNKNOWN_STATUS`.
    #[c = "The name of a status (`VMAFX_E_BUSY`), or `VMAFX_UNKNOWN_STATUS`."]
    pub fn vmafx_status_name(status: VmafxStatus) -> *const c_char {
        let name: &CStr = match Status::from_code(status) {
            Some(Status::Ok) => c"VMAFX_OK",
            Some(Status::Pending) => c"VMAFX_PENDING",
            Some(Status::Invalid) => c"VMAFX_E_INVALID",
            Some(Status::NoMem) => c"VMAFX_E_NOMEM",
            Some(Status::NotSup) => c"VMAFX_E_NOTSUP",
            Some(Status::NotFound) => c"VMAFX_E_NOTFOUND",
            Some(Status::Busy) => c"VMAFX_E_BUSY",
            Some(Status::Device) => c"VMAFX_E_DEVICE",
            Some(Status::Io) => c"VMAFX_E_IO",
            Some(Status::Range) => c"VMAFX_E_RANGE",
            Some(Status::Internal) => c"VMAFX_E_INTERNAL",
            Some(Status::Timeout) => c"VMAFX_E_TIMEOUT",
            Some(Status::Abi) => c"VMAFX_E_ABI",
            Some(Status::Mismatch) => c"VMAFX_E_MISMATCH",
            None => c"VMAFX_UNKNOWN_STATUS",
        };
        name.as_ptr()
    }
}

/// Borrows the error behind `error`, if any.
///
/// # Safety
/// `error` is NULL or a live error from this library.
unsafe fn get<'a>(error: *const VmafxError) -> Option<&'a VmafxError> {
    // SAFETY: NULL or live (the caller's contract).
    unsafe { error.as_ref() }
}

c_export! {
    /// Status of an error; `VMAFX_E_INVALID` for NULL.
    ///
    /// # Safety
    /// `error` is NULL or a live error from this library.
    #[c = "The status of an error; VMAFX_E_INVALID for NULL."]
    pub unsafe fn vmafx_error_status(error: *const VmafxError) -> VmafxStatus {
        // SAFETY: forwarded contract.
        unsafe { get(error) }.map_or(Status::Invalid.code(), |e| e.status.code())
    }
}

c_export! {
    /// Message of an error; empty for NULL.
    ///
    /// # Safety
    /// `error` is NULL or a live error from this library.
    #[c = "The message; an empty string for NULL."]
    pub unsafe fn vmafx_error_message(error: *const VmafxError) -> *const c_char {
        // SAFETY: forwarded contract.
        unsafe { get(error) }.map_or(c"".as_ptr(), |e| e.message.as_ptr())
    }
}

c_export! {
    /// What failed; empty when none.
    ///
    /// # Safety
    /// `error` is NULL or a live error from this library.
    #[c = "What failed (`desc.plane[0].pitch`, `fence`, `backend`); empty when nothing is named."]
    pub unsafe fn vmafx_error_subject(error: *const VmafxError) -> *const c_char {
        // SAFETY: forwarded contract.
        unsafe { get(error) }.map_or(c"".as_ptr(), |e| e.subject.as_ptr())
    }
}

c_export! {
    /// What the subject names (a `VmafxSubjectKind`); `VMAFX_SUBJECT_NONE` for NULL.
    ///
    /// # Safety
    /// `error` is NULL or a live error from this library.
    #[c = "What the subject names (a VmafxSubjectKind); VMAFX_SUBJECT_NONE for NULL."]
    pub unsafe fn vmafx_error_subject_kind(error: *const VmafxError) -> u32 {
        // SAFETY: forwarded contract.
        unsafe { get(error) }.map_or(0, |e| e.kind as u32)
    }
}

c_export! {
    /// Name of the function that failed; empty for NULL.
    ///
    /// # Safety
    /// `error` is NULL or a live error from this library.
    #[c = "The library function that failed; an empty string for NULL."]
    pub unsafe fn vmafx_error_function(error: *const VmafxError) -> *const c_char {
        // SAFETY: forwarded contract.
        unsafe { get(error) }.map_or(c"".as_ptr(), |e| e.function.as_ptr())
    }
}

c_export! {
    /// The engine's negative errno: always 0, the engine reports no errno of its own.
    ///
    /// # Safety
    /// `error` is NULL or a live error from this library.
    #[c = "A negative errno from the engine; 0 (the engine reports none)."]
    pub unsafe fn vmafx_error_errno(error: *const VmafxError) -> i32 {
        let _ = error;
        0
    }
}

c_export! {
    /// Releases an error; NULL is a no-op.
    ///
    /// # Safety
    /// `error` is NULL or a live error from this library, released once.
    #[c = "Releases an error; NULL is a no-op."]
    pub unsafe fn vmafx_error_free(error: *mut VmafxError) {
        if !error.is_null() {
            // SAFETY: a live error made by `Box::into_raw` in `call`, released once.
            drop(unsafe { Box::from_raw(error) });
        }
    }
}
