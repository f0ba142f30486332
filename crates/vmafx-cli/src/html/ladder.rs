//! `--html PAGE` with several `-d`: one page comparing the renditions of one reference.
//!
//! The page holds a table of each model's pooled score per rendition, a per-frame plot per
//! model (and per `--html-plot` metric) with one line per rendition, every metric of the
//! logs pooled per rendition, and the inputs. Each rendition's numbers come from its own
//! report, pooled as its log pools them, so they equal its pair run's. It has no worst-frame
//! pictures: those compare one distorted input with the reference (a pair run's page).

use std::path::Path;

use super::ladder_job::{LadderJob, Pooled};
use super::{chart, names, plot, points, pooled, Chart, ModelOutputs};

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
