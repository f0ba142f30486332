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
