//! The tiny-model runtime behind dnn.h in a build with the `dnn` feature: vmafx-dnn (tract,
//! pure Rust). `crate::dnn` checks the C arguments and calls these; every failure of a
//! model names its path (subject kind `VMAFX_SUBJECT_MODEL`).

use std::path::Path;
use std::sync::{Arc, Mutex};

use vmafx::context::FrameScorer;
use vmafx::{Frame, Status};
use vmafx_dnn::codec::CodecContext;
use vmafx_dnn::{Resize, Session, SessionOptions, TinyModelScorer};

use crate::abi::SubjectKind;
use crate::context_handle::VmafxContext;
use crate::error::{fail, CResult, Failure, WithKind};

/// 1: this build runs tiny models.
pub(crate) const AVAILABLE: u32 = 1;

/// A tensor given to vmafx_dnn_session_run(): its name (or `None`), shape and values.
pub(crate) type GivenTensor<'a> = (Option<&'a str>, Vec<usize>, &'a [f32]);

/// An open session.
pub(crate) type SessionState = Session;

/// The engine's view of the attached model: the scorer behind the context's lock.
struct Attached(Arc<Mutex<TinyModelScorer>>, String);

impl FrameScorer for Attached {
    fn name(&self) -> &str {
        &self.1
    }

    fn score(&mut self, reference: &Frame, distorted: &Frame, index: u64) -> vmafx::Result<f64> {
        let mut s = self.0.lock().unwrap_or_else(|p| p.into_inner());
        s.score(reference, distorted, index)
    }
}

fn model_failure(e: vmafx::Error) -> Failure {
    Err::<(), _>(e)
        .kind(SubjectKind::Model)
        .expect_err("built as an error")
}

fn options(fp16_io: bool) -> SessionOptions {
    SessionOptions { fp16_io }
}

/// Attaches the model at `path` to the context.
pub(crate) fn use_tiny_model(ctx: &VmafxContext, path: &str, fp16_io: bool) -> CResult {
    let mut inner = ctx.lock();
    if inner.tiny.is_some() {
        return Err(fail(
            Status::Invalid,
            path,
            "the context already has a tiny model attached",
        ))
        .kind(SubjectKind::Model);
    }
    let scorer =
        TinyModelScorer::open(Path::new(path), &options(fp16_io)).map_err(model_failure)?;
    let name = scorer.name().to_string();
    let shared = Arc::new(Mutex::new(scorer));
    inner
        .ctx
        .use_frame_scorer(Box::new(Attached(shared.clone(), name)))?;
    inner.tiny = Some(shared);
    Ok(Status::Ok)
}

/// The attached model, or `NotFound` naming `tiny model`.
fn attached(ctx: &VmafxContext) -> CResult<Arc<Mutex<TinyModelScorer>>> {
    ctx.lock().tiny.clone().ok_or_else(|| {
        fail(
            Status::NotFound,
            "tiny model",
            "no tiny model is attached to the context (vmafx_context_use_tiny_model())",
        )
    })
}

/// Sets the codec context of the attached model.
pub(crate) fn set_codec_context(
    ctx: &VmafxContext,
    codec: Option<&str>,
    preset: Option<&str>,
    crf: i32,
) -> CResult {
    let t = attached(ctx)?;
    let mut s = t.lock().unwrap_or_else(|p| p.into_inner());
    s.set_codec(CodecContext {
        codec: codec.map(str::to_string),
        preset: preset.map(str::to_string),
        crf,
    })?;
    Ok(Status::Ok)
}

/// Whether the attached model reads the codec context.
pub(crate) fn is_codec_aware(ctx: &VmafxContext) -> u32 {
    let t = ctx.lock().tiny.clone();
    t.is_some_and(|t| t.lock().unwrap_or_else(|p| p.into_inner()).codec_aware())
        .into()
}

/// Sets the resize mode of the attached model.
pub(crate) fn set_tiny_resize(ctx: &VmafxContext, mode: u32) -> CResult {
    let t = attached(ctx)?;
    // `crate::dnn` refused the values past RESIZE_MAX; this keeps a gap between the two
    // lists an error rather than a panic.
    let Some(mode) = Resize::from_u32(mode) else {
        return Err(fail(
            Status::Invalid,
            "mode",
            format!("{mode} is not a resize mode this build knows"),
        ));
    };
    t.lock().unwrap_or_else(|p| p.into_inner()).set_resize(mode);
    Ok(Status::Ok)
}

/// Opens a session.
pub(crate) fn session_open(path: &str, fp16_io: bool) -> CResult<SessionState> {
    Session::open(Path::new(path), &options(fp16_io)).map_err(model_failure)
}

/// Runs a plane model on `plane` (`w` x `h` floats).
pub(crate) fn run_plane(
    s: &mut SessionState,
    plane: &[f32],
    w: usize,
    h: usize,
) -> CResult<Vec<f32>> {
    s.run_plane(plane, w, h).map_err(model_failure)
}

/// Runs the session on named tensors; the outputs by name, in the model's order.
pub(crate) fn run_tensors(
    s: &mut SessionState,
    inputs: &[GivenTensor<'_>],
) -> CResult<Vec<(String, Vec<f32>)>> {
    let given: Vec<(Option<&str>, &[usize], &[f32])> = inputs
        .iter()
        .map(|(n, s, d)| (*n, s.as_slice(), *d))
        .collect();
    let out = s.run(&given).map_err(model_failure)?;
    Ok(out.into_iter().map(|t| (t.name, t.data)).collect())
}

/// The session's device, NUL-terminated.
pub(crate) fn device(_s: &SessionState) -> &'static std::ffi::CStr {
    c"CPU"
}

/// Checks the model against the registry.
pub(crate) fn verify_signature(path: &str, registry: &str) -> CResult {
    vmafx_dnn::verify_signature(Path::new(path), Some(Path::new(registry)))
        .map_err(model_failure)?;
    Ok(Status::Ok)
}
