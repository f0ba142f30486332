//! [`Report`]: every score of a finished run, read through `&self`.

use std::fmt;
use std::ops::{Bound, Range, RangeBounds};
use std::path::Path;

use crate::error::{Error, Result};
use crate::output::{render_report, OutputFormat};
use crate::provenance::report::{json_log_with_record, xml_report};
use crate::provenance::Record;
use crate::score::{pool, PoolMethod, ReportInfo, ScoreTable};

/// Which input of a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The reference (undistorted) input.
    Reference,
    /// The distorted input.
    Distorted,
}

/// A model's scores pooled over frames: its own score, and for a bootstrap collection the
/// bagged score with its spread. [`fmt::Display`] prints the line libvmaf's tool prints.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelScores {
    /// The version, path or label the model was given by ([`super::Model::label`]).
    pub label: String,
    /// The model's output name (`vmaf` unless renamed).
    pub name: String,
    /// How the frames were pooled.
    pub method: PoolMethod,
    /// The model's score pooled (for a collection, its base model's score).
    pub pooled: f64,
    /// The collection's statistics, pooled the same way; `None` for a single model.
    pub bootstrap: Option<Bootstrap>,
}

/// A bootstrap collection's statistics (each pooled over frames).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bootstrap {
    /// The mean of the member models' scores.
    pub bagging: f64,
    /// Their standard deviation, scaled by the transform's local slope.
    pub stddev: f64,
    /// The 95% interval (2.5th and 97.5th percentiles of the members).
    pub ci_p95: (f64, f64),
}

impl fmt::Display for ModelScores {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.bootstrap {
            None => write!(f, "{}: {:.6}", self.label, self.pooled),
            Some(b) => write!(
                f,
                "{}: {:.6}, ci.p95: [{:.6}, {:.6}], stddev: {:.6}",
                self.label, b.bagging, b.ci_p95.0, b.ci_p95.1, b.stddev
            ),
        }
    }
}

/// Where a model's outputs sit among the report's columns.
#[derive(Debug, Clone)]
pub(crate) struct ModelColumns {
    pub label: String,
    pub name: String,
    /// The column of each output, in the model's output order.
    pub outputs: Vec<usize>,
    /// Whether the last four outputs are a collection's bagging, stddev and interval.
    pub bootstrap: bool,
}

/// One frame's scores: every feature and model output the run computed for it.
#[derive(Debug, Clone, Copy)]
pub struct FrameRow<'a> {
    index: u64,
    names: &'a [String],
    values: &'a [Option<f64>],
}

impl<'a> FrameRow<'a> {
    /// The frame's index, from 0.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The score named `name` as logs print it (`vmaf`, `integer_adm2`, `psnr_y`).
    pub fn get(&self, name: &str) -> Option<f64> {
        let j = self.names.iter().position(|n| n == name)?;
        self.values.get(j).copied().flatten()
    }

    /// Every score of the frame as `(name, value)`, in libvmaf's print order.
    pub fn iter(&self) -> impl Iterator<Item = (&'a str, f64)> + 'a {
        let values = self.values;
        self.names
            .iter()
            .enumerate()
            .filter_map(move |(j, n)| Some((n.as_str(), values.get(j).copied().flatten()?)))
    }
}

/// Every score of a finished run: per-frame rows, pooled values, model scores with typed
/// bootstrap statistics, and libvmaf's logs.
///
/// Everything is computed when the run finishes, so reading needs only `&self`. Frame
/// ranges are half-open (`0..n`, `10..`, `..` for all); a range reaching past the frames
/// scored, or an empty one, is [`crate::Status::Range`], checked before any work.
///
/// ```
/// use vmafx::{Feature, FrameBuilder, PixelFormat, PoolMethod, Scorer, ScorerConfig};
///
/// let mut scorer = Scorer::new(ScorerConfig::new().feature(Feature::new("psnr")))?;
/// for i in 0..3u8 {
///     let frame = |v: u8| {
///         let mut b = FrameBuilder::new(PixelFormat::Yuv420p, 8, 32, 32).unwrap();
///         if let Some(vmafx::frame::SamplesMut::U8(s)) = b.plane_mut(0).samples_mut() {
///             s.iter_mut().enumerate().for_each(|(k, x)| *x = (k as u8).wrapping_add(v));
///         }
///         b.build()
///     };
///     scorer.push(frame(0), frame(i))?;
/// }
/// let report = scorer.finish()?;
/// assert_eq!(report.frame_count(), 3);
/// let first = report.frames().next().unwrap();
/// assert_eq!(first.get("psnr_y"), Some(60.0)); // identical frames: libvmaf's ceiling
/// let worst = report.pooled("psnr_y", PoolMethod::Min, ..)?;
/// assert!(worst < report.pooled("psnr_y", PoolMethod::Max, 1..3)?);
/// assert!(report.pooled("psnr_y", PoolMethod::Mean, 0..u64::MAX).is_err());
/// let csv = report.render(vmafx::OutputFormat::Csv);
/// assert!(csv.starts_with("Frame,psnr_y,"));
/// # Ok::<(), vmafx::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Report {
    /// The frames of the video this report covers (`0..n` for one pass).
    pub(crate) frames: Range<u64>,
    pub(crate) table: ScoreTable,
    /// The collector's key of each column (the table holds the printed aliases).
    pub(crate) keys: Vec<String>,
    pub(crate) models: Vec<ModelColumns>,
    pub(crate) info: ReportInfo,
    pub(crate) ended_first: Option<Side>,
    /// How the scores were made; `None` for a report merged from parts.
    pub(crate) provenance: Option<Record>,
}

impl Report {
    /// Frame pairs this report covers: every pair scored for one pass, the range's own
    /// frames for [`super::Scorer::score_range`].
    pub fn frame_count(&self) -> u64 {
        self.frames.end - self.frames.start
    }

    /// The frames of the video this report covers, by their index in the whole video:
    /// `0..n` for one pass, the range scored by [`super::Scorer::score_range`] (cut where
    /// the inputs ended), or the merged ranges for [`Report::merge`].
    pub fn frame_range(&self) -> Range<u64> {
        self.frames.clone()
    }

    /// The whole-run values (libvmaf's `aggregate_metrics`), in the order written: psnr's
    /// `apsnr_y`, `apsnr_cb` and `apsnr_cr` with `enable_apsnr`; empty otherwise.
    ///
    /// ```no_run
    /// # fn main() -> vmafx::Result<()> {
    /// use vmafx::{Feature, Scorer, ScorerConfig};
    /// let config = ScorerConfig::new().feature(Feature::new("psnr").option("enable_apsnr", true));
    /// let report = Scorer::new(config)?.score_files("ref.y4m", "dis.y4m")?;
    /// for (name, value) in report.aggregates() {
    ///     println!("{name} {value:.6}");
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn aggregates(&self) -> &[(String, f64)] {
        &self.info.aggregate
    }

    /// Frame width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.info.width, self.info.height)
    }

    /// Frames scored per second of the run, as logs print it.
    pub fn fps(&self) -> f64 {
        self.info.fps
    }

    /// Which input ran out first when reading files of different lengths (the run scored
    /// the pairs both had, as libvmaf does); `None` when they ended together or a frame
    /// limit stopped the run.
    pub fn ended_first(&self) -> Option<Side> {
        self.ended_first
    }

    /// Set where the run stopped before its inputs ended (interrupted through
    /// [`super::ScorerConfig::stop_when`], or an input failed with
    /// [`super::ScorerConfig::keep_partial`] on): why, and the frames scored. The logs carry
    /// the mark too.
    pub fn partial(&self) -> Option<&crate::score::Partial> {
        self.info.partial.as_ref()
    }

    /// The names of every score, as logs print them, in libvmaf's order.
    pub fn names(&self) -> &[String] {
        &self.table.names
    }

    /// Every frame's row in frame order (frames skipped by subsampling left out).
    pub fn frames(&self) -> impl Iterator<Item = FrameRow<'_>> + '_ {
        self.table.frames.iter().map(|(index, values)| FrameRow {
            index: *index,
            names: &self.table.names,
            values,
        })
    }

    /// Frame `index`'s row: `Range` past the frames scored, `NotFound` for a frame skipped
    /// by subsampling.
    pub fn frame(&self, index: u64) -> Result<FrameRow<'_>> {
        if !self.frames.contains(&index) {
            return Err(Error::range("index", outside(index, &self.frames)));
        }
        let at = self
            .table
            .frames
            .binary_search_by_key(&index, |(i, _)| *i)
            .map_err(|_| Error::not_found("index", format!("frame {index} was not scored")))?;
        let (index, values) = &self.table.frames[at];
        Ok(FrameRow {
            index: *index,
            names: &self.table.names,
            values,
        })
    }

    /// Score `name` (a feature or a model output, by its printed name or libvmaf's long
    /// name) pooled with `method` over the frames of `range` (subsampled frames skipped).
    pub fn pooled(
        &self,
        name: &str,
        method: PoolMethod,
        range: impl RangeBounds<u64>,
    ) -> Result<f64> {
        let (first, end) = self.checked(range)?;
        let j = self.column(name)?;
        Ok(pool(&self.values(j, name, first, end)?, method))
    }

    /// Every model's scores pooled by mean over all frames, in the order they were added:
    /// what libvmaf's tool prints.
    pub fn models(&self) -> Result<Vec<ModelScores>> {
        self.models
            .iter()
            .map(|m| self.pool_model(m, PoolMethod::Mean, self.frames.start, self.frames.end))
            .collect()
    }

    /// The scores of the model given by its label or output name, pooled by mean over all
    /// frames.
    pub fn model(&self, label_or_name: &str) -> Result<ModelScores> {
        self.model_pooled(label_or_name, PoolMethod::Mean, ..)
    }

    /// The scores of the model given by its label or output name, pooled with `method`
    /// over the frames of `range`.
    pub fn model_pooled(
        &self,
        label_or_name: &str,
        method: PoolMethod,
        range: impl RangeBounds<u64>,
    ) -> Result<ModelScores> {
        let (first, end) = self.checked(range)?;
        let m = self
            .models
            .iter()
            .find(|m| m.label == label_or_name || m.name == label_or_name)
            .ok_or_else(|| {
                Error::not_found(label_or_name, "no model of this run has this label or name")
            })?;
        self.pool_model(m, method, first, end)
    }

    /// Each model's label and the printed names of its outputs, in the order the models were
    /// added: the score first, then a collection's members, bagged score, stddev and interval.
    pub fn model_outputs(&self) -> Vec<(&str, Vec<&str>)> {
        self.models
            .iter()
            .map(|m| {
                let names = m.outputs.iter().map(|&c| self.table.names[c].as_str());
                (m.label.as_str(), names.collect())
            })
            .collect()
    }

    /// The log in `format`, byte for byte as libvmaf writes it for these scores.
    pub fn render(&self, format: OutputFormat) -> String {
        render_report(format, &self.table, &self.info)
    }

    /// The provenance record of the run (VMAFx's provenance.h record: build, CPU level,
    /// models with their SHA-256 digests, flags and overrides, extractors with their
    /// options, geometry, frames, a digest of every score and of the record itself); `None`
    /// for a report merged from parts ([`Report::from_parts`]).
    pub fn provenance(&self) -> Option<&Record> {
        self.provenance.as_ref()
    }

    /// The log in `format` with the provenance record: JSON gets a last member
    /// `"provenance"` (the record's canonical JSON, RFC 8785) after libvmaf's members, XML a
    /// `<provenance>` element before `</VMAF>`; CSV and subtitles have no place for it and
    /// are [`Report::render`]'s. Without a record (a merged report) this is
    /// [`Report::render`]. `vmafx report verify` and [`crate::provenance::verify`] check a
    /// JSON log written so.
    pub fn render_with_provenance(&self, format: OutputFormat) -> String {
        let Some(record) = &self.provenance else {
            return self.render(format);
        };
        match format {
            OutputFormat::Json => json_log_with_record(&self.render(format), &record.json(true)),
            OutputFormat::Xml => xml_report(&self.table, &self.info, record),
            _ => self.render(format),
        }
    }

    /// Writes the log in `format` to `w`.
    pub fn write(&self, w: &mut dyn std::io::Write, format: OutputFormat) -> std::io::Result<()> {
        w.write_all(self.render(format).as_bytes())?;
        w.flush()
    }

    /// Writes the log in `format` to the file `path`, through a temporary file renamed in
    /// place so a failure leaves no cut log; `Io` naming the path on failure.
    pub fn write_file(&self, path: impl AsRef<Path>, format: OutputFormat) -> Result<()> {
        crate::output::write_file_atomically(path.as_ref(), self.render(format).as_bytes())
    }

    /// The table the log writers print and the run's facts beside it.
    pub fn table(&self) -> (&ScoreTable, &ReportInfo) {
        (&self.table, &self.info)
    }

    fn pool_model(
        &self,
        m: &ModelColumns,
        method: PoolMethod,
        first: u64,
        end: u64,
    ) -> Result<ModelScores> {
        if first >= end {
            return Err(Error::range("range", outside(first, &self.frames)));
        }
        // A collection has its base, members and four statistics; a model at least one.
        let least = if m.bootstrap { 5 } else { 1 };
        if m.outputs.len() < least {
            return Err(Error::not_found(&m.label, "the model predicted no score"));
        }
        let pooled = |k: usize| -> Result<f64> {
            let j = m.outputs[k];
            Ok(pool(&self.values(j, &self.keys[j], first, end)?, method))
        };
        let bootstrap = match m.bootstrap {
            true => {
                let n = m.outputs.len();
                Some(Bootstrap {
                    bagging: pooled(n - 4)?,
                    stddev: pooled(n - 3)?,
                    ci_p95: (pooled(n - 2)?, pooled(n - 1)?),
                })
            }
            false => None,
        };
        Ok(ModelScores {
            label: m.label.clone(),
            name: m.name.clone(),
            method,
            pooled: pooled(0)?,
            bootstrap,
        })
    }

    /// `range` as `first..end` within the frames scored, non-empty.
    fn checked(&self, range: impl RangeBounds<u64>) -> Result<(u64, u64)> {
        let first = match range.start_bound() {
            Bound::Included(&s) => s,
            Bound::Excluded(&s) => s.saturating_add(1),
            Bound::Unbounded => self.frames.start,
        };
        let end = match range.end_bound() {
            Bound::Included(&e) => e.saturating_add(1),
            Bound::Excluded(&e) => e,
            Bound::Unbounded => self.frames.end,
        };
        if end > self.frames.end {
            return Err(Error::range("range", outside(end - 1, &self.frames)));
        }
        if first < self.frames.start && first < end {
            return Err(Error::range("range", outside(first, &self.frames)));
        }
        if first >= end {
            return Err(Error::range(
                "range",
                format!("frames {first}..{end} hold no frame"),
            ));
        }
        Ok((first, end))
    }

    fn column(&self, name: &str) -> Result<usize> {
        self.table
            .names
            .iter()
            .position(|n| n == name)
            .or_else(|| self.keys.iter().position(|k| k == name))
            .ok_or_else(|| Error::not_found(name, "no such score was computed"))
    }

    /// Column `j` at every scored frame of `first..end`; `NotFound` naming `name` and the
    /// frame where one lacks it.
    fn values(&self, j: usize, name: &str, first: u64, end: u64) -> Result<Vec<f64>> {
        let s = u64::from(self.info.subsample.max(1));
        let rows = &self.table.frames;
        let start = rows.partition_point(|(i, _)| *i < first);
        let mut out = Vec::new();
        let mut it = rows[start..].iter().peekable();
        for index in (first..end).filter(|i| i % s == 0) {
            while it.next_if(|(i, _)| *i < index).is_some() {}
            let v = it
                .peek()
                .filter(|(i, _)| *i == index)
                .and_then(|(_, row)| row.get(j).copied().flatten());
            match v {
                Some(v) => out.push(v),
                None => {
                    return Err(Error::not_found(
                        format!("{name} at frame {index}"),
                        "no score at this frame",
                    ))
                }
            }
        }
        Ok(out)
    }
}

/// Why frame `index` is not among `frames`.
fn outside(index: u64, frames: &Range<u64>) -> String {
    match (frames.start, frames.end) {
        (_, 0) => format!("frame {index} was not scored: the run scored no frame"),
        (s, e) if s == e => {
            format!("frame {index} was not scored: the range {s}..{e} holds no frame")
        }
        (0, n) => format!(
            "frame {index} is past the last frame scored ({} of {n} frames)",
            n - 1
        ),
        (s, e) if index < s => format!(
            "frame {index} is before the first frame of this report (it covers frames {s}..{e})"
        ),
        (s, e) => format!(
            "frame {index} is past the last frame scored ({} of frames {s}..{e})",
            e - 1
        ),
    }
}
