//! Models of the C ABI (VMAFx's model.h): built-in versions and JSON files, loaded into a
//! reference-counted `VmafxModel` a context uses (`vmafx_context_use_model()`, score.rs).
//!
//! Model sets, feature overrides and the SHA-256 hash of model.h are not provided yet.

use crate::c_export;
use crate::c_type::VmafxStatus;
use std::ffi::{c_char, c_void, CString};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use vmafx::model::{LoadedModel, ModelSource, ModelSpec};
use vmafx::provenance::ModelRecord;
use vmafx::Status;

use crate::abi::{MinSize, SubjectKind};
use vmafx::context::{LogCallback, LogLevel};

use crate::abi::VmafxLogCallback;
use crate::error::{call_to, fail, null, CResult, ErrorOut, VmafxError, WithKind};
use crate::ffi::{c_str, log_callback, log_level};
use crate::{sha256, sized};

/// `VMAFX_MODEL_DISABLE_CLIP`: do not clip scores to the model's range.
pub const MODEL_DISABLE_CLIP: u64 = 1 << 0;
/// `VMAFX_MODEL_ENABLE_TRANSFORM`: apply the model's score transform.
pub const MODEL_ENABLE_TRANSFORM: u64 = 1 << 1;
/// `VMAFX_MODEL_DISABLE_TRANSFORM`: do not apply it (refused: not supported yet).
pub const MODEL_DISABLE_TRANSFORM: u64 = 1 << 2;

/// `VmafxModelConfig`: how to load a model.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxModelConfig {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// Name of the model's scores (copied); NULL: `vmaf`.
    pub name: *const c_char,
    /// `VMAFX_MODEL_*` bits; 0 keeps the model file's defaults.
    pub flags: u64,
    /// A `VmafxLogLevel`: the messages `log_callback` receives.
    pub log_level: u32,
    /// Receives a load failure reported without an error out-parameter; NULL: stderr.
    pub log_callback: VmafxLogCallback,
    /// Passed to `log_callback`.
    pub log_user: *mut c_void,
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxModelConfig {
    /// The first three fields: the struct as vmafx's earlier header declared it (VMAFx's
    /// own header has had the log fields since 0.1, so its callers always pass them).
    const MIN_SIZE: usize = std::mem::offset_of!(VmafxModelConfig, log_level);
}

/// Where a load failure without an error out-parameter goes: `config`'s log callback, or
/// None (stderr) when it has none or cannot be read.
///
/// # Safety
/// `config` NULL or valid for its `struct_size`.
pub(crate) unsafe fn failure_sink(config: *const VmafxModelConfig) -> Option<LogCallback> {
    if config.is_null() {
        return None;
    }
    // SAFETY: non-NULL config valid for its struct_size (the caller's contract).
    let (c, _) = unsafe { sized::read(config, "config") }.ok()?;
    log_callback(c.log_callback, c.log_user)
}

/// Runs a load as [`call`], with failures without an error out-parameter sent to `sink`
/// (the config's log callback, from [`failure_sink`]) at `VMAFX_LOG_LEVEL_ERROR`.
pub(crate) fn call_load(
    function: &'static str,
    sink: Option<LogCallback>,
    error: ErrorOut,
    body: impl FnOnce() -> CResult,
) -> i32 {
    let deliver = sink.map(|cb| move |line: &str| cb(LogLevel::Error, line));
    let sink: Option<&dyn Fn(&str)> = deliver.as_ref().map(|d| d as &dyn Fn(&str));
    call_to(function, error, sink, body)
}

/// A loaded model; the handle is one counted reference.
#[derive(Debug)]
pub struct VmafxModel {
    pub(crate) model: LoadedModel,
    name: CString,
    features: Vec<CString>,
    sha256: CString,
    /// What a provenance record says of the model: its built-in version or file, load flags
    /// and the overrides applied, in order.
    pub(crate) origin: ModelRecord,
}

/// `s` as a C string (a NUL inside becomes a space).
pub(crate) fn c_text(s: &str) -> CString {
    CString::new(s.replace('\0', " ")).unwrap_or_default()
}

impl VmafxModel {
    /// A model wrapper; `sha256` is the hex digest of the bytes it was loaded from (also
    /// used by the libvmaf drop-in's bridge, crates/vmafx-libvmaf).
    pub fn new(model: LoadedModel, sha256: &str) -> VmafxModel {
        VmafxModel {
            name: c_text(model.name()),
            features: model.features().iter().map(|f| c_text(&f.name)).collect(),
            sha256: c_text(sha256),
            origin: ModelRecord {
                name: model.name().to_string(),
                sha256: sha256.to_string(),
                ..ModelRecord::default()
            },
            model,
        }
    }

    /// The SHA-256 of the bytes it was loaded from, NUL-terminated for its lifetime.
    pub(crate) fn c_hash(&self) -> *const c_char {
        self.sha256.as_ptr()
    }

    /// The name its scores are recorded under, NUL-terminated for the model's lifetime.
    pub(crate) fn c_name(&self) -> *const c_char {
        self.name.as_ptr()
    }

    /// One more counted reference to the model behind `ptr`.
    ///
    /// # Safety
    /// `ptr` is a live model handle.
    pub(crate) unsafe fn retain(ptr: *const VmafxModel) -> Arc<VmafxModel> {
        // SAFETY: a live handle is one count of an `Arc` made by `handle`.
        unsafe {
            Arc::increment_strong_count(ptr);
            Arc::from_raw(ptr)
        }
    }
}

/// The model behind `ptr`.
///
/// # Safety
/// `ptr` is NULL or a live model handle.
pub(crate) unsafe fn get<'a>(ptr: *const VmafxModel) -> CResult<&'a VmafxModel> {
    // SAFETY: NULL or live (the caller's contract).
    unsafe { ptr.as_ref() }
        .ok_or_else(|| null("model"))
        .kind(SubjectKind::Model)
}

pub(crate) fn spec(config: *const VmafxModelConfig, source: ModelSource) -> CResult<ModelSpec> {
    let mut spec = ModelSpec {
        source,
        ..ModelSpec::default_model()
    };
    if config.is_null() {
        return Ok(spec);
    }
    // SAFETY: non-NULL config valid for its struct_size (the caller's contract).
    let (c, _) = unsafe { sized::read(config, "config") }?;
    if !c.name.is_null() {
        // SAFETY: a non-NULL name is NUL-terminated (the caller's contract).
        spec.name = unsafe { c_str(c.name, "config.name") }?.to_string();
    }
    let known = MODEL_DISABLE_CLIP | MODEL_ENABLE_TRANSFORM | MODEL_DISABLE_TRANSFORM;
    if c.flags & !known != 0 {
        return Err(fail(
            Status::Invalid,
            "config.flags",
            format!("unknown model flags 0x{:x}", c.flags & !known),
        ));
    }
    if c.flags & MODEL_DISABLE_TRANSFORM != 0 {
        return Err(fail(
            Status::NotSup,
            "config.flags",
            "VMAFX_MODEL_DISABLE_TRANSFORM is not supported by this build",
        ));
    }
    log_level(c.log_level)?;
    spec.disable_clip = c.flags & MODEL_DISABLE_CLIP != 0;
    spec.enable_transform = c.flags & MODEL_ENABLE_TRANSFORM != 0;
    Ok(spec)
}

/// Loads `source` into `*out`.
///
/// # Safety
/// `config` NULL or valid for its size; `out` NULL or writable.
unsafe fn load(
    config: *const VmafxModelConfig,
    source: impl FnOnce() -> CResult<ModelSource>,
    out: *mut *mut VmafxModel,
) -> CResult {
    if out.is_null() {
        return Err(null("out"));
    }
    // SAFETY: non-NULL and writable (the caller's contract).
    unsafe { out.write(std::ptr::null_mut()) };
    let spec = spec(config, source()?)?;
    let (model, sha256) = read(&spec)?;
    if matches!(model, LoadedModel::Collection(_)) {
        return Err(fail(
            Status::Invalid,
            &spec.subject(),
            "a model set, not a single model (load it with vmafx_model_set_load)",
        ))
        .kind(SubjectKind::Model);
    }
    let mut m = VmafxModel::new(model, &sha256);
    m.origin.version = match &spec.source {
        ModelSource::Version(v) => v.clone(),
        ModelSource::Path(p) => p.display().to_string(),
    };
    m.origin.flags = u64::from(spec.disable_clip) * MODEL_DISABLE_CLIP
        + u64::from(spec.enable_transform) * MODEL_ENABLE_TRANSFORM;
    // SAFETY: as above.
    unsafe { out.write(Arc::into_raw(Arc::new(m)) as *mut VmafxModel) };
    Ok(Status::Ok)
}

/// Loads `spec`, with the SHA-256 of the bytes it was read from.
pub(crate) fn read(spec: &ModelSpec) -> CResult<(LoadedModel, String)> {
    let text = LoadedModel::source_text(spec).kind(SubjectKind::Model)?;
    let model = LoadedModel::load_text(spec, &text).kind(SubjectKind::Model)?;
    Ok((model, sha256::hex_digest(text.as_bytes())))
}

c_export! {
    /// Loads the built-in model `version`; an unknown one is `VMAFX_E_NOTFOUND` naming it.
    ///
    /// # Safety
    /// `config` NULL or valid for its `struct_size`; `version` NULL or NUL-terminated; `out`,
    /// `error` NULL or writable.
    #[c = "Loads the built-in model `version` (see vmafx_model_builtin_next()); `config` may be NULL. VMAFX_E_NOTFOUND names an unknown version, VMAFX_E_INVALID a model set, VMAFX_E_INVALID `config.log_level` a level that is not a VmafxLogLevel."]
    pub unsafe fn vmafx_model_load(
        config: *const VmafxModelConfig,
        version: *const c_char,
        out: *mut *mut VmafxModel,
        error: *mut *mut VmafxError,
    ) -> VmafxStatus {
        // SAFETY: `config` is NULL or valid for its struct_size (this function's contract).
        let sink = unsafe { failure_sink(config) };
        // SAFETY: `error` is NULL or writable (this function's contract).
        let error = unsafe { ErrorOut::new(error) };
        call_load("vmafx_model_load", sink, error, || {
            let source = || {
                // SAFETY: `version` is NULL or NUL-terminated (this function's contract).
                let version = unsafe { c_str(version, "version") }?;
                Ok(ModelSource::Version(version.to_string()))
            };
            // SAFETY: `config` is NULL or valid for its struct_size; `out` NULL or writable (this
            // function's contract).
            unsafe { load(config, source, out) }
        })
    }
}

c_export! {
    /// Loads a JSON model file (UTF-8 path).
    ///
    /// # Safety
    /// As [`vmafx_model_load`], with `path` for `version`.
    #[c = "Loads a JSON model file (UTF-8 path). VMAFX_E_IO names a file that cannot be read, VMAFX_E_INVALID one that is not a single model."]
    pub unsafe fn vmafx_model_load_file(
        config: *const VmafxModelConfig,
        path: *const c_char,
        out: *mut *mut VmafxModel,
        error: *mut *mut VmafxError,
    ) -> VmafxStatus {
        // SAFETY: `config` is NULL or valid for its struct_size (this function's contract).
        let sink = unsafe { failure_sink(config) };
        // SAFETY: `error` is NULL or writable (this function's contract).
        let error = unsafe { ErrorOut::new(error) };
        call_load("vmafx_model_load_file", sink, error, || {
            let source = || {
                // SAFETY: `path` is NULL or NUL-terminated (this function's contract).
                let path = unsafe { c_str(path, "path") }?;
                Ok(ModelSource::Path(PathBuf::from(path)))
            };
            // SAFETY: `config` is NULL or valid for its struct_size; `out` NULL or writable (this
            // function's contract).
            unsafe { load(config, source, out) }
        })
    }
}

c_export! {
    /// Takes one more reference; returns `model` (NULL for NULL).
    ///
    /// # Safety
    /// `model` NULL or live.
    #[c = "Takes one more reference; returns `model` (NULL for NULL)."]
    pub unsafe fn vmafx_model_ref(model: *mut VmafxModel) -> *mut VmafxModel {
        if !model.is_null() {
            // SAFETY: a live handle is one count of its `Arc`.
            unsafe { Arc::increment_strong_count(model) };
        }
        model
    }
}

c_export! {
    /// Drops one reference; the last releases the model. NULL is a no-op.
    ///
    /// # Safety
    /// `model` NULL or live, with a reference the caller gives up.
    #[c = "Drops one reference; the last one releases the model. NULL is a no-op."]
    pub unsafe fn vmafx_model_unref(model: *mut VmafxModel) {
        if !model.is_null() {
            // SAFETY: the caller gives up one count of the handle's `Arc`.
            unsafe { Arc::decrement_strong_count(model) };
        }
    }
}

c_export! {
    /// The name the model's scores are recorded under; NULL for NULL.
    ///
    /// # Safety
    /// `model` NULL or live.
    #[c = "Name the model's scores are recorded under; NULL for NULL."]
    pub unsafe fn vmafx_model_name(model: *const VmafxModel) -> *const c_char {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { model.as_ref() }.map_or(std::ptr::null(), |m| m.c_name())
    }
}

c_export! {
    /// Number of features the model reads; 0 for NULL.
    ///
    /// # Safety
    /// `model` NULL or live.
    #[c = "Number of features the model reads; 0 for NULL."]
    pub unsafe fn vmafx_model_feature_count(model: *const VmafxModel) -> u32 {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { model.as_ref() }.map_or(0, |m| m.features.len() as u32)
    }
}

c_export! {
    /// Name of feature `index`, or NULL past the last one.
    ///
    /// # Safety
    /// `model` NULL or live.
    #[c = "Name of feature `index`, or NULL past the last one."]
    pub unsafe fn vmafx_model_feature_name(model: *const VmafxModel, index: u32) -> *const c_char {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { model.as_ref() }
            .and_then(|m| m.features.get(index as usize))
            .map_or(std::ptr::null(), |n| n.as_ptr())
    }
}

fn builtin_names() -> &'static [CString] {
    static NAMES: OnceLock<Vec<CString>> = OnceLock::new();
    NAMES.get_or_init(|| {
        vmafx::model::builtin_versions()
            .iter()
            .filter_map(|v| CString::new(*v).ok())
            .collect()
    })
}

c_export! {
    /// The built-in version after `previous` (the first for NULL); NULL after the last or for
    /// an unknown `previous`.
    ///
    /// # Safety
    /// `previous` NULL or NUL-terminated.
    #[c = "The built-in version after `previous`, the first for NULL, NULL after the last or for an unknown `previous`. Built-in model sets are listed too."]
    pub unsafe fn vmafx_model_builtin_next(previous: *const c_char) -> *const c_char {
        let names = builtin_names();
        let next = if previous.is_null() {
            names.first()
        } else {
            // SAFETY: non-NULL and NUL-terminated (the caller's contract).
            let prev = unsafe { std::ffi::CStr::from_ptr(previous) };
            names
                .iter()
                .position(|n| n.as_c_str() == prev)
                .and_then(|i| names.get(i + 1))
        };
        next.map_or(std::ptr::null(), |n| n.as_ptr())
    }
}

c_export! {
    /// The version of the default model, `vmaf_v1.0.16_3d0h` (VMAFx's default).
    #[c = "Version of the default model (`vmaf_v1.0.16_3d0h`)."]
    pub fn vmafx_model_default_version() -> *const c_char {
        c"vmaf_v1.0.16_3d0h".as_ptr()
    }
}

crate::c_named!(VmafxModel, VmafxModelConfig);
