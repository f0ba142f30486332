//! The reference row readers of imports (ADR-1929 item 6, generalised to every layout of
//! ABI 0.1.11).
//!
//! A producer's layout is one of three families: planar (each plane where it is; only
//! YUV444P_MSB needs a shift), semi-planar (luma in one plane, Cb/Cr interleaved in a
//! second) and packed (every sample of a row in one plane). These functions read one
//! producer row (raw little-endian bytes, any alignment) into planar rows, shifting the
//! formats that keep their significant bits high down to their value (ADR-1679). There is
//! one reader per layout; every device conversion is held to these results.

use super::format::PixelFormat;

/// How a packed layout places the samples of one group of pixels (a macropixel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Group {
    /// Bytes per sample: 1, or 2 for little-endian 16-bit words.
    pub bytes: usize,
    /// Samples in a group.
    pub len: usize,
    /// Pixels a group covers: 2 for 4:2:2 (one Cb and one Cr), 1 for 4:4:4.
    pub pixels: usize,
    /// Index in the group of the luma sample of each pixel.
    pub y: [usize; 2],
    /// Index of the Cb sample.
    pub cb: usize,
    /// Index of the Cr sample.
    pub cr: usize,
}

/// A packed layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Packed {
    /// Byte- or word-aligned samples in groups.
    Groups(Group),
    /// One 32-bit word per pixel, 10-bit Cb, Y, Cr from bit 0 up (Y410 / XV30).
    Y410,
    /// Six 4:2:2 pixels in four 32-bit words of three 10-bit samples (V210).
    V210,
}

/// The family of a producer layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    /// One plane per component, read in place unless shifted.
    Planar,
    /// Luma, then one plane of Cb/Cr pairs.
    SemiPlanar,
    /// One plane holding every component.
    Packed(Packed),
    /// Packed R'G'B': converted with a colour statement by the device (not by these readers).
    Rgb,
}

const fn group(bytes: usize, pixels: usize, y: [usize; 2], cb: usize, cr: usize) -> Packed {
    Packed::Groups(Group {
        bytes,
        len: 4,
        pixels,
        y,
        cb,
        cr,
    })
}

/// The family of `format`.
pub(crate) fn family(format: PixelFormat) -> Family {
    use PixelFormat::*;
    match format {
        Yuv420p | Yuv422p | Yuv444p | Yuv400p | Yuv444pMsb => Family::Planar,
        Nv12 | P010 | P016 | Nv16 | P210 | P216 | Nv24 | P410 | P416 => Family::SemiPlanar,
        Yuyv422 => Family::Packed(group(1, 2, [0, 2], 1, 3)),
        Uyvy422 => Family::Packed(group(1, 2, [1, 3], 0, 2)),
        Y210 | Y212 => Family::Packed(group(2, 2, [0, 2], 1, 3)),
        Vuyx => Family::Packed(group(1, 1, [2, 2], 1, 0)),
        Ayuv => Family::Packed(group(1, 1, [1, 1], 2, 3)),
        Xv36 => Family::Packed(group(2, 1, [1, 1], 0, 2)),
        Y410 => Family::Packed(Packed::Y410),
        V210 => Family::Packed(Packed::V210),
        Rgb | Rgba | Bgra => Family::Rgb,
    }
}

/// Producer planes an import of `format` describes.
pub(crate) fn producer_plane_count(format: PixelFormat) -> usize {
    match family(format) {
        Family::Planar => format.plane_count(),
        Family::SemiPlanar => 2,
        Family::Packed(_) | Family::Rgb => 1,
    }
}

/// Right shift that turns a producer sample of `format` at `bpc` into the planar value:
/// the bits below the significant ones of the formats that keep them high.
pub(crate) fn sample_shift(format: PixelFormat, bpc: u32) -> u32 {
    use PixelFormat::*;
    match format {
        P010 | P210 | P410 | Y210 => 6,
        Y212 | Xv36 => 4,
        Yuv444pMsb => 16u32.saturating_sub(bpc),
        _ => 0,
    }
}

/// Bytes per sample of a planar or semi-planar producer plane of `format` at `bpc`.
pub(crate) fn sample_bytes(format: PixelFormat, bpc: u32) -> usize {
    use PixelFormat::*;
    match format {
        Nv12 | Nv16 | Nv24 => 1,
        P010 | P016 | P210 | P216 | P410 | P416 | Yuv444pMsb => 2,
        _ if bpc > 8 => 2,
        _ => 1,
    }
}

/// Bytes of one producer row of packed layout `p`, `w` pixels wide.
pub(crate) fn packed_row_bytes(p: Packed, w: u32) -> usize {
    let w = w as usize;
    match p {
        Packed::Groups(g) => w.div_ceil(g.pixels) * g.len * g.bytes,
        Packed::Y410 => w * 4,
        Packed::V210 => w.div_ceil(6) * 16,
    }
}

/// Little-endian 16-bit sample `i` of `row`.
#[inline]
fn le16(row: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([row[2 * i], row[2 * i + 1]])
}

/// Little-endian 32-bit word `i` of `row`.
#[inline]
fn le32(row: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([row[4 * i], row[4 * i + 1], row[4 * i + 2], row[4 * i + 3]])
}

/// De-interleaves an 8-bit Cb/Cr row: `cb.len()` pairs are read from `src`.
pub(crate) fn split_chroma_u8(src: &[u8], cb: &mut [u8], cr: &mut [u8]) {
    for (i, (b, r)) in cb.iter_mut().zip(cr.iter_mut()).enumerate() {
        *b = src[2 * i];
        *r = src[2 * i + 1];
    }
}

/// De-interleaves a 16-bit little-endian Cb/Cr row, shifting each sample down by `shift`.
pub(crate) fn split_chroma_u16(src: &[u8], shift: u32, cb: &mut [u16], cr: &mut [u16]) {
    for (i, (b, r)) in cb.iter_mut().zip(cr.iter_mut()).enumerate() {
        *b = le16(src, 2 * i) >> shift;
        *r = le16(src, 2 * i + 1) >> shift;
    }
}

/// Reads a 16-bit little-endian row into `dst`, shifting each sample down by `shift`.
pub(crate) fn read_row_u16(src: &[u8], shift: u32, dst: &mut [u16]) {
    for (i, d) in dst.iter_mut().enumerate() {
        *d = le16(src, i) >> shift;
    }
}

/// Copies an 8-bit row into `dst`.
pub(crate) fn read_row_u8(src: &[u8], dst: &mut [u8]) {
    dst.copy_from_slice(&src[..dst.len()]);
}

/// Gathers an 8-bit grouped row: `y.len()` pixels, `cb.len()` chroma samples (one per
/// group).
pub(crate) fn unpack_groups_u8(g: &Group, src: &[u8], y: &mut [u8], cb: &mut [u8], cr: &mut [u8]) {
    for (x, d) in y.iter_mut().enumerate() {
        *d = src[(x / g.pixels) * g.len + g.y[x % g.pixels]];
    }
    for (c, (b, r)) in cb.iter_mut().zip(cr.iter_mut()).enumerate() {
        *b = src[c * g.len + g.cb];
        *r = src[c * g.len + g.cr];
    }
}

/// Gathers a 16-bit grouped row, shifting each sample down by `shift`.
pub(crate) fn unpack_groups_u16(
    g: &Group,
    src: &[u8],
    shift: u32,
    y: &mut [u16],
    cb: &mut [u16],
    cr: &mut [u16],
) {
    for (x, d) in y.iter_mut().enumerate() {
        *d = le16(src, (x / g.pixels) * g.len + g.y[x % g.pixels]) >> shift;
    }
    for (c, (b, r)) in cb.iter_mut().zip(cr.iter_mut()).enumerate() {
        *b = le16(src, c * g.len + g.cb) >> shift;
        *r = le16(src, c * g.len + g.cr) >> shift;
    }
}

/// Reads a Y410 / XV30 row: per pixel one word, Cb in bits 0-9, Y 10-19, Cr 20-29.
pub(crate) fn unpack_y410(src: &[u8], y: &mut [u16], cb: &mut [u16], cr: &mut [u16]) {
    for (x, ((d, b), r)) in y
        .iter_mut()
        .zip(cb.iter_mut())
        .zip(cr.iter_mut())
        .enumerate()
    {
        let w = le32(src, x);
        *b = (w & 0x3ff) as u16;
        *d = ((w >> 10) & 0x3ff) as u16;
        *r = ((w >> 20) & 0x3ff) as u16;
    }
}

/// Reads a V210 row. Its samples run Cb0 Y0 Cr0 Y1 Cb1 Y2 Cr1 Y3 Cb2 Y4 Cr2 Y5 per six
/// pixels, three 10-bit samples to a word from bit 0 up; the top two bits are not read.
pub(crate) fn unpack_v210(src: &[u8], y: &mut [u16], cb: &mut [u16], cr: &mut [u16]) {
    // Sample `k` of the row's sample sequence.
    let sample = |k: usize| -> u16 {
        let (block, i) = (k / 12, k % 12);
        ((le32(src, block * 4 + i / 3) >> (10 * (i % 3))) & 0x3ff) as u16
    };
    for (x, d) in y.iter_mut().enumerate() {
        *d = sample((x / 6) * 12 + 2 * (x % 6) + 1);
    }
    for (c, (b, r)) in cb.iter_mut().zip(cr.iter_mut()).enumerate() {
        let base = (c / 3) * 12 + 4 * (c % 3);
        *b = sample(base);
        *r = sample(base + 2);
    }
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
