//! Reading pairs from two files: the geometry check and the frame count the files announce.

use crate::error::{Error, Result};
use crate::io::{InputKind, RawParams, VideoReader};

/// What the configuration says about reading files.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InputPlan {
    pub raw: Option<RawParams>,
    pub skip: (u64, u64),
    pub max_frames: Option<u64>,
}

impl InputPlan {
    /// Pairs the run will score, where both files' sizes tell: the shorter input's frames
    /// left, capped by the frame limit.
    pub(super) fn total(&self, reference: &VideoReader, distorted: &VideoReader) -> Option<u64> {
        let left = frames_left(reference)?.min(frames_left(distorted)?);
        Some(self.max_frames.map_or(left, |n| n.min(left)))
    }
}

/// Frames a reader has left, from the file's size, where every frame has the same length
/// (raw yuv; y4m whose FRAME headers carry no parameters); `None` where the size does not
/// divide into whole frames.
fn frames_left(r: &VideoReader) -> Option<u64> {
    let len = std::fs::metadata(r.path()).ok()?.len();
    let (start, per_frame) = match r.kind() {
        InputKind::Y4m(h) => (h.len, r.frame_bytes() + b"FRAME\n".len() as u64),
        InputKind::Raw(_) => (0, r.frame_bytes()),
    };
    let body = len.checked_sub(start)?;
    if per_frame == 0 || body % per_frame != 0 {
        return None;
    }
    (body / per_frame).checked_sub(r.position())
}

/// Both readers must give frames of one format, depth and size.
pub(crate) fn check_geometry(reference: &VideoReader, distorted: &VideoReader) -> Result<()> {
    let (rg, dg) = (reference.geometry(), distorted.geometry());
    if rg == dg {
        return Ok(());
    }
    Err(Error::invalid(
        distorted.path().display().to_string(),
        format!(
            "videos are incompatible: {} is {} {}-bit {}x{} but {} is {} {}-bit {}x{}",
            reference.path().display(),
            rg.format,
            rg.bpc,
            rg.width,
            rg.height,
            distorted.path().display(),
            dg.format,
            dg.bpc,
            dg.width,
            dg.height
        ),
    ))
}
