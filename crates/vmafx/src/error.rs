//! Status codes and the error type shared by every layer.
//!
//! The numeric values are VMAFx's C ABI values (`VMAFX_OK` 0, `VMAFX_PENDING` 1, negative
//! codes for failures) so the C layer converts without a table. An [`Error`] always names
//! what failed in its `subject` (a parameter, feature, model, frame, plane, device, path or
//! fence), kept to at most [`MAX_SUBJECT_LEN`] bytes as the ABI promises.

use std::fmt;

/// Longest subject an error keeps, in bytes (the C ABI's buffer is 1024 bytes with the NUL).
pub const MAX_SUBJECT_LEN: usize = 1023;

/// Outcome codes, with VMAFx's C ABI values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum Status {
    /// Success.
    Ok = 0,
    /// Not yet: a poll that found its fence unsignalled. Not a failure.
    Pending = 1,
    /// An argument or input is invalid.
    Invalid = -1,
    /// Memory could not be allocated, or a limit on allocation was hit.
    NoMem = -2,
    /// The operation or kind is not supported by this build or device.
    NotSup = -3,
    /// A named thing (feature, model, score, index) does not exist.
    NotFound = -4,
    /// A resource is busy: an unsignalled acquire fence, an exhausted pool.
    Busy = -5,
    /// The device failed.
    Device = -6,
    /// Reading or writing a file failed.
    Io = -7,
    /// A value lies outside its permitted range.
    Range = -8,
    /// An internal error (a bug); a caught panic reports this.
    Internal = -9,
    /// A wait expired before its fence was signalled.
    Timeout = -10,
    /// A struct's size or version is not one this library can read.
    Abi = -11,
    /// A report differs from its provenance record or from a re-run (VMAFx's
    /// `VMAFX_E_MISMATCH`; the error names the first field that differs).
    Mismatch = -12,
}

impl Status {
    /// The C ABI's integer value.
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The status with C ABI value `code`, if there is one.
    pub fn from_code(code: i32) -> Option<Status> {
        use Status::*;
        [
            Ok, Pending, Invalid, NoMem, NotSup, NotFound, Busy, Device, Io, Range, Internal,
            Timeout, Abi, Mismatch,
        ]
        .into_iter()
        .find(|s| s.code() == code)
    }

    /// The C ABI's name of the status (`VMAFX_E_BUSY`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "VMAFX_OK",
            Status::Pending => "VMAFX_PENDING",
            Status::Invalid => "VMAFX_E_INVALID",
            Status::NoMem => "VMAFX_E_NOMEM",
            Status::NotSup => "VMAFX_E_NOTSUP",
            Status::NotFound => "VMAFX_E_NOTFOUND",
            Status::Busy => "VMAFX_E_BUSY",
            Status::Device => "VMAFX_E_DEVICE",
            Status::Io => "VMAFX_E_IO",
            Status::Range => "VMAFX_E_RANGE",
            Status::Internal => "VMAFX_E_INTERNAL",
            Status::Timeout => "VMAFX_E_TIMEOUT",
            Status::Abi => "VMAFX_E_ABI",
            Status::Mismatch => "VMAFX_E_MISMATCH",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error: a status, a message for people, and the subject that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    status: Status,
    subject: String,
    message: String,
}

impl Error {
    /// An error with `status`, naming `subject`, explained by `message`.
    pub fn new(status: Status, subject: impl Into<String>, message: impl Into<String>) -> Self {
        let mut subject = subject.into();
        truncate_utf8(&mut subject, MAX_SUBJECT_LEN);
        Error {
            status,
            subject,
            message: message.into(),
        }
    }

    /// Shorthand for [`Status::Invalid`].
    pub fn invalid(subject: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Status::Invalid, subject, message)
    }

    /// Shorthand for [`Status::Range`].
    pub fn range(subject: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Status::Range, subject, message)
    }

    /// Shorthand for [`Status::NotFound`].
    pub fn not_found(subject: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Status::NotFound, subject, message)
    }

    /// Shorthand for [`Status::NotSup`].
    pub fn not_supported(subject: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Status::NotSup, subject, message)
    }

    /// Shorthand for [`Status::Io`].
    pub fn io(subject: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Status::Io, subject, message)
    }

    /// The status code.
    pub fn status(&self) -> Status {
        self.status
    }

    /// What failed: a parameter, feature, model, frame, plane, device, path or fence.
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The explanation, without the subject.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same error with `context` put before its message (`"context: message"`).
    pub fn context(mut self, context: impl fmt::Display) -> Self {
        self.message = format!("{context}: {}", self.message);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.subject.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.subject, self.message)
        }
    }
}

impl std::error::Error for Error {}

/// Result with the crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

fn truncate_utf8(s: &mut String, max: usize) {
    if s.len() <= max {
        return;
    }
    let mut cut = max;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subject_is_capped_on_a_char_boundary() {
        let long = "é".repeat(600);
        let e = Error::invalid(long, "x");
        assert!(e.subject().len() <= MAX_SUBJECT_LEN);
        assert!(e.subject().chars().all(|c| c == 'é'));
    }

    #[test]
    fn display_names_subject() {
        let e = Error::invalid("width", "must be above 0");
        assert_eq!(e.to_string(), "width: must be above 0");
        assert_eq!(e.status().code(), -1);
        assert_eq!(Status::Abi.code(), -11);
    }
}
