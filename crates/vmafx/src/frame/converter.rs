//! Frame converters (VMAFx ABI 0.1.6 `vmafx_frame_converter_create`): host frames of one
//! planar geometry and colour made into new host frames of another depth or range.
//!
//! What this build converts: the bit depth (8 to 16 bits either way) and the code-value
//! range (limited and full, either way), each sample mapped exactly and rounded once by
//! [`Levels::rescale`], the mapping the RGB import widens and narrows its samples with. It
//! has no scaler, no chroma resampler and no colour-space conversion: another size, another
//! chroma layout, or other primaries, transfer or matrix are `NotSup` naming the field.
//! Frames in the producer layouts (semi-planar, packed, RGB) are made planar by
//! `vmafx_frame_import`, which converts R'G'B' with the stated matrix; a converter takes
//! the planar frame it makes.

use crate::error::{Error, Result, Status};
use crate::frame::levels::{Component, Levels, Range};
use crate::frame::{
    Frame, FrameBuilder, MemoryKind, PixelFormat, Plane, Samples, SamplesMut, MAX_DIMENSION,
};

/// A colour description: raw `VmafxColor` members (0 is UNKNOWN).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Color {
    /// A `VmafxColorRange`: 1 limited, 2 full.
    pub range: u32,
    /// A `VmafxColorPrimaries`: 1 BT.709, 2 BT.2020, 3 SMPTE 432.
    pub primaries: u32,
    /// A `VmafxColorTransfer`: 1 BT.709, 2 PQ, 3 sRGB, 4 HLG, 5 linear.
    pub trc: u32,
    /// A `VmafxColorMatrix`: 1 BT.709, 2 BT.2020 NCL, 3 ICtCp, 4 BT.601, 5 BT.2020 CL.
    pub matrix: u32,
}

/// Largest `VmafxResampleFilter` (Lanczos).
pub const MAX_FILTER: u32 = 3;

/// What a converter reads and writes (`VmafxConvertDesc` less its `struct_size`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ConvertDesc {
    /// A `VmafxPixelFormat` value.
    pub src_pix_fmt: u32,
    /// Bits per component read.
    pub src_bpc: u32,
    /// Luma width read.
    pub src_w: u32,
    /// Luma height read.
    pub src_h: u32,
    /// Colour read.
    pub src_color: Color,
    /// A `VmafxPixelFormat` value.
    pub dst_pix_fmt: u32,
    /// Bits per component written.
    pub dst_bpc: u32,
    /// Luma width written; 0 keeps the source's.
    pub dst_w: u32,
    /// Luma height written; 0 keeps the source's.
    pub dst_h: u32,
    /// Colour written.
    pub dst_color: Color,
    /// A `VmafxResampleFilter` value.
    pub filter: u32,
}

/// Converts host frames of one geometry and colour into new host frames.
#[derive(Debug, Clone)]
pub struct FrameConverter {
    format: PixelFormat,
    src_bpc: u32,
    dst_bpc: u32,
    width: u32,
    height: u32,
    /// Luma and chroma tables over the source's code values; `None`: the samples are kept.
    tables: Option<[Vec<u16>; 2]>,
}

fn planar(v: u32, field: &str) -> Result<PixelFormat> {
    match PixelFormat::from_u32(v) {
        Some(f) if f.is_planar() => Ok(f),
        Some(f) => Err(Error::new(
            Status::NotSup,
            field,
            format!("{f} is a producer layout: vmafx_frame_import makes it a planar frame, which a converter reads"),
        )),
        None => Err(Error::invalid(
            field,
            format!("{v} is not a VmafxPixelFormat"),
        )),
    }
}

fn depth(v: u32, field: &str) -> Result<u32> {
    if (8..=16).contains(&v) {
        Ok(v)
    } else {
        Err(Error::invalid(field, format!("{v} bits is outside 8..=16")))
    }
}

fn range(v: u32, field: &str) -> Result<Option<Range>> {
    match v {
        0 => Ok(None),
        1 => Ok(Some(Range::Limited)),
        2 => Ok(Some(Range::Full)),
        v => Err(Error::invalid(
            field,
            format!("{v} is not a VmafxColorRange"),
        )),
    }
}

/// Checks the colour member `name` of both sides (largest value `max`): a member both
/// sides state must be the same, this build converts none of them.
fn same_member(name: &str, enum_name: &str, src: u32, dst: u32, max: u32) -> Result<()> {
    for (side, v) in [("src", src), ("dst", dst)] {
        if v > max {
            return Err(Error::invalid(
                format!("desc.{side}_color.{name}"),
                format!("{v} is not a {enum_name}"),
            ));
        }
    }
    if src != 0 && dst != 0 && src != dst {
        return Err(Error::new(
            Status::NotSup,
            format!("desc.dst_color.{name}"),
            format!("{name} {src} to {dst}: this build converts depth and range only"),
        ));
    }
    Ok(())
}

impl FrameConverter {
    /// A converter for `d`, refusing by field what it cannot convert.
    pub fn new(d: &ConvertDesc) -> Result<Self> {
        let format = planar(d.src_pix_fmt, "desc.src_pix_fmt")?;
        let src_bpc = depth(d.src_bpc, "desc.src_bpc")?;
        for (name, v) in [("desc.src_w", d.src_w), ("desc.src_h", d.src_h)] {
            if v == 0 || v > MAX_DIMENSION {
                return Err(Error::range(
                    name,
                    format!("{v} is outside 1..={MAX_DIMENSION}"),
                ));
            }
        }
        let dst_format = planar(d.dst_pix_fmt, "desc.dst_pix_fmt")?;
        if dst_format != format {
            return Err(Error::new(
                Status::NotSup,
                "desc.dst_pix_fmt",
                format!("{format} to {dst_format}: this build has no chroma resampler"),
            ));
        }
        let dst_bpc = depth(d.dst_bpc, "desc.dst_bpc")?;
        for (name, v, src) in [
            ("desc.dst_w", d.dst_w, d.src_w),
            ("desc.dst_h", d.dst_h, d.src_h),
        ] {
            if v != 0 && v != src {
                return Err(Error::new(
                    Status::NotSup,
                    name,
                    format!("{v} is not the source's {src}: this build has no scaler"),
                ));
            }
        }
        if d.filter > MAX_FILTER {
            return Err(Error::invalid(
                "desc.filter",
                format!("{} is not a VmafxResampleFilter", d.filter),
            ));
        }
        let (s, t) = (d.src_color, d.dst_color);
        same_member(
            "primaries",
            "VmafxColorPrimaries",
            s.primaries,
            t.primaries,
            3,
        )?;
        same_member("trc", "VmafxColorTransfer", s.trc, t.trc, 5)?;
        same_member("matrix", "VmafxColorMatrix", s.matrix, t.matrix, 5)?;
        let src_range = range(s.range, "desc.src_color.range")?;
        let dst_range = range(t.range, "desc.dst_color.range")?;
        // An unstated side is the other's; neither stated is limited (a Y'CbCr frame's
        // range when nothing says otherwise, VMAFx's default). Only a depth change reads it.
        let from = src_range.or(dst_range).unwrap_or(Range::Limited);
        let to = dst_range.unwrap_or(from);
        let (a, b) = (Levels::new(src_bpc, from), Levels::new(dst_bpc, to));
        let tables = (a != b).then(|| [a.table(b, Component::Luma), a.table(b, Component::Chroma)]);
        Ok(FrameConverter {
            format,
            src_bpc,
            dst_bpc,
            width: d.src_w,
            height: d.src_h,
            tables,
        })
    }

    /// A new host frame: `src` (a host frame of the converter's geometry) converted.
    pub fn convert(&self, src: &Frame) -> Result<Frame> {
        let want = (self.format, self.src_bpc, self.width, self.height);
        let got = (src.format(), src.bpc(), src.width(), src.height());
        if got != want {
            return Err(Error::invalid(
                "src",
                format!(
                    "{} {}-bit {}x{} is not the converter's {} {}-bit {}x{}",
                    got.0, got.1, got.2, got.3, want.0, want.1, want.2, want.3
                ),
            ));
        }
        if src.memory() != MemoryKind::Host {
            return Err(Error::new(
                Status::NotSup,
                "src",
                format!(
                    "a frame in {:?} memory: a converter reads host frames",
                    src.memory()
                ),
            ));
        }
        let planes = src
            .planes()
            .iter()
            .enumerate()
            .map(|(p, plane)| {
                let table = self.tables.as_ref().map(|t| &t[usize::from(p > 0)][..]);
                converted_plane(plane, self.dst_bpc, table)
            })
            .collect();
        Ok(FrameBuilder::from_planes(
            self.format,
            self.dst_bpc,
            self.width,
            self.height,
            MemoryKind::Host,
            planes,
        )?
        .build())
    }
}

/// A plane of the library's own at `bpc` bits: `src`'s samples through `table` (`None`:
/// the same samples).
fn converted_plane(src: &Plane, bpc: u32, table: Option<&[u16]>) -> Plane {
    let (w, h) = (src.width as usize, src.height);
    let mut out = Plane::zeroed(src.width, h, bpc > 8);
    let stride = out.stride;
    let map = |v: u16| table.map_or(v, |t| t[usize::from(v).min(t.len() - 1)]);
    for y in 0..h {
        let row: Vec<u16> = match src.samples() {
            Samples::U8(_) => src.row_u8(y).iter().map(|&v| map(u16::from(v))).collect(),
            Samples::U16(_) => src.row_u16(y).iter().map(|&v| map(v)).collect(),
        };
        let o = y as usize * stride;
        match out.samples_mut() {
            Some(SamplesMut::U8(d)) => {
                for (d, v) in d[o..o + w].iter_mut().zip(row) {
                    *d = v as u8;
                }
            }
            Some(SamplesMut::U16(d)) => d[o..o + w].copy_from_slice(&row),
            None => unreachable!("a zeroed plane is owned"),
        }
    }
    out
}

#[cfg(test)]
#[path = "converter_tests.rs"]
mod tests;
