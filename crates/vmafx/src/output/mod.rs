//! libvmaf's log writers (JSON, XML, CSV, subtitles): writing only.
//!
//! The writers print a [`ScoreTable`] and its [`ReportInfo`] exactly as libvmaf 3.2.0's
//! `vmaf_write_output_*` do, so parsers of libvmaf logs read vmafx logs unchanged: the same
//! key order, spacing, number formats (`%.6f`, `%.16f` for tiny fractions, fps `%.2f`),
//! nulls, subsampling and pooled sections.
//!
//! A partial run (one stopped by Ctrl-C or by an input that failed, see
//! [`crate::score::Partial`]) is marked in the formats that can carry a mark without
//! breaking libvmaf's parsers: JSON gets a top-level `"partial"` object after `"fps"`, XML a
//! `<partial reason=... frames=... detail=... />` element after `<fyi>`. CSV and subtitles
//! have no place for one; the command line says it on standard error and in its exit status.
//! A whole run's log is unchanged, byte for byte.

mod atomic;
mod csv;
mod json;
mod number;
mod sub;
mod view;
mod xml;

#[cfg(test)]
mod edge_tests;
#[cfg(test)]
mod partial_tests;
#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::score::{ReportInfo, ScoreTable};

pub use atomic::write_file_atomically;
use view::View;

/// A log format of libvmaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OutputFormat {
    /// JSON (`--json`).
    Json,
    /// XML (`--xml`), libvmaf's default.
    #[default]
    Xml,
    /// Comma-separated values (`--csv`).
    Csv,
    /// MicroDVD subtitles (`--sub`).
    Sub,
}

impl OutputFormat {
    /// Every format.
    pub const ALL: [OutputFormat; 4] = [
        OutputFormat::Json,
        OutputFormat::Xml,
        OutputFormat::Csv,
        OutputFormat::Sub,
    ];

    /// The format's name, also its usual file extension (`json`, `xml`, `csv`, `sub`).
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Json => "json",
            OutputFormat::Xml => "xml",
            OutputFormat::Csv => "csv",
            OutputFormat::Sub => "sub",
        }
    }

    /// The format a libvmaf CLI flag selects (`--json`, `--xml`, `--csv`, `--sub`).
    pub fn from_flag(flag: &str) -> Option<Self> {
        let name = flag.strip_prefix("--")?;
        OutputFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for OutputFormat {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        OutputFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                Error::invalid(
                    "output format",
                    format!("unknown output format '{s}' (json, xml, csv, sub)"),
                )
            })
    }
}

/// The log of `table` in format `fmt`, as libvmaf would write it.
pub fn render_report(fmt: OutputFormat, table: &ScoreTable, info: &ReportInfo) -> String {
    let view = View::new(table);
    let mut out = String::new();
    let written = match fmt {
        OutputFormat::Json => json::write_json(&mut out, &view, info),
        OutputFormat::Xml => xml::write_xml(&mut out, &view, info),
        OutputFormat::Csv => csv::write_csv(&mut out, &view, info),
        OutputFormat::Sub => sub::write_sub(&mut out, &view, info),
    };
    // Formatting into a String fails only if a Display impl does, and ours never do.
    debug_assert!(written.is_ok());
    out
}

/// Writes the log of `table` in format `fmt` to `w`, as libvmaf would write it.
pub fn write_report(
    w: &mut dyn std::io::Write,
    fmt: OutputFormat,
    table: &ScoreTable,
    info: &ReportInfo,
) -> std::io::Result<()> {
    w.write_all(render_report(fmt, table, info).as_bytes())?;
    w.flush()
}
