//! RGB imports: packed R'G'B' (RGB, RGBA, BGRA) converted to a Y'CbCr 4:4:4 frame with the
//! matrix and ranges the producer states (VMAFx ADR-2146), through the yuvutils-rs crate.
//!
//! Nothing is guessed: a statement left UNKNOWN is `Invalid` naming its field; the
//! declared values this build does not convert (BT.2020 constant luminance, ICtCp, linear
//! light) are `NotSup` naming theirs. The transfer characteristic describes the signal and
//! is checked, not applied: the matrix works on the code values, as an encoder's does.
//!
//! Full-range R'G'B' at 8, 10, 12, 14 and 16 bits goes straight through the crate's entry
//! point of that depth. The crate has none for 9, 11, 13 and 15 bits and reads only
//! full-range R'G'B', so every other input (those depths, and limited-range R'G'B' at any
//! depth) is widened first: each sample is mapped exactly to full-range 16 bits
//! ([`Levels::rescale`], rounded once), converted by the crate at 16 bits, and each Y'CbCr
//! sample mapped exactly back to the frame's depth and range.
//!
//! The conversion is not bit-exact to a reference: at 8 bits it stays within one code value
//! of FFmpeg's swscale with `accurate_rnd` on the same pixels; at 9 to 15 bits within one
//! code value of the exact matrix (swscale itself is up to three from it at 10 bits), at 16
//! bits within two (the crate's 15-bit fixed point); limited-range R'G'B' within one of the
//! exact matrix at 8 to 15 bits and two at 16 (`src/tests/import_rgb.rs`).

use yuvutils_rs::{
    BufferStoreMut, YuvConversionMode, YuvPlanarImageMut, YuvRange, YuvStandardMatrix,
};

use crate::error::{Error, Result, Status};
use crate::frame::import::RgbStatement;
use crate::frame::levels::{Component, Levels, Range};
use crate::frame::{PixelFormat, Plane, SamplesMut};

use super::span::PlaneSpan;

/// `VmafxColorMatrix` values (ABI 0.1.11).
pub(crate) mod matrix {
    /// BT.709.
    pub(crate) const BT709: u32 = 1;
    /// BT.2020 non-constant luminance.
    pub(crate) const BT2020_NCL: u32 = 2;
    /// ICtCp.
    pub(crate) const ICTCP: u32 = 3;
    /// BT.601.
    pub(crate) const BT601: u32 = 4;
    /// BT.2020 constant luminance.
    pub(crate) const BT2020_CL: u32 = 5;
}

/// `VmafxColorTransfer` values (ABI 0.1.11).
pub(crate) mod transfer {
    /// Linear light.
    pub(crate) const LINEAR: u32 = 5;
}

/// What a statement converts with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Conversion {
    matrix: YuvStandardMatrix,
    in_range: Range,
    out_range: Range,
}

fn unstated(field: &str, format: PixelFormat) -> Error {
    Error::invalid(
        field,
        format!("UNKNOWN: {format} is converted to Y'CbCr only as stated; none is assumed"),
    )
}

fn not_converted(field: &str, what: &str) -> Error {
    Error::new(
        Status::NotSup,
        field,
        format!("{what} is declared but not converted by this build"),
    )
}

fn range_of(value: u32, field: &str, format: PixelFormat) -> Result<Range> {
    match value {
        0 => Err(unstated(field, format)),
        1 => Ok(Range::Limited),
        2 => Ok(Range::Full),
        v => Err(Error::invalid(
            field,
            format!("{v} is not a VmafxColorRange"),
        )),
    }
}

fn crate_range(r: Range) -> YuvRange {
    match r {
        Range::Limited => YuvRange::Limited,
        Range::Full => YuvRange::Full,
    }
}

/// Checks the statement of an RGB import of `format` at `bpc`, naming the first field
/// that is wrong.
pub(crate) fn check(format: PixelFormat, bpc: u32, s: &RgbStatement) -> Result<Conversion> {
    let matrix = match s.matrix {
        0 => return Err(unstated("desc.rgb_matrix", format)),
        matrix::BT601 => YuvStandardMatrix::Bt601,
        matrix::BT709 => YuvStandardMatrix::Bt709,
        matrix::BT2020_NCL => YuvStandardMatrix::Bt2020,
        matrix::BT2020_CL => {
            return Err(not_converted(
                "desc.rgb_matrix",
                "VMAFX_COLOR_MATRIX_BT2020_CL",
            ))
        }
        matrix::ICTCP => return Err(not_converted("desc.rgb_matrix", "VMAFX_COLOR_MATRIX_ICTCP")),
        v => {
            return Err(Error::invalid(
                "desc.rgb_matrix",
                format!("{v} is not a VmafxColorMatrix"),
            ))
        }
    };
    let in_range = range_of(s.range, "desc.rgb_range", format)?;
    match s.transfer {
        0 => return Err(unstated("desc.rgb_transfer", format)),
        1..=4 => {}
        transfer::LINEAR => {
            return Err(not_converted(
                "desc.rgb_transfer",
                "linear light (VMAFX_COLOR_TRC_LINEAR); encode the samples first",
            ))
        }
        v => {
            return Err(Error::invalid(
                "desc.rgb_transfer",
                format!("{v} is not a VmafxColorTransfer"),
            ))
        }
    }
    let out_range = range_of(s.out_range, "desc.rgb_out_range", format)?;
    if !(8..=16).contains(&bpc) {
        return Err(Error::invalid(
            "desc.bpc",
            format!("{bpc} bits per component is not a depth of {format} (8 to 16)"),
        ));
    }
    Ok(Conversion {
        matrix,
        in_range,
        out_range,
    })
}

/// Samples per pixel of an RGB layout.
pub(super) fn elements(format: PixelFormat) -> usize {
    match format {
        PixelFormat::Rgb => 3,
        _ => 4,
    }
}

/// The Y, Cb and Cr planes of the RGB producer plane `s` (`w` pixels wide, `bpc` bits), as
/// the conversion `c` makes them.
pub(super) fn converted(
    src: &[u8],
    s: &PlaneSpan,
    format: PixelFormat,
    bpc: u32,
    w: u32,
    c: Conversion,
) -> Result<Vec<Plane>> {
    // At 16 bits the crate's full-range output wraps around (BT.601 white becomes 0).
    let native = c.in_range == Range::Full
        && matches!(bpc, 8 | 10 | 12 | 14 | 16)
        && !(bpc == 16 && c.out_range == Range::Full);
    match (native, bpc) {
        (true, 8) => converted_planes(src, s, format, w, c),
        (true, _) => {
            let words = rgb_words(src, s, format, bpc, w);
            let (planes, _) = crate_planes(&words, format, bpc, w, s.rows, c)?;
            Ok(planes)
        }
        (false, _) => widened_planes(src, s, format, bpc, w, c),
    }
}

/// The producer's rows as R G B (A) words, `w * elements` a row (a BGRA row reordered; the
/// producer's 16-bit words may sit at any address).
fn rgb_words(src: &[u8], s: &PlaneSpan, format: PixelFormat, bpc: u32, w: u32) -> Vec<u16> {
    let n = elements(format);
    let bytes = if bpc > 8 { 2 } else { 1 };
    let row_words = w as usize * n;
    let mut words = vec![0u16; row_words * s.rows as usize];
    for (y, out) in words.chunks_exact_mut(row_words).enumerate() {
        let row = &src[y * s.pitch..y * s.pitch + s.row_bytes];
        for (px, o) in row.chunks_exact(bytes * n).zip(out.chunks_exact_mut(n)) {
            for (k, d) in o.iter_mut().enumerate() {
                // BGRA holds B first: R G B A is what the crate reads.
                let from = if format == PixelFormat::Bgra && k < 3 {
                    2 - k
                } else {
                    k
                };
                *d = if bytes == 2 {
                    u16::from_le_bytes([px[2 * from], px[2 * from + 1]])
                } else {
                    u16::from(px[from])
                };
            }
        }
    }
    words
}

/// Converts full-range R'G'B' `words` at `bpc` (10, 12, 14 or 16) bits with the crate into
/// three 16-bit planes of `c.out_range` at that depth, and their stride.
fn crate_planes(
    words: &[u16],
    format: PixelFormat,
    bpc: u32,
    w: u32,
    rows: u32,
    c: Conversion,
) -> Result<(Vec<Plane>, usize)> {
    let mut planes: Vec<Plane> = (0..3).map(|_| Plane::zeroed(w, rows, true)).collect();
    let [y, u, v] = &mut planes[..] else {
        unreachable!("three planes")
    };
    let too_big = |_| Error::range("desc.w", "too wide a row");
    let plane_stride = y.stride;
    let stride = u32::try_from(plane_stride).map_err(too_big)?;
    let (Some(SamplesMut::U16(yd)), Some(SamplesMut::U16(ud)), Some(SamplesMut::U16(vd))) =
        (y.samples_mut(), u.samples_mut(), v.samples_mut())
    else {
        unreachable!("16-bit planes of the library's own")
    };
    let mut image = YuvPlanarImageMut {
        y_plane: BufferStoreMut::Borrowed(yd),
        y_stride: stride,
        u_plane: BufferStoreMut::Borrowed(ud),
        u_stride: stride,
        v_plane: BufferStoreMut::Borrowed(vd),
        v_stride: stride,
        width: w,
        height: rows,
    };
    let pitch = u32::try_from(w as usize * elements(format)).map_err(too_big)?;
    let (r, m) = (crate_range(c.out_range), c.matrix);
    let rgb = format == PixelFormat::Rgb;
    let done = match (rgb, bpc) {
        (true, 10) => yuvutils_rs::rgb10_to_i410(&mut image, words, pitch, r, m),
        (true, 12) => yuvutils_rs::rgb12_to_i412(&mut image, words, pitch, r, m),
        (true, 14) => yuvutils_rs::rgb14_to_i414(&mut image, words, pitch, r, m),
        (true, _) => yuvutils_rs::rgb16_to_i416(&mut image, words, pitch, r, m),
        (false, 10) => yuvutils_rs::rgba10_to_i410(&mut image, words, pitch, r, m),
        (false, 12) => yuvutils_rs::rgba12_to_i412(&mut image, words, pitch, r, m),
        (false, 14) => yuvutils_rs::rgba14_to_i414(&mut image, words, pitch, r, m),
        (false, _) => yuvutils_rs::rgba16_to_i416(&mut image, words, pitch, r, m),
    };
    done.map_err(|e| Error::new(Status::Internal, "desc", format!("RGB conversion: {e}")))?;
    Ok((planes, plane_stride))
}

/// What the crate has no entry point for (9, 11, 13 and 15 bits; limited-range R'G'B'; and
/// full-range output at 16 bits, which it wraps around): every sample mapped exactly to
/// full-range 16 bits, converted to limited-range 16 bits, each Y'CbCr sample mapped exactly
/// to `bpc` bits of the output range.
fn widened_planes(
    src: &[u8],
    s: &PlaneSpan,
    format: PixelFormat,
    bpc: u32,
    w: u32,
    c: Conversion,
) -> Result<Vec<Plane>> {
    let mut words = rgb_words(src, s, format, bpc, w);
    let wide = Levels::new(16, Range::Full);
    let widen = Levels::new(bpc, c.in_range).table(wide, Component::Luma);
    let mask = (1usize << bpc) - 1;
    for v in words.iter_mut() {
        // A word's bits above `bpc` are not the sample's: the sample is its low bits.
        *v = widen[usize::from(*v).min(mask)];
    }
    // Limited range at 16 bits keeps the crate's results clear of the top code value,
    // where its full-range output wraps around.
    let limited = Conversion {
        out_range: Range::Limited,
        ..c
    };
    let (wide_planes, stride) = crate_planes(&words, format, 16, w, s.rows, limited)?;
    let out = Levels::new(bpc, c.out_range);
    let from = Levels::new(16, Range::Limited);
    let luma = from.table(out, Component::Luma);
    let chroma = from.table(out, Component::Chroma);
    let mut planes = Vec::with_capacity(3);
    for (p, wide_plane) in wide_planes.iter().enumerate() {
        let table = if p == 0 { &luma } else { &chroma };
        let mut plane = Plane::zeroed(w, s.rows, bpc > 8);
        let out_stride = plane.stride;
        let crate::frame::Samples::U16(from) = wide_plane.samples() else {
            unreachable!("16-bit planes of the library's own")
        };
        for y in 0..s.rows as usize {
            let row = &from[y * stride..y * stride + w as usize];
            let o = y * out_stride;
            match plane.samples_mut() {
                Some(SamplesMut::U8(d)) => {
                    for (d, &v) in d[o..o + w as usize].iter_mut().zip(row) {
                        *d = table[usize::from(v)] as u8;
                    }
                }
                Some(SamplesMut::U16(d)) => {
                    for (d, &v) in d[o..o + w as usize].iter_mut().zip(row) {
                        *d = table[usize::from(v)];
                    }
                }
                None => unreachable!("a zeroed plane is owned"),
            }
        }
        planes.push(plane);
    }
    Ok(planes)
}

/// The Y, Cb and Cr planes of the RGB producer plane `s` (`w` pixels wide).
///
/// The crate reads rows in steps of the pitch, so a last row shorter than the pitch (the
/// producer's memory may end with it) is converted on its own, at its own length.
fn converted_planes(
    src: &[u8],
    s: &PlaneSpan,
    format: PixelFormat,
    w: u32,
    c: Conversion,
) -> Result<Vec<Plane>> {
    let mut planes: Vec<Plane> = (0..3).map(|_| Plane::zeroed(w, s.rows, false)).collect();
    let [y, u, v] = &mut planes[..] else {
        unreachable!("three planes")
    };
    let stride = y.stride;
    let (Some(SamplesMut::U8(yd)), Some(SamplesMut::U8(ud)), Some(SamplesMut::U8(vd))) =
        (y.samples_mut(), u.samples_mut(), v.samples_mut())
    else {
        unreachable!("8-bit planes of the library's own")
    };
    let full = s.rows as usize - 1;
    let split = full * stride;
    let (y0, y1) = yd.split_at_mut(split);
    let (u0, u1) = ud.split_at_mut(split);
    let (v0, v1) = vd.split_at_mut(split);
    if full > 0 {
        let rows = &src[..full * s.pitch];
        convert_rows(rows, s.pitch, [y0, u0, v0], stride, w, full, format, c)?;
    }
    let last = &src[full * s.pitch..full * s.pitch + s.row_bytes];
    convert_rows(last, s.row_bytes, [y1, u1, v1], stride, w, 1, format, c)?;
    Ok(planes)
}

/// Converts `rows` rows of `pitch` bytes into the three planes of `stride` samples.
#[allow(clippy::too_many_arguments)]
fn convert_rows(
    src: &[u8],
    pitch: usize,
    [y, u, v]: [&mut [u8]; 3],
    stride: usize,
    w: u32,
    rows: usize,
    format: PixelFormat,
    c: Conversion,
) -> Result<()> {
    let too_big = |_| Error::range("desc.plane[0].pitch", "above 4 GiB a row");
    let stride = u32::try_from(stride).map_err(too_big)?;
    let pitch = u32::try_from(pitch).map_err(too_big)?;
    let mut image = YuvPlanarImageMut {
        y_plane: BufferStoreMut::Borrowed(y),
        y_stride: stride,
        u_plane: BufferStoreMut::Borrowed(u),
        u_stride: stride,
        v_plane: BufferStoreMut::Borrowed(v),
        v_stride: stride,
        width: w,
        height: rows as u32,
    };
    let mode = YuvConversionMode::Professional;
    let (range, matrix) = (crate_range(c.out_range), c.matrix);
    let done = match format {
        PixelFormat::Rgb => yuvutils_rs::rgb_to_yuv444(&mut image, src, pitch, range, matrix, mode),
        PixelFormat::Rgba => {
            yuvutils_rs::rgba_to_yuv444(&mut image, src, pitch, range, matrix, mode)
        }
        _ => yuvutils_rs::bgra_to_yuv444(&mut image, src, pitch, range, matrix, mode),
    };
    done.map_err(|e| Error::new(Status::Internal, "desc", format!("RGB conversion: {e}")))
}
