//! `vmafx.Result`: per-frame scores as numpy arrays, pooled values and libvmaf's logs.

use std::collections::BTreeMap;
use std::time::Duration;

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyImportError, PyKeyError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use vmafx::io::InputIdentity;
use vmafx::output::{render_report, OutputFormat};
use vmafx::provenance::report::json_log_with_record;
use vmafx::score::{PartOrigin, PartialScores};
use vmafx::score::{PoolMethod, ScoreTable};

/// Pooled values of one metric over the frames of a Result.
#[pyclass(module = "vmafx", frozen, get_all)]
#[derive(Debug, Clone, Copy)]
pub struct Pooled {
    /// Arithmetic mean (what libvmaf's CLI prints as the score).
    pub mean: f64,
    /// libvmaf's harmonic mean: n / sum(1 / (x + 1)) - 1.
    pub harmonic_mean: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
}

#[pymethods]
impl Pooled {
    fn __repr__(&self) -> String {
        format!(
            "Pooled(mean={:.6}, harmonic_mean={:.6}, min={:.6}, max={:.6})",
            self.mean, self.harmonic_mean, self.min, self.max
        )
    }
}

/// The scores of a run: per-frame values of every metric (models' outputs and features,
/// named as libvmaf's logs name them), pooled values, and libvmaf's log writers.
///
/// `metrics` maps each name to a float64 numpy array over `frame_indices` (NaN where a
/// metric has no value at a frame); `frames` / `to_pandas()` give the same as a pandas
/// DataFrame indexed by frame. `pooled[name]` has `.mean`, `.harmonic_mean`, `.min`, `.max`
/// over this Result's frames (a chunk's pooled values cover that chunk only: merge chunks
/// with `vmafx.merge`, never average their means). `aggregates` holds the whole run's
/// values (psnr's `apsnr_y/cb/cr` with `enable_apsnr`). Results pickle, for distributed runs.
#[pyclass(module = "vmafx", name = "Result", frozen)]
pub struct ScoreResult {
    scores: PartialScores,
    elapsed: Duration,
    /// What these scores belong to (settings, inputs, the video's frame count); `None`
    /// for a Result pickled by an older vmafx.
    origin: Option<PartOrigin>,
    /// The engine's provenance record of the run, as canonical JSON (`None` for a merge).
    provenance: Option<String>,
    /// The whole run's values (libvmaf's `aggregate_metrics`: psnr's `apsnr_y/cb/cr` with
    /// `enable_apsnr`), in the order the logs write them; empty for a part of a video.
    aggregates: Vec<(String, f64)>,
}

impl ScoreResult {
    pub fn new(scores: PartialScores, elapsed: Duration, origin: Option<PartOrigin>) -> Self {
        ScoreResult {
            scores,
            elapsed,
            origin,
            provenance: None,
            aggregates: Vec::new(),
        }
    }

    /// The same Result with the record `text` (canonical JSON) or none.
    fn with_record_text(mut self, text: Option<String>) -> Self {
        self.provenance = text;
        self
    }

    /// The same Result with the provenance record (none for a merged report) and the
    /// whole-run values of `report`.
    pub fn with_run_of(mut self, report: &vmafx::Report) -> Self {
        self.provenance = report.provenance().map(|r| r.json(true));
        self.aggregates = report.aggregates().to_vec();
        self
    }

    /// The same Result with the whole-run values `aggregates`.
    pub fn with_aggregates(mut self, aggregates: Vec<(String, f64)>) -> Self {
        self.aggregates = aggregates;
        self
    }

    /// The whole run's values (`aggregate_metrics`), in order.
    pub fn aggregates(&self) -> &[(String, f64)] {
        &self.aggregates
    }

    pub fn origin(&self) -> Option<&PartOrigin> {
        self.origin.as_ref()
    }

    pub fn scores(&self) -> &PartialScores {
        &self.scores
    }

    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    fn column(&self, j: usize) -> Vec<f64> {
        self.scores
            .table
            .frames
            .iter()
            .map(|(_, row)| row.get(j).copied().flatten().unwrap_or(f64::NAN))
            .collect()
    }

    /// Column `j` pooled, when every listed frame has a value (as libvmaf pools).
    fn pool_column(&self, j: usize) -> Option<Pooled> {
        let t = &self.scores.table;
        if t.frames.is_empty() {
            return None;
        }
        let values: Option<Vec<f64>> = t
            .frames
            .iter()
            .map(|(_, row)| row.get(j).copied().flatten())
            .collect();
        let values = values?;
        let p = |m| vmafx::score::pool(&values, m);
        Some(Pooled {
            mean: p(PoolMethod::Mean),
            harmonic_mean: p(PoolMethod::HarmonicMean),
            min: p(PoolMethod::Min),
            max: p(PoolMethod::Max),
        })
    }

    fn render(&self, format: OutputFormat, fps: Option<f64>) -> String {
        let secs = self.elapsed.as_secs_f64();
        let n = (self.scores.frames.end - self.scores.frames.start) as f64;
        let fps = fps.unwrap_or(if secs > 0.0 { n / secs } else { 0.0 });
        let info = vmafx::score::ReportInfo {
            aggregate: self.aggregates.clone(),
            ..self.scores.report_info(fps)
        };
        render_report(format, &self.scores.table, &info)
    }

    fn write(
        &self,
        path: std::path::PathBuf,
        format: OutputFormat,
        fps: Option<f64>,
    ) -> PyResult<()> {
        std::fs::write(&path, self.render(format, fps))
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
    }

    /// The JSON log, with the record as a last member `provenance` when asked.
    fn json_log(&self, fps: Option<f64>, provenance: bool) -> PyResult<String> {
        let log = self.render(OutputFormat::Json, fps);
        if !provenance {
            return Ok(log);
        }
        let record = self.provenance.as_deref().ok_or_else(|| {
            PyValueError::new_err(
                "provenance=True: this Result has no provenance record (a merge of parts \
                 has none; score the whole video for one)",
            )
        })?;
        Ok(json_log_with_record(&log, record))
    }
}

#[pymethods]
impl ScoreResult {
    /// Metric names, in the order libvmaf's logs print them.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.scores.table.names.clone()
    }

    /// The frame indices of the rows (in the whole video), as a uint64 array.
    #[getter]
    fn frame_indices<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        let v: Vec<u64> = self.scores.table.frames.iter().map(|(i, _)| *i).collect();
        v.into_pyarray(py)
    }

    /// The frames these scores cover, `(start, end)`; a whole video starts at 0.
    #[getter]
    fn frame_range(&self) -> (u64, u64) {
        (self.scores.frames.start, self.scores.frames.end)
    }

    /// Picture width.
    #[getter]
    fn width(&self) -> u32 {
        self.scores.width
    }

    /// Picture height.
    #[getter]
    fn height(&self) -> u32 {
        self.scores.height
    }

    /// Seconds spent scoring (summed over chunks for a merged Result).
    #[getter]
    fn seconds(&self) -> f64 {
        self.elapsed.as_secs_f64()
    }

    /// Every metric as a float64 numpy array over `frame_indices` (NaN where missing).
    #[getter]
    fn metrics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (j, name) in self.scores.table.names.iter().enumerate() {
            d.set_item(name, self.column(j).into_pyarray(py))?;
        }
        Ok(d)
    }

    /// The whole run's values, by name, in the order libvmaf's logs write them
    /// (`aggregate_metrics`): psnr's `apsnr_y`, `apsnr_cb` and `apsnr_cr` with
    /// `enable_apsnr`; empty otherwise. Only a whole video gives them: scoring a range of
    /// frames refuses such a feature.
    #[getter(aggregates)]
    fn aggregates_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, value) in &self.aggregates {
            d.set_item(name, value)?;
        }
        Ok(d)
    }

    /// Pooled values of every metric that has a value at every frame, by name.
    #[getter]
    fn pooled(&self) -> BTreeMap<String, Pooled> {
        self.scores
            .table
            .names
            .iter()
            .enumerate()
            .filter_map(|(j, n)| Some((n.clone(), self.pool_column(j)?)))
            .collect()
    }

    /// The per-frame values of metric `name` (a float64 array).
    fn __getitem__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let j = self
            .scores
            .table
            .names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| PyKeyError::new_err(format!("no metric named '{name}'")))?;
        Ok(self.column(j).into_pyarray(py))
    }

    fn __contains__(&self, name: &str) -> bool {
        self.scores.table.names.iter().any(|n| n == name)
    }

    /// Number of frames with scores.
    fn __len__(&self) -> usize {
        self.scores.table.frames.len()
    }

    /// The scores as a pandas DataFrame: one column per metric, indexed by frame.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pd = py.import("pandas").map_err(|_| {
            PyImportError::new_err("Result.to_pandas() needs pandas: pip install pandas")
        })?;
        let kwargs = PyDict::new(py);
        let index = pd.call_method1("Index", (self.frame_indices(py),))?;
        index.setattr("name", "frame")?;
        kwargs.set_item("index", index)?;
        kwargs.set_item("columns", PyList::new(py, &self.scores.table.names)?)?;
        pd.call_method("DataFrame", (self.metrics(py)?,), Some(&kwargs))
    }

    /// The scores as a pandas DataFrame (see `to_pandas`).
    #[getter]
    fn frames<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_pandas(py)
    }

    /// libvmaf's JSON log as a string (`fps` defaults to this run's speed).
    #[pyo3(signature = (fps=None, provenance=false))]
    fn to_json(&self, fps: Option<f64>, provenance: bool) -> PyResult<String> {
        self.json_log(fps, provenance)
    }

    /// Writes libvmaf's JSON log to `path`; with `provenance=True` the record is its last
    /// member, as `vmafx --json --provenance` writes it (`vmafx.verify` checks it).
    #[pyo3(signature = (path, fps=None, provenance=false))]
    fn write_json(
        &self,
        path: std::path::PathBuf,
        fps: Option<f64>,
        provenance: bool,
    ) -> PyResult<()> {
        std::fs::write(&path, self.json_log(fps, provenance)?)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
    }

    /// The engine's provenance record of the run, as a dict (VMAFx's record: build, CPU
    /// level, models with their SHA-256, flags and overrides, extractors with their options,
    /// geometry, frames, the digest of every score and of the record); None for a merge.
    #[getter]
    fn provenance<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.provenance
            .as_deref()
            .map(|text| py.import("json")?.call_method1("loads", (text,)))
            .transpose()
    }

    /// Writes libvmaf's XML log to `path`.
    #[pyo3(signature = (path, fps=None))]
    fn write_xml(&self, path: std::path::PathBuf, fps: Option<f64>) -> PyResult<()> {
        self.write(path, OutputFormat::Xml, fps)
    }

    /// Writes libvmaf's CSV log to `path`.
    #[pyo3(signature = (path, fps=None))]
    fn write_csv(&self, path: std::path::PathBuf, fps: Option<f64>) -> PyResult<()> {
        self.write(path, OutputFormat::Csv, fps)
    }

    /// Writes libvmaf's MicroDVD subtitle log to `path`.
    #[pyo3(signature = (path, fps=None))]
    fn write_sub(&self, path: std::path::PathBuf, fps: Option<f64>) -> PyResult<()> {
        self.write(path, OutputFormat::Sub, fps)
    }

    fn __repr__(&self) -> String {
        let (a, b) = self.frame_range();
        let vmaf = self
            .scores
            .table
            .names
            .iter()
            .position(|n| n == "vmaf")
            .and_then(|j| self.pool_column(j))
            .map(|p| format!(", vmaf mean {:.6}", p.mean))
            .unwrap_or_default();
        format!(
            "<vmafx.Result frames {a}..{b}, {}x{}, {} metrics{vmaf}>",
            self.scores.width,
            self.scores.height,
            self.scores.table.names.len()
        )
    }

    /// Pickle support: the Result rebuilt from its plain state and its origin.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (
            State,
            Option<OriginState>,
            Option<String>,
            Vec<(String, f64)>,
        ),
    )> {
        let f = py.import("vmafx._vmafx")?.getattr("_result_from_state")?;
        let s = &self.scores;
        Ok((
            f,
            (
                (
                    (s.frames.start, s.frames.end),
                    (s.width, s.height, s.subsample),
                    s.table.names.clone(),
                    s.table.frames.clone(),
                    self.elapsed.as_secs_f64(),
                ),
                self.origin.as_ref().map(origin_state),
                self.provenance.clone(),
                self.aggregates.clone(),
            ),
        ))
    }
}

/// What a Result pickles as.
type State = (
    (u64, u64),
    (u32, u32, u32),
    Vec<String>,
    Vec<(u64, Vec<Option<f64>>)>,
    f64,
);

/// An input's identity as pickled: bytes, sha256, prefix, frames.
type IdentityState = (u64, String, u64, Option<u64>);

/// An origin as pickled: settings, both identities, the video's frames, whether to the end.
type OriginState = (
    String,
    Option<IdentityState>,
    Option<IdentityState>,
    Option<u64>,
    bool,
);

fn origin_state(o: &PartOrigin) -> OriginState {
    let id = |i: &Option<InputIdentity>| {
        i.as_ref()
            .map(|i| (i.bytes, i.sha256.clone(), i.prefix, i.frames))
    };
    (
        o.settings.clone(),
        id(&o.reference),
        id(&o.distorted),
        o.video_frames,
        o.to_end,
    )
}

/// Rebuilds a pickled Result; one pickled by an older vmafx has no origin (merges then
/// refuse it, saying so) and no whole-run values.
#[pyfunction]
#[pyo3(name = "_result_from_state", signature = (state, origin=None, provenance=None, aggregates=Vec::new()))]
pub fn result_from_state(
    state: State,
    origin: Option<OriginState>,
    provenance: Option<String>,
    aggregates: Vec<(String, f64)>,
) -> ScoreResult {
    let ((a, b), (width, height, subsample), names, frames, secs) = state;
    let id = |i: Option<IdentityState>| {
        i.map(|(bytes, sha256, prefix, frames)| InputIdentity {
            bytes,
            sha256,
            prefix,
            frames,
        })
    };
    let origin = origin.map(
        |(settings, reference, distorted, video_frames, to_end)| PartOrigin {
            settings,
            reference: id(reference),
            distorted: id(distorted),
            video_frames,
            to_end,
        },
    );
    ScoreResult::new(
        PartialScores {
            frames: a..b,
            width,
            height,
            subsample,
            table: ScoreTable { names, frames },
        },
        Duration::from_secs_f64(secs.max(0.0)),
        origin,
    )
    .with_record_text(provenance)
    .with_aggregates(aggregates)
}
