//! `--tiny-model` / `--tiny-resize`: a tiny ONNX model as a per-frame scorer of the run
//! (vmafx-dnn, in a build with the `dnn` feature; a clear refusal without it).

use std::path::Path;

use vmafx::scorer::FrameScorerFactory;

use crate::error::CliError;

/// The scorer factory for the model at `path` with resize mode `resize`. The model is opened
/// (and checked) once here, so a refused model fails before any frame is read.
#[cfg(feature = "dnn")]
pub(crate) fn scorer(path: &Path, resize: Option<&str>) -> Result<FrameScorerFactory, CliError> {
    use std::sync::Arc;
    use vmafx_dnn::{Resize, SessionOptions, TinyModelScorer};

    let mode = match resize {
        None => Resize::Disabled,
        Some(m) => Resize::from_name(m).ok_or_else(|| {
            CliError::Usage(format!(
                "--tiny-resize {m}: one of disabled, bilinear, nearest, bicubic"
            ))
        })?,
    };
    TinyModelScorer::open(path, &SessionOptions::default())?;
    let path = path.to_path_buf();
    Ok(Arc::new(move || {
        let mut s = TinyModelScorer::open(&path, &SessionOptions::default())?;
        s.set_resize(mode);
        Ok(Box::new(s) as Box<dyn vmafx::context::FrameScorer>)
    }))
}

/// Refused: this build has no tiny-model runtime.
#[cfg(not(feature = "dnn"))]
pub(crate) fn scorer(path: &Path, _resize: Option<&str>) -> Result<FrameScorerFactory, CliError> {
    Err(CliError::Usage(format!(
        "--tiny-model {}: this vmafx was built without tiny-model support (the `dnn` \
         feature: cargo build --release -p vmafx-cli --features dnn)",
        path.display()
    )))
}

/// `--tiny-model-verify`: the model's registry entry, digest and Sigstore signature (by
/// cosign), checked before the model is opened.
#[cfg(feature = "dnn")]
pub(crate) fn verify(path: &Path) -> Result<(), CliError> {
    vmafx_dnn::verify_signature(path, None).map_err(|e| {
        CliError::Input(format!(
            "--tiny-model-verify: {} is refused: {e}",
            path.display()
        ))
    })
}

/// Refused: this build has no tiny-model runtime (the `--tiny-model` refusal).
#[cfg(not(feature = "dnn"))]
pub(crate) fn verify(path: &Path) -> Result<(), CliError> {
    scorer(path, None).map(|_| ())
}
