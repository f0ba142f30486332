//! The sidecar JSON next to a model (`model.onnx` -> `model.json`, any other name gets
//! `.json` appended), as VMAFx's trainers write it. Every key is optional and unknown keys
//! are ignored; a sidecar that is present must be a JSON object within
//! [`crate::limits::MAX_SIDECAR_BYTES`]. When it records the model's `sha256`, the model must
//! have that digest.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use vmafx::{Error, Result, Status};

use crate::digest;
use crate::limits::{read_capped, MAX_SIDECAR_BYTES};

/// What a sidecar says about its model (the keys this runtime reads).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Sidecar {
    /// `fr` (full reference), `nr` (no reference) or `filter`.
    pub kind: Option<String>,
    /// The model's name: the feature its scores are collected under.
    pub name: Option<String>,
    /// The opset the model was exported with.
    pub opset: Option<i64>,
    /// The model's SHA-256 (hex).
    pub sha256: Option<String>,
    /// The input a plane run feeds.
    pub input_name: Option<String>,
    /// The output a plane run reads (older single-output spelling).
    pub output_name: Option<String>,
    /// The outputs a plane run reads.
    pub output_names: Vec<String>,
    /// `fp32` (or absent), `dynamic`, `static` or `qat`: read, but this runtime always runs
    /// the file it was given (VMAFx would prefer a `.int8.onnx` sibling).
    pub quant_mode: Option<String>,
    /// The encoders a codec-aware model knows, in its one-hot order (the last is
    /// `unknown`). Present only for codec-aware models.
    pub encoder_vocab: Vec<String>,
}

impl Sidecar {
    /// Whether the model reads the codec context (its sidecar has an encoder vocabulary).
    pub fn codec_aware(&self) -> bool {
        !self.encoder_vocab.is_empty()
    }
}

/// Where the sidecar of `model` is looked for.
pub fn path_for(model: &Path) -> PathBuf {
    let s = model.as_os_str().to_string_lossy();
    match s.strip_suffix(".onnx") {
        Some(stem) => PathBuf::from(format!("{stem}.json")),
        None => PathBuf::from(format!("{s}.json")),
    }
}

/// The sidecar of the model at `model` whose bytes are `model_bytes`: `None` when there is
/// none; an error naming the sidecar's path when it is too large or not a JSON object, and
/// `Mismatch` naming the model when its recorded `sha256` is not the model's.
pub fn load(model: &Path, model_bytes: &[u8]) -> Result<Option<Sidecar>> {
    let p = path_for(model);
    if !p.exists() {
        return Ok(None);
    }
    let bytes = read_capped(&p, MAX_SIDECAR_BYTES, "sidecar")?;
    let sidecar: Sidecar = serde_json::from_slice(&bytes).map_err(|e| {
        Error::invalid(
            p.display().to_string(),
            format!("the sidecar of {} is not valid: {e}", model.display()),
        )
    })?;
    if let Some(recorded) = &sidecar.sha256 {
        let actual = digest::sha256_hex(model_bytes);
        if !digest::matches(recorded, &actual) {
            return Err(Error::new(
                Status::Mismatch,
                model.display().to_string(),
                format!(
                    "its SHA-256 is {actual}; the sidecar {} records {recorded}",
                    p.display()
                ),
            ));
        }
    }
    Ok(Some(sidecar))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sidecar_path_replaces_or_appends() {
        assert_eq!(path_for(Path::new("/m/a.onnx")), PathBuf::from("/m/a.json"));
        assert_eq!(
            path_for(Path::new("/m/a.bin")),
            PathBuf::from("/m/a.bin.json")
        );
    }
}
