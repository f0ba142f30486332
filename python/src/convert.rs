//! Python arguments into engine settings, engine errors into Python exceptions.

use std::path::Path;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use vmafx::feature::options::split_option_string;
use vmafx::io::RawParams;
use vmafx::score::PartialScores;
use vmafx::{Feature, Model, Report, Scorer, ScorerConfig};

use crate::VmafxError;

/// The engine's error as a `VmafxError` with its message.
pub fn engine_err(e: vmafx::Error) -> PyErr {
    VmafxError::new_err(e.to_string())
}

/// `model=`: a name or spec, several, or none.
pub enum ModelArg {
    /// Not given: libvmaf's default model.
    Default,
    /// `None` or `[]`: features only.
    Nothing,
    /// Model specs.
    Specs(Vec<String>),
}

impl<'py> FromPyObject<'py> for ModelArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if ob.is_none() {
            return Ok(ModelArg::Nothing);
        }
        if let Ok(s) = ob.extract::<String>() {
            return Ok(ModelArg::Specs(vec![s]));
        }
        match ob.extract::<Vec<String>>() {
            Ok(v) if v.is_empty() => Ok(ModelArg::Nothing),
            Ok(v) => Ok(ModelArg::Specs(v)),
            Err(_) => Err(PyValueError::new_err(
                "model: expected a model name or spec string, a list of them, or None",
            )),
        }
    }
}

/// A model spec as `--model` takes it: `version=...`/`path=...` strings pass through; a
/// `.json` name or an existing file is a path; anything else is a built-in version.
fn spec_text(s: &str) -> String {
    if s.contains('=') {
        s.to_string()
    } else if s.ends_with(".json") || Path::new(s).is_file() {
        format!("path={s}")
    } else {
        format!("version={s}")
    }
}

/// One `features=` entry: `"name"`, `"name=opt=value:opt=value"` or `(name, {opt: value})`.
fn feature_of(ob: &Bound<'_, PyAny>) -> PyResult<(String, Vec<(String, String)>)> {
    if let Ok(s) = ob.downcast::<PyString>() {
        let s = s.to_cow()?;
        let (name, opts) = s.split_once('=').unwrap_or((&s, ""));
        let opts = split_option_string(opts)
            .map_err(|e| PyValueError::new_err(format!("features: {e}")))?;
        return Ok((name.to_string(), opts));
    }
    if let Ok(t) = ob.downcast::<PyTuple>() {
        if t.len() == 2 {
            let name: String = t.get_item(0)?.extract()?;
            let item = t.get_item(1)?;
            let dict = item.downcast::<PyDict>().map_err(|_| {
                PyValueError::new_err("features: a (name, options) pair needs a dict of options")
            })?;
            let mut opts = Vec::new();
            for (k, v) in dict.iter() {
                let value = if let Ok(b) = v.extract::<bool>() {
                    b.to_string()
                } else {
                    v.str()?.to_string()
                };
                opts.push((k.str()?.to_string(), value));
            }
            return Ok((name, opts));
        }
    }
    Err(PyValueError::new_err(
        "features: each entry is 'name', 'name=option=value:...' or (name, {option: value})",
    ))
}

/// What to score, as Python gave it: model specs, features with options, threads and
/// subsampling. A `vmafx::ScorerConfig` holds a callback and is not `Clone`, so one is
/// made from these for every scorer.
#[derive(Debug, Clone)]
pub struct Settings {
    models: Vec<String>,
    features: Vec<(String, Vec<(String, String)>)>,
    threads: usize,
    subsample: u32,
}

impl Settings {
    /// The engine's configuration, reading raw yuv as `raw` says.
    pub fn config(&self, raw: Option<RawParams>) -> PyResult<ScorerConfig> {
        let mut c = ScorerConfig::new()
            .threads(self.threads)
            .subsample(self.subsample);
        for m in &self.models {
            c = c.model(Model::parse(m).map_err(engine_err)?);
        }
        for (name, opts) in &self.features {
            let mut f = Feature::new(name.as_str());
            for (k, v) in opts {
                f = f.option(k.as_str(), v.as_str());
            }
            c = c.feature(f);
        }
        if let Some(raw) = raw {
            c = c.raw_input(raw);
        }
        Ok(c)
    }

    /// A scorer of these settings (models loaded, extractors registered).
    pub fn scorer(&self, raw: Option<RawParams>) -> PyResult<Scorer> {
        Scorer::new(self.config(raw)?).map_err(engine_err)
    }

    /// The settings that decide the scores as text (threads decide none), for what a
    /// Result belongs to: parts of one merge must agree on it.
    pub fn text(&self, raw: Option<RawParams>) -> String {
        let raw = raw.map(|r| format!("{}x{} {} {}-bit", r.width, r.height, r.format, r.bpc));
        format!(
            "models={:?} features={:?} subsample={} raw={raw:?}",
            self.models,
            self.features,
            self.subsample.max(1)
        )
    }
}

/// `threads=`: a count of worker threads, 0 or more.
pub fn threads_of(threads: i64) -> PyResult<usize> {
    usize::try_from(threads).map_err(|_| {
        PyValueError::new_err(format!(
            "threads: {threads} is not a thread count (0 scores on the calling thread, N > 0 \
             uses N workers)"
        ))
    })
}

/// The settings for `model`, `features`, `threads` and `subsample`.
pub fn settings_from(
    model: &ModelArg,
    features: Option<&[Bound<'_, PyAny>]>,
    threads: i64,
    subsample: u32,
) -> PyResult<Settings> {
    let threads = threads_of(threads)?;
    let models = match model {
        ModelArg::Default => vec!["version=vmaf_v0.6.1".to_string()],
        ModelArg::Nothing => Vec::new(),
        ModelArg::Specs(v) => v.iter().map(|s| spec_text(s)).collect(),
    };
    let features = features
        .unwrap_or_default()
        .iter()
        .map(feature_of)
        .collect::<PyResult<Vec<_>>>()?;
    if models.is_empty() && features.is_empty() {
        return Err(PyValueError::new_err(
            "model: nothing to score (no model and no features)",
        ));
    }
    Ok(Settings {
        models,
        features,
        threads,
        subsample,
    })
}

/// A report's rows as the Result holds them (plain data, which pickles).
pub fn scores_of(report: &Report) -> PartialScores {
    let (table, info) = report.table();
    PartialScores {
        frames: report.frame_range(),
        width: info.width,
        height: info.height,
        subsample: info.subsample,
        table: table.clone(),
    }
}

/// Raw yuv parameters when any is given (then all must be).
pub fn raw_params(
    width: Option<u32>,
    height: Option<u32>,
    pixel_format: Option<&str>,
    bitdepth: Option<u32>,
) -> PyResult<Option<RawParams>> {
    match (width, height, pixel_format, bitdepth) {
        (None, None, None, None) => Ok(None),
        (Some(w), Some(h), Some(p), Some(b)) => {
            Ok(Some(RawParams::from_names(w, h, p, b).map_err(|e| {
                PyValueError::new_err(format!("pixel_format/bitdepth: {e}"))
            })?))
        }
        _ => Err(PyValueError::new_err(
            "width, height, pixel_format, bitdepth: raw .yuv input needs all four",
        )),
    }
}
