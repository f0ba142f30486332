//! libvmaf's JSON log, byte for byte (including its quirks: a per-frame null is not
//! followed by a line break, and a frame after index 0 is always preceded by a comma).

use std::fmt::{self, Write};

use super::number::{Fps, JsonScore};
use super::view::View;
use crate::score::PoolMethod;
use crate::score::ReportInfo;

/// Appends the JSON log of `view` to `out`.
pub(crate) fn write_json(out: &mut String, view: &View<'_>, info: &ReportInfo) -> fmt::Result {
    writeln!(out, "{{")?;
    writeln!(out, "  \"version\": \"{}\",", info.version)?;
    if info.fps.is_finite() {
        writeln!(out, "  \"fps\": {},", Fps(info.fps))?;
    } else {
        writeln!(out, "  \"fps\": null,")?;
    }
    if let Some(p) = &info.partial {
        // vmafx's own key: libvmaf's parsers skip keys they do not know.
        let detail = serde_json::to_string(&p.detail).unwrap_or_else(|_| "\"\"".into());
        writeln!(
            out,
            "  \"partial\": {{\"reason\": \"{}\", \"frames\": {}, \"detail\": {detail}}},",
            p.reason, p.frames
        )?;
    }
    write_frames(out, view, info)?;
    write_pooled(out, view, info)?;
    write_aggregate(out, info)?;
    writeln!(out, "}}")
}

fn write_frames(out: &mut String, view: &View<'_>, info: &ReportInfo) -> fmt::Result {
    out.push_str("  \"frames\": [");
    for row in view.printed(info) {
        // libvmaf decides the separator by the frame index, not by what came before.
        out.push_str(if row.index > 0 { ",\n" } else { "\n" });
        writeln!(out, "    {{")?;
        writeln!(out, "      \"frameNum\": {},", row.index)?;
        writeln!(out, "      \"metrics\": {{")?;
        let count = view.written(&row).count();
        for (n, (j, value)) in view.written(&row).enumerate() {
            let comma = if n + 1 < count { "," } else { "" };
            let name = &view.names[j];
            if value.is_finite() {
                writeln!(out, "        \"{name}\": {}{comma}", JsonScore(value))?;
            } else {
                write!(out, "        \"{name}\": null{comma}")?;
            }
        }
        writeln!(out, "      }}")?;
        out.push_str("    }");
    }
    out.push_str("\n  ],\n");
    Ok(())
}

fn write_pooled(out: &mut String, view: &View<'_>, info: &ReportInfo) -> fmt::Result {
    out.push_str("  \"pooled_metrics\": {");
    for (j, name) in view.names.iter().enumerate() {
        out.push_str(if j > 0 { ",\n" } else { "\n" });
        write!(out, "    \"{name}\": {{")?;
        if let Some(pooled) = view.pooled(j, info) {
            for (k, (method, value)) in PoolMethod::ALL.iter().zip(pooled).enumerate() {
                out.push_str(if k > 0 { ",\n" } else { "\n" });
                write!(out, "      \"{method}\": {}", JsonScore(value))?;
            }
        }
        out.push('\n');
        out.push_str("    }");
    }
    out.push_str("\n  },\n");
    Ok(())
}

fn write_aggregate(out: &mut String, info: &ReportInfo) -> fmt::Result {
    out.push_str("  \"aggregate_metrics\": {");
    let count = info.aggregate.len();
    for (i, (name, value)) in info.aggregate.iter().enumerate() {
        write!(out, "\n    \"{name}\": {}", JsonScore(*value))?;
        out.push_str(if i + 1 < count { "," } else { "" });
    }
    out.push_str("\n  }\n");
    Ok(())
}
