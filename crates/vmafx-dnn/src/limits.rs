//! The size limits a model and its sidecar are held to (VMAFx's, so the same files pass),
//! and a reader that never reads past them.

use std::io::Read;
use std::path::Path;

use vmafx::{Error, Result};

/// The largest ONNX file accepted: 50 MiB.
pub const MAX_MODEL_BYTES: u64 = 50 * 1024 * 1024;
/// The largest sidecar JSON accepted: 1 MiB.
pub const MAX_SIDECAR_BYTES: u64 = 1 << 20;
/// The largest model registry accepted: 4 MiB.
pub const MAX_REGISTRY_BYTES: u64 = 4 << 20;
/// The largest plane side a model is run on (as libvmaf's largest picture).
pub const MAX_SIDE: usize = 32768;

/// The bytes of the regular file at `path`, `what` naming it in errors (`tiny model`,
/// `sidecar`): `NotFound` when absent, `Range` when larger than `limit` (nothing is read
/// then), `Io` when it cannot be read. Reading stops at the limit even if the file grows.
pub fn read_capped(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>> {
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::not_found(&shown, format!("no {what} at this path")),
        _ => Error::io(&shown, format!("cannot read the {what}: {e}")),
    })?;
    if !meta.is_file() {
        return Err(Error::invalid(
            &shown,
            format!("the {what} is not a regular file"),
        ));
    }
    if meta.len() > limit {
        return Err(Error::range(
            &shown,
            format!("the {what} is {} bytes; the limit is {limit}", meta.len()),
        ));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| Error::io(&shown, format!("cannot open the {what}: {e}")))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(&shown, format!("cannot read the {what}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(Error::range(
            &shown,
            format!("the {what} grew past the limit of {limit} bytes while read"),
        ));
    }
    Ok(bytes)
}
