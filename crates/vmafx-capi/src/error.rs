//! `VmafxError` and the wrapper every exported function runs its body in.
//!
//! [`call`] catches panics (reported as `VMAFX_E_INTERNAL` naming the function), turns an
//! engine [`vmafx::Error`] into a `VmafxError` stored through the caller's `error`
//! out-parameter, and, where that parameter is NULL, writes the failure as one ERROR line
//! on standard error. A status of `VMAFX_PENDING` is an answer, never a failure: it
//! produces no error object and no line.

use std::ffi::CString;
use std::panic::{catch_unwind, AssertUnwindSafe};

use vmafx::{Error, Status};

use crate::abi::SubjectKind;

/// An engine error with the kind of thing its subject names.
#[derive(Debug)]
pub struct Failure {
    /// The engine error.
    pub error: Error,
    /// What the subject names.
    pub kind: SubjectKind,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        let kind = classify(error.subject(), error.status());
        Failure { error, kind }
    }
}

/// Result of an exported function's body.
pub type CResult<T = Status> = Result<T, Failure>;

/// Overrides the subject kind a failure was classified with.
pub trait WithKind<T> {
    /// The same result, with `kind` as the failure's subject kind.
    fn kind(self, kind: SubjectKind) -> CResult<T>;
}

impl<T, E: Into<Failure>> WithKind<T> for Result<T, E> {
    fn kind(self, kind: SubjectKind) -> CResult<T> {
        self.map_err(|e| {
            let mut f = e.into();
            f.kind = kind;
            f
        })
    }
}

/// What a subject names, from how the library spells its subjects.
pub fn classify(subject: &str, status: Status) -> SubjectKind {
    if status == Status::Abi {
        return SubjectKind::Parameter;
    }
    match subject {
        "" => SubjectKind::None,
        "backend" => SubjectKind::Backend,
        "index" | "device" => SubjectKind::Device,
        "pool" | "frame" | "reference" | "distorted" => SubjectKind::Frame,
        "context" => SubjectKind::Context,
        "path" => SubjectKind::Path,
        // Admission names the frame's memory and, in the message, each refusing extractor.
        s if s.starts_with("frame in ") => SubjectKind::Extractor,
        s if s.starts_with("desc.plane[") || s.starts_with("planes.") => SubjectKind::Plane,
        s if s.starts_with("desc.acquire") || s.starts_with("fence") => SubjectKind::Fence,
        _ => SubjectKind::Parameter,
    }
}

/// A failure of `status` naming `subject`.
pub fn fail(status: Status, subject: &str, message: impl Into<String>) -> Failure {
    Error::new(status, subject, message).into()
}

/// `VMAFX_E_INVALID` for a NULL pointer parameter named `name`.
pub fn null(name: &str) -> Failure {
    fail(Status::Invalid, name, "NULL")
}

/// A failure: status, message, named subject and the function that failed.
#[derive(Debug)]
pub struct VmafxError {
    pub(crate) status: Status,
    pub(crate) kind: SubjectKind,
    pub(crate) message: CString,
    pub(crate) subject: CString,
    pub(crate) function: CString,
}

fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', " ")).unwrap_or_default()
}

impl VmafxError {
    fn new(f: &Failure, function: &str) -> Self {
        VmafxError {
            status: f.error.status(),
            kind: f.kind,
            message: c_string(f.error.message()),
            subject: c_string(f.error.subject()),
            function: c_string(function),
        }
    }
}

/// The caller's `VmafxError **error` out-parameter: NULL, or valid for a write of one
/// pointer. Each exported function makes one under its own contract, so [`call`] itself is
/// safe and the function's body keeps its own `unsafe` blocks, each with its own reason.
#[derive(Debug, Clone, Copy)]
pub struct ErrorOut(*mut *mut VmafxError);

impl ErrorOut {
    /// The out-parameter `error`.
    ///
    /// # Safety
    /// `error` is NULL or valid for a write of one pointer while the value is used.
    pub unsafe fn new(error: *mut *mut VmafxError) -> Self {
        ErrorOut(error)
    }

    /// Stores `f` as a new `VmafxError`; `false` (nothing stored) for a NULL parameter.
    fn store(self, f: &Failure, function: &str) -> bool {
        if self.0.is_null() {
            return false;
        }
        let boxed = Box::into_raw(Box::new(VmafxError::new(f, function)));
        // SAFETY: non-NULL, so valid for a write of one pointer (`ErrorOut::new`'s contract).
        unsafe { self.0.write(boxed) };
        true
    }
}

/// Runs `body` as the exported function `function`, reporting a failure through `error`.
pub fn call(function: &'static str, error: ErrorOut, body: impl FnOnce() -> CResult) -> i32 {
    call_to(function, error, None, body)
}

/// [`call`], but a failure reported without an error out-parameter goes to `sink` (one
/// line, `function: subject: message (status)`) instead of stderr when `sink` is given.
pub fn call_to(
    function: &'static str,
    error: ErrorOut,
    sink: Option<&dyn Fn(&str)>,
    body: impl FnOnce() -> CResult,
) -> i32 {
    let outcome = catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| {
        Err(Failure {
            error: Error::new(
                Status::Internal,
                function,
                "internal error (a panic was caught)",
            ),
            kind: SubjectKind::None,
        })
    });
    match outcome {
        Ok(status) => status.code(),
        Err(f) => {
            let code = f.error.status().code();
            if !error.store(&f, function) {
                match sink {
                    Some(sink) => sink(&failure_line(&f, function)),
                    None => log_failure(&f, function),
                }
            }
            code
        }
    }
}

/// Runs a body that cannot report an error (ref / unref functions), catching panics.
pub fn guarded<T>(function: &'static str, fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| {
        eprintln!("vmafx: ERROR: {function}: internal error (a panic was caught)");
        fallback
    })
}

fn failure_line(f: &Failure, function: &str) -> String {
    let e = &f.error;
    format!(
        "{function}: {}: {} ({})",
        e.subject(),
        e.message(),
        e.status()
    )
}

fn log_failure(f: &Failure, function: &str) {
    eprintln!("vmafx: ERROR: {}", failure_line(f, function));
}

crate::c_named!(VmafxError);
