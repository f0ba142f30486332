//! The page itself: hand-written HTML with its style inline.

use std::fmt::Write as _;

use super::thumbs::{Thumb, DIFF_GAIN};
use super::{escape, Chart, Job};

/// The pieces the page is made of.
pub struct Parts<'a> {
    /// What was run.
    pub job: &'a Job<'a>,
    /// Every metric pooled: (name, [min, max, mean, harmonic mean]).
    pub pooled: &'a [(String, Option<[f64; 4]>)],
    /// The plots.
    pub charts: &'a [Chart],
    /// The metric frames were ranked by.
    pub ranked_by: Option<&'a str>,
    /// The worst frames' pictures, or why there are none.
    pub pictures: &'a Result<Vec<Thumb>, String>,
}

/// The page's style sheet (shared by the comparison page of several renditions).
pub(super) const STYLE: &str =
    "body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}\
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}\
table{border-collapse:collapse;font-size:13px}td,th{padding:3px 10px;border-bottom:1px solid #eee;\
text-align:right}th:first-child,td:first-child{text-align:left}th{background:#f5f5f5}\
.big{font-size:28px;font-weight:600}.models td{font-size:15px}pre{background:#f7f7f7;padding:8px;\
white-space:pre-wrap;word-break:break-all;font-size:12px}.worst{display:flex;gap:8px;\
margin-bottom:14px;align-items:flex-start}.worst figure{margin:0}.worst figcaption{font-size:12px;\
color:#555}.worst img{display:block;border:1px solid #ccc;image-rendering:pixelated}\
.frame{width:130px;font-size:14px}.legend{font-size:13px;margin:0 0 14px 70px}\
.legend span{margin-right:18px}.legend i{display:inline-block;width:18px;height:3px;\
vertical-align:middle;margin-right:6px}.note{color:#666;font-size:13px}svg .pt:hover{r:6}";

/// The value as the log prints it.
pub(super) fn num(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.6}")
    } else {
        "null".into()
    }
}

fn models(p: &Parts<'_>, o: &mut String) {
    let pooled = |name: &str| {
        p.pooled
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| *v)
    };
    o.push_str(
        "<h2>Models</h2><table class=\"models\"><tr><th>model</th><th>metric</th>\
                <th>mean</th><th>harmonic mean</th><th>min</th><th>max</th>\
                <th>bootstrap 95% interval (mean)</th><th>stddev (mean)</th></tr>",
    );
    for m in &p.job.models {
        let Some(main) = m.main() else { continue };
        let v = pooled(main);
        let cells = |v: Option<[f64; 4]>| match v {
            Some([min, max, mean, hm]) => {
                format!(
                    "<td class=\"big\">{}</td><td>{}</td><td>{}</td><td>{}</td>",
                    num(mean),
                    num(hm),
                    num(min),
                    num(max)
                )
            }
            None => "<td colspan=\"4\">not pooled</td>".into(),
        };
        let interval = match m.interval() {
            Some([lo, hi, sd]) => match (pooled(lo), pooled(hi), pooled(sd)) {
                (Some(l), Some(h), Some(s)) => format!(
                    "<td>[{}, {}]</td><td>{}</td>",
                    num(l[2]),
                    num(h[2]),
                    num(s[2])
                ),
                _ => "<td>-</td><td>-</td>".into(),
            },
            None => "<td>-</td><td>-</td>".into(),
        };
        let _ = write!(
            o,
            "<tr><td>{}</td><td>{}</td>{}{interval}</tr>",
            escape(&m.label),
            escape(main),
            cells(v)
        );
    }
    o.push_str("</table>");
}

fn pooled_table(p: &Parts<'_>, o: &mut String) {
    o.push_str(
        "<h2>Pooled metrics</h2><table class=\"pooled\"><tr><th>metric</th><th>mean</th>\
                <th>harmonic mean</th><th>min</th><th>max</th></tr>",
    );
    for (name, v) in p.pooled {
        let _ = write!(
            o,
            "<tr data-metric=\"{}\"><td>{}</td>",
            escape(name),
            escape(name)
        );
        match v {
            Some([min, max, mean, hm]) => {
                let _ = write!(
                    o,
                    "<td data-pool=\"mean\">{}</td><td data-pool=\"harmonic_mean\">{}</td>\
                     <td data-pool=\"min\">{}</td><td data-pool=\"max\">{}</td>",
                    num(*mean),
                    num(*hm),
                    num(*min),
                    num(*max)
                );
            }
            None => o.push_str("<td colspan=\"4\">not on every frame</td>"),
        }
        o.push_str("</tr>");
    }
    o.push_str("</table>");
}

fn inputs(p: &Parts<'_>, o: &mut String) {
    o.push_str(
        "<h2>Inputs</h2><table><tr><th>input</th><th>file</th><th>geometry</th>\
                <th>codec</th><th>frame rate</th><th>note</th></tr>",
    );
    for (role, i) in ["reference", "distorted"].iter().zip(&p.job.inputs) {
        let _ = write!(
            o,
            "<tr><td>{role}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&i.path),
            escape(&i.geometry),
            escape(&i.codec),
            escape(i.frame_rate.as_deref().unwrap_or("-")),
            escape(i.scaled.as_deref().unwrap_or(""))
        );
    }
    let _ = write!(
        o,
        "</table><p class=\"note\">{} frames scored.</p><pre>{}</pre>",
        p.job.info.pic_count,
        escape(&p.job.command)
    );
}

fn worst(p: &Parts<'_>, o: &mut String) {
    let by = p.ranked_by.unwrap_or("-");
    let _ = write!(
        o,
        "<h2>Worst frames</h2><p class=\"note\">Lowest {} first; difference is |reference - \
         distorted| luma &times; {DIFF_GAIN}.</p>",
        escape(by)
    );
    let thumbs = match p.pictures {
        Ok(t) => t,
        Err(why) => {
            let _ = write!(o, "<p class=\"note\">No pictures: {}.</p>", escape(why));
            return;
        }
    };
    for t in thumbs {
        let _ = write!(
            o,
            "<div class=\"worst\" data-frame=\"{}\"><div class=\"frame\">frame {}<br>{} {}</div>",
            t.index,
            t.index,
            escape(by),
            num(t.score)
        );
        for (what, b64) in [
            ("reference", &t.reference),
            ("distorted", &t.distorted),
            ("difference", &t.difference),
        ] {
            let _ = write!(
                o,
                "<figure><img alt=\"{what} frame {}\" src=\"data:image/png;base64,{b64}\">\
                 <figcaption>{what}</figcaption></figure>",
                t.index
            );
        }
        o.push_str("</div>");
    }
}

/// A chart's SVG and its legend (one swatch per series), the inside of a plot's `div`.
pub(super) fn chart_body(c: &Chart, o: &mut String) {
    o.push_str(&c.svg);
    o.push_str("<div class=\"legend\">");
    for (name, colour) in &c.legend {
        let _ = write!(
            o,
            "<span><i style=\"background:{colour}\"></i>{}</span>",
            escape(name)
        );
    }
    o.push_str("</div>");
}

/// The whole page.
pub fn render(p: &Parts<'_>) -> String {
    let mut o = String::with_capacity(64 << 10);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>vmafx report</title><style>{STYLE}</style></head><body>\
         <h1>vmafx report</h1><p class=\"note\">vmafx {} (libvmaf {} compatible)</p>",
        vmafx::VERSION,
        vmafx::LIBVMAF_VERSION
    );
    models(p, &mut o);
    o.push_str("<h2>Per frame</h2>");
    for c in p.charts {
        o.push_str("<div class=\"plot\">");
        chart_body(c, &mut o);
        o.push_str("</div>");
    }
    worst(p, &mut o);
    inputs(p, &mut o);
    pooled_table(p, &mut o);
    o.push_str("</body></html>\n");
    o
}
