//! The tools the server offers: their list (`tools/list`) and each call (`tools/call`).

use std::path::PathBuf;

use serde_json::{json, Map, Value};
use vmafx::io::RawParams;
use vmafx::{Model, PoolMethod, Scorer, ScorerConfig};

use crate::provenance;
use crate::rpc::RpcError;
use crate::runs::{Run, Runs};

/// The model `compute_vmaf` scores with when none is named.
pub const DEFAULT_MODEL: &str = "vmaf_v0.6.1";

/// Each tool: name, description and the JSON schema of its arguments.
fn table() -> Vec<(&'static str, &'static str, Value)> {
    let run_id = json!({"type": "integer", "minimum": 1});
    vec![
        (
            "list_features",
            "List the feature extractors this build scores.",
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
        ),
        (
            "list_models",
            "List the built-in VMAF models (`model_version` values).",
            json!({"type": "object", "properties": {}, "additionalProperties": false}),
        ),
        (
            "compute_vmaf",
            "Score a (reference, distorted) pair with a VMAF model, bit-exact with libvmaf. \
             Required: reference_path, distorted_path. y4m is read as is; raw .yuv needs width \
             and height (pixel_format 420/422/444/400, default 420; bitdepth 8 to 16, default \
             8); other files are decoded by ffmpeg. Optional: model_version (default \
             vmaf_v0.6.1), threads. Returns {score (pooled mean), frames_scored, bitdepth, \
             model_version, pool_method, pooled, run_id, provenance}.",
            json!({
                "type": "object",
                "properties": {
                    "reference_path": {"type": "string"},
                    "distorted_path": {"type": "string"},
                    "width": {"type": "integer", "minimum": 1},
                    "height": {"type": "integer", "minimum": 1},
                    "bitdepth": {"type": "integer", "minimum": 8, "maximum": 16},
                    "pixel_format": {"type": "string", "enum": ["420", "422", "444", "400"]},
                    "model_version": {"type": "string"},
                    "threads": {"type": "integer", "minimum": 0, "maximum": 256},
                },
                "required": ["reference_path", "distorted_path"],
                "additionalProperties": false,
            }),
        ),
        (
            "get_scores",
            "Read a scored run's pooled scores (min, max, mean, harmonic mean of every model \
             output and feature) and, with frames=true, every frame's scores. run_id defaults \
             to the latest run.",
            json!({
                "type": "object",
                "properties": {"run_id": run_id, "frames": {"type": "boolean"}},
                "additionalProperties": false,
            }),
        ),
        (
            "get_provenance",
            "Read what made a scored run's numbers: the engine's provenance record (build, CPU \
             level, models with their SHA-256, extractors with their options, geometry, \
             frames, a digest of every score and of the record) and the inputs. run_id \
             defaults to the latest run.",
            json!({
                "type": "object",
                "properties": {"run_id": run_id},
                "additionalProperties": false,
            }),
        ),
    ]
}

/// The `tools/list` result.
pub(crate) fn list() -> Value {
    let tools: Vec<Value> = table()
        .into_iter()
        .map(|(name, description, schema)| {
            json!({"name": name, "description": description, "inputSchema": schema})
        })
        .collect();
    json!({ "tools": tools })
}

/// A tool's failure: bad arguments are a JSON-RPC error; a failed run is a tool result with
/// `isError`, as MCP asks, so the client's model can read why.
pub(crate) enum ToolError {
    /// Wrong arguments or no such tool.
    Rpc(RpcError),
    /// The tool ran and failed (the message names the input).
    Failed(String),
}

impl From<RpcError> for ToolError {
    fn from(e: RpcError) -> ToolError {
        ToolError::Rpc(e)
    }
}

/// Runs tool `name` with `args` (an object or absent).
pub(crate) fn call(runs: &Runs, name: &str, args: &Value) -> Result<Value, ToolError> {
    let empty = Map::new();
    let args = match args {
        Value::Object(o) => o,
        Value::Null => &empty,
        _ => return Err(RpcError::params("\"arguments\" must be an object").into()),
    };
    let known: &[&str] = match name {
        "list_features" | "list_models" => &[],
        "compute_vmaf" => &[
            "reference_path",
            "distorted_path",
            "width",
            "height",
            "bitdepth",
            "pixel_format",
            "model_version",
            "threads",
        ],
        "get_scores" => &["run_id", "frames"],
        "get_provenance" => &["run_id"],
        _ => {
            return Err(RpcError::new(
                crate::rpc::METHOD_NOT_FOUND,
                format!("no such tool: '{name}' (tools/list names them)"),
            )
            .into())
        }
    };
    if let Some(k) = args.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(RpcError::params(format!("{name}: unknown argument '{k}'")).into());
    }
    match name {
        "list_features" => Ok(list_features()),
        "list_models" => Ok(json!({"models": vmafx::model::builtin_versions()})),
        "compute_vmaf" => compute_vmaf(runs, args),
        "get_scores" => {
            let run = find(runs, args)?;
            let frames = opt_bool(args, "frames")?.unwrap_or(false);
            Ok(scores(&run, frames))
        }
        _ => {
            let run = find(runs, args)?;
            Ok(json!({"run_id": run.id, "provenance": run.provenance, "inputs": run.inputs}))
        }
    }
}

fn list_features() -> Value {
    let names: Vec<&str> = vmafx::feature::registry::all()
        .iter()
        .map(|e| e.name)
        .collect();
    json!({"count": names.len(), "features": names})
}

fn string(args: &Map<String, Value>, key: &str) -> Result<Option<String>, RpcError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if !s.is_empty() => Ok(Some(s.clone())),
        Some(_) => Err(RpcError::params(format!(
            "'{key}' must be a non-empty string"
        ))),
    }
}

fn uint(args: &Map<String, Value>, key: &str, max: u64) -> Result<Option<u64>, RpcError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n <= max => Ok(Some(n)),
            _ => Err(RpcError::params(format!(
                "'{key}' must be an integer from 0 to {max}, not {v}"
            ))),
        },
    }
}

fn opt_bool(args: &Map<String, Value>, key: &str) -> Result<Option<bool>, RpcError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(v) => Err(RpcError::params(format!(
            "'{key}' must be true or false, not {v}"
        ))),
    }
}

fn find(runs: &Runs, args: &Map<String, Value>) -> Result<std::sync::Arc<Run>, ToolError> {
    let id = uint(args, "run_id", u64::MAX)?;
    runs.get(id).ok_or_else(|| {
        ToolError::Failed(match id {
            Some(id) => format!(
                "no run {id}: this server keeps its last {} runs",
                crate::runs::KEPT_RUNS
            ),
            None => "no run yet: call compute_vmaf first".to_string(),
        })
    })
}

fn compute_vmaf(runs: &Runs, args: &Map<String, Value>) -> Result<Value, ToolError> {
    let need = |k: &str| {
        string(args, k)?.ok_or_else(|| RpcError::params(format!("compute_vmaf needs '{k}'")))
    };
    let reference = PathBuf::from(need("reference_path")?);
    let distorted = PathBuf::from(need("distorted_path")?);
    let model_version = string(args, "model_version")?.unwrap_or_else(|| DEFAULT_MODEL.into());
    let width = uint(args, "width", u32::MAX.into())?;
    let height = uint(args, "height", u32::MAX.into())?;
    let bitdepth = uint(args, "bitdepth", 16)?;
    let format = string(args, "pixel_format")?.unwrap_or_else(|| "420".into());
    let threads = uint(args, "threads", 256)?;
    let raw = match (width, height) {
        (Some(w), Some(h)) => Some(
            // Both fit u32: `uint` bounded them.
            RawParams::from_names(w as u32, h as u32, &format, bitdepth.unwrap_or(8) as u32)
                .map_err(|e| RpcError::params(format!("compute_vmaf: {e}")))?,
        ),
        (None, None) => None,
        _ => {
            return Err(
                RpcError::params("compute_vmaf: give both width and height, or neither").into(),
            )
        }
    };
    let mut config = ScorerConfig::new().model(Model::builtin(model_version.clone()));
    if let Some(t) = threads {
        config = config.threads(t as usize);
    }
    if let Some(r) = raw {
        config = config.raw_input(r);
    }
    let failed = |e: vmafx::Error| {
        ToolError::Failed(format!(
            "compute_vmaf {} vs {}: {e}",
            reference.display(),
            distorted.display()
        ))
    };
    let report = Scorer::new(config)
        .and_then(|s| s.score_files(&reference, &distorted))
        .map_err(failed)?;
    let model = report.model(&model_version).map_err(failed)?;
    let pooled = pooled_of(&report, &model.name);
    let record = provenance::record(&report);
    let inputs = provenance::inputs(&reference, &distorted, raw.as_ref());
    let frames = report.frame_count();
    let bpc = raw.map(|r| r.bpc);
    let run = runs.add(report, record, inputs);
    Ok(json!({
        "score": model.pooled,
        "frames_scored": frames,
        "bitdepth": bpc,
        "model_version": model_version,
        "pool_method": "mean",
        "pooled": pooled,
        "run_id": run.id,
        "provenance": run.provenance,
    }))
}

/// Column `name` pooled every way libvmaf pools, by libvmaf's JSON keys.
fn pooled_of(report: &vmafx::Report, name: &str) -> Value {
    let mut o = Map::new();
    for m in PoolMethod::ALL {
        if let Ok(v) = report.pooled(name, m, ..) {
            o.insert(m.name().to_string(), json!(v));
        }
    }
    Value::Object(o)
}

fn scores(run: &Run, frames: bool) -> Value {
    let r = &run.report;
    let models: Vec<Value> = r
        .models()
        .unwrap_or_default()
        .into_iter()
        .map(|m| json!({"label": m.label, "name": m.name, "mean": m.pooled}))
        .collect();
    let pooled: Map<String, Value> = r
        .names()
        .iter()
        .map(|n| (n.clone(), pooled_of(r, n)))
        .collect();
    let mut out = json!({
        "run_id": run.id,
        "frames_scored": r.frame_count(),
        "models": models,
        "pooled_metrics": pooled,
    });
    if frames {
        let rows: Vec<Value> = r
            .frames()
            .map(|f| {
                let metrics: Map<String, Value> =
                    f.iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
                json!({"frameNum": f.index(), "metrics": metrics})
            })
            .collect();
        out["frames"] = Value::Array(rows);
    }
    out
}
