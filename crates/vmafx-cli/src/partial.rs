//! Partial logs: what `vmafx --frames A..B -o part.json` writes, and `vmafx merge` reads.
//!
//! A partial log is JSON in libvmaf's schema for the range's frames (`version`, `fps`,
//! `frames` with `frameNum` and `metrics`; no pooled values, which only the whole video
//! has) with one more top-level section, `vmafx_partial`, holding what a merge needs
//! without loss: the range, the picture size and subsampling, the columns (printed names
//! and the engine's keys), the models, every value as the 16 hex digits of its IEEE-754
//! bits (libvmaf's 6 decimals would change pooled values), and the settings that decide
//! the scores (`config`), which every part of one merge must share, and what the part
//! belongs to (`origin`, see [`crate::origin`]: layout 2; a layout 1 part, which has none,
//! is read but refused by `vmafx merge`).

use std::ops::Range;
use std::path::Path;

use serde_json::{json, Value};
use vmafx::score::{PartOrigin, ScoreTable};
use vmafx::{ModelParts, Report, ReportParts, Side};

use crate::args::ScoreArgs;
use crate::error::CliError;

/// The section's name, and the version of its layout.
pub const SECTION: &str = "vmafx_partial";
const LAYOUT: u64 = 2;

/// `--frames A..B` (or `A..`, to the end) as a range of frame indices.
pub fn parse_frames(spec: &str) -> Result<Range<u64>, CliError> {
    let bad = |why: &str| CliError::Usage(format!("--frames {spec}: {why}"));
    let (a, b) = spec
        .split_once("..")
        .ok_or_else(|| bad("expected START..END (frames START to END-1), or START.."))?;
    let start = a
        .trim()
        .parse::<u64>()
        .map_err(|_| bad("START is not a frame number"))?;
    let end = match b.trim() {
        "" => u64::MAX,
        e => e
            .parse::<u64>()
            .map_err(|_| bad("END is not a frame number"))?,
    };
    if start >= end {
        return Err(bad("the range holds no frame (END must be above START)"));
    }
    Ok(start..end)
}

/// The range `--frames` asks for, checked against the other options: a partial log is
/// JSON written to `-o`, and an HTML report needs the whole video.
pub fn frames_of(a: &ScoreArgs) -> Result<Option<Range<u64>>, CliError> {
    let Some(spec) = a.frames.as_deref() else {
        return Ok(None);
    };
    let range = parse_frames(spec)?;
    let usage = |m: &str| Err(CliError::Usage(format!("--frames: {m}")));
    if a.output.is_none() {
        return usage("give -o PART.json for the partial log (joined by `vmafx merge`)");
    }
    if a.xml || a.csv || a.sub {
        return usage(
            "a partial log is JSON with exact values; give --xml, --csv or --sub to `vmafx merge`",
        );
    }
    if a.html.is_some() {
        return usage("the HTML report needs the whole video; write it from one pass");
    }
    Ok(Some(range))
}

/// Writes the partial log of `report` (scored as `a` says, from inputs `origin` describes)
/// to `-o`.
pub fn write(a: &ScoreArgs, report: &Report, origin: &PartOrigin) -> Result<(), CliError> {
    let Some(out) = &a.output else {
        return Err(CliError::Usage("--frames needs -o".into()));
    };
    crate::logdest::write_log(out, &render(report, config_of(a), origin))
}

/// The settings that decide the scores: parts of one merge must agree on all of them.
/// The inputs are not named here: their identity (`origin`) survives a copy or another
/// mount path, and tells two videos of one name apart; threads and the CPU level change no
/// score.
pub fn config_of(a: &ScoreArgs) -> Value {
    json!({
        "models": a.model,
        "features": a.feature,
        "no_prediction": a.no_prediction,
        "subsample": a.subsample.max(1),
        "raw": [a.width, a.height, a.pixel_format, a.bitdepth],
        "frame_skip_ref": a.frame_skip_ref,
        "frame_skip_dist": a.frame_skip_dist,
        "frame_cnt": a.frame_limit(),
        "no_scale": a.no_scale,
    })
}

fn hex(v: Option<f64>) -> Value {
    v.map_or(Value::Null, |x| {
        Value::String(format!("{:016x}", x.to_bits()))
    })
}

/// The partial log of `report`: libvmaf's JSON of its frames plus the exact section.
pub fn render(report: &Report, config: Value, origin: &PartOrigin) -> String {
    let p = report.to_parts();
    let rows: Vec<Value> = p
        .table
        .frames
        .iter()
        .map(|(i, vals)| {
            let mut row = vec![json!(i)];
            row.extend(vals.iter().map(|v| hex(*v)));
            Value::Array(row)
        })
        .collect();
    let models: Vec<Value> = p
        .models
        .iter()
        .map(|m| {
            json!({"label": m.label, "name": m.name, "bootstrap": m.bootstrap,
                   "outputs": m.outputs})
        })
        .collect();
    let section = json!({
        "layout": LAYOUT,
        "frames": [p.frames.start, p.frames.end],
        "width": p.width,
        "height": p.height,
        "subsample": p.subsample,
        "fps": p.fps,
        "ended_first": p.ended_first.map(|s| match s {
            Side::Reference => "reference",
            Side::Distorted => "distorted",
        }),
        "config": config,
        "origin": crate::origin::to_json(origin),
        "names": p.table.names,
        "keys": p.keys,
        "models": models,
        "rows": rows,
    });
    // libvmaf's schema for the frames (readable; values as JSON numbers, non-finite ones
    // as null), the exact section beside it. libvmaf's own writer cannot be reused: it
    // puts a comma before every frame but frame 0, which is no JSON for a later range.
    let frames: Vec<Value> = report
        .frames()
        .map(|row| {
            let metrics: serde_json::Map<String, Value> =
                row.iter().map(|(n, v)| (n.to_string(), json!(v))).collect();
            json!({"frameNum": row.index(), "metrics": metrics})
        })
        .collect();
    let log = json!({
        "version": vmafx::LIBVMAF_VERSION,
        "fps": p.fps,
        "frames": frames,
        SECTION: section,
    });
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    text
}

/// A partial log read back: its report (values bit for bit) and its settings.
pub struct Partial {
    /// The report of the range.
    pub report: Report,
    /// The settings that decided its scores.
    pub config: Value,
    /// What it belongs to; `None` for a layout 1 part, which recorded nothing.
    pub origin: Option<PartOrigin>,
}

/// Reads the partial log at `path`; every failure names the file.
pub fn read(path: &Path) -> Result<Partial, CliError> {
    let name = path.display();
    let err = |why: String| CliError::Input(format!("{name}: {why}"));
    let text = std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?;
    let log: Value =
        serde_json::from_str(&text).map_err(|e| err(format!("not a JSON log: {e}")))?;
    let s = log.get(SECTION).ok_or_else(|| {
        err(format!(
            "not a partial log: it has no \"{SECTION}\" section (write partial logs with \
             vmafx --frames A..B -o part.json)"
        ))
    })?;
    let layout = s["layout"].as_u64();
    if layout != Some(LAYOUT) && layout != Some(1) {
        return Err(err(format!(
            "\"{SECTION}\" has layout {}, this vmafx reads layouts 1 and {LAYOUT}",
            s["layout"]
        )));
    }
    let field = |k: &str| {
        err(format!(
            "\"{SECTION}\": field \"{k}\" is missing or malformed"
        ))
    };
    let u = |k: &str| s[k].as_u64().ok_or_else(|| field(k));
    let u32_of = |k: &str| u(k).and_then(|v| u32::try_from(v).map_err(|_| field(k)));
    let strings = |v: &Value, k: &str| -> Result<Vec<String>, CliError> {
        v.as_array()
            .ok_or_else(|| field(k))?
            .iter()
            .map(|x| x.as_str().map(String::from).ok_or_else(|| field(k)))
            .collect()
    };
    let range = s["frames"].as_array().ok_or_else(|| field("frames"))?;
    let (Some(start), Some(end)) = (
        range.first().and_then(Value::as_u64),
        range.get(1).and_then(Value::as_u64),
    ) else {
        return Err(field("frames"));
    };
    let names = strings(&s["names"], "names")?;
    let mut frames = Vec::new();
    for row in s["rows"].as_array().ok_or_else(|| field("rows"))? {
        let row = row.as_array().ok_or_else(|| field("rows"))?;
        let index = row
            .first()
            .and_then(Value::as_u64)
            .ok_or_else(|| field("rows"))?;
        let values = row[1..]
            .iter()
            .map(|v| match v {
                Value::Null => Ok(None),
                Value::String(h) if h.len() == 16 => u64::from_str_radix(h, 16)
                    .map(|b| Some(f64::from_bits(b)))
                    .map_err(|_| field("rows")),
                _ => Err(field("rows")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        frames.push((index, values));
    }
    let models = s["models"]
        .as_array()
        .ok_or_else(|| field("models"))?
        .iter()
        .map(|m| {
            Ok(ModelParts {
                label: m["label"].as_str().ok_or_else(|| field("models"))?.into(),
                name: m["name"].as_str().ok_or_else(|| field("models"))?.into(),
                bootstrap: m["bootstrap"].as_bool().ok_or_else(|| field("models"))?,
                outputs: strings(&m["outputs"], "models")?,
            })
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    let ended_first = match s["ended_first"].as_str() {
        Some("reference") => Some(Side::Reference),
        Some("distorted") => Some(Side::Distorted),
        _ => None,
    };
    let parts = ReportParts {
        frames: start..end,
        width: u32_of("width")?,
        height: u32_of("height")?,
        subsample: u32_of("subsample")?,
        fps: s["fps"].as_f64().unwrap_or(0.0),
        table: ScoreTable { names, frames },
        keys: strings(&s["keys"], "keys")?,
        models,
        ended_first,
    };
    let report = Report::from_parts(parts).map_err(|e| err(e.to_string()))?;
    let config = s["config"].clone();
    let origin = match layout {
        Some(1) => None,
        _ => Some(crate::origin::from_json(&s["origin"], config.to_string()).map_err(err)?),
    };
    Ok(Partial {
        report,
        config,
        origin,
    })
}
