//! The comparison page of several renditions: hand-written HTML with its style inline.

use std::fmt::Write as _;

use super::ladder_job::{LadderJob, Pooled};
use super::page::{chart_body, num, STYLE};
use super::{escape, Chart, InputFacts};

/// Pooled values of `metric` in `pooled`: [min, max, mean, harmonic mean].
fn find(pooled: &Pooled, metric: &str) -> Option<[f64; 4]> {
    pooled
        .iter()
        .find(|(n, _)| n == metric)
        .and_then(|(_, v)| *v)
}

/// Every metric of the renditions' logs, in the first log's order, each once.
fn metrics(pooled: &[Pooled]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for (name, _) in pooled.iter().flatten() {
        if !out.contains(&name.as_str()) {
            out.push(name);
        }
    }
    out
}

/// One row per rendition, each model's main score pooled.
fn models(job: &LadderJob<'_>, pooled: &[Pooled], o: &mut String) {
    o.push_str(
        "<h2>Models</h2><table class=\"models\"><tr><th>rendition</th><th>file</th>\
         <th>frames</th>",
    );
    let mains: Vec<(&str, &str)> = job
        .models
        .iter()
        .filter_map(|m| Some((m.label.as_str(), m.main()?)))
        .collect();
    for (label, main) in &mains {
        let _ = write!(
            o,
            "<th>{} mean<br>({})</th><th>harmonic mean</th><th>min</th>",
            escape(main),
            escape(label)
        );
    }
    o.push_str("</tr>");
    for (r, p) in job.renditions.iter().zip(pooled) {
        let _ = write!(
            o,
            "<tr data-rendition=\"{}\"><td>{}</td><td>{}</td><td>{}</td>",
            escape(&r.stem),
            escape(&r.stem),
            escape(&r.input.path),
            r.info.pic_count
        );
        for (_, main) in &mains {
            match find(p, main) {
                Some([min, _, mean, hm]) => {
                    let _ = write!(
                        o,
                        "<td class=\"big\" data-metric=\"{m}\" data-pool=\"mean\">{}</td>\
                         <td data-metric=\"{m}\" data-pool=\"harmonic_mean\">{}</td>\
                         <td data-metric=\"{m}\" data-pool=\"min\">{}</td>",
                        num(mean),
                        num(hm),
                        num(min),
                        m = escape(main)
                    );
                }
                None => o.push_str("<td colspan=\"3\">not pooled</td>"),
            }
        }
        o.push_str("</tr>");
    }
    o.push_str("</table>");
}

/// One row per rendition, every metric's mean (the other pools in the cell's hover text).
fn pooled_table(job: &LadderJob<'_>, pooled: &[Pooled], o: &mut String) {
    let names = metrics(pooled);
    o.push_str(
        "<h2>Pooled metrics</h2><p class=\"note\">Mean over the frames, as each log pools \
         it; hover a value for its harmonic mean, min and max.</p>\
         <div style=\"overflow-x:auto\"><table class=\"pooled\"><tr><th>rendition</th>",
    );
    for n in &names {
        let _ = write!(o, "<th>{}</th>", escape(n));
    }
    o.push_str("</tr>");
    for (r, p) in job.renditions.iter().zip(pooled) {
        let _ = write!(
            o,
            "<tr data-rendition=\"{}\"><td>{}</td>",
            escape(&r.stem),
            escape(&r.stem)
        );
        for n in &names {
            match find(p, n) {
                Some([min, max, mean, hm]) => {
                    let _ = write!(
                        o,
                        "<td data-metric=\"{}\" data-pool=\"mean\" title=\"harmonic mean {}, \
                         min {}, max {}\">{}</td>",
                        escape(n),
                        num(hm),
                        num(min),
                        num(max),
                        num(mean)
                    );
                }
                None => o.push_str("<td>-</td>"),
            }
        }
        o.push_str("</tr>");
    }
    o.push_str("</table></div>");
}

fn input_row(o: &mut String, role: &str, i: &InputFacts) {
    let _ = write!(
        o,
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        escape(role),
        escape(&i.path),
        escape(&i.geometry),
        escape(&i.codec),
        escape(i.frame_rate.as_deref().unwrap_or("-")),
        escape(i.scaled.as_deref().unwrap_or(""))
    );
}

fn inputs(job: &LadderJob<'_>, o: &mut String) {
    o.push_str(
        "<h2>Inputs</h2><table><tr><th>input</th><th>file</th><th>geometry</th>\
         <th>codec</th><th>frame rate</th><th>note</th></tr>",
    );
    input_row(o, "reference", &job.reference);
    for r in &job.renditions {
        input_row(o, &r.stem, &r.input);
    }
    let _ = write!(
        o,
        "</table><pre>{}</pre><p class=\"note\">Worst-frame pictures compare one distorted \
         input with the reference: score a rendition alone with --html for them.</p>",
        escape(&job.command)
    );
}

/// The whole page.
pub fn render(job: &LadderJob<'_>, pooled: &[Pooled], charts: &[(String, Chart)]) -> String {
    let mut o = String::with_capacity(64 << 10);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>vmafx report: {n} renditions</title><style>{STYLE}</style></head><body>\
         <h1>vmafx report: {n} renditions of {}</h1>\
         <p class=\"note\">vmafx {} (libvmaf {} compatible)</p>",
        escape(&job.reference.path),
        vmafx::VERSION,
        vmafx::LIBVMAF_VERSION,
        n = job.renditions.len()
    );
    models(job, pooled, &mut o);
    o.push_str("<h2>Per frame</h2>");
    for (metric, c) in charts {
        let _ = write!(o, "<div class=\"plot\" data-metric=\"{}\">", escape(metric));
        chart_body(c, &mut o);
        o.push_str("</div>");
    }
    pooled_table(job, pooled, &mut o);
    inputs(job, &mut o);
    o.push_str("</body></html>\n");
    o
}
