//! The format, depth and size of a stream of frames.

use super::format::PixelFormat;

/// Format, depth and size of every frame an extractor instance will see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Pixel format.
    pub format: PixelFormat,
    /// Bits per component.
    pub bpc: u32,
    /// Luma width.
    pub width: u32,
    /// Luma height.
    pub height: u32,
}
