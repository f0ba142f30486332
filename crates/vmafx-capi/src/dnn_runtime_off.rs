//! dnn.h in a build without the `dnn` feature: no runtime. `crate::dnn` checks the C
//! arguments, then these fail `VMAFX_E_NOTSUP` naming `dnn` (subject kind backend).

use vmafx::Status;

use crate::abi::SubjectKind;
use crate::context_handle::VmafxContext;
use crate::error::{fail, CResult, WithKind};

/// 0: this build runs no tiny models.
pub(crate) const AVAILABLE: u32 = 0;

/// A tensor given to vmafx_dnn_session_run(): its name (or `None`), shape and values.
pub(crate) type GivenTensor<'a> = (Option<&'a str>, Vec<usize>, &'a [f32]);

/// No session can be opened.
pub(crate) type SessionState = std::convert::Infallible;

/// The failure of every call that needs the runtime, `what` saying which.
fn no_runtime<T>(what: &str) -> CResult<T> {
    Err(fail(
        Status::NotSup,
        "dnn",
        format!(
            "{what}: this build of vmafx has no tiny-model runtime (built without the `dnn` \
             feature; vmafx_dnn_available() is 0)"
        ),
    ))
    .kind(SubjectKind::Backend)
}

/// Refused: no runtime.
pub(crate) fn use_tiny_model(_ctx: &VmafxContext, path: &str, _fp16_io: bool) -> CResult {
    no_runtime(&format!("tiny model {path}"))
}

/// Refused: no runtime.
pub(crate) fn set_codec_context(
    _ctx: &VmafxContext,
    _codec: Option<&str>,
    _preset: Option<&str>,
    _crf: i32,
) -> CResult {
    no_runtime("the codec context of a tiny model")
}

/// 0: no model is ever attached.
pub(crate) fn is_codec_aware(_ctx: &VmafxContext) -> u32 {
    0
}

/// Refused: no runtime.
pub(crate) fn set_tiny_resize(_ctx: &VmafxContext, _mode: u32) -> CResult {
    no_runtime("resizing for a tiny model")
}

/// Refused: no runtime.
pub(crate) fn session_open(path: &str, _fp16_io: bool) -> CResult<SessionState> {
    no_runtime(&format!("tiny model {path}"))
}

/// Never called: no session exists.
pub(crate) fn run_plane(s: &mut SessionState, _: &[f32], _: usize, _: usize) -> CResult<Vec<f32>> {
    match *s {}
}

/// Never called: no session exists.
pub(crate) fn run_tensors(
    s: &mut SessionState,
    _: &[GivenTensor<'_>],
) -> CResult<Vec<(String, Vec<f32>)>> {
    match *s {}
}

/// Never called: no session exists.
pub(crate) fn device(s: &SessionState) -> &'static std::ffi::CStr {
    match *s {}
}

/// Refused: no runtime.
pub(crate) fn verify_signature(path: &str, _registry: &str) -> CResult {
    no_runtime(&format!("verifying the signature of {path}"))
}
