//! Compressed inputs: any file the `ffmpeg` program decodes, read as y4m from its output pipe.
//!
//! vmafx links no codec. For a file that is neither y4m nor raw yuv it runs
//! `ffmpeg -nostdin -v error -i FILE -map 0:v:0 -fps_mode passthrough [-vf scale=W:H:flags=bicubic]
//! [-pix_fmt F] -strict -1 -f yuv4mpegpipe -` and parses the y4m stream from the child's
//! standard output, one frame at a time: no temporary file, nothing decoded ahead. The pixel
//! format is the one the decoder produces (bit depth and chroma subsampling kept), named to
//! ffmpeg where `ffprobe` tells it, so no conversion happens. `-fps_mode passthrough` hands
//! every decoded frame over once, none duplicated or dropped to fit a frame rate.
//!
//! `ffprobe`, where present beside `ffmpeg` or on `PATH`, is asked first for the stream's
//! codec, size, pixel format, frame rate and number of packets (`-count_packets`, which
//! reads the container, not the pictures), so the frame count is known before scoring and a
//! file ffmpeg cannot read fails with its own message before anything starts.
//!
//! The child runs in a process group of its own; the whole group is killed and the child
//! reaped when its reader is dropped early (`decoder.rs`); its standard error is drained
//! by a thread into a bounded buffer (so a chatty decoder never blocks), and where it exits
//! with a failure the read that meets the end of its output fails with that text. A decoder
//! that exits cleanly but reported errors (`-v error` prints nothing else: a truncated or
//! corrupt file) fails that read too, naming the frames lost, unless the caller accepts it
//! (`check.rs`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::error::{Error, Result};

mod check;
mod decoder;

pub(crate) use check::EndCheck;
pub use check::{DecodeLoss, DecodeWatch};
pub use decoder::interrupt_decoders;
pub(crate) use decoder::Decoder;
use decoder::{message_of, INSTALL_HINT};

/// Pixel formats passed through to the y4m pipe as decoded (ffmpeg's names). Full-range
/// `yuvj` formats are the same samples and map to their `yuv` twin.
const Y4M_PIX_FMTS: &[&str] = &[
    "yuv420p",
    "yuv422p",
    "yuv444p",
    "gray",
    "yuv420p9le",
    "yuv422p9le",
    "yuv444p9le",
    "yuv420p10le",
    "yuv422p10le",
    "yuv444p10le",
    "yuv420p12le",
    "yuv422p12le",
    "yuv444p12le",
    "yuv420p14le",
    "yuv422p14le",
    "yuv444p14le",
    "yuv420p16le",
    "yuv422p16le",
    "yuv444p16le",
    "gray9le",
    "gray10le",
    "gray12le",
    "gray16le",
];

/// What ffprobe says about the first video stream of a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Probe {
    /// The codec's short name (`h264`, `hevc`, `ffv1`, ...).
    pub codec: Option<String>,
    /// Width in pixels.
    pub width: Option<u32>,
    /// Height in pixels.
    pub height: Option<u32>,
    /// The decoder's pixel format, as ffmpeg names it (`yuv420p10le`, ...).
    pub pix_fmt: Option<String>,
    /// Frame rate as numerator and denominator.
    pub frame_rate: Option<(u32, u32)>,
    /// Frames in the stream: the container's count, else the packets counted.
    pub frames: Option<u64>,
}

/// How a decoded input was opened, for messages and reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeInfo {
    /// The ffmpeg program that decodes it.
    pub program: PathBuf,
    /// What ffprobe said, where it was found.
    pub probe: Option<Probe>,
    /// The size the pictures were decoded at, where they were scaled to another.
    pub scaled_from: Option<(u32, u32)>,
    /// The decoding command line.
    pub command: Vec<String>,
}

/// Finds the ffmpeg program for `input` (named in the error when missing).
pub fn locate_ffmpeg(program: Option<&Path>, input: &str) -> Result<PathBuf> {
    if let Some(p) = program {
        if p.is_file() {
            return Ok(p.to_path_buf());
        }
        if p.components().count() == 1 {
            if let Some(found) = on_path(&p.as_os_str().to_owned()) {
                return Ok(found);
            }
        }
        return Err(Error::io(
            input,
            format!(
                "is not y4m or raw yuv, so it needs ffmpeg to decode it, but the program given \
                 by --ffmpeg ({}) does not exist; {INSTALL_HINT}",
                p.display()
            ),
        ));
    }
    on_path(&OsString::from("ffmpeg")).ok_or_else(|| {
        Error::io(
            input,
            format!(
                "is not y4m or raw yuv, so it needs ffmpeg to decode it, and no `ffmpeg` \
                 program is on PATH; {INSTALL_HINT}"
            ),
        )
    })
}

/// `ffprobe` beside `ffmpeg`, else on `PATH`.
fn locate_ffprobe(ffmpeg: &Path) -> Option<PathBuf> {
    let name = match ffmpeg.file_name()?.to_str()? {
        n if n.ends_with(".exe") => "ffprobe.exe",
        _ => "ffprobe",
    };
    let beside = ffmpeg.with_file_name(name);
    if beside.is_file() {
        return Some(beside);
    }
    on_path(&OsString::from(name))
}

/// The first executable file called `name` in a folder of `PATH`.
fn on_path(name: &OsString) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.is_file()
}

/// The path as ffmpeg must read it: `file:` keeps a name with a colon from being taken
/// for a protocol.
fn ffmpeg_input(path: &Path) -> OsString {
    let mut s = OsString::from("file:");
    s.push(path.as_os_str());
    s
}

/// Asks ffprobe about `path`'s first video stream. `Ok(None)` where there is no ffprobe; an
/// error with ffprobe's own message where it cannot read the file.
pub fn probe(ffmpeg: &Path, path: &Path) -> Result<Option<Probe>> {
    let Some(ffprobe) = locate_ffprobe(ffmpeg) else {
        return Ok(None);
    };
    let name = path.display().to_string();
    let out = Command::new(&ffprobe)
        .args(["-v", "error", "-select_streams", "v:0", "-count_packets"])
        .args(["-show_entries"])
        .arg("stream=codec_name,width,height,pix_fmt,r_frame_rate,nb_frames,nb_read_packets")
        .args(["-of", "default=noprint_wrappers=1"])
        .arg(ffmpeg_input(path))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| Error::io(&name, format!("cannot run {}: {e}", ffprobe.display())))?;
    if !out.status.success() {
        return Err(Error::invalid(
            &name,
            format!(
                "ffprobe cannot read it: {}",
                message_of(&out.stderr, out.status.code())
            ),
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let p = parse_probe(&text);
    if p.width.is_none() {
        return Err(Error::invalid(&name, "ffprobe finds no video stream in it"));
    }
    Ok(Some(p))
}

/// Parses ffprobe's `key=value` lines.
fn parse_probe(text: &str) -> Probe {
    let mut p = Probe::default();
    let (mut nb_frames, mut packets) = (None, None);
    for line in text.lines() {
        let Some((k, v)) = line.trim().split_once('=') else {
            continue;
        };
        match k {
            "codec_name" => p.codec = Some(v.to_string()),
            "width" => p.width = v.parse().ok(),
            "height" => p.height = v.parse().ok(),
            "pix_fmt" => p.pix_fmt = Some(v.to_string()),
            "r_frame_rate" => {
                p.frame_rate = v
                    .split_once('/')
                    .and_then(|(n, d)| Some((n.parse().ok()?, d.parse().ok()?)))
                    .filter(|&(n, d)| n > 0 && d > 0)
            }
            "nb_frames" => nb_frames = v.parse::<u64>().ok(),
            "nb_read_packets" => packets = v.parse::<u64>().ok(),
            _ => {}
        }
    }
    p.frames = nb_frames.or(packets);
    p
}

/// The `-pix_fmt` that keeps the decoded format in the y4m pipe, where y4m can carry it.
fn pipe_pix_fmt(decoded: &str) -> Option<String> {
    let plain = match decoded.strip_prefix("yuvj") {
        Some(rest) => format!("yuv{rest}"),
        None => decoded.to_string(),
    };
    Y4M_PIX_FMTS.contains(&plain.as_str()).then_some(plain)
}

/// The decoding command for `path`: ffmpeg's arguments.
pub fn decode_args(path: &Path, scale: Option<(u32, u32)>, pix_fmt: Option<&str>) -> Vec<OsString> {
    let mut a: Vec<OsString> = ["-nostdin", "-hide_banner", "-v", "error", "-i"]
        .into_iter()
        .map(OsString::from)
        .collect();
    a.push(ffmpeg_input(path));
    a.extend(["-map", "0:v:0", "-fps_mode", "passthrough"].map(OsString::from));
    if let Some((w, h)) = scale {
        a.push("-vf".into());
        a.push(format!("scale={w}:{h}:flags=bicubic").into());
    }
    if let Some(f) = pix_fmt {
        a.push("-pix_fmt".into());
        a.push(f.into());
    }
    a.extend(["-strict", "-1", "-f", "yuv4mpegpipe", "-"].map(OsString::from));
    a
}

/// The start of a decoding: the program, its arguments and what the probe said.
pub(crate) struct Plan {
    pub program: PathBuf,
    pub probe: Option<Probe>,
    pub pix_fmt: Option<String>,
}

impl Plan {
    /// Locates ffmpeg and probes `path` (refusing a file ffprobe cannot read).
    pub(crate) fn new(path: &Path, program: Option<&Path>) -> Result<Self> {
        let name = path.display().to_string();
        let program = locate_ffmpeg(program, &name)?;
        let probe = probe(&program, path)?;
        let pix_fmt = probe
            .as_ref()
            .and_then(|p| p.pix_fmt.as_deref())
            .and_then(pipe_pix_fmt);
        Ok(Plan {
            program,
            probe,
            pix_fmt,
        })
    }

    /// Starts decoding `path`, scaled to `scale` where given; returns the stream and what
    /// describes it.
    pub(crate) fn start(
        &self,
        path: &Path,
        scale: Option<(u32, u32)>,
        scaled_from: Option<(u32, u32)>,
    ) -> Result<(Decoder, DecodeInfo)> {
        let args = decode_args(path, scale, self.pix_fmt.as_deref());
        let name = path.display().to_string();
        let decoder = Decoder::spawn(&self.program, &args, &name)?;
        let mut command = vec![self.program.display().to_string()];
        command.extend(args.iter().map(|a| a.to_string_lossy().into_owned()));
        Ok((
            decoder,
            DecodeInfo {
                program: self.program.clone(),
                probe: self.probe.clone(),
                scaled_from,
                command,
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_lines_give_size_format_rate_and_frames() {
        let p = parse_probe(
            "codec_name=h264\nwidth=576\nheight=324\npix_fmt=yuv420p10le\n\
             r_frame_rate=25/1\nnb_frames=N/A\nnb_read_packets=10\n",
        );
        assert_eq!(p.codec.as_deref(), Some("h264"));
        assert_eq!((p.width, p.height), (Some(576), Some(324)));
        assert_eq!(p.frame_rate, Some((25, 1)));
        assert_eq!(
            p.frames,
            Some(10),
            "packets count where the container has none"
        );
        let q = parse_probe("width=2\nheight=2\nnb_frames=7\nnb_read_packets=9\n");
        assert_eq!(q.frames, Some(7), "the container's count first");
    }

    #[test]
    fn decoded_formats_pass_through_where_y4m_carries_them() {
        assert_eq!(pipe_pix_fmt("yuv420p10le").as_deref(), Some("yuv420p10le"));
        assert_eq!(pipe_pix_fmt("yuvj420p").as_deref(), Some("yuv420p"));
        assert_eq!(
            pipe_pix_fmt("nv12"),
            None,
            "ffmpeg picks the nearest itself"
        );
    }

    #[test]
    fn the_command_scales_with_bicubic_and_keeps_colons_out_of_protocols() {
        let a = decode_args(Path::new("a:b.mkv"), Some((64, 48)), Some("yuv420p"));
        let a: Vec<String> = a.iter().map(|s| s.to_string_lossy().into()).collect();
        assert!(a.contains(&"file:a:b.mkv".to_string()));
        assert!(a.contains(&"scale=64:48:flags=bicubic".to_string()));
        assert_eq!(a.last().map(String::as_str), Some("-"));
    }

    #[test]
    fn a_missing_program_names_the_input_and_the_fix() {
        let e = locate_ffmpeg(Some(Path::new("/nonexistent/ffmpeg")), "enc.mkv").unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("enc.mkv") && m.contains("apt-get install ffmpeg"),
            "{m}"
        );
    }
}
