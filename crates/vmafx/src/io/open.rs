//! Opening any input: y4m and raw yuv natively, standard input, or a file ffmpeg decodes.
//!
//! The route is chosen from the name and the first bytes:
//! - `-` is the standard input (y4m, or raw yuv where raw parameters are given);
//! - a named pipe (or other non-regular file) is read once, natively: y4m, or raw yuv
//!   where raw parameters are given;
//! - a `.y4m` name or the `YUV4MPEG2` magic is y4m, read natively;
//! - a `.yuv` name, or raw parameters given for a file with no known container signature,
//!   is raw yuv;
//! - anything else is decoded by the `ffmpeg` program ([`super::ffmpeg`]).
//!
//! Where a size to scale to is given and the pictures have another size, a regular file
//! (y4m or compressed) is decoded through ffmpeg with its bicubic scaler instead; raw yuv
//! and streams are never scaled (their caller refuses the size mismatch).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

use super::ffmpeg::Plan;
use super::limits::Limits;
use super::reader::VideoReader;
use super::source::Source;
use super::y4m;
use super::yuv::RawParams;

/// How to open an input.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    /// What a raw yuv input cannot say itself (libvmaf's `-w -h -p -b`).
    pub raw: Option<RawParams>,
    /// The ffmpeg program for compressed inputs; `None`: `ffmpeg` on `PATH`.
    pub ffmpeg: Option<PathBuf>,
    /// Scale pictures of another size to this width and height (bicubic, through ffmpeg).
    pub scale_to: Option<(u32, u32)>,
    /// Bounds on picture and frame sizes.
    pub limits: Limits,
    /// Score what ffmpeg decodes of a file it reports errors on (a truncated or corrupt
    /// file) instead of failing at the end of its output; the loss is then read from
    /// [`VideoReader::decode_watch`].
    pub accept_decode_errors: bool,
}

/// How an input is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// The standard input.
    Stdin,
    /// A y4m file (or named pipe), read natively.
    Y4m,
    /// A raw yuv file.
    Raw,
    /// A named pipe or device: y4m, or raw yuv where raw parameters are given, read once
    /// and natively (its bytes cannot be looked at and handed to ffmpeg).
    Pipe,
    /// A file decoded by ffmpeg.
    Ffmpeg,
}

/// Container signatures that are never raw yuv: Matroska/WebM, MP4/MOV (`ftyp`), RIFF
/// (AVI), Ogg, FLV, IVF, MPEG program stream.
fn has_container_magic(head: &[u8]) -> bool {
    head.starts_with(&[0x1a, 0x45, 0xdf, 0xa3])
        || head.get(4..8) == Some(b"ftyp")
        || head.starts_with(b"RIFF")
        || head.starts_with(b"OggS")
        || head.starts_with(b"FLV")
        || head.starts_with(b"DKIF")
        || head.starts_with(&[0, 0, 1, 0xba])
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// The route for `path` (opening it to look at its first bytes).
pub fn route(path: &Path, raw: Option<&RawParams>) -> Result<Route> {
    if path.as_os_str() == "-" {
        return Ok(Route::Stdin);
    }
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return Ok(Route::Pipe);
    }
    let mut src = Source::open(path)?;
    let head = src.peek(16, "file start")?;
    if head.is_empty() {
        return Err(Error::invalid(src.name(), "byte 0: the file is empty"));
    }
    if has_extension(path, "y4m") || y4m::has_magic(&head) {
        return Ok(Route::Y4m);
    }
    if has_extension(path, "yuv") || (raw.is_some() && !has_container_magic(&head)) {
        return Ok(Route::Raw);
    }
    Ok(Route::Ffmpeg)
}

impl VideoReader {
    /// Opens any input by its [`route`]: see the module notes. With `opts.scale_to`, the
    /// reader's pictures have that size where the input's could be scaled
    /// ([`VideoReader::decoded`] then says from what size).
    pub fn open_input(path: impl AsRef<Path>, opts: &OpenOptions) -> Result<Self> {
        let path = path.as_ref();
        match route(path, opts.raw.as_ref())? {
            Route::Stdin => Self::open_stdin(opts.raw, opts.limits),
            Route::Pipe => Self::open_with_limits(path, opts.raw, opts.limits),
            Route::Raw => match opts.raw {
                Some(raw) => Self::open_raw(path, raw, opts.limits),
                None => Self::open_with_limits(path, None, opts.limits),
            },
            Route::Y4m => {
                let r = Self::open_y4m(path, opts.limits)?;
                let g = r.geometry();
                match opts.scale_to {
                    Some(to) if to != (g.width, g.height) && r.frame_count().is_some() => {
                        drop(r);
                        Self::open_ffmpeg(path, opts)
                    }
                    _ => Ok(r),
                }
            }
            Route::Ffmpeg => Self::open_ffmpeg(path, opts),
        }
    }

    /// Decodes `path` with ffmpeg (see [`super::ffmpeg`]), scaled to `opts.scale_to` where
    /// its pictures have another size.
    pub fn open_ffmpeg(path: impl AsRef<Path>, opts: &OpenOptions) -> Result<Self> {
        let path = path.as_ref();
        let plan = Plan::new(path, opts.ffmpeg.as_deref())?;
        let probed = plan
            .probe
            .as_ref()
            .and_then(|p| Some((p.width?, p.height?)));
        let scale = |size: (u32, u32)| opts.scale_to.filter(|&to| to != size);
        let decode = (opts.accept_decode_errors, &opts.limits);
        if let (Some(size), Some(to)) = (probed, probed.and_then(scale)) {
            let (d, info) = plan.start(path, Some(to), Some(size))?;
            return Self::from_decoder(path, d, info, decode);
        }
        let (d, info) = plan.start(path, None, None)?;
        let r = Self::from_decoder(path, d, info, decode)?;
        let g = r.geometry();
        match scale((g.width, g.height)) {
            // No ffprobe said the size: the header did; start again, scaling.
            Some(to) => {
                drop(r);
                let (d, info) = plan.start(path, Some(to), Some((g.width, g.height)))?;
                Self::from_decoder(path, d, info, decode)
            }
            None => Ok(r),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::PixelFormat;

    fn file(name: &str, bytes: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("vmafx-route-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn routes_follow_the_name_and_the_first_bytes() {
        let raw = RawParams {
            width: 2,
            height: 2,
            format: PixelFormat::Yuv420p,
            bpc: 8,
        };
        let mkv = [0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3];
        let cases: [(&str, &[u8], Option<&RawParams>, Route); 7] = [
            ("a.y4m", b"garbage", None, Route::Y4m),
            ("a.bin", b"YUV4MPEG2 W2 H2\n", Some(&raw), Route::Y4m),
            ("a.yuv", &[16; 6], None, Route::Raw),
            ("a.bin", &[16; 6], Some(&raw), Route::Raw),
            ("a.mkv", &mkv, Some(&raw), Route::Ffmpeg),
            ("a.mp4", b"\0\0\0\x20ftypisom", None, Route::Ffmpeg),
            ("a.bin", &[16; 6], None, Route::Ffmpeg),
        ];
        for (name, bytes, raw, want) in cases {
            let p = file(name, bytes);
            assert_eq!(route(&p, raw).unwrap(), want, "{name} {bytes:?}");
        }
        assert_eq!(route(Path::new("-"), None).unwrap(), Route::Stdin);
        let empty = file("empty.mkv", b"");
        assert!(route(&empty, None)
            .unwrap_err()
            .to_string()
            .contains("empty"));
    }

    #[test]
    fn frame_counts_come_from_the_file_size_where_it_is_whole_frames() {
        let mut y4m = b"YUV4MPEG2 W2 H2 F25:1 C420jpeg\n".to_vec();
        for _ in 0..3 {
            y4m.extend(b"FRAME\n");
            y4m.extend([16u8; 6]);
        }
        let opts = OpenOptions::default();
        let p = file("three.y4m", &y4m);
        let r = VideoReader::open_input(&p, &opts).unwrap();
        assert_eq!((r.frame_count(), r.frame_rate()), (Some(3), Some((25, 1))));
        y4m.push(0);
        let p = file("cut.y4m", &y4m);
        assert_eq!(
            VideoReader::open_input(&p, &opts).unwrap().frame_count(),
            None
        );
        let raw = OpenOptions {
            raw: Some(RawParams {
                width: 2,
                height: 2,
                format: PixelFormat::Yuv420p,
                bpc: 8,
            }),
            ..OpenOptions::default()
        };
        let p = file("two.yuv", &[16u8; 12]);
        assert_eq!(
            VideoReader::open_input(&p, &raw).unwrap().frame_count(),
            Some(2)
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_read_natively_without_being_opened_to_look() {
        let dir = std::env::temp_dir().join(format!("vmafx-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("in.mkv");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipping: no mkfifo");
            return;
        }
        // Opening a pipe with no writer would block: route must only look at its type.
        assert_eq!(route(&fifo, None).unwrap(), Route::Pipe);
    }
}
