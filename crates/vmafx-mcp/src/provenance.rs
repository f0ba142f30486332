//! What made a run's scores: the engine's provenance record of the report
//! ([`vmafx::Report::provenance`]), and the inputs the server was given.

use std::path::Path;

use serde_json::{json, Value};

/// What the server knows about an input file: its path and size.
fn input(path: &Path) -> Value {
    json!({
        "path": path.display().to_string(),
        "bytes": std::fs::metadata(path).map(|m| m.len()).ok(),
    })
}

/// The engine's record of a finished run, whole (with its `digest` and `elapsed_ns`), as
/// `vmafx --provenance` writes it into a JSON log; `null` for a report without one.
pub(crate) fn record(report: &vmafx::Report) -> Value {
    report
        .provenance()
        .map_or(Value::Null, |r| r.to_value(true))
}

/// The inputs of a run: each file's path and size, and the raw geometry when given.
pub(crate) fn inputs(
    reference: &Path,
    distorted: &Path,
    raw: Option<&vmafx::io::RawParams>,
) -> Value {
    json!({
        "reference": input(reference),
        "distorted": input(distorted),
        "raw": raw.map(|r| json!({
            "width": r.width,
            "height": r.height,
            "pixel_format": format!("{:?}", r.format),
            "bitdepth": r.bpc,
        })),
    })
}
