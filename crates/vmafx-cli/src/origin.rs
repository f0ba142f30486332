//! What a partial log belongs to, as the `origin` field of its `vmafx_partial` section:
//! the identity of both inputs (size and SHA-256 of their first bytes, which survive a
//! copy), the frames one pass over them scores, and whether the range ran to the end.
//! `vmafx merge` refuses parts whose origins differ or that do not reach the end
//! ([`vmafx::score::check_parts`]).

use serde_json::{json, Value};
use vmafx::io::{InputIdentity, VideoReader};
use vmafx::score::PartOrigin;

use crate::error::CliError;

/// The origin of a part scored from `reference` and `distorted` with `settings`, where one
/// pass scores `video_frames` (where known) and the range is open at its end or not.
pub fn of(
    reference: &VideoReader,
    distorted: &VideoReader,
    settings: String,
    video_frames: Option<u64>,
    to_end: bool,
) -> Result<PartOrigin, CliError> {
    Ok(PartOrigin {
        settings,
        reference: reference.identity()?,
        distorted: distorted.identity()?,
        video_frames,
        to_end,
    })
}

fn identity_json(id: &Option<InputIdentity>) -> Value {
    id.as_ref().map_or(
        Value::Null,
        |i| json!({"bytes": i.bytes, "sha256": i.sha256, "prefix": i.prefix, "frames": i.frames}),
    )
}

/// The origin as JSON (its settings are the section's `config`, stored once there).
pub fn to_json(o: &PartOrigin) -> Value {
    json!({
        "reference": identity_json(&o.reference),
        "distorted": identity_json(&o.distorted),
        "video_frames": o.video_frames,
        "to_end": o.to_end,
    })
}

fn identity_from(v: &Value, side: &str) -> Result<Option<InputIdentity>, String> {
    if v.is_null() {
        return Ok(None);
    }
    let bad = || format!("origin.{side} is malformed");
    let frames = match &v["frames"] {
        Value::Null => None,
        f => Some(f.as_u64().ok_or_else(bad)?),
    };
    Ok(Some(InputIdentity {
        bytes: v["bytes"].as_u64().ok_or_else(bad)?,
        sha256: v["sha256"].as_str().ok_or_else(bad)?.to_string(),
        prefix: v["prefix"].as_u64().ok_or_else(bad)?,
        frames,
    }))
}

/// The origin `v` records, with `settings` (the section's `config` as text); an error
/// names the malformed field.
pub fn from_json(v: &Value, settings: String) -> Result<PartOrigin, String> {
    if !v.is_object() {
        return Err("origin is missing or malformed".into());
    }
    let video_frames = match &v["video_frames"] {
        Value::Null => None,
        f => Some(
            f.as_u64()
                .ok_or_else(|| "origin.video_frames is malformed".to_string())?,
        ),
    };
    Ok(PartOrigin {
        settings,
        reference: identity_from(&v["reference"], "reference")?,
        distorted: identity_from(&v["distorted"], "distorted")?,
        video_frames,
        to_end: v["to_end"]
            .as_bool()
            .ok_or_else(|| "origin.to_end is malformed".to_string())?,
    })
}
