//! Bounds on what a reader accepts, checked before anything is allocated.

use crate::error::{Error, Result, Status};
use crate::frame::MAX_DIMENSION;

/// Bounds on the pictures a reader accepts, in the manner of image-rs's `Limits`: a header
/// or parameter set beyond them fails at open, before any frame buffer is allocated.
///
/// Widths and heights above [`MAX_DIMENSION`] are refused whatever the limits say, since
/// no [`crate::Frame`] can be that large.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest luma width accepted (default 2^16).
    pub max_width: u32,
    /// Largest luma height accepted (default 2^16).
    pub max_height: u32,
    /// Largest frame accepted, in bytes of the file's frame payload (default 1 GiB).
    pub max_frame_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_width: MAX_DIMENSION,
            max_height: MAX_DIMENSION,
            max_frame_bytes: 1 << 30,
        }
    }
}

impl Limits {
    /// Checks a width and height: at least 1 and within the limits. `status` is the status
    /// of the error (`Invalid` for a file's header, `Range` for caller-given parameters);
    /// `subject` is the file's path and `at` says where the values came from.
    pub(crate) fn check_size(
        &self,
        width: u32,
        height: u32,
        status: Status,
        subject: &str,
        at: &str,
    ) -> Result<()> {
        for (name, v, max) in [
            ("width", width, self.max_width),
            ("height", height, self.max_height),
        ] {
            let max = max.min(MAX_DIMENSION);
            if v == 0 || v > max {
                return Err(Error::new(
                    status,
                    subject,
                    format!("{at}: {name} {v} is outside 1..={max}"),
                ));
            }
        }
        Ok(())
    }

    /// Checks the size of one frame in the file, in bytes.
    pub(crate) fn check_frame_bytes(&self, bytes: u64, subject: &str, at: &str) -> Result<()> {
        if bytes > self.max_frame_bytes {
            return Err(Error::new(
                Status::NoMem,
                subject,
                format!(
                    "{at}: a frame takes {bytes} bytes, above the limit of {} bytes per frame",
                    self.max_frame_bytes
                ),
            ));
        }
        Ok(())
    }
}
