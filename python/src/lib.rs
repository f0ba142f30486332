//! `vmafx._vmafx`: the compiled core of the `vmafx` Python package.
//!
//! Scoring files ([`score`]), the frame API ([`scorer::Scorer`]), results
//! ([`result::ScoreResult`]) and the chunk helpers the Dask runner plans and merges with.
//! Every scoring call releases the GIL; engine failures raise `vmafx.VmafxError` (a
//! `RuntimeError`) carrying the engine's message, wrong arguments raise `ValueError`
//! naming the argument. No panic crosses into Python: PyO3 turns one into an exception.

mod convert;
mod result;
mod scorer;

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
///     them (for chunked runs: see vmafx.chunks); the Result covers those frames.
///
/// Raises VmafxError (a RuntimeError) with the engine's message when a file, model or
/// feature is refused, and ValueError for malformed arguments.
#[pyfunction]
#[pyo3(signature = (reference, distorted, model=ModelArg::Default, features=None, threads=0,
    subsample=1, width=None, height=None, pixel_format=None, bitdepth=None, frames=None))]
#[allow(clippy::too_many_arguments)]
fn score(
    py: Python<'_>,
    reference: std::path::PathBuf,
    distorted: std::path::PathBuf,
    model: ModelArg,
    features: Option<Vec<Bound<'_, PyAny>>>,
    threads: usize,
    subsample: u32,
    width: Option<u32>,
    height: Option<u32>,
    pixel_format: Option<String>,
    bitdepth: Option<u32>,
    frames: Option<(u64, u64)>,
) -> PyResult<ScoreResult> {
    let settings = settings_from(&model, features.as_deref(), threads, subsample)?;
    let raw = convert::raw_params(width, height, pixel_format.as_deref(), bitdepth)?;
    let scorer = settings.scorer(raw)?;
    let range = match frames {
        Some((a, b)) if a > b => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "frames: ({a}, {b}) is not a range (start above end)"
            )))
        }
        Some((a, b)) => a..b,
        None => 0..u64::MAX,
    };
    let started = std::time::Instant::now();
    let report = py
        .allow_threads(|| scorer.score_range(&reference, &distorted, range))
        .map_err(engine_err)?;
    Ok(ScoreResult::new(scores_of(&report), started.elapsed()))
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
#[pyo3(signature = (model=ModelArg::Default, features=None))]
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
#[pyfunction]
fn merge(parts: Vec<PyRef<'_, ScoreResult>>) -> PyResult<ScoreResult> {
    let inner: Vec<_> = parts.iter().map(|p| p.scores().clone()).collect();
    let spent = parts.iter().map(|p| p.elapsed()).sum();
    let merged = vmafx::score::merge(inner).map_err(engine_err)?;
    Ok(ScoreResult::new(merged, spent))
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
    m.add_function(wrap_pyfunction!(frame_count, m)?)?;
    m.add_function(wrap_pyfunction!(reach, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_function(wrap_pyfunction!(result::result_from_state, m)?)?;
    Ok(())
}
