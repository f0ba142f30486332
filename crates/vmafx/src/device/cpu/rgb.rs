//! RGB imports: packed R'G'B' (RGB, RGBA, BGRA) converted to a Y'CbCr 4:4:4 frame with the
//! matrix and ranges the producer states (VMAFx ADR-2146), through the yuvutils-rs crate.
//!
//! Nothing is guessed: a statement left UNSPECIFIED is `Invalid` naming its field; the
//! declared values this build does not convert (BT.2020 constant luminance, ICtCp, linear
//! light, limited-range R'G'B', depths other than 8, 10, 12, 14 and 16 bits) are `NotSup`
//! naming theirs. The transfer characteristic
//! describes the signal and is checked, not applied: the matrix works on the code values,
//! as an encoder's does. The conversion is not bit-exact to a reference: at 8 bits it stays
//! within one code value of FFmpeg's swscale with `accurate_rnd` on the same pixels; at 10,
//! 12 and 14 bits within one code value of the exact matrix (swscale itself is up to three
//! from it at 10 bits), at 16 bits within two (the crate's 15-bit fixed point).

use yuvutils_rs::{
    BufferStoreMut, YuvConversionMode, YuvPlanarImageMut, YuvRange, YuvStandardMatrix,
};

use crate::error::{Error, Result, Status};
use crate::frame::import::RgbStatement;
use crate::frame::{PixelFormat, Plane, SamplesMut};

use super::span::PlaneSpan;

/// What a statement converts with.
#[derive(Debug, Clone, Copy)]
pub(super) struct Conversion {
    matrix: YuvStandardMatrix,
    out_range: YuvRange,
}

fn unstated(field: &str, format: PixelFormat) -> Error {
    Error::invalid(
        field,
        format!("UNSPECIFIED: {format} is converted to Y'CbCr only as stated; none is assumed"),
    )
}

fn not_converted(field: &str, what: &str) -> Error {
    Error::new(
        Status::NotSup,
        field,
        format!("{what} is declared but not converted by this build"),
    )
}

fn range_of(value: u32, field: &str, format: PixelFormat) -> Result<YuvRange> {
    match value {
        0 => Err(unstated(field, format)),
        1 => Ok(YuvRange::Limited),
        2 => Ok(YuvRange::Full),
        v => Err(Error::invalid(
            field,
            format!("{v} is not a VmafxColorRange"),
        )),
    }
}

/// Checks the statement of an RGB import of `format` at `bpc`, naming the first field
/// that is wrong.
pub(super) fn check(format: PixelFormat, bpc: u32, s: &RgbStatement) -> Result<Conversion> {
    let matrix = match s.matrix {
        0 => return Err(unstated("desc.rgb_matrix", format)),
        1 => YuvStandardMatrix::Bt601,
        2 => YuvStandardMatrix::Bt709,
        3 => YuvStandardMatrix::Bt2020,
        4 => {
            return Err(not_converted(
                "desc.rgb_matrix",
                "VMAFX_COLOR_MATRIX_BT2020_CL",
            ))
        }
        5 => return Err(not_converted("desc.rgb_matrix", "VMAFX_COLOR_MATRIX_ICTCP")),
        v => {
            return Err(Error::invalid(
                "desc.rgb_matrix",
                format!("{v} is not a VmafxColorMatrix"),
            ))
        }
    };
    if let YuvRange::Limited = range_of(s.range, "desc.rgb_range", format)? {
        return Err(not_converted(
            "desc.rgb_range",
            "limited-range R'G'B' (VMAFX_COLOR_RANGE_LIMITED)",
        ));
    }
    match s.transfer {
        0 => return Err(unstated("desc.rgb_transfer", format)),
        1..=4 => {}
        5 => {
            return Err(not_converted(
                "desc.rgb_transfer",
                "linear light (VMAFX_COLOR_TRANSFER_LINEAR); encode the samples first",
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
    if !matches!(bpc, 8 | 10 | 12 | 14 | 16) {
        return Err(Error::new(
            Status::NotSup,
            "desc.bpc",
            format!("{format} at {bpc} bits is not converted by this build (8, 10, 12, 14, 16)"),
        ));
    }
    Ok(Conversion { matrix, out_range })
}

/// Samples per pixel of an RGB layout.
pub(super) fn elements(format: PixelFormat) -> usize {
    match format {
        PixelFormat::Rgb => 3,
        _ => 4,
    }
}

/// The Y, Cb and Cr planes of a deep (10 to 16 bits) RGB producer plane `s`: its rows
/// are read into 16-bit R G B (A) words first (the producer's words may sit at any
/// address; a BGRA row is reordered), then converted.
pub(super) fn converted_deep_planes(
    src: &[u8],
    s: &PlaneSpan,
    format: PixelFormat,
    bpc: u32,
    w: u32,
    c: Conversion,
) -> Result<Vec<Plane>> {
    let n = elements(format);
    let row_words = w as usize * n;
    let mut words = vec![0u16; row_words * s.rows as usize];
    for (y, out) in words.chunks_exact_mut(row_words).enumerate() {
        let row = &src[y * s.pitch..y * s.pitch + s.row_bytes];
        for (px, o) in row.chunks_exact(2 * n).zip(out.chunks_exact_mut(n)) {
            for (k, d) in o.iter_mut().enumerate() {
                // BGRA holds B first: R G B A is what the crate reads.
                let from = if format == PixelFormat::Bgra && k < 3 {
                    2 - k
                } else {
                    k
                };
                *d = u16::from_le_bytes([px[2 * from], px[2 * from + 1]]);
            }
        }
    }
    let mut planes: Vec<Plane> = (0..3).map(|_| Plane::zeroed(w, s.rows, true)).collect();
    let [y, u, v] = &mut planes[..] else {
        unreachable!("three planes")
    };
    let too_big = |_| Error::range("desc.w", "too wide a row");
    let stride = u32::try_from(y.stride).map_err(too_big)?;
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
        height: s.rows,
    };
    let pitch = u32::try_from(row_words).map_err(too_big)?;
    let (r, m) = (c.out_range, c.matrix);
    let rgb = format == PixelFormat::Rgb;
    let done = match (rgb, bpc) {
        (true, 10) => yuvutils_rs::rgb10_to_i410(&mut image, &words, pitch, r, m),
        (true, 12) => yuvutils_rs::rgb12_to_i412(&mut image, &words, pitch, r, m),
        (true, 14) => yuvutils_rs::rgb14_to_i414(&mut image, &words, pitch, r, m),
        (true, _) => yuvutils_rs::rgb16_to_i416(&mut image, &words, pitch, r, m),
        (false, 10) => yuvutils_rs::rgba10_to_i410(&mut image, &words, pitch, r, m),
        (false, 12) => yuvutils_rs::rgba12_to_i412(&mut image, &words, pitch, r, m),
        (false, 14) => yuvutils_rs::rgba14_to_i414(&mut image, &words, pitch, r, m),
        (false, _) => yuvutils_rs::rgba16_to_i416(&mut image, &words, pitch, r, m),
    };
    done.map_err(|e| Error::new(Status::Internal, "desc", format!("RGB conversion: {e}")))?;
    Ok(planes)
}

/// The Y, Cb and Cr planes of the RGB producer plane `s` (`w` pixels wide).
///
/// The crate reads rows in steps of the pitch, so a last row shorter than the pitch (the
/// producer's memory may end with it) is converted on its own, at its own length.
pub(super) fn converted_planes(
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
    let (range, matrix) = (c.out_range, c.matrix);
    let done = match format {
        PixelFormat::Rgb => yuvutils_rs::rgb_to_yuv444(&mut image, src, pitch, range, matrix, mode),
        PixelFormat::Rgba => {
            yuvutils_rs::rgba_to_yuv444(&mut image, src, pitch, range, matrix, mode)
        }
        _ => yuvutils_rs::bgra_to_yuv444(&mut image, src, pitch, range, matrix, mode),
    };
    done.map_err(|e| Error::new(Status::Internal, "desc", format!("RGB conversion: {e}")))
}
