//! Opening the reference and the distorted input: routes, scaling, and what differs.
//!
//! Both are opened by [`VideoReader::open_input`] (y4m, raw yuv, `-`, or anything ffmpeg
//! decodes). A distorted video of another size is scaled to the reference's size by
//! ffmpeg's bicubic scaler, and vmafx says so on stderr; `--no-scale` refuses it instead.
//! Different frame rates or frame counts are reported with both numbers; the frames both
//! have are scored. `-w/-h/-p/-b` given where no input is raw yuv are ignored, with a warning.

use std::path::Path;

use vmafx::io::{InputKind, OpenOptions, RawParams, VideoReader};

use crate::args::ScoreArgs;
use crate::error::CliError;

/// The two opened inputs, how to open them again (for the report's second pass), and the
/// number of frames that will be scored where it is known.
pub struct Inputs {
    /// The reference.
    pub reference: VideoReader,
    /// The distorted video (scaled where it had another size).
    pub distorted: VideoReader,
    /// How the reference was opened.
    pub reference_options: OpenOptions,
    /// How the distorted video was opened.
    pub distorted_options: OpenOptions,
    /// Frames to score, where both counts are known.
    pub total: Option<u64>,
}

/// `VMAFX_CPU` must name a level; an unknown value is refused (the engine's message names
/// the known levels) rather than ignored.
pub fn check_cpu_env() -> Result<(), CliError> {
    vmafx::cpu::env_override()
        .map(|_| ())
        .map_err(|e| CliError::Usage(e.to_string()))
}

fn open(path: &Path, opts: &OpenOptions, what: &str) -> Result<VideoReader, CliError> {
    VideoReader::open_input(path, opts).map_err(|e| CliError::Input(format!("{what}: {e}")))
}

fn rate(r: Option<(u32, u32)>) -> String {
    match r {
        Some((n, 1)) => format!("{n} fps"),
        Some((n, d)) => format!("{:.3} fps ({n}/{d})", n as f64 / d as f64),
        None => "no frame rate".into(),
    }
}

/// Opens both inputs as `a` asks (its first distorted input); `raw` are the raw yuv
/// parameters, if given.
pub fn open_pair(a: &ScoreArgs, raw: Option<RawParams>) -> Result<Inputs, CliError> {
    let (Some(rp), Some(dp)) = (&a.reference, a.distorted.first()) else {
        return Err(CliError::Usage(
            "--reference and --distorted are required".into(),
        ));
    };
    let (reference, base) = open_reference(a, rp, raw)?;
    open_distorted(a, reference, base, rp, dp)
}

/// Opens the reference `rp` as `a` asks, and the options it was opened with.
pub fn open_reference(
    a: &ScoreArgs,
    rp: &Path,
    raw: Option<RawParams>,
) -> Result<(VideoReader, OpenOptions), CliError> {
    let base = OpenOptions {
        raw,
        ffmpeg: a.ffmpeg.clone(),
        accept_decode_errors: a.accept_decode_errors,
        ..OpenOptions::default()
    };
    Ok((open(rp, &base, "reference")?, base))
}

/// Opens the distorted input `dp` for the opened `reference` (scaled to its size unless
/// `--no-scale`), says on stderr what differs, and pairs them.
pub fn open_distorted(
    a: &ScoreArgs,
    reference: VideoReader,
    base: OpenOptions,
    rp: &Path,
    dp: &Path,
) -> Result<Inputs, CliError> {
    let raw = base.raw;
    let rg = reference.geometry();
    let dis_opts = OpenOptions {
        scale_to: (!a.no_scale).then_some((rg.width, rg.height)),
        ..base.clone()
    };
    let distorted = open(dp, &dis_opts, "distorted")?;
    if raw.is_some()
        && ![&reference, &distorted]
            .iter()
            .any(|r| matches!(r.kind(), InputKind::Raw(_)))
    {
        eprintln!(
            "warning: -w/-h/-p/-b describe raw .yuv input; neither input is raw yuv, so they \
             are ignored (the y4m headers or the decoder say the size and format)"
        );
    }
    let dg = distorted.geometry();
    if let Some((w, h)) = distorted.decoded().and_then(|d| d.scaled_from) {
        eprintln!(
            "note: scaling {} from {w}x{h} to the reference's {}x{} (bicubic, ffmpeg \
             scale=flags=bicubic); --no-scale refuses instead",
            dp.display(),
            rg.width,
            rg.height
        );
    }
    if rg != dg {
        let hint = if (rg.width, rg.height) != (dg.width, dg.height) {
            if a.no_scale {
                " (sizes differ and --no-scale was given)"
            } else {
                " (sizes differ and this input cannot be scaled: raw yuv or a stream)"
            }
        } else {
            ""
        };
        return Err(CliError::Input(format!(
            "videos are incompatible: {} is {} {}-bit {}x{} but {} is {} {}-bit {}x{}{hint}",
            rp.display(),
            rg.format,
            rg.bpc,
            rg.width,
            rg.height,
            dp.display(),
            dg.format,
            dg.bpc,
            dg.width,
            dg.height
        )));
    }
    let (rr, dr) = (reference.frame_rate(), distorted.frame_rate());
    if let (Some(x), Some(y)) = (rr, dr) {
        if x.0 as u64 * y.1 as u64 != y.0 as u64 * x.1 as u64 {
            eprintln!(
                "warning: frame rates differ: {} is {}, {} is {}; frames are paired in order",
                rp.display(),
                rate(rr),
                dp.display(),
                rate(dr)
            );
        }
    }
    let (rc, dc) = (
        reference
            .frame_count()
            .map(|n| n.saturating_sub(a.frame_skip_ref)),
        distorted
            .frame_count()
            .map(|n| n.saturating_sub(a.frame_skip_dist)),
    );
    if let (Some(x), Some(y)) = (rc, dc) {
        if x != y {
            eprintln!(
                "warning: frame counts differ: {} has {x}, {} has {y}{}; the first {} are scored",
                rp.display(),
                dp.display(),
                if a.frame_skip_ref + a.frame_skip_dist > 0 {
                    " (after the skipped frames)"
                } else {
                    ""
                },
                x.min(y)
            );
        }
    }
    let total = match (rc, dc) {
        (Some(x), Some(y)) => Some(x.min(y)),
        _ => None,
    }
    .map(|n| a.frame_limit().map_or(n, |c| n.min(c)));
    Ok(Inputs {
        reference,
        distorted,
        reference_options: base,
        distorted_options: dis_opts,
        total,
    })
}
