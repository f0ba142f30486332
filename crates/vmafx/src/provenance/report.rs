//! Reports that carry their provenance record: JSON (the record as a `provenance` object,
//! the scores written with the report's `score_format`), XML (a `<provenance>` element
//! before `</VMAF>`), and the record alone for a sidecar.

use std::fmt::Write;

use super::printf::ScoreFormat;
use super::record::Record;
use crate::output::{render_report, OutputFormat};
use crate::score::{ReportInfo, ScoreTable};

/// The JSON report: `version`, `score_format`, `backend_used`, the frames with every score
/// the table holds for each (written with `format`; a non-finite score as `null`) and the
/// record (canonical JSON, whole). Pooled and aggregate metrics are not written: the report
/// is for verification; the libvmaf-compatible log stays the job of [`render_report`].
pub fn json_report(
    table: &ScoreTable,
    record: &Record,
    format_text: &str,
    format: &ScoreFormat,
) -> String {
    let mut out = String::new();
    out.push_str("{\n");
    let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
    let _ = writeln!(out, "  \"version\": {},", q(&record.build.version));
    let _ = writeln!(out, "  \"score_format\": {},", q(format_text));
    let _ = writeln!(out, "  \"backend_used\": {},", q(&record.active_backend));
    out.push_str("  \"frames\": [");
    let mut rows: Vec<&(u64, Vec<Option<f64>>)> = table.frames.iter().collect();
    rows.sort_by_key(|r| r.0);
    rows.dedup_by_key(|r| r.0);
    for (n, (index, values)) in rows.into_iter().enumerate() {
        out.push_str(if n > 0 { ",\n" } else { "\n" });
        let _ = write!(out, "    {{\"frameNum\": {index}, \"metrics\": {{");
        let mut first = true;
        for (name, v) in table.names.iter().zip(values) {
            let Some(v) = v else { continue };
            if !first {
                out.push_str(", ");
            }
            first = false;
            let num = if v.is_finite() {
                format.format(*v)
            } else {
                "null".into()
            };
            let _ = write!(out, "{}: {num}", q(name));
        }
        out.push_str("}}");
    }
    out.push_str("\n  ],\n");
    let _ = writeln!(out, "  \"provenance\": {}", record.json(true));
    out.push_str("}\n");
    out
}

/// libvmaf's JSON log `log` with the record (its JSON text, `record_json`) as a last member
/// `"provenance"`: libvmaf's members keep their bytes, so a parser of libvmaf logs reads it.
pub fn json_log_with_record(log: &str, record_json: &str) -> String {
    let body = log.trim_end();
    let body = body.strip_suffix('}').unwrap_or(body).trim_end();
    format!("{body},\n  \"provenance\": {record_json}\n}}\n")
}

fn attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The XML report: libvmaf's XML log with the record as a `<provenance>` element (its scalar
/// fields as attributes, then `<models>`, `<features>` and `<annotations>`) before `</VMAF>`.
pub fn xml_report(table: &ScoreTable, info: &ReportInfo, record: &Record) -> String {
    let log = render_report(OutputFormat::Xml, table, info);
    let mut element = String::from("  <provenance");
    if let serde_json::Value::Object(m) = record.to_value(true) {
        for (k, v) in &m {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => continue,
            };
            let _ = write!(element, " {k}=\"{}\"", attr(&text));
        }
    }
    element.push_str(">\n    <models>\n");
    for m in &record.models {
        let _ = writeln!(
            element,
            "      <model name=\"{}\" version=\"{}\" sha256=\"{}\" flags=\"{}\" overrides=\"{}\" />",
            attr(&m.name),
            attr(&m.version),
            attr(&m.sha256),
            m.flags,
            attr(&m.overrides)
        );
    }
    element.push_str("    </models>\n    <features>\n");
    for f in &record.features {
        let _ = writeln!(
            element,
            "      <feature name=\"{}\" extractor=\"{}\" source=\"{}\" options=\"{}\" />",
            attr(&f.feature),
            attr(&f.extractor),
            f.source.name(),
            attr(&f.options)
        );
    }
    element.push_str("    </features>\n    <annotations>\n");
    for (k, v) in &record.annotations {
        let _ = writeln!(
            element,
            "      <annotation key=\"{}\" value=\"{}\" />",
            attr(k),
            attr(v)
        );
    }
    element.push_str("    </annotations>\n  </provenance>\n");
    match log.rfind("</VMAF>") {
        Some(at) => format!("{}{element}{}", &log[..at], &log[at..]),
        None => format!("{log}{element}"),
    }
}
