//! Checking a model against the model registry (`registry.json`: `{"models": [{"onnx":
//! FILE, "sha256": HEX, "sigstore_bundle": FILE, ...}]}`, VMAFx's format) and its Sigstore
//! signature.
//!
//! As in VMAFx, the signature is verified by `cosign`, not here: after the offline checks
//! (the registry has an entry for the model's file name, the model's SHA-256 is the one the
//! entry records, the entry names a bundle that exists next to the registry and is a JSON
//! object), [`verify_signature`] runs `cosign verify-blob` ([`crate::cosign`]) and the model
//! is verified only when cosign exits 0. Cosign must be on `PATH`; it needs the Sigstore
//! trust root (which it fetches). Everything fails closed: no registry, entry or bundle is
//! `NotFound` before cosign runs, cosign missing or refusing is `Internal` (VMAFx's
//! statuses). The digest check is this crate's own addition to VMAFx's sequence.
//!
//! The tests run a stand-in `cosign` (a shell script that records its arguments and exits 0
//! or 1) through [`verify_signature_using`]: the real cosign cannot run offline.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use vmafx::{Error, Result, Status};

use crate::digest;
use crate::limits::{read_capped, MAX_MODEL_BYTES, MAX_REGISTRY_BYTES, MAX_SIDECAR_BYTES};

#[derive(Debug, Deserialize)]
struct Registry {
    models: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
struct Entry {
    #[serde(default)]
    id: String,
    onnx: String,
    sha256: Option<String>,
    sigstore_bundle: Option<String>,
}

/// Checks the model at `onnx` against the registry at `registry` (default: `registry.json`
/// next to the model) and has `cosign` (on `PATH`) verify its Sigstore bundle, as the module
/// docs say. Errors name the model: `NotFound` without an entry or a bundle, `Mismatch` for
/// another digest, `Invalid` for a malformed registry or bundle, `Internal` when cosign is
/// missing or refuses the signature (its exit status and last stderr line in the message).
pub fn verify_signature(onnx: &Path, registry: Option<&Path>) -> Result<()> {
    verify_signature_using(Path::new("cosign"), onnx, registry)
}

/// [`verify_signature`] running `cosign` (a path, or a name looked up on `PATH`) instead of
/// the `cosign` on `PATH`.
pub fn verify_signature_using(cosign: &Path, onnx: &Path, registry: Option<&Path>) -> Result<()> {
    let shown = onnx.display().to_string();
    let registry: PathBuf = match registry {
        Some(r) => r.to_path_buf(),
        None => onnx
            .parent()
            .unwrap_or(Path::new("."))
            .join("registry.json"),
    };
    let bytes = read_capped(&registry, MAX_REGISTRY_BYTES, "model registry")
        .map_err(|e| e.context(format_args!("verifying {shown}")))?;
    let reg: Registry = serde_json::from_slice(&bytes).map_err(|e| {
        Error::invalid(
            registry.display().to_string(),
            format!("not a model registry ({e}) while verifying {shown}"),
        )
    })?;
    let file = onnx
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let entry = reg
        .models
        .iter()
        .find(|e| {
            Path::new(&e.onnx).file_name().map(|f| f.to_string_lossy())
                == Some(file.as_str().into())
        })
        .ok_or_else(|| {
            Error::not_found(
                &shown,
                format!(
                    "the registry {} has no entry for {file}",
                    registry.display()
                ),
            )
        })?;
    let model = read_capped(onnx, MAX_MODEL_BYTES, "tiny model")?;
    let actual = digest::sha256_hex(&model);
    let recorded = entry.sha256.as_deref().ok_or_else(|| {
        Error::not_found(
            &shown,
            format!("registry entry `{}` records no sha256", entry.id),
        )
    })?;
    if !digest::matches(recorded, &actual) {
        return Err(Error::new(
            Status::Mismatch,
            &shown,
            format!(
                "its SHA-256 is {actual}; registry entry `{}` records {recorded}",
                entry.id
            ),
        ));
    }
    let bundle = entry.sigstore_bundle.as_deref().ok_or_else(|| {
        Error::not_found(
            &shown,
            format!("registry entry `{}` names no sigstore_bundle", entry.id),
        )
    })?;
    let bundle_path = registry.parent().unwrap_or(Path::new(".")).join(bundle);
    let bundle_bytes = read_capped(&bundle_path, MAX_SIDECAR_BYTES, "Sigstore bundle")
        .map_err(|e| e.context(format_args!("verifying {shown}")))?;
    match serde_json::from_slice::<serde_json::Value>(&bundle_bytes) {
        Ok(serde_json::Value::Object(_)) => {}
        _ => {
            return Err(Error::invalid(
                bundle_path.display().to_string(),
                format!("the Sigstore bundle of {shown} is not a JSON object"),
            ))
        }
    }
    crate::cosign::run(cosign, &bundle_path, onnx)
}
