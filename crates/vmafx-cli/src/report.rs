//! `vmafx report verify LOG [--rerun LOG2]`: checks a JSON log written with `--provenance`
//! ([`vmafx::provenance::verify_log`]): exit 0 when it holds, 1 naming the file and the
//! first field that does not match.

use std::path::Path;

use serde_json::Value;

use crate::args::{ReportAction, ReportArgs};
use crate::error::CliError;

/// Runs a `vmafx report` action.
pub fn run(a: &ReportArgs) -> Result<(), CliError> {
    match &a.action {
        ReportAction::Verify(v) => {
            let log = read(&v.log)?;
            let rerun = v.rerun.as_deref().map(read).transpose()?;
            vmafx::provenance::verify_log(&log, rerun.as_ref()).map_err(|m| {
                let against = v
                    .rerun
                    .as_deref()
                    .map(|r| format!(" (against {})", r.display()))
                    .unwrap_or_default();
                CliError::Input(format!("{}{against}: {m}", v.log.display()))
            })?;
            let prov = &log["provenance"];
            println!(
                "{}: verified: record {}, {} frames{}",
                v.log.display(),
                prov["digest"].as_str().unwrap_or_default(),
                log["frames"].as_array().map_or(0, Vec::len),
                v.rerun
                    .as_deref()
                    .map(|r| format!(", every score equal to {}'s", r.display()))
                    .unwrap_or_default()
            );
            Ok(())
        }
    }
}

/// The JSON of the log at `path`; an error names the file.
fn read(path: &Path) -> Result<Value, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        CliError::Input(format!(
            "{}: not a JSON log (`vmafx --json --provenance` writes one): {e}",
            path.display()
        ))
    })
}
