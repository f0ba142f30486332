//! Tiny models of the C ABI (VMAFx's dnn.h). VMAFx runs them through ONNX Runtime; this
//! library has no ONNX runtime yet, so `vmafx_dnn_available()` is 0 and every call that would
//! load or run a model checks its arguments and then fails `VMAFX_E_NOTSUP` naming `dnn` (a
//! backend), as VMAFx's own build without tiny-model support does. The structs and enums are
//! VMAFx's, so callers compile and can test for the capability.

use std::ffi::{c_char, c_void};

use vmafx::Status;

use crate::abi::{MinSize, SubjectKind};
use crate::c_export;
use crate::context_handle::{self, VmafxContext};
use crate::error::{fail, null, CResult, Failure, WithKind};
use crate::ffi::c_str;
use crate::sized;

/// `VmafxDnnResize`: the largest value (bicubic).
pub const RESIZE_MAX: u32 = 3;
/// `VmafxDnnDevice`: the largest value (OpenVINO on the GPU).
pub const DEVICE_MAX: u32 = 11;
/// `VMAFX_DNN_FP16_IO`.
pub const FP16_IO: u32 = 1;

/// `VmafxDnnConfig`: how to open a tiny-model session.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxDnnConfig {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// A `VmafxDnnDevice`.
    pub device: u32,
    /// Device index within the provider.
    pub device_index: i32,
    /// Intra-op threads; 0 the runtime's choice.
    pub threads: i32,
    /// `VmafxDnnFlags`.
    pub flags: u32,
}

// `#[repr(C)]`, led by `struct_size`, integers only (valid all-zero); ABI 0.1.6 made it whole.
// SAFETY: as said above.
unsafe impl MinSize for VmafxDnnConfig {
    const MIN_SIZE: usize = std::mem::size_of::<VmafxDnnConfig>();
}

/// `VmafxDnnInput`: one named float32 input tensor (never grows).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxDnnInput {
    /// Input name; NULL the session's inputs in order.
    pub name: *const c_char,
    /// The tensor's float32 values.
    pub data: *const c_void,
    /// `rank` int64 extents.
    pub shape: *const c_void,
    /// Number of dimensions.
    pub rank: usize,
}

/// `VmafxDnnOutput`: one named float32 output tensor (never grows).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxDnnOutput {
    /// Output name; NULL the session's outputs in order.
    pub name: *const c_char,
    /// Float32 storage the call fills.
    pub data: *mut c_void,
    /// Floats `data` holds.
    pub capacity: usize,
    /// Floats written.
    pub written: usize,
}

/// A tiny-model session. None can be opened in this build (no ONNX runtime).
#[derive(Debug)]
pub struct VmafxDnnSession {
    _none: (),
}

crate::c_named!(
    VmafxDnnConfig,
    VmafxDnnInput,
    VmafxDnnOutput,
    VmafxDnnSession
);

/// The failure of a call that needs the runtime this build lacks.
fn no_runtime(what: &str) -> Failure {
    match Err::<(), _>(fail(
        Status::NotSup,
        "dnn",
        format!("{what}: this build of vmafx has no ONNX runtime for tiny models (vmafx_dnn_available() is 0)"),
    ))
    .kind(SubjectKind::Backend)
    {
        Err(f) => f,
        Ok(()) => unreachable!("built as an error"),
    }
}

/// Checks a config the caller passed (NULL allowed): its size and values.
///
/// # Safety
/// `config` NULL or valid for its `struct_size`.
unsafe fn check_config(config: *const VmafxDnnConfig) -> CResult<()> {
    if config.is_null() {
        return Ok(());
    }
    // SAFETY: valid for its struct_size (the caller's contract).
    let (c, _) = unsafe { sized::read(config, "config") }?;
    if c.device > DEVICE_MAX {
        return Err(fail(
            Status::Invalid,
            "config.device",
            format!("{} is not a VmafxDnnDevice (0 to {DEVICE_MAX})", c.device),
        ));
    }
    if c.flags & !FP16_IO != 0 {
        return Err(fail(
            Status::Invalid,
            "config.flags",
            format!("unknown flag bits {:#x}", c.flags & !FP16_IO),
        ));
    }
    Ok(())
}

/// The session behind `session`: NULL is refused; no other can exist in this build.
fn no_session(session: *const VmafxDnnSession) -> CResult {
    if session.is_null() {
        return Err(null("session"));
    }
    Err(no_runtime("running a session"))
}

c_export! {
    /// 0: this build runs no tiny models.
    ///
    /// # Safety
    /// None; `unsafe` only for the export's uniform shape.
    #[c = "1 when this build runs tiny-AI models, else 0. vmafx has no ONNX runtime yet: 0, and the calls below that load or run a model check their arguments, then fail VMAFX_E_NOTSUP naming `dnn`."]
    pub unsafe fn vmafx_dnn_available() -> u32 {
        0
    }
}

c_export! {
    /// Attaches a tiny model: `VMAFX_E_NOTSUP` after the argument checks.
    ///
    /// # Safety
    /// `context` NULL or live; `onnx_path` NULL or NUL-terminated; `config` NULL or valid for
    /// its `struct_size`; `error` NULL or writable.
    #[c = "Attach the tiny model at `onnx_path` to the context, to score every frame as one more feature. `config` may be NULL. VMAFX_E_NOTSUP (naming `dnn`) in a build without a runtime, after the arguments are checked."]
    pub unsafe fn vmafx_context_use_tiny_model(
        context: *mut VmafxContext,
        onnx_path: *const c_char,
        config: *const VmafxDnnConfig;
        error
    ) -> VmafxStatus {
        // SAFETY: NULL or live (this function's contract).
        unsafe { context_handle::get(context) }?;
        // SAFETY: NULL or NUL-terminated (this function's contract).
        let path = unsafe { c_str(onnx_path, "onnx_path") }?;
        // SAFETY: NULL or valid for its struct_size (this function's contract).
        unsafe { check_config(config) }?;
        Err(no_runtime(&format!("tiny model {path}")))
    }
}

c_export! {
    /// Sets the codec context a codec-aware tiny model reads: none can be attached here.
    ///
    /// # Safety
    /// `context` NULL or live; `codec`, `preset` NULL or NUL-terminated; `error` NULL or
    /// writable.
    #[c = "The encoder `codec` (may be NULL), its `preset` (may be NULL) and `crf` that a codec-aware tiny model attached to the context reads. VMAFX_E_NOTSUP naming `dnn` in a build without a runtime."]
    pub unsafe fn vmafx_context_set_codec_context(
        context: *mut VmafxContext,
        codec: *const c_char,
        preset: *const c_char,
        crf: i32;
        error
    ) -> VmafxStatus {
        // SAFETY: NULL or live (this function's contract).
        unsafe { context_handle::get(context) }?;
        let _ = (codec, preset, crf);
        Err(no_runtime("the codec context of a tiny model"))
    }
}

c_export! {
    /// 0: no tiny model is attached to any context in this build.
    ///
    /// # Safety
    /// `context` NULL or live (not read).
    #[c = "1 when the tiny model attached to the context reads the codec context, else 0 (also for NULL, and always in a build without a runtime)."]
    pub unsafe fn vmafx_context_is_codec_aware(context: *const VmafxContext) -> u32 {
        let _ = context;
        0
    }
}

c_export! {
    /// Sets how frames are resized for the tiny model: mode checked, then `VMAFX_E_NOTSUP`.
    ///
    /// # Safety
    /// `context` NULL or live; `error` NULL or writable.
    #[c = "How frames are resized to the fixed input shape of the attached tiny model (VmafxDnnResize; another value is VMAFX_E_INVALID naming `mode`). VMAFX_E_NOTSUP naming `dnn` in a build without a runtime."]
    pub unsafe fn vmafx_context_set_tiny_resize(
        context: *mut VmafxContext,
        mode: u32;
        error
    ) -> VmafxStatus {
        // SAFETY: NULL or live (this function's contract).
        unsafe { context_handle::get(context) }?;
        if mode > RESIZE_MAX {
            return Err(fail(
                Status::Invalid,
                "mode",
                format!("{mode} is not a VmafxDnnResize (0 to {RESIZE_MAX})"),
            ));
        }
        Err(no_runtime("resizing for a tiny model"))
    }
}

c_export! {
    /// Opens a session: `*out` NULL and `VMAFX_E_NOTSUP` after the argument checks.
    ///
    /// # Safety
    /// `onnx_path` NULL or NUL-terminated; `config` NULL or valid for its `struct_size`;
    /// `out`, `error` NULL or writable.
    #[c = "Open the ONNX model at `onnx_path` for direct runs. `config` may be NULL. `*out` is NULL on failure; VMAFX_E_NOTSUP naming `dnn` in a build without a runtime."]
    pub unsafe fn vmafx_dnn_session_open(
        onnx_path: *const c_char,
        config: *const VmafxDnnConfig,
        out: *mut *mut VmafxDnnSession;
        error
    ) -> VmafxStatus {
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: non-NULL and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        // SAFETY: NULL or NUL-terminated (this function's contract).
        let path = unsafe { c_str(onnx_path, "onnx_path") }?;
        // SAFETY: NULL or valid for its struct_size (this function's contract).
        unsafe { check_config(config) }?;
        Err(no_runtime(&format!("tiny model {path}")))
    }
}

c_export! {
    /// Runs a session on an 8-bit plane: no session exists in this build.
    ///
    /// # Safety
    /// `session` NULL or live; the planes as the header says; `error` NULL or writable.
    #[c = "Run a single-input, single-output session on an 8-bit plane of `w` x `h` (`in`, rows `in_stride` bytes apart) into `out` (rows `out_stride` bytes apart)."]
    pub unsafe fn vmafx_dnn_session_run_luma8(
        session: *mut VmafxDnnSession,
        input: *const c_void,
        in_stride: usize,
        w: u32,
        h: u32,
        output: *mut c_void,
        out_stride: usize;
        error
    ) -> VmafxStatus {
        let _ = (input, in_stride, w, h, output, out_stride);
        no_session(session)
    }
}

c_export! {
    /// Runs a session on a 16-bit plane: no session exists in this build.
    ///
    /// # Safety
    /// As [`vmafx_dnn_session_run_luma8`].
    #[c = "vmafx_dnn_session_run_luma8() on a plane of `bpc` bits (9 to 16) in 16-bit samples; strides in bytes."]
    pub unsafe fn vmafx_dnn_session_run_plane16(
        session: *mut VmafxDnnSession,
        input: *const c_void,
        in_stride: usize,
        w: u32,
        h: u32,
        bpc: u32,
        output: *mut c_void,
        out_stride: usize;
        error
    ) -> VmafxStatus {
        let _ = (input, in_stride, w, h, bpc, output, out_stride);
        no_session(session)
    }
}

c_export! {
    /// Runs a session on named tensors: no session exists in this build.
    ///
    /// # Safety
    /// `session` NULL or live; the arrays as the header says; `error` NULL or writable.
    #[c = "Run the session on `n_inputs` named float32 tensors into `n_outputs` caller-sized outputs (each output's `written` is set)."]
    pub unsafe fn vmafx_dnn_session_run(
        session: *mut VmafxDnnSession,
        inputs: *const VmafxDnnInput,
        n_inputs: usize,
        outputs: *mut VmafxDnnOutput,
        n_outputs: usize;
        error
    ) -> VmafxStatus {
        let _ = (inputs, n_inputs, outputs, n_outputs);
        no_session(session)
    }
}

c_export! {
    /// Closes a session; NULL is a no-op (no other exists in this build).
    ///
    /// # Safety
    /// `session` NULL or live.
    #[c = "Close a session; NULL is a no-op."]
    pub unsafe fn vmafx_dnn_session_close(session: *mut VmafxDnnSession) {
        let _ = session;
    }
}

c_export! {
    /// The session's execution provider: NULL (no session exists in this build).
    ///
    /// # Safety
    /// `session` NULL or live.
    #[c = "Execution provider the runtime attached to the session (`CPU`, ...); lives as long as the session; NULL for NULL."]
    pub unsafe fn vmafx_dnn_session_runtime_device(session: *mut VmafxDnnSession) -> *const c_char {
        let _ = session;
        std::ptr::null()
    }
}

c_export! {
    /// Verifies a model's signature: `VMAFX_E_NOTSUP` after the argument checks.
    ///
    /// # Safety
    /// `onnx_path`, `registry_path` NULL or NUL-terminated; `error` NULL or writable.
    #[c = "Verify the signature the model registry at `registry_path` records for the ONNX file at `onnx_path`. VMAFX_E_NOTSUP naming `dnn` in a build without a runtime."]
    pub unsafe fn vmafx_dnn_verify_signature(
        onnx_path: *const c_char,
        registry_path: *const c_char;
        error
    ) -> VmafxStatus {
        // SAFETY: NULL or NUL-terminated (this function's contract).
        let path = unsafe { c_str(onnx_path, "onnx_path") }?;
        // SAFETY: as above.
        unsafe { c_str(registry_path, "registry_path") }?;
        Err(no_runtime(&format!("verifying the signature of {path}")))
    }
}
