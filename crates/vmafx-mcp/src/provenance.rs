//! The record of what made a run's scores: build, CPU level, models, features, inputs.

use std::path::Path;

use serde_json::{json, Value};

/// What the server knows about an input file: its path and size.
fn input(path: &Path) -> Value {
    json!({
        "path": path.display().to_string(),
        "bytes": std::fs::metadata(path).map(|m| m.len()).ok(),
    })
}

/// The record of a finished run: this build, the CPU level its kernels ran at, the models and
/// every feature column of the report, the inputs and the frames scored.
pub(crate) fn record(
    report: &vmafx::Report,
    reference: &Path,
    distorted: &Path,
    raw: Option<&vmafx::io::RawParams>,
) -> Value {
    let models: Vec<Value> = report
        .model_outputs()
        .into_iter()
        .map(|(label, outputs)| json!({"label": label, "outputs": outputs}))
        .collect();
    let (w, h) = report.size();
    json!({
        "engine": {
            "name": "vmafx",
            "version": vmafx::VERSION,
            "libvmaf_compatible": vmafx::LIBVMAF_VERSION,
        },
        "cpu": {
            "level": vmafx::cpu::level().name(),
            "detected": vmafx::cpu::detected().name(),
        },
        "models": models,
        "columns": report.names(),
        "inputs": {
            "reference": input(reference),
            "distorted": input(distorted),
            "raw": raw.map(|r| json!({
                "width": r.width,
                "height": r.height,
                "pixel_format": format!("{:?}", r.format),
                "bitdepth": r.bpc,
            })),
        },
        "frames": {
            "first": report.frame_range().start,
            "count": report.frame_count(),
            "width": w,
            "height": h,
        },
    })
}
