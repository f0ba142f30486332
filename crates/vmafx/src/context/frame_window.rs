//! The frames a context is fed and keeps when it scores one chunk of a longer video.

use std::ops::Range;

/// The frames a context is fed and the frames whose scores it keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameWindow {
    /// The first index that will be submitted (where the pre-roll starts).
    pub first_fed: u64,
    /// The indices whose scores are kept.
    pub kept: Range<u64>,
}

impl FrameWindow {
    /// Every frame from 0: what a context without a window scores.
    pub fn all() -> Self {
        FrameWindow {
            first_fed: 0,
            kept: 0..u64::MAX,
        }
    }
}
