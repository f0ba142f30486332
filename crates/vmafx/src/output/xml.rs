//! libvmaf's XML log, byte for byte.

use std::fmt::{self, Write};

use super::number::{Fps, Score};
use super::view::View;
use crate::score::PoolMethod;
use crate::score::ReportInfo;

/// Appends the XML log of `view` to `out`. Names are written unescaped, as libvmaf does.
pub(crate) fn write_xml(out: &mut String, view: &View<'_>, info: &ReportInfo) -> fmt::Result {
    writeln!(out, "<VMAF version=\"{}\">", info.version)?;
    writeln!(
        out,
        "  <params qualityWidth=\"{}\" qualityHeight=\"{}\" />",
        info.width, info.height
    )?;
    writeln!(out, "  <fyi fps=\"{}\" />", Fps(info.fps))?;
    if let Some(p) = &info.partial {
        // vmafx's own element: libvmaf's parsers look up the elements they know by name.
        writeln!(
            out,
            "  <partial reason=\"{}\" frames=\"{}\" detail=\"{}\" />",
            p.reason,
            p.frames,
            escape_attr(&p.detail)
        )?;
    }

    writeln!(out, "  <frames>")?;
    for row in view.printed(info) {
        write!(out, "    <frame frameNum=\"{}\" ", row.index)?;
        for (j, value) in view.written(&row) {
            write!(out, "{}=\"{}\" ", view.names[j], Score(value))?;
        }
        writeln!(out, "/>")?;
    }
    writeln!(out, "  </frames>")?;

    writeln!(out, "  <pooled_metrics>")?;
    for (j, name) in view.names.iter().enumerate() {
        write!(out, "    <metric name=\"{name}\" ")?;
        if let Some(pooled) = view.pooled(j, info) {
            for (method, value) in PoolMethod::ALL.iter().zip(pooled) {
                write!(out, "{method}=\"{}\" ", Score(value))?;
            }
        }
        writeln!(out, "/>")?;
    }
    writeln!(out, "  </pooled_metrics>")?;

    write!(out, "  <aggregate_metrics ")?;
    for (name, value) in &info.aggregate {
        write!(out, "{name}=\"{}\" ", Score(*value))?;
    }
    writeln!(out, "/>")?;
    writeln!(out, "</VMAF>")
}

/// `text` as an XML attribute value.
fn escape_attr(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            c if (c as u32) < 0x20 => s.push(' '),
            c => s.push(c),
        }
    }
    s
}
