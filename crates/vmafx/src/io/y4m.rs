//! The YUV4MPEG2 (y4m) container: its stream header and its FRAME headers.
//!
//! Accepted: tags W and H (required), F and A (`n:d`, optional), I (`p` progressive, `?`
//! unknown and read as progressive as libvmaf does; `t`, `b` and `m` interlaced are
//! refused), C (colour space; absent means 4:2:0 8-bit) and X (kept, not interpreted);
//! other tags are ignored as libvmaf ignores them. Colour spaces: `420jpeg`, `420paldv`,
//! `420mpeg2`, `420` (4:2:0 8-bit), `422`, `444`, `444alpha` (the alpha plane is read and
//! dropped), `mono`, and the deep `420pN`, `422pN`, `444pN`, `monoN` for N in 9..=16
//! (little-endian 16-bit words). Samples are returned as stored: no chroma resampling.

use crate::error::{Error, Result, Status};
use crate::frame::Geometry;
use crate::frame::PixelFormat;

use super::limits::Limits;
use super::source::{quote, Source};

/// The magic that opens every y4m file.
pub const MAGIC: &[u8] = b"YUV4MPEG2";

/// Longest stream header line read (the corpus's are under 100 bytes).
const MAX_HEADER_LEN: usize = 4096;

/// Longest FRAME header line read, newline included.
const MAX_FRAME_HEADER_LEN: usize = 1024;

/// A parsed y4m stream header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Y4mHeader {
    /// Luma width (W).
    pub width: u32,
    /// Luma height (H).
    pub height: u32,
    /// Pixel format the colour space maps to.
    pub format: PixelFormat,
    /// Bits per component the colour space maps to.
    pub bpc: u32,
    /// The C tag's value as written (`420mpeg2`, ...), or `420` where the tag is absent.
    pub colour_space: String,
    /// Frame rate (F) as numerator and denominator, where given.
    pub frame_rate: Option<(u32, u32)>,
    /// Pixel aspect ratio (A) as numerator and denominator, where given.
    pub aspect: Option<(u32, u32)>,
    /// The I tag's value, where given (`p` or `?`; interlaced values are refused).
    pub interlace: Option<char>,
    /// X tags' values, without the X.
    pub extensions: Vec<String>,
    /// Full-size planes stored after the picture's and dropped (1 for `444alpha`).
    pub dropped_planes: usize,
    /// Length of the header line in bytes, newline included: the first FRAME's offset.
    pub len: u64,
}

impl Y4mHeader {
    /// The frame geometry the header describes.
    pub fn geometry(&self) -> Geometry {
        Geometry {
            format: self.format,
            bpc: self.bpc,
            width: self.width,
            height: self.height,
        }
    }
}

/// Whether `bytes` (a file's first bytes) open a y4m stream.
pub fn has_magic(bytes: &[u8]) -> bool {
    bytes.len() > MAGIC.len()
        && bytes.starts_with(MAGIC)
        && matches!(bytes[MAGIC.len()], b' ' | b'\n')
}

/// Reads and checks the stream header at the start of `src`.
pub(crate) fn read_header(src: &mut Source, limits: &Limits) -> Result<Y4mHeader> {
    let line = src.read_line(MAX_HEADER_LEN, "y4m header")?;
    let name = src.name().to_string();
    if line.is_empty() {
        return Err(Error::invalid(
            &name,
            "byte 0: the file is empty: no y4m header",
        ));
    }
    if !has_magic(&line) {
        return Err(Error::invalid(
            &name,
            format!(
                "byte 0: not a y4m file: expected the magic 'YUV4MPEG2 ', found '{}'",
                quote(&line[..line.len().min(16)])
            ),
        ));
    }
    if line.last() != Some(&b'\n') {
        let why = if line.len() >= MAX_HEADER_LEN {
            format!("no newline within its first {MAX_HEADER_LEN} bytes")
        } else {
            format!("the file ends at byte {} before its newline", line.len())
        };
        return Err(Error::invalid(
            &name,
            format!("byte 0: y4m header unterminated: {why}"),
        ));
    }
    let header = parse_header(&line[..line.len() - 1], &name)?;
    let at = "y4m header (byte 0)";
    limits.check_size(header.width, header.height, Status::Invalid, &name, at)?;
    Ok(Y4mHeader {
        len: line.len() as u64,
        ..header
    })
}

/// Parses the tags of a header line (without its newline), naming `name` in errors.
fn parse_header(line: &[u8], name: &str) -> Result<Y4mHeader> {
    let (mut width, mut height, mut colour) = (None, None, None);
    let (mut frame_rate, mut aspect, mut interlace) = (None, None, None);
    let mut extensions = Vec::new();
    let mut offset = 0usize;
    for raw in line.split(|&b| b == b' ') {
        let at = offset;
        offset += raw.len() + 1;
        if at == 0 || raw.is_empty() {
            continue; // the magic, or a doubled space
        }
        let bad = |what: &str| {
            Error::invalid(
                name,
                format!("y4m header, tag '{}' at byte {at}: {what}", quote(raw)),
            )
        };
        if !raw.is_ascii() {
            return Err(bad("not ASCII text"));
        }
        let value = std::str::from_utf8(&raw[1..]).unwrap_or_default();
        match raw[0] {
            b'W' => {
                width = Some(parse_u32(value).ok_or_else(|| bad("width is not a whole number"))?)
            }
            b'H' => {
                height = Some(parse_u32(value).ok_or_else(|| bad("height is not a whole number"))?)
            }
            b'F' => {
                frame_rate = Some(parse_ratio(value).ok_or_else(|| bad("frame rate is not n:d"))?)
            }
            b'A' => {
                aspect = Some(parse_ratio(value).ok_or_else(|| bad("aspect ratio is not n:d"))?)
            }
            b'I' => interlace = Some(parse_interlace(value).map_err(|why| bad(&why))?),
            b'C' => colour = Some((value.to_string(), at)),
            b'X' => extensions.push(value.to_string()),
            _ => {}
        }
    }
    let missing = |tag: &str, what: &str| {
        Error::invalid(
            name,
            format!("y4m header (byte 0): no {tag} tag: the {what} is required"),
        )
    };
    let width = width.ok_or_else(|| missing("W", "width"))?;
    let height = height.ok_or_else(|| missing("H", "height"))?;
    let (colour_space, at) = colour.unwrap_or_else(|| ("420".to_string(), 0));
    let (format, bpc, dropped_planes) =
        colour_space_format(&colour_space).map_err(|(status, why)| {
            Error::new(
                status,
                name,
                format!("y4m header, tag 'C{colour_space}' at byte {at}: {why}"),
            )
        })?;
    Ok(Y4mHeader {
        width,
        height,
        format,
        bpc,
        colour_space,
        frame_rate,
        aspect,
        interlace,
        extensions,
        dropped_planes,
        len: 0,
    })
}

/// A decimal number of digits only.
fn parse_u32(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `n:d`, two decimal numbers.
fn parse_ratio(s: &str) -> Option<(u32, u32)> {
    let (n, d) = s.split_once(':')?;
    Some((parse_u32(n)?, parse_u32(d)?))
}

fn parse_interlace(value: &str) -> std::result::Result<char, String> {
    match value {
        "p" => Ok('p'),
        "?" => Ok('?'),
        "t" | "b" | "m" => Err(format!(
            "interlaced video ({}) is not supported; only progressive (Ip)",
            match value {
                "t" => "top field first",
                "b" => "bottom field first",
                _ => "mixed modes",
            }
        )),
        _ => Err("unknown interlacing mode; expected Ip (progressive)".to_string()),
    }
}

/// Pixel format, bit depth and dropped planes for a C tag's value.
fn colour_space_format(
    cs: &str,
) -> std::result::Result<(PixelFormat, u32, usize), (Status, String)> {
    use PixelFormat::*;
    let plain = match cs {
        "420" | "420jpeg" | "420mpeg2" | "420paldv" => Some((Yuv420p, 8, 0)),
        "422" => Some((Yuv422p, 8, 0)),
        "444" => Some((Yuv444p, 8, 0)),
        "444alpha" => Some((Yuv444p, 8, 1)),
        "mono" => Some((Yuv400p, 8, 0)),
        "411" => {
            return Err((
                Status::NotSup,
                "4:1:1 chroma is not supported (no such frame format)".to_string(),
            ))
        }
        _ => None,
    };
    if let Some(v) = plain {
        return Ok(v);
    }
    let deep = [
        ("420p", Yuv420p),
        ("422p", Yuv422p),
        ("444p", Yuv444p),
        ("mono", Yuv400p),
    ];
    for (prefix, format) in deep {
        if let Some(depth) = cs.strip_prefix(prefix).and_then(parse_u32) {
            if (9..=16).contains(&depth) {
                return Ok((format, depth, 0));
            }
        }
    }
    Err((
        Status::Invalid,
        "unknown colour space; known: 420jpeg, 420paldv, 420mpeg2, 420, 422, 444, 444alpha, \
         mono, and 420pN, 422pN, 444pN, monoN for N in 9..=16"
            .to_string(),
    ))
}

/// Reads the FRAME header of frame `index`. `Ok(false)` where the file ends cleanly before
/// it; a partial, garbled or overlong header is an `Invalid` error naming its offset.
/// Parameters after `FRAME ` are accepted and ignored.
pub(crate) fn read_frame_header(src: &mut Source, index: u64) -> Result<bool> {
    let start = src.pos();
    let line = src.read_line(MAX_FRAME_HEADER_LEN, "FRAME header")?;
    if line.is_empty() {
        return Ok(false);
    }
    let err =
        |why: String| Error::invalid(src.name(), format!("frame {index} at byte {start}: {why}"));
    let framed = line.starts_with(b"FRAME") && matches!(line.get(5), Some(b' ' | b'\n'));
    if !framed {
        if line.len() < 6 && b"FRAME\n".starts_with(&line[..]) {
            return Err(err(format!(
                "truncated FRAME header: the file ends after '{}'",
                quote(&line)
            )));
        }
        return Err(err(format!(
            "expected a FRAME header (lost framing), found '{}'",
            quote(&line[..line.len().min(16)])
        )));
    }
    if line.last() != Some(&b'\n') {
        return Err(err(if line.len() >= MAX_FRAME_HEADER_LEN {
            format!("FRAME header has no newline within {MAX_FRAME_HEADER_LEN} bytes")
        } else {
            format!(
                "truncated FRAME header: the file ends at byte {} before its newline",
                src.pos()
            )
        }));
    }
    Ok(true)
}
