//! `score_many`: one reference and several distorted files (a bitrate ladder, CRF probes)
//! scored in one pass, the reference read once.

use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::convert::{engine_err, scores_of, settings_from, ModelArg};
use crate::interrupt;
use crate::result::ScoreResult;

/// Scores every file of `distorted` (a list of paths) against `reference` and returns one
/// Result per distorted file, in their order, each equal to `score(reference, d, ...)`.
///
/// The reference is read and decoded once for all of them. The options are `score`'s;
/// frames: (start, end) scores that range of every distorted file (for chunked runs: see
/// vmafx.dask.score, which takes a list). A distorted file with fewer frames ends its
/// Result there. Raises ValueError for an empty list and VmafxError naming a file the
/// engine refuses.
#[pyfunction]
#[pyo3(signature = (reference, distorted, model=ModelArg::Default, features=None, threads=0,
    subsample=1, width=None, height=None, pixel_format=None, bitdepth=None, frames=None,
    accept_decode_errors=false),
    text_signature = "(reference, distorted, model='vmaf_v0.6.1', features=None, threads=0, \
    subsample=1, width=None, height=None, pixel_format=None, bitdepth=None, frames=None, \
    accept_decode_errors=False)")]
#[allow(clippy::too_many_arguments)]
pub fn score_many(
    py: Python<'_>,
    reference: PathBuf,
    distorted: Vec<PathBuf>,
    model: ModelArg,
    features: Option<Vec<Bound<'_, PyAny>>>,
    threads: i64,
    subsample: u32,
    width: Option<u32>,
    height: Option<u32>,
    pixel_format: Option<String>,
    bitdepth: Option<u32>,
    frames: Option<(u64, u64)>,
    accept_decode_errors: bool,
) -> PyResult<Vec<ScoreResult>> {
    if distorted.is_empty() {
        return Err(PyValueError::new_err(
            "distorted: expected a list of one or more video paths",
        ));
    }
    let settings = settings_from(&model, features.as_deref(), threads, subsample)?;
    let raw = crate::convert::raw_params(width, height, pixel_format.as_deref(), bitdepth)?;
    let range = match frames {
        Some((a, b)) if a >= b => {
            return Err(PyValueError::new_err(format!(
                "frames: ({a}, {b}) holds no frame (the end must lie above the start)"
            )))
        }
        Some((a, b)) => a..b,
        None => 0..u64::MAX,
    };
    let opts = vmafx::io::OpenOptions {
        raw,
        accept_decode_errors,
        ..Default::default()
    };
    let open = |p: &Path, what: &str| {
        vmafx::io::VideoReader::open_input(p, &opts).map_err(|e| e.context(what))
    };
    let origin_of = |r: &vmafx::io::VideoReader, d: &vmafx::io::VideoReader| {
        let video_frames = match (r.frame_count(), d.frame_count()) {
            (Some(x), Some(y)) => Some(x.min(y)),
            _ => None,
        };
        Ok::<_, vmafx::Error>(vmafx::score::PartOrigin {
            settings: settings.text(raw),
            reference: r.identity()?,
            distorted: d.identity()?,
            video_frames,
            to_end: range.end == u64::MAX,
        })
    };
    let started = std::time::Instant::now();
    let (config, watch) = interrupt::Watch::install(settings.config(raw)?, None);
    let scorer = vmafx::Scorer::new(config).map_err(engine_err)?;
    let whole = range == (0..u64::MAX);
    // A range scores each distorted file with a scorer of its own (made here, with the GIL).
    let mut others = Vec::new();
    if !whole {
        for _ in 1..distorted.len() {
            others.push(settings.scorer(raw)?);
        }
    }
    let scored = py.allow_threads(|| -> vmafx::Result<Vec<_>> {
        let r = open(&reference, "reference")?;
        let mut readers = Vec::with_capacity(distorted.len());
        let mut origins = Vec::with_capacity(distorted.len());
        for d in &distorted {
            let d = open(d, "distorted")?;
            origins.push(origin_of(&r, &d)?);
            readers.push(d);
        }
        if whole {
            let reports = scorer.score_readers_many(r, readers)?;
            return Ok(reports.into_iter().zip(origins).collect());
        }
        // A range: each distorted file with its own pass over the reference's range (the
        // chunk's numbers are those of one pass; the reference's range is read again).
        drop(r);
        let mut out = Vec::with_capacity(readers.len());
        let scorers = std::iter::once(scorer).chain(others);
        for ((d, origin), s) in readers.into_iter().zip(origins).zip(scorers) {
            let r = open(&reference, "reference")?;
            out.push((s.score_readers_range(r, d, range.clone())?, origin));
        }
        Ok(out)
    });
    if let Some(e) = watch.raised() {
        return Err(e);
    }
    let scored = scored.map_err(|e| {
        if e.status() == vmafx::Status::Range && e.subject().starts_with("frames") {
            PyValueError::new_err(e.to_string())
        } else {
            engine_err(e)
        }
    })?;
    let elapsed = started.elapsed() / scored.len() as u32;
    Ok(scored
        .into_iter()
        .map(|(report, origin)| {
            ScoreResult::new(scores_of(&report), elapsed, Some(origin)).with_run_of(&report)
        })
        .collect())
}
