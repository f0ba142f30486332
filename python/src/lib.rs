//! `vmafx._vmafx`: the compiled core of the `vmafx` Python package.
//!
//! Scoring files ([`score`]), the frame API (`scorer::Scorer`), results
//! (`result::ScoreResult`) and the chunk helpers the Dask runner plans and merges with.
//! Every scoring call releases the GIL; engine failures raise `vmafx.VmafxError` (a
//! `RuntimeError`) carrying the engine's message, wrong arguments raise `ValueError`
//! naming the argument. No panic crosses into Python: PyO3 turns one into an exception.

mod convert;
mod interrupt;
mod many;
mod result;
mod scorer;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use convert::{engine_err, scores_of, settings_from, ModelArg};
use result::ScoreResult;

pyo3::create_exception!(
    _vmafx,
    VmafxError,
    pyo3::exceptions::PyRuntimeError,
    "The engine refused or failed: bad input file, unknown model or feature, scoring error."
);

/// Scores `reference` against `distorted` (video file paths: y4m, raw yuv, or any file the
/// `ffmpeg` program on PATH decodes) and returns a Result.
///
/// model: a built-in model name ("vmaf_v0.6.1", the default; "vmaf_4k_v0.6.1",
///     "vmaf_v1.0.16_3d0h", ...), a model JSON path, a libvmaf --model spec string
///     ("version=vmaf_v0.6.1:name=v"), a list of those, or None for features only.
/// features: extra libvmaf extractors: "psnr", "psnr=enable_chroma=false" or
///     ("psnr", {"enable_chroma": False}).
/// threads: worker threads (0 scores on the calling thread; the GIL is released either way).
/// subsample: score every n-th frame, as libvmaf's --subsample.
/// width, height, pixel_format ("420", "422", "444", "400"), bitdepth: raw .yuv input
///     (y4m files carry their own).
/// frames: (start, end) to score frames [start, end) only, exactly as one pass scores
///     them (for chunked runs: see vmafx.chunks); the Result covers those frames. A range
///     that holds no frame or lies outside the video raises ValueError naming the range
///     and the video's frame count.
/// progress: a callable progress(done, total) called after every frame (total is None
///     where the files do not tell it); an exception it raises stops the run and is raised.
/// accept_decode_errors: score what ffmpeg decodes of a compressed file it reports errors
///     on (truncated, corrupt) instead of raising VmafxError naming the frames lost.
///
/// Ctrl-C stops the run between two frames and raises KeyboardInterrupt. Raises VmafxError
/// (a RuntimeError) with the engine's message when a file, model or feature is refused,
/// and ValueError for malformed arguments.
#[pyfunction]
#[pyo3(signature = (reference, distorted, model=ModelArg::Default, features=None, threads=0,
    subsample=1, width=None, height=None, pixel_format=None, bitdepth=None, frames=None,
    progress=None, accept_decode_errors=false),
    text_signature = "(reference, distorted, model='vmaf_v0.6.1', features=None, threads=0, \
    subsample=1, width=None, height=None, pixel_format=None, bitdepth=None, frames=None, \
    progress=None, accept_decode_errors=False)")]
#[allow(clippy::too_many_arguments)]
fn score(
    py: Python<'_>,
    reference: std::path::PathBuf,
    distorted: std::path::PathBuf,
    model: ModelArg,
    features: Option<Vec<Bound<'_, PyAny>>>,
    threads: i64,
    subsample: u32,
    width: Option<u32>,
    height: Option<u32>,
    pixel_format: Option<String>,
    bitdepth: Option<u32>,
    frames: Option<(u64, u64)>,
    progress: Option<PyObject>,
    accept_decode_errors: bool,
) -> PyResult<ScoreResult> {
    let settings = settings_from(&model, features.as_deref(), threads, subsample)?;
    let raw = convert::raw_params(width, height, pixel_format.as_deref(), bitdepth)?;
    let range = match frames {
        Some((a, b)) if a >= b => {
            return Err(PyValueError::new_err(format!(
                "frames: ({a}, {b}) holds no frame (the end must lie above the start)"
            )))
        }
        Some((a, b)) => a..b,
        None => 0..u64::MAX,
    };
    if let Some(cb) = &progress {
        if !cb.bind(py).is_callable() {
            return Err(PyValueError::new_err(
                "progress: expected a callable progress(done, total)",
            ));
        }
    }
    let (config, watch) = interrupt::Watch::install(settings.config(raw)?, progress);
    let scorer = vmafx::Scorer::new(config).map_err(engine_err)?;
    let opts = vmafx::io::OpenOptions {
        raw,
        accept_decode_errors,
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let to_end = range.end == u64::MAX;
    let scored = py.allow_threads(|| -> vmafx::Result<_> {
        let open = |p: &std::path::Path, what: &str| {
            vmafx::io::VideoReader::open_input(p, &opts).map_err(|e| e.context(what))
        };
        let r = open(&reference, "reference")?;
        let d = open(&distorted, "distorted")?;
        let video_frames = match (r.frame_count(), d.frame_count()) {
            (Some(x), Some(y)) => Some(x.min(y)),
            _ => None,
        };
        let origin = vmafx::score::PartOrigin {
            settings: settings.text(raw),
            reference: r.identity()?,
            distorted: d.identity()?,
            video_frames,
            to_end,
        };
        Ok((scorer.score_readers_range(r, d, range)?, origin))
    });
    if let Some(e) = watch.raised() {
        return Err(e);
    }
    let (report, origin) = scored.map_err(|e| {
        if e.status() == vmafx::Status::Range && e.subject().starts_with("frames") {
            PyValueError::new_err(e.to_string())
        } else {
            engine_err(e)
        }
    })?;
    Ok(ScoreResult::new(scores_of(&report), started.elapsed(), Some(origin)).with_run_of(&report))
}

/// The number of frames in the video file `path` (raw yuv needs its geometry; a compressed
/// file's count is ffprobe's, else every frame is decoded to count them).
#[pyfunction]
#[pyo3(signature = (path, width=None, height=None, pixel_format=None, bitdepth=None))]
fn frame_count(
    py: Python<'_>,
    path: std::path::PathBuf,
    width: Option<u32>,
    height: Option<u32>,
    pixel_format: Option<String>,
    bitdepth: Option<u32>,
) -> PyResult<u64> {
    let raw = convert::raw_params(width, height, pixel_format.as_deref(), bitdepth)?;
    py.allow_threads(|| -> vmafx::Result<u64> {
        let opts = vmafx::io::OpenOptions {
            raw,
            ..Default::default()
        };
        let mut r = vmafx::io::VideoReader::open_input(&path, &opts)?;
        // Counting frames past the header's or ffprobe's count would decode them all.
        match r.frame_count() {
            Some(n) => Ok(n),
            None => r.skip(u64::MAX),
        }
    })
    .map_err(engine_err)
}

/// How far the scores of `model` and `features` reach into neighbouring frames:
/// `(before, after)`. Raises VmafxError when a feature's history is unbounded.
#[pyfunction]
#[pyo3(signature = (model=ModelArg::Default, features=None),
    text_signature = "(model='vmaf_v0.6.1', features=None)")]
fn reach(model: ModelArg, features: Option<Vec<Bound<'_, PyAny>>>) -> PyResult<(u64, u64)> {
    let scorer = settings_from(&model, features.as_deref(), 0, 1)?.scorer(None)?;
    match scorer.reach() {
        vmafx::feature::Reach::Frames { before, after } => Ok((before, after)),
        vmafx::feature::Reach::Unbounded(name) => Err(VmafxError::new_err(format!(
            "feature '{name}': its scores depend on every earlier frame; a video cannot be \
             split for it"
        ))),
    }
}

/// Merges the Results of consecutive chunks of one video into the one-pass Result.
///
/// Every part must come from one run over one pair of files: the same models, features
/// and subsampling, the same inputs (by size and a digest of their first bytes, so copies
/// merge and other videos of the same name do not) and the same video frame count; the
/// parts must cover frames 0 to the end of the video without a gap or an overlap.
/// Anything else raises VmafxError naming the part (its place in the list and its frames)
/// and the field. Whole-run values (`Result.aggregates`) come from one pass over the whole
/// video only: a merge of that one Result keeps them, and one of several parts refuses a
/// part that has them.
#[pyfunction]
fn merge(parts: Vec<PyRef<'_, ScoreResult>>) -> PyResult<ScoreResult> {
    let inner: Vec<_> = parts.iter().map(|p| p.scores().clone()).collect();
    let spent = parts.iter().map(|p| p.elapsed()).sum();
    let merged = vmafx::score::merge(inner).map_err(engine_err)?;
    let records: Vec<vmafx::score::PartRecord<'_>> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let f = &p.scores().frames;
            vmafx::score::PartRecord {
                name: format!("parts[{i}] (frames {}..{})", f.start, f.end),
                frames: f.clone(),
                origin: p.origin(),
            }
        })
        .collect();
    vmafx::score::check_parts(&records).map_err(engine_err)?;
    let aggregates = match &parts[..] {
        [one] => one.aggregates().to_vec(),
        _ => {
            if let Some((record, p)) = records
                .iter()
                .zip(&parts)
                .find(|(_, p)| !p.aggregates().is_empty())
            {
                let names: Vec<&str> = p.aggregates().iter().map(|(n, _)| n.as_str()).collect();
                return Err(VmafxError::new_err(format!(
                    "{}: its whole-run values ({}) come from one pass over the whole video \
                     and cannot be joined with other parts",
                    record.name,
                    names.join(", ")
                )));
            }
            Vec::new()
        }
    };
    let origin = parts[0]
        .origin()
        .cloned()
        .map(|o| vmafx::score::PartOrigin { to_end: true, ..o });
    Ok(ScoreResult::new(merged, spent, origin).with_aggregates(aggregates))
}

/// The JSON of the log at `path`; VmafxError naming the file when it cannot be read.
fn read_log(path: &std::path::Path) -> PyResult<serde_json::Value> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| VmafxError::new_err(format!("{}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        VmafxError::new_err(format!(
            "{}: not a JSON log (write_json(..., provenance=True) writes one): {e}",
            path.display()
        ))
    })
}

/// Checks a JSON log written with its provenance record (`Result.write_json(path,
/// provenance=True)`, `vmafx --json --provenance`): the record's digest, every metric a
/// feature the record names, the pooled values against the frames, the frame count; with
/// `rerun` (the log of a run with the same settings) every configuration field and every
/// score. Returns the record (a dict); raises VmafxError naming the file and the first field
/// that does not match.
#[pyfunction]
#[pyo3(signature = (log, rerun=None))]
fn verify<'py>(
    py: Python<'py>,
    log: std::path::PathBuf,
    rerun: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let recorded = read_log(&log)?;
    let other = rerun.as_deref().map(read_log).transpose()?;
    vmafx::provenance::verify_log(&recorded, other.as_ref()).map_err(|m| {
        let against = rerun
            .as_deref()
            .map(|r| format!(" (against {})", r.display()))
            .unwrap_or_default();
        VmafxError::new_err(format!("{}{against}: {m}", log.display()))
    })?;
    py.import("json")?
        .call_method1("loads", (recorded["provenance"].to_string(),))
}

/// The compiled core of vmafx; import `vmafx` instead.
#[pymodule]
fn _vmafx(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("VmafxError", m.py().get_type::<VmafxError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("LIBVMAF_VERSION", vmafx::LIBVMAF_VERSION)?;
    m.add_class::<ScoreResult>()?;
    m.add_class::<result::Pooled>()?;
    m.add_class::<scorer::Scorer>()?;
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(many::score_many, m)?)?;
    m.add_function(wrap_pyfunction!(frame_count, m)?)?;
    m.add_function(wrap_pyfunction!(reach, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(result::result_from_state, m)?)?;
    Ok(())
}
