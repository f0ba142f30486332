//! `--html report.html`: one self-contained page a person reads at a glance.
//!
//! The page holds the pooled table (every metric of the log: mean, harmonic mean, min,
//! max, as the log pools them), each model's score with its bootstrap interval where the
//! model has one, a per-frame plot of the model scores and the metrics `--html-plot` names
//! (inline SVG drawn by plotters; hovering a point shows its frame and value), the worst
//! frames (lowest score of the first model) as reference / distorted / difference
//! thumbnails (PNG, base64 inside the page), the inputs' geometry and codec, and the
//! command line. No script, no stylesheet or font from the network.
//!
//! With several `-d`, one page compares the renditions instead ([`write_ladder`]).

mod ladder;
mod ladder_job;
mod ladder_page;
mod names;
mod page;
mod plot;
mod thumbs;

use std::path::Path;

use vmafx::io::{InputKind, OpenOptions, VideoReader};
use vmafx::score::{pool, PoolMethod, ReportInfo, ScoreTable};

pub use ladder::write_ladder;
pub use ladder_job::{LadderJob, Rendition};
pub use thumbs::Reopen;

/// A model as the report shows it.
pub struct ModelOutputs {
    /// How the model was given (`vmaf_v0.6.1`, a path).
    pub label: String,
    /// The names it writes into the log, main score first.
    pub names: Vec<String>,
}

impl ModelOutputs {
    /// The name of the score to plot and rank frames by: a bootstrap collection's bagged
    /// score, otherwise the model's one score.
    pub fn main(&self) -> Option<&str> {
        self.names
            .iter()
            .find(|n| n.ends_with("_bagging"))
            .or(self.names.first())
            .map(String::as_str)
    }

    /// A bootstrap collection's interval names: (low, high, stddev).
    fn interval(&self) -> Option<[&str; 3]> {
        let find = |s: &str| {
            self.names
                .iter()
                .find(|n| n.ends_with(s))
                .map(String::as_str)
        };
        Some([find("_ci_p95_lo")?, find("_ci_p95_hi")?, find("_stddev")?])
    }
}

/// The models of `report` as the page shows them.
pub fn models_of(report: &vmafx::Report) -> Vec<ModelOutputs> {
    report
        .model_outputs()
        .into_iter()
        .map(|(label, names)| ModelOutputs {
            label: label.to_string(),
            names: names.into_iter().map(String::from).collect(),
        })
        .collect()
}

/// An input as the report describes it.
pub struct InputFacts {
    /// Its path.
    pub path: String,
    /// `576x324, yuv420p 8-bit`.
    pub geometry: String,
    /// `y4m`, `raw yuv`, or the codec ffmpeg decoded (`h264 via ffmpeg`).
    pub codec: String,
    /// `25 fps`, where known.
    pub frame_rate: Option<String>,
    /// A note where the pictures were scaled.
    pub scaled: Option<String>,
}

impl InputFacts {
    /// What `r` says about itself.
    pub fn of(r: &VideoReader) -> Self {
        let g = r.geometry();
        let codec = match (r.decoded(), r.kind()) {
            (Some(d), _) => format!(
                "{} (decoded by ffmpeg)",
                d.probe
                    .as_ref()
                    .and_then(|p| p.codec.clone())
                    .unwrap_or_else(|| "compressed".into())
            ),
            (None, InputKind::Y4m(_)) if r.path().as_os_str() == "-" => "y4m (stdin)".into(),
            (None, InputKind::Y4m(_)) => "y4m".into(),
            (None, InputKind::Raw(_)) => "raw yuv".into(),
        };
        InputFacts {
            path: r.path().display().to_string(),
            geometry: format!("{}x{}, {} {}-bit", g.width, g.height, g.format, g.bpc),
            codec,
            frame_rate: r.frame_rate().map(|(n, d)| {
                if d == 1 {
                    format!("{n} fps")
                } else {
                    format!("{:.3} fps", n as f64 / d as f64)
                }
            }),
            scaled: r
                .decoded()
                .and_then(|d| d.scaled_from)
                .map(|(w, h)| format!("scaled from {w}x{h} (bicubic)")),
        }
    }
}

/// Everything the report shows.
pub struct Job<'a> {
    /// The scores.
    pub table: &'a ScoreTable,
    /// What the log's pooled sections pool over (size, frames, subsampling).
    pub info: &'a ReportInfo,
    /// The models run.
    pub models: Vec<ModelOutputs>,
    /// Metrics to plot beside the models' scores.
    pub plot: &'a [String],
    /// Worst frames to show.
    pub worst: usize,
    /// Reference and distorted input.
    pub inputs: [InputFacts; 2],
    /// How to read the inputs again for the thumbnails.
    pub reopen: [Reopen<'a>; 2],
    /// The command line.
    pub command: String,
}

/// Refuses, before the first frame is read, a `--html-plot` name that the log of a run of
/// `config` on pictures of `geometry` cannot hold. Where the engine cannot tell the names
/// beforehand (a size an extractor refuses, say), the run itself reports that, and the names
/// are checked again when the page is written.
pub fn check_plot_names(
    plot: &[String],
    config: vmafx::ScorerConfig,
    geometry: vmafx::frame::Geometry,
) -> Result<(), String> {
    if plot.is_empty() {
        return Ok(());
    }
    let Ok(known) = names::of_run(config, geometry) else {
        return Ok(());
    };
    match plot.iter().find(|p| !known.contains(p)) {
        Some(name) => Err(names::unknown(name, &known)),
        None => Ok(()),
    }
}

/// Builds the reopen handle of an input.
pub fn reopen<'a>(path: &'a Path, options: &'a OpenOptions, skip: u64) -> Reopen<'a> {
    Reopen {
        path,
        options,
        skip,
    }
}

/// Column `name` of `table` as (frame, value) points.
fn points(table: &ScoreTable, name: &str) -> Option<Vec<(u64, f64)>> {
    let j = table.names.iter().position(|n| n == name)?;
    Some(
        table
            .frames
            .iter()
            .filter_map(|(i, row)| row.get(j).copied().flatten().map(|v| (*i, v)))
            .collect(),
    )
}

/// Every column pooled as the log pools it: (name, [min, max, mean, harmonic mean]) over
/// frames `0..pic_count` kept by subsampling, `None` where one of them lacks the metric.
fn pooled(table: &ScoreTable, info: &ReportInfo) -> Vec<(String, Option<[f64; 4]>)> {
    let mut rows = std::collections::BTreeMap::new();
    for (i, row) in &table.frames {
        rows.entry(*i).or_insert(row);
    }
    let step = u64::from(info.subsample.max(1));
    let column = |j: usize| -> Option<Vec<f64>> {
        if info.pic_count == 0 {
            return None;
        }
        (0..info.pic_count)
            .step_by(step as usize)
            .map(|i| rows.get(&i).and_then(|r| r.get(j).copied().flatten()))
            .collect()
    };
    table
        .names
        .iter()
        .enumerate()
        .map(|(j, n)| {
            let pooled = column(j).map(|v| PoolMethod::ALL.map(|m| pool(&v, m)));
            (n.clone(), pooled)
        })
        .collect()
}

/// One chart of the page: its SVG and its legend (name, colour).
pub struct Chart {
    /// The SVG document.
    pub svg: String,
    /// Each line's name and colour.
    pub legend: Vec<(String, String)>,
}

/// The series of `names`, each once, from the table.
fn series_of<'n>(
    table: &ScoreTable,
    names: impl Iterator<Item = &'n str>,
) -> Result<Vec<plot::Series>, String> {
    let mut series: Vec<plot::Series> = Vec::new();
    for name in names {
        let pts = points(table, name).ok_or_else(|| names::unknown(name, &table.names))?;
        if !series.iter().any(|s| s.name == name) {
            series.push(plot::Series {
                name: name.to_string(),
                points: pts,
            });
        }
    }
    Ok(series)
}

/// A chart of `series`, or `None` where there are none.
fn chart(title: &str, y_desc: &str, series: &[plot::Series]) -> Result<Option<Chart>, String> {
    if series.is_empty() {
        return Ok(None);
    }
    Ok(Some(Chart {
        svg: plot::svg(title, y_desc, series, (1100, 380))?,
        legend: series
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), plot::color(i)))
            .collect(),
    }))
}

/// Writes the report of `job` to `path`.
pub fn write(job: &Job<'_>, path: &Path) -> Result<(), String> {
    let scores = series_of(job.table, job.models.iter().filter_map(ModelOutputs::main))?;
    let others = series_of(job.table, job.plot.iter().map(String::as_str))?;
    let charts: Vec<Chart> = [
        chart("Model scores per frame", "score", &scores)?,
        chart("Chosen metrics per frame", "value", &others)?,
    ]
    .into_iter()
    .flatten()
    .collect();
    let ranked = scores.first().or(others.first());
    let worst = ranked
        .map(|s| thumbs::worst(&s.points, job.worst))
        .unwrap_or_default();
    let pictures = if worst.is_empty() {
        Err("no score to rank frames by".to_string())
    } else {
        thumbs::thumbs(&job.reopen[0], &job.reopen[1], &worst)
    };
    let html = page::render(&page::Parts {
        job,
        pooled: &pooled(job.table, job.info),
        charts: &charts,
        ranked_by: ranked.map(|s| s.name.as_str()),
        pictures: &pictures,
    });
    std::fs::write(path, html).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Text made safe inside HTML and SVG.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}
