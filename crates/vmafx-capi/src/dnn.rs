//! Tiny models of the C ABI (VMAFx's dnn.h). VMAFx runs them through ONNX Runtime; this
//! library runs them through vmafx-dnn (tract, pure Rust) when built with its `dnn` feature
//! (`crate::dnn_runtime`). Without it `vmafx_dnn_available()` is 0 and every call that would
//! load or run a model checks its arguments and then fails `VMAFX_E_NOTSUP` naming `dnn` (a
//! backend), as VMAFx's own build without tiny-model support does. The exports, structs and
//! enums are the same in both builds, so callers compile and can test for the capability.

use std::ffi::{c_char, c_void};

use vmafx::Status;

use crate::abi::MinSize;
use crate::c_export;
use crate::context_handle::{self, VmafxContext};
use crate::dnn_runtime;
use crate::error::{fail, null, CResult};
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

/// A tiny-model session (only a build with the `dnn` feature opens one).
pub struct VmafxDnnSession {
    state: dnn_runtime::SessionState,
}

impl std::fmt::Debug for VmafxDnnSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("VmafxDnnSession")
    }
}

crate::c_named!(
    VmafxDnnConfig,
    VmafxDnnInput,
    VmafxDnnOutput,
    VmafxDnnSession
);

/// The most floats one tensor of vmafx_dnn_session_run() may hold (1 GiB of float32).
const MAX_TENSOR_FLOATS: usize = 1 << 28;
/// The most dimensions one tensor of vmafx_dnn_session_run() may have.
const MAX_RANK: usize = 8;
/// The largest plane side of the plane runs.
const MAX_SIDE: u32 = 32768;

/// Checks a config the caller passed (NULL allowed): its size and values.
///
/// # Safety
/// `config` NULL or valid for its `struct_size`.
unsafe fn check_config(config: *const VmafxDnnConfig) -> CResult<bool> {
    if config.is_null() {
        return Ok(false);
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
    Ok(c.flags & FP16_IO != 0)
}

/// The session behind `session`; NULL is refused.
///
/// # Safety
/// `session` NULL or live.
unsafe fn session_mut<'a>(session: *mut VmafxDnnSession) -> CResult<&'a mut VmafxDnnSession> {
    // SAFETY: NULL or live (the caller's contract).
    unsafe { session.as_mut() }.ok_or_else(|| null("session"))
}

/// Checks a plane's size and stride: `w`, `h` in 1..=32768 and a stride holding `w` samples
/// of `bytes` bytes, `name` naming the stride.
fn check_plane(w: u32, h: u32, stride: usize, bytes: usize, name: &str) -> CResult<()> {
    for (v, n) in [(w, "w"), (h, "h")] {
        if v == 0 || v > MAX_SIDE {
            return Err(fail(
                Status::Invalid,
                n,
                format!("{v} is not in 1..={MAX_SIDE}"),
            ));
        }
    }
    if stride < w as usize * bytes {
        return Err(fail(
            Status::Invalid,
            name,
            format!("{stride} bytes cannot hold a row of {w} samples of {bytes} byte(s)"),
        ));
    }
    Ok(())
}

c_export! {
    /// 1 in a build with the `dnn` feature (the tract runtime), else 0.
    ///
    /// # Safety
    /// None; `unsafe` only for the export's uniform shape.
    #[c = "1 when this build runs tiny-AI models (vmafx built with its `dnn` feature: a pure-Rust ONNX runtime), else 0; then the calls below that load or run a model check their arguments and fail VMAFX_E_NOTSUP naming `dnn`."]
    pub unsafe fn vmafx_dnn_available() -> u32 {
        dnn_runtime::AVAILABLE
    }
}

c_export! {
    /// Attaches a tiny model to the context: it scores every frame pair as one more feature.
    ///
    /// # Safety
    /// `context` NULL or live; `onnx_path` NULL or NUL-terminated; `config` NULL or valid for
    /// its `struct_size`; `error` NULL or writable.
    #[c = "Attach the tiny model at `onnx_path` (checked against the operator allowlist and the 50 MiB size limit; its sidecar JSON read when present) to the context, before the first frame; it scores every frame as one more feature, named by the sidecar's `name` or else the file's stem. `config` may be NULL. A refused model is named, subject kind VMAFX_SUBJECT_MODEL."]
    pub unsafe fn vmafx_context_use_tiny_model(
        context: *mut VmafxContext,
        onnx_path: *const c_char,
        config: *const VmafxDnnConfig;
        error
    ) -> VmafxStatus {
        // SAFETY: NULL or live (this function's contract).
        let ctx = unsafe { context_handle::get(context) }?;
        // SAFETY: NULL or NUL-terminated (this function's contract).
        let path = unsafe { c_str(onnx_path, "onnx_path") }?;
        // SAFETY: NULL or valid for its struct_size (this function's contract).
        let fp16 = unsafe { check_config(config) }?;
        dnn_runtime::use_tiny_model(ctx, path, fp16)
    }
}

c_export! {
    /// Sets the codec context a codec-aware tiny model reads.
    ///
    /// # Safety
    /// `context` NULL or live; `codec`, `preset` NULL or NUL-terminated; `error` NULL or
    /// writable.
    #[c = "The encoder `codec` (may be NULL), its `preset` (may be NULL) and `crf` that a codec-aware tiny model attached to the context reads. VMAFX_E_NOTFOUND without an attached model, or for a codec its vocabulary lacks."]
    pub unsafe fn vmafx_context_set_codec_context(
        context: *mut VmafxContext,
        codec: *const c_char,
        preset: *const c_char,
        crf: i32;
        error
    ) -> VmafxStatus {
        // SAFETY: NULL or live (this function's contract).
        let ctx = unsafe { context_handle::get(context) }?;
        // SAFETY: NULL or NUL-terminated (this function's contract).
        let codec = unsafe { opt_str(codec, "codec") }?;
        // SAFETY: as above.
        let preset = unsafe { opt_str(preset, "preset") }?;
        dnn_runtime::set_codec_context(ctx, codec, preset, crf)
    }
}

c_export! {
    /// 1 when the attached tiny model reads the codec context.
    ///
    /// # Safety
    /// `context` NULL or live.
    #[c = "1 when the tiny model attached to the context reads the codec context, else 0 (also for NULL, and always in a build without a runtime)."]
    pub unsafe fn vmafx_context_is_codec_aware(context: *const VmafxContext) -> u32 {
        // SAFETY: NULL or live (this function's contract).
        match unsafe { context_handle::get(context) } {
            Ok(ctx) => dnn_runtime::is_codec_aware(ctx),
            Err(_) => 0,
        }
    }
}

c_export! {
    /// Sets how frames are resized for the attached tiny model.
    ///
    /// # Safety
    /// `context` NULL or live; `error` NULL or writable.
    #[c = "How frames are resized to the fixed input shape of the attached tiny model (VmafxDnnResize; another value is VMAFX_E_INVALID naming `mode`). VMAFX_E_NOTFOUND without an attached model."]
    pub unsafe fn vmafx_context_set_tiny_resize(
        context: *mut VmafxContext,
        mode: u32;
        error
    ) -> VmafxStatus {
        // SAFETY: NULL or live (this function's contract).
        let ctx = unsafe { context_handle::get(context) }?;
        if mode > RESIZE_MAX {
            return Err(fail(
                Status::Invalid,
                "mode",
                format!("{mode} is not a VmafxDnnResize (0 to {RESIZE_MAX})"),
            ));
        }
        dnn_runtime::set_tiny_resize(ctx, mode)
    }
}

c_export! {
    /// Opens a session on a model.
    ///
    /// # Safety
    /// `onnx_path` NULL or NUL-terminated; `config` NULL or valid for its `struct_size`;
    /// `out`, `error` NULL or writable.
    #[c = "Open the ONNX model at `onnx_path` for direct runs (allowlist, size limit and sidecar as vmafx_context_use_tiny_model()). `config` may be NULL. `*out` is NULL on failure."]
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
        let fp16 = unsafe { check_config(config) }?;
        let state = dnn_runtime::session_open(path, fp16)?;
        // SAFETY: as above.
        unsafe { out.write(Box::into_raw(Box::new(VmafxDnnSession { state }))) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// Runs a plane model on an 8-bit plane (samples / 255 in, output * 255 rounded and
    /// clamped out).
    ///
    /// # Safety
    /// `session` NULL or live; `input` NULL or `h` rows of `w` bytes `in_stride` apart;
    /// `output` NULL or `h` writable rows of `w` bytes `out_stride` apart; `error` NULL or
    /// writable.
    #[c = "Run a single-input, single-output session on an 8-bit plane of `w` x `h` (`in`, rows `in_stride` bytes apart) into `out` (rows `out_stride` bytes apart): samples / 255 in, outputs * 255 rounded and clamped out. VMAFX_E_NOTSUP naming the model unless its input is [1, 1, H, W]; VMAFX_E_RANGE for another size than it fixes."]
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
        // SAFETY: NULL or live (this function's contract).
        let s = unsafe { session_mut(session) }?;
        if input.is_null() {
            return Err(null("in"));
        }
        if output.is_null() {
            return Err(null("out"));
        }
        check_plane(w, h, in_stride, 1, "in_stride")?;
        check_plane(w, h, out_stride, 1, "out_stride")?;
        let (w, h) = (w as usize, h as usize);
        let mut plane = Vec::with_capacity(w * h);
        for y in 0..h {
            // SAFETY: row y of the caller's plane (this function's contract).
            let row = unsafe { std::slice::from_raw_parts((input as *const u8).add(y * in_stride), w) };
            plane.extend(row.iter().map(|&v| v as f32 / 255.0));
        }
        let out = dnn_runtime::run_plane(&mut s.state, &plane, w, h)?;
        for y in 0..h {
            // SAFETY: row y of the caller's output plane (this function's contract).
            let row = unsafe { std::slice::from_raw_parts_mut((output as *mut u8).add(y * out_stride), w) };
            for (d, v) in row.iter_mut().zip(&out[y * w..(y + 1) * w]) {
                *d = (v * 255.0).round().clamp(0.0, 255.0) as u8;
            }
        }
        Ok(Status::Ok)
    }
}

c_export! {
    /// Runs a plane model on a 16-bit plane of `bpc` bits.
    ///
    /// # Safety
    /// As [`vmafx_dnn_session_run_luma8`], with 16-bit samples (`w` of them per row).
    #[c = "vmafx_dnn_session_run_luma8() on a plane of `bpc` bits (9 to 16) in 16-bit samples; strides in bytes; samples / (2^bpc - 1) in, outputs scaled back, rounded and clamped."]
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
        // SAFETY: NULL or live (this function's contract).
        let s = unsafe { session_mut(session) }?;
        if input.is_null() {
            return Err(null("in"));
        }
        if output.is_null() {
            return Err(null("out"));
        }
        if !(9..=16).contains(&bpc) {
            return Err(fail(Status::Invalid, "bpc", format!("{bpc} is not in 9..=16")));
        }
        check_plane(w, h, in_stride, 2, "in_stride")?;
        check_plane(w, h, out_stride, 2, "out_stride")?;
        let (w, h) = (w as usize, h as usize);
        let max = ((1u32 << bpc) - 1) as f32;
        let mut plane = Vec::with_capacity(w * h);
        for y in 0..h {
            let row = (input as *const u8).wrapping_add(y * in_stride) as *const u16;
            for x in 0..w {
                // SAFETY: sample x of row y of the caller's plane (this function's
                // contract); read unaligned, so any address is read correctly.
                let v = unsafe { row.add(x).read_unaligned() };
                plane.push(v.min(max as u16) as f32 / max);
            }
        }
        let out = dnn_runtime::run_plane(&mut s.state, &plane, w, h)?;
        for y in 0..h {
            let row = (output as *mut u8).wrapping_add(y * out_stride) as *mut u16;
            for x in 0..w {
                let v = (out[y * w + x] * max).round().clamp(0.0, max) as u16;
                // SAFETY: sample x of row y of the caller's output (this function's
                // contract); written unaligned.
                unsafe { row.add(x).write_unaligned(v) };
            }
        }
        Ok(Status::Ok)
    }
}

/// The tensors `inputs[..n]` as (name, shape, values), each checked.
///
/// # Safety
/// `inputs` valid for `n` entries, each as vmafx_dnn_session_run() says.
unsafe fn read_inputs<'a>(
    inputs: *const VmafxDnnInput,
    n: usize,
) -> CResult<Vec<dnn_runtime::GivenTensor<'a>>> {
    // SAFETY: `n` entries (the caller's contract).
    let inputs = unsafe { std::slice::from_raw_parts(inputs, n) };
    let mut out = Vec::with_capacity(n);
    for (i, t) in inputs.iter().enumerate() {
        let field = |f: &str| format!("inputs[{i}].{f}");
        // SAFETY: NULL or NUL-terminated (the caller's contract).
        let name = unsafe { opt_str(t.name, &field("name")) }?;
        if t.rank > MAX_RANK {
            return Err(fail(
                Status::Range,
                &field("rank"),
                format!("{} is above {MAX_RANK}", t.rank),
            ));
        }
        if t.rank > 0 && t.shape.is_null() {
            return Err(null(&field("shape")));
        }
        let mut shape = Vec::with_capacity(t.rank);
        let mut count = 1usize;
        for d in 0..t.rank {
            // SAFETY: `rank` int64 extents (the caller's contract), read unaligned.
            let e = unsafe { (t.shape as *const i64).add(d).read_unaligned() };
            if e <= 0 {
                return Err(fail(
                    Status::Invalid,
                    &field("shape"),
                    format!("extent {d} is {e}"),
                ));
            }
            count = count.saturating_mul(e as usize);
            shape.push(e as usize);
        }
        if count > MAX_TENSOR_FLOATS {
            return Err(fail(
                Status::Range,
                &field("shape"),
                format!("{shape:?} holds more than {MAX_TENSOR_FLOATS} values"),
            ));
        }
        if t.data.is_null() {
            return Err(null(&field("data")));
        }
        if !(t.data as usize).is_multiple_of(std::mem::align_of::<f32>()) {
            return Err(fail(
                Status::Invalid,
                &field("data"),
                "not aligned for float",
            ));
        }
        // SAFETY: `count` floats (the caller's contract), aligned (checked).
        let data = unsafe { std::slice::from_raw_parts(t.data as *const f32, count) };
        out.push((name, shape, data));
    }
    Ok(out)
}

c_export! {
    /// Runs a session on named float32 tensors.
    ///
    /// # Safety
    /// `session` NULL or live; `inputs` NULL or `n_inputs` entries whose `name` is NULL or
    /// NUL-terminated, `shape` holds `rank` int64 and `data` the product of them floats;
    /// `outputs` NULL or `n_outputs` entries whose `data` holds `capacity` floats; `error` NULL
    /// or writable.
    #[c = "Run the session on `n_inputs` named float32 tensors into `n_outputs` caller-sized outputs (each output's `written` is set). An output whose `capacity` is too small is VMAFX_E_RANGE naming it (its `written` says how many floats it needs)."]
    pub unsafe fn vmafx_dnn_session_run(
        session: *mut VmafxDnnSession,
        inputs: *const VmafxDnnInput,
        n_inputs: usize,
        outputs: *mut VmafxDnnOutput,
        n_outputs: usize;
        error
    ) -> VmafxStatus {
        if session.is_null() {
            return Err(null("session"));
        }
        // The counts before the session is touched (VMAFx's order).
        if inputs.is_null() || n_inputs == 0 {
            return Err(fail(Status::Invalid, "inputs", "NULL or none"));
        }
        if outputs.is_null() || n_outputs == 0 {
            return Err(fail(Status::Invalid, "outputs", "NULL or none"));
        }
        // SAFETY: live (this function's contract; NULL refused above).
        let s = unsafe { session_mut(session) }?;
        // SAFETY: `n_outputs` entries (this function's contract).
        let outs = unsafe { std::slice::from_raw_parts_mut(outputs, n_outputs) };
        for o in outs.iter_mut() {
            o.written = 0;
        }
        // SAFETY: as this function's contract says.
        let given = unsafe { read_inputs(inputs, n_inputs) }?;
        let results = dnn_runtime::run_tensors(&mut s.state, &given)?;
        for (i, o) in outs.iter_mut().enumerate() {
            let field = |f: &str| format!("outputs[{i}].{f}");
            // SAFETY: NULL or NUL-terminated (this function's contract).
            let name = unsafe { opt_str(o.name, &field("name")) }?;
            let found = match name {
                Some(n) => results.iter().find(|(rn, _)| rn == n),
                None => results.get(i),
            };
            let Some((rname, values)) = found else {
                return Err(fail(
                    Status::NotFound,
                    &field("name"),
                    format!("the model has no output {}", name.map_or(format!("#{i}"), |n| format!("`{n}`"))),
                ));
            };
            if o.capacity < values.len() {
                o.written = values.len();
                return Err(fail(
                    Status::Range,
                    &field("capacity"),
                    format!("output `{rname}` has {} floats; capacity {}", values.len(), o.capacity),
                ));
            }
            if o.data.is_null() {
                return Err(null(&field("data")));
            }
            // SAFETY: `capacity` writable floats (this function's contract), at least
            // `values.len()` (checked); copied bytewise, so any alignment is fine.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    values.as_ptr() as *const u8,
                    o.data as *mut u8,
                    std::mem::size_of_val(values.as_slice()),
                )
            };
            o.written = values.len();
        }
        Ok(Status::Ok)
    }
}

c_export! {
    /// Closes a session; NULL is a no-op.
    ///
    /// # Safety
    /// `session` NULL or a live session, not used afterwards.
    #[c = "Close a session; NULL is a no-op."]
    pub unsafe fn vmafx_dnn_session_close(session: *mut VmafxDnnSession) {
        if !session.is_null() {
            // SAFETY: a live session from vmafx_dnn_session_open() (this function's
            // contract), freed once.
            drop(unsafe { Box::from_raw(session) });
        }
    }
}

c_export! {
    /// The session's execution provider: `CPU`.
    ///
    /// # Safety
    /// `session` NULL or live.
    #[c = "Execution provider the runtime attached to the session (`CPU`: the pure-Rust runtime runs on the CPU); lives as long as the session; NULL for NULL."]
    pub unsafe fn vmafx_dnn_session_runtime_device(session: *mut VmafxDnnSession) -> *const c_char {
        // SAFETY: NULL or live (this function's contract).
        match unsafe { session.as_ref() } {
            Some(s) => dnn_runtime::device(&s.state).as_ptr(),
            None => std::ptr::null(),
        }
    }
}

c_export! {
    /// Checks a model against the model registry (its digest) and has `cosign verify-blob`
    /// verify its Sigstore bundle, as VMAFx does (see `vmafx_dnn::cosign`).
    ///
    /// # Safety
    /// `onnx_path`, `registry_path` NULL or NUL-terminated; `error` NULL or writable.
    #[c = "Check the ONNX file at `onnx_path` against the model registry at `registry_path` (VMAFx's format), then its Sigstore signature, as VMAFx does, by running `cosign verify-blob --bundle=BUNDLE --certificate-identity-regexp https://github.com/VMAFx/vmafx/.github/workflows/.+ --certificate-oidc-issuer https://token.actions.githubusercontent.com ONNX` found on PATH (no shell). VMAFX_OK only when cosign exits 0. Refusals name the model: no registry entry or bundle VMAFX_E_NOTFOUND and a SHA-256 other than the entry's VMAFX_E_MISMATCH, both before cosign runs; cosign missing from PATH or exiting non-zero VMAFX_E_INTERNAL (VMAFx's status for its -EACCES and -EPROTO), the message giving the exit status and cosign's last stderr line; VMAFX_E_NOTSUP on systems other than Unix."]
    pub unsafe fn vmafx_dnn_verify_signature(
        onnx_path: *const c_char,
        registry_path: *const c_char;
        error
    ) -> VmafxStatus {
        // SAFETY: NULL or NUL-terminated (this function's contract).
        let path = unsafe { c_str(onnx_path, "onnx_path") }?;
        // SAFETY: as above.
        let registry = unsafe { c_str(registry_path, "registry_path") }?;
        dnn_runtime::verify_signature(path, registry)
    }
}

/// `ptr` as a string, `None` for NULL; `name` names it when not UTF-8.
///
/// # Safety
/// `ptr` NULL or NUL-terminated.
unsafe fn opt_str<'a>(ptr: *const c_char, name: &str) -> CResult<Option<&'a str>> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: NUL-terminated (the caller's contract).
    unsafe { c_str(ptr, name) }.map(Some)
}
