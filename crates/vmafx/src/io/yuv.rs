//! Raw planar yuv: frames back to back with no header, described by [`RawParams`].
//!
//! Each frame is the luma plane then the two chroma planes (none for 4:0:0), each of
//! the rounded-up size (`(w + 1) / 2` for 4:2:0), one byte per sample at 8 bits and one
//! little-endian 16-bit word per sample at 9 to 16 bits, as ffmpeg's `rawvideo` writes.

use crate::error::{Error, Result};
use crate::frame::Geometry;
use crate::frame::PixelFormat;

use super::limits::Limits;

/// What a raw yuv file cannot say about itself: its size, pixel format and bit depth
/// (libvmaf's `-w -h -p -b`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawParams {
    /// Luma width.
    pub width: u32,
    /// Luma height.
    pub height: u32,
    /// Planar pixel format (4:2:0, 4:2:2, 4:4:4 or 4:0:0).
    pub format: PixelFormat,
    /// Bits per component, 8 to 16.
    pub bpc: u32,
}

impl RawParams {
    /// Parameters from libvmaf-style values: `format` is `420`, `422`, `444` or `400`
    /// (or ffmpeg's `yuv420p`, ...). Sizes and depth are checked when a file is opened.
    pub fn from_names(width: u32, height: u32, format: &str, bpc: u32) -> Result<Self> {
        let format = pixel_format_from_name(format).ok_or_else(|| {
            Error::invalid(
                "pixel format",
                format!("'{format}' is not a raw yuv format; expected 420, 422, 444 or 400"),
            )
        })?;
        Ok(RawParams {
            width,
            height,
            format,
            bpc,
        })
    }

    /// The frame geometry.
    pub fn geometry(&self) -> Geometry {
        Geometry {
            format: self.format,
            bpc: self.bpc,
            width: self.width,
            height: self.height,
        }
    }

    /// Checks the parameters for the file `name`: a planar format, 8..=16 bits, sizes
    /// within `limits`. Values out of range are `Range` errors, a format that cannot be
    /// read raw is `Invalid`; each names the file and the parameter.
    pub(crate) fn check(&self, name: &str, limits: &Limits) -> Result<()> {
        let at = "raw yuv parameters";
        if !self.format.is_planar() {
            return Err(Error::invalid(
                name,
                format!(
                    "{at}: pixel format {} is not planar; raw input is 420, 422, 444 or 400",
                    self.format
                ),
            ));
        }
        if !(8..=16).contains(&self.bpc) {
            return Err(Error::range(
                name,
                format!("{at}: bit depth {} is outside 8..=16", self.bpc),
            ));
        }
        limits.check_size(
            self.width,
            self.height,
            crate::error::Status::Range,
            name,
            at,
        )
    }
}

/// The pixel format for a name as libvmaf's tools take it (`420`, `422`, `444`, `400`) or
/// as ffmpeg writes it (`yuv420p`, ..., `gray`).
pub fn pixel_format_from_name(name: &str) -> Option<PixelFormat> {
    Some(match name.strip_prefix("yuv").unwrap_or(name) {
        "420" | "420p" => PixelFormat::Yuv420p,
        "422" | "422p" => PixelFormat::Yuv422p,
        "444" | "444p" => PixelFormat::Yuv444p,
        "400" | "400p" | "gray" => PixelFormat::Yuv400p,
        _ => return None,
    })
}
