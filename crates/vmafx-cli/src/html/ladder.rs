//! `--html PAGE` with several `-d`: one page comparing the renditions of one reference.
//!
//! The page holds a table of each model's pooled score per rendition, a per-frame plot per
//! model (and per `--html-plot` metric) with one line per rendition, every metric of the
//! logs pooled per rendition, and the inputs. Each rendition's numbers come from its own
//! report, pooled as its log pools them, so they equal its pair run's. It has no worst-frame
//! pictures: those compare one distorted input with the reference (a pair run's page).

use std::path::Path;

use vmafx::score::{ReportInfo, ScoreTable};

use super::{chart, names, plot, points, pooled, Chart, InputFacts, ModelOutputs};

/// One distorted input of the set and its scores.
pub struct Rendition<'a> {
    /// Its name on the page: the file's stem, as its log is named.
    pub stem: String,
    /// What the input says about itself.
    pub input: InputFacts,
    /// Its scores.
    pub table: &'a ScoreTable,
    /// What its pooled values pool over.
    pub info: &'a ReportInfo,
}

/// Everything the comparison page shows.
pub struct LadderJob<'a> {
    /// The reference.
    pub reference: InputFacts,
    /// The distorted inputs, in the order given.
    pub renditions: Vec<Rendition<'a>>,
    /// The models run (the same for every rendition).
    pub models: Vec<ModelOutputs>,
    /// Metrics to plot beside the models' scores.
    pub plot: &'a [String],
    /// The command line.
    pub command: String,
}

/// A rendition's pooled values: (metric, [min, max, mean, harmonic mean]).
pub type Pooled = Vec<(String, Option<[f64; 4]>)>;

/// The metrics plotted: each model's main score, then the `--html-plot` names, each once.
fn plotted(job: &LadderJob<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mains = job.models.iter().filter_map(ModelOutputs::main);
    for name in mains.chain(job.plot.iter().map(String::as_str)) {
        if !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    }
    out
}

/// The chart of `metric`: one line per rendition that has it (`None` where none has).
fn metric_chart(job: &LadderJob<'_>, metric: &str) -> Result<Option<Chart>, String> {
    let mut series = Vec::with_capacity(job.renditions.len());
    for r in &job.renditions {
        let pts = points(r.table, metric).ok_or_else(|| names::unknown(metric, &r.table.names))?;
        series.push(plot::Series {
            name: r.stem.clone(),
            points: pts,
        });
    }
    chart(&format!("{metric} per frame"), metric, &series)
}

/// Writes the comparison page of `job` to `path`.
pub fn write_ladder(job: &LadderJob<'_>, path: &Path) -> Result<(), String> {
    let mut charts = Vec::new();
    for metric in plotted(job) {
        if let Some(c) = metric_chart(job, &metric)? {
            charts.push((metric, c));
        }
    }
    let pooled: Vec<Pooled> = job
        .renditions
        .iter()
        .map(|r| pooled(r.table, r.info))
        .collect();
    let html = super::ladder_page::render(job, &pooled, &charts);
    std::fs::write(path, html).map_err(|e| format!("writing {}: {e}", path.display()))
}
