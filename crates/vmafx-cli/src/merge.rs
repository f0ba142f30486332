//! `vmafx merge part*.json -o log.json`: partial logs of consecutive frame ranges joined
//! into libvmaf's log of the whole video, identical to one pass's (fps aside).
//!
//! Every part must come from the same settings (models, features, subsampling, ...) and the
//! same pair of inputs (by identity: size and digest, see [`crate::origin`]), and the parts'
//! ranges must cover frames 0 to the end of the video without a gap or an overlap; each
//! refusal names the part's file and the field.

use std::path::PathBuf;

use vmafx::score::{check_parts, PartRecord};
use vmafx::{OutputFormat, Report};

use crate::args::MergeArgs;
use crate::error::CliError;
use crate::logdest;
use crate::partial::{self, Partial};

/// The first key of two settings objects whose values differ, for the message.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value) -> String {
    if let (Some(x), Some(y)) = (a.as_object(), b.as_object()) {
        for (k, v) in x {
            if y.get(k) != Some(v) {
                return format!(
                    "{k} is {v} in one and {} in the other",
                    y.get(k).unwrap_or(&serde_json::Value::Null)
                );
            }
        }
    }
    "the settings differ".into()
}

fn format_of(a: &MergeArgs) -> Result<OutputFormat, CliError> {
    let chosen = [
        (a.xml, OutputFormat::Xml),
        (a.json, OutputFormat::Json),
        (a.csv, OutputFormat::Csv),
        (a.sub, OutputFormat::Sub),
    ];
    let mut on = chosen.iter().filter(|(on, _)| *on).map(|(_, f)| *f);
    match (on.next(), on.next()) {
        (None, _) => Ok(OutputFormat::Xml),
        (Some(f), None) => Ok(f),
        _ => Err(CliError::Usage(
            "choose one of --xml, --json, --csv, --sub".into(),
        )),
    }
}

/// Runs `vmafx merge`.
pub fn merge(a: &MergeArgs) -> Result<(), CliError> {
    let fmt = format_of(a)?;
    let mut parts: Vec<(PathBuf, Partial)> = Vec::new();
    for p in &a.parts {
        parts.push((p.clone(), partial::read(p)?));
    }
    for (path, p) in &parts {
        if p.origin.is_none() {
            return Err(CliError::Input(format!(
                "{}: a partial log of layout 1, written by an older vmafx, which does not \
                 record what video it belongs to (the inputs' identity and frame count); \
                 score this part again with this vmafx",
                path.display()
            )));
        }
    }
    let (first_path, first) = &parts[0];
    for (path, p) in &parts[1..] {
        if p.config != first.config {
            return Err(CliError::Input(format!(
                "{} and {} were scored with other settings ({}): they are not parts of one run",
                first_path.display(),
                path.display(),
                first_difference(&first.config, &p.config)
            )));
        }
    }
    parts.sort_by_key(|(_, p)| {
        let r = p.report.frame_range();
        (r.start, r.end)
    });
    // Ranges from frame 0, each starting where the one before ended.
    let mut end = 0;
    let mut before: Option<&PathBuf> = None;
    for (path, p) in &parts {
        let r = p.report.frame_range();
        let after = before.map_or(String::new(), |b| format!(" (after {})", b.display()));
        if r.start > end {
            return Err(CliError::Input(format!(
                "a gap: frames {end}..{} are in no part; the next part, {}, covers frames \
                 {}..{}{after}",
                r.start,
                path.display(),
                r.start,
                r.end
            )));
        }
        if r.start < end {
            return Err(CliError::Input(format!(
                "an overlap: {} covers frames {}..{}, but frames up to {end} are already \
                 covered{after}",
                path.display(),
                r.start,
                r.end
            )));
        }
        end = r.end;
        before = Some(path);
    }
    // The same inputs by identity, and frames 0 to the end of the video (origin.rs).
    let records: Vec<PartRecord<'_>> = parts
        .iter()
        .map(|(path, p)| PartRecord {
            name: path.display().to_string(),
            frames: p.report.frame_range(),
            origin: p.origin.as_ref(),
        })
        .collect();
    check_parts(&records)?;
    let report = Report::merge(parts.into_iter().map(|(_, p)| p.report))?;
    let log_on_stdout = logdest::log_to_stdout(Some(&a.output));
    if !a.quiet {
        for m in report.models()? {
            logdest::say(log_on_stdout, &m.to_string());
        }
    }
    logdest::write_log(&a.output, &report.render(fmt))
}
