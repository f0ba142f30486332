//! VMAFx's provenance.h (ABI 0.1.5): the record of how a context's scores are made, its
//! models, the producer of each feature, the caller's annotations and encode record, and
//! the record as RFC 8785 JSON. The record itself is the engine's
//! (`vmafx::provenance::Record`, built by this crate's `record` module); strings handed out
//! live as long as the context.

use std::ffi::{c_char, CString};

use vmafx::provenance::{FeatureRecord, Record};
use vmafx::Status;

use crate::abi::{MinSize, SubjectKind};
use crate::c_export;
use crate::context_handle::VmafxContext;
use crate::error::{fail, null, CResult, WithKind};
use crate::ffi::c_str;
use crate::record::record_of;
use crate::session::{Inner, Notes};
use crate::sized;

/// `VMAFX_PROVENANCE_JSON_CANONICAL`: the bytes the digest covers.
pub const PROVENANCE_JSON_CANONICAL: u32 = 1;

/// `VmafxFeatureSource` values.
pub const FEATURE_SOURCES: [(&str, u32, &str); 4] = [
    ("VMAFX_FEATURE_SOURCE_UNKNOWN", 0, "Not recorded."),
    (
        "VMAFX_FEATURE_SOURCE_EXTRACTOR",
        1,
        "Written by a registered feature extractor.",
    ),
    (
        "VMAFX_FEATURE_SOURCE_IMPORTED",
        2,
        "Imported with vmafx_context_import_score().",
    ),
    (
        "VMAFX_FEATURE_SOURCE_MODEL",
        3,
        "Predicted by a model the context uses.",
    ),
];

/// `VmafxProvenance`: the record of a context.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxProvenance {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// ABI major version.
    pub abi_major: u32,
    /// ABI minor version.
    pub abi_minor: u32,
    /// ABI patch version.
    pub abi_patch: u32,
    /// The `VmafxBackend` of the context.
    pub active_backend: u32,
    /// Registered extractors.
    pub n_extractors: u32,
    /// Build version.
    pub version: *const c_char,
    /// Commit of the build, `unknown` when not recorded.
    pub commit: *const c_char,
    /// `sha256:` of the build description.
    pub build_id: *const c_char,
    /// Compiler.
    pub compiler: *const c_char,
    /// Profile and optimisation of the build.
    pub build_flags: *const c_char,
    /// Floating-point rules of the build.
    pub fp_policy: *const c_char,
    /// Backends built in.
    pub backends: *const c_char,
    /// 1 when `<name>_rust` twins are registered.
    pub rust_twins: u32,
    /// CPU instruction-set level in use.
    pub simd: *const c_char,
    /// Device index within its backend.
    pub device_index: i32,
    /// Device name.
    pub device_name: *const c_char,
    /// Device runtime (the host architecture for the CPU).
    pub device_runtime: *const c_char,
    /// Worker threads.
    pub n_threads: u32,
    /// Subsampling (1: every frame).
    pub n_subsample: u32,
    /// CPU bits disabled.
    pub cpumask: u64,
    /// GPU bits disabled.
    pub gpumask: u64,
    /// Luma width of the frames.
    pub frame_width: u32,
    /// Luma height of the frames.
    pub frame_height: u32,
    /// `VmafxPixelFormat` of the frames.
    pub pix_fmt: u32,
    /// Bits per component.
    pub bpc: u32,
    /// Frames submitted.
    pub n_frames: u64,
    /// Models used.
    pub n_models: u32,
    /// Features with scores.
    pub n_features: u32,
    /// Annotations.
    pub n_annotations: u32,
    /// Encode record digest, or empty.
    pub encode_record: *const c_char,
    /// `sha256:` over every per-frame score.
    pub scores_digest: *const c_char,
    /// Nanoseconds from the first frame to the flush (now before it).
    pub elapsed_ns: u64,
    /// `sha256:` of the canonical JSON without `digest` and `elapsed_ns`.
    pub digest: *const c_char,
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers (valid
// all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxProvenance {
    /// The fields before `commit` (ABI 0.1.5 added the rest).
    const MIN_SIZE: usize = std::mem::offset_of!(VmafxProvenance, commit);
}

/// `VmafxModelProvenance`: one model of a context.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxModelProvenance {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// Name of its scores.
    pub name: *const c_char,
    /// Built-in version or file path.
    pub version: *const c_char,
    /// SHA-256 of the bytes loaded (64 hex digits).
    pub sha256: *const c_char,
    /// Load flags.
    pub flags: u64,
    /// Overrides applied, `<extractor>.<key>=<value>` joined by `:`.
    pub overrides: *const c_char,
}

// SAFETY: as for VmafxProvenance.
unsafe impl MinSize for VmafxModelProvenance {
    /// ABI 0.1.5: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxModelProvenance>();
}

/// `VmafxFeatureProvenance`: how one feature's scores are made.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxFeatureProvenance {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// Feature name as the scores carry it.
    pub feature: *const c_char,
    /// Extractor (or model) that wrote it; empty when imported.
    pub extractor: *const c_char,
    /// `c` for the reference extractor of its name; empty without an extractor.
    pub implementation: *const c_char,
    /// `VmafxBackend` it ran on.
    pub backend: u32,
    /// Device that ran it.
    pub device: *const c_char,
    /// Runtime of that device.
    pub runtime: *const c_char,
    /// Options of the extractor, `key=value` joined by `:` in key order.
    pub options: *const c_char,
    /// `cpu-reference` for the CPU extractor; empty without an extractor.
    pub exactness: *const c_char,
    /// `VmafxFeatureSource`.
    pub source: u32,
}

// SAFETY: as for VmafxProvenance.
unsafe impl MinSize for VmafxFeatureProvenance {
    /// ABI 0.1.5: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxFeatureProvenance>();
}

/// `VmafxAnnotation`: one annotation.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxAnnotation {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// Key.
    pub key: *const c_char,
    /// Value.
    pub value: *const c_char,
}

// SAFETY: as for VmafxProvenance.
unsafe impl MinSize for VmafxAnnotation {
    /// ABI 0.1.5: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxAnnotation>();
}

crate::c_named!(
    VmafxProvenance,
    VmafxModelProvenance,
    VmafxFeatureProvenance,
    VmafxAnnotation
);

/// The longest annotation value, in bytes.
const MAX_VALUE: usize = 4096;
/// The most annotations a context keeps.
const MAX_ANNOTATIONS: usize = 256;

/// The context behind `ptr`; NULL is `VMAFX_E_INVALID` naming `context` as a parameter.
///
/// # Safety
/// `ptr` is NULL or a live context of this library.
unsafe fn context<'a>(ptr: *const VmafxContext) -> CResult<&'a VmafxContext> {
    // SAFETY: NULL or live (the caller's contract).
    unsafe { ptr.as_ref() }
        .ok_or_else(|| null("context"))
        .kind(SubjectKind::Parameter)
}

/// Writes `value` to the caller's `out` (checked first).
///
/// # Safety
/// `out` NULL or valid for its `struct_size`.
unsafe fn put<T: MinSize>(out: *mut T, value: impl FnOnce() -> CResult<T>) -> CResult {
    // SAFETY: forwarded contract.
    let size = unsafe { sized::out_size(out, "out") }?;
    let v = value()?;
    // SAFETY: `out` is writable for `size` bytes (checked above).
    unsafe { sized::write(out, size, &v) };
    Ok(Status::Ok)
}

fn not_found_index(index: u32, what: &str) -> crate::error::Failure {
    fail(
        Status::NotFound,
        "index",
        format!("{index} is past the last {what}"),
    )
}

fn feature_struct(notes: &mut Notes, f: &FeatureRecord) -> VmafxFeatureProvenance {
    VmafxFeatureProvenance {
        struct_size: 0,
        feature: notes.c(&f.feature),
        extractor: notes.c(&f.extractor),
        implementation: notes.c(&f.implementation),
        backend: f.backend,
        device: notes.c(&f.device),
        runtime: notes.c(&f.runtime),
        options: notes.c(&f.options),
        exactness: notes.c(&f.exactness),
        source: f.source as u32,
    }
}

fn record_struct(notes: &mut Notes, r: &Record) -> VmafxProvenance {
    let [abi_major, abi_minor, abi_patch] = r.abi.unwrap_or_default();
    VmafxProvenance {
        struct_size: 0,
        abi_major,
        abi_minor,
        abi_patch,
        active_backend: r.features.first().map_or(0, |f| f.backend),
        n_extractors: r.n_extractors,
        version: notes.c(&r.build.version),
        commit: notes.c(&r.build.commit),
        build_id: notes.c(&r.build.build_id),
        compiler: notes.c(&r.build.compiler),
        build_flags: notes.c(&r.build.build_flags),
        fp_policy: notes.c(&r.build.fp_policy),
        backends: notes.c(&r.build.backends),
        rust_twins: r.build.rust_twins,
        simd: notes.c(&r.simd),
        device_index: r.device_index,
        device_name: notes.c(&r.device_name),
        device_runtime: notes.c(&r.device_runtime),
        n_threads: r.n_threads,
        n_subsample: r.n_subsample,
        cpumask: r.cpumask,
        gpumask: r.gpumask,
        frame_width: r.frame_width,
        frame_height: r.frame_height,
        pix_fmt: r.pix_fmt.1,
        bpc: r.bpc,
        n_frames: r.n_frames,
        n_models: r.models.len() as u32,
        n_features: r.features.len() as u32,
        n_annotations: r.annotations.len() as u32,
        encode_record: notes.c(&r.encode_record),
        scores_digest: notes.c(&r.scores_digest),
        elapsed_ns: r.elapsed_ns,
        digest: notes.c(&r.digest),
    }
}

/// Locks the context and builds its record.
fn with_record<T>(
    c: &VmafxContext,
    f: impl FnOnce(&mut Inner, Record) -> CResult<T>,
) -> CResult<T> {
    let mut inner = c.lock();
    let r = record_of(&inner);
    f(&mut inner, r)
}

c_export! {
    /// Fills `out` with the context's provenance record.
    ///
    /// # Safety
    /// `context` NULL or live; `out` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "Fills `out` with the provenance record of the context: the build, the CPU level, the device, the configuration, the frames, the counts of models, features and annotations, the encode record, the digest of the scores and the digest of the record (which leaves out the timing). Strings live as long as the context. ABI 0.1.5."]
    pub unsafe fn vmafx_context_provenance(
        context: *const VmafxContext,
        out: *mut VmafxProvenance;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or live (this function's contract).
        let c = unsafe { self::context(context) }?;
        // SAFETY: `out` is NULL or valid for its struct_size (this function's contract).
        unsafe {
            put(out, || {
                with_record(c, |inner, r| {
                    let mut v = record_struct(&mut inner.notes, &r);
                    v.active_backend = inner.device().backend() as u32;
                    Ok(v)
                })
            })
        }
    }
}

c_export! {
    /// Describes model `index` of the context, in the order used.
    ///
    /// # Safety
    /// As [`vmafx_context_provenance`].
    #[c = "Describes model `index` of the context (its models, then its model sets, in the order used); VMAFX_E_NOTFOUND naming `index` past the last. ABI 0.1.5."]
    pub unsafe fn vmafx_context_model_provenance(
        context: *const VmafxContext,
        index: u32,
        out: *mut VmafxModelProvenance;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or live (this function's contract).
        let c = unsafe { self::context(context) }?;
        // SAFETY: `out` is NULL or valid for its struct_size (this function's contract).
        unsafe {
            put(out, || {
                with_record(c, |inner, r| {
                    let m = r
                        .models
                        .get(index as usize)
                        .ok_or_else(|| not_found_index(index, "model"))
                        .kind(SubjectKind::Parameter)?;
                    let n = &mut inner.notes;
                    Ok(VmafxModelProvenance {
                        struct_size: 0,
                        name: n.c(&m.name),
                        version: n.c(&m.version),
                        sha256: n.c(&m.sha256),
                        flags: m.flags,
                        overrides: n.c(&m.overrides),
                    })
                })
            })
        }
    }
}

c_export! {
    /// Describes feature `index` of the context, features in byte order of their names.
    ///
    /// # Safety
    /// As [`vmafx_context_provenance`].
    #[c = "Describes feature `index` of the context, features in byte order of their names; VMAFX_E_NOTFOUND naming `index` past the last. ABI 0.1.5."]
    pub unsafe fn vmafx_context_feature_provenance(
        context: *const VmafxContext,
        index: u32,
        out: *mut VmafxFeatureProvenance;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or live (this function's contract).
        let c = unsafe { self::context(context) }?;
        // SAFETY: `out` is NULL or valid for its struct_size (this function's contract).
        unsafe {
            put(out, || {
                with_record(c, |inner, r| {
                    let f = r
                        .features
                        .get(index as usize)
                        .ok_or_else(|| not_found_index(index, "feature"))
                        .kind(SubjectKind::Parameter)?;
                    Ok(feature_struct(&mut inner.notes, f))
                })
            })
        }
    }
}

c_export! {
    /// Describes the feature named `feature`.
    ///
    /// # Safety
    /// As [`vmafx_context_provenance`]; `feature` NULL or NUL-terminated.
    #[c = "Describes the feature named `feature` as its scores carry it; VMAFX_E_NOTFOUND naming it when the context has no score of it. ABI 0.1.5."]
    pub unsafe fn vmafx_feature_provenance(
        context: *const VmafxContext,
        feature: *const c_char,
        out: *mut VmafxFeatureProvenance;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or live (this function's contract).
        let c = unsafe { self::context(context) }?;
        // SAFETY: `feature` is NULL or NUL-terminated (this function's contract).
        let name = unsafe { c_str(feature, "feature") }?;
        // SAFETY: `out` is NULL or valid for its struct_size (this function's contract).
        unsafe {
            put(out, || {
                with_record(c, |inner, r| {
                    let f = r
                        .features
                        .iter()
                        .find(|f| f.feature == name)
                        .ok_or_else(|| {
                            fail(Status::NotFound, name, "the context has no score of this feature")
                        })
                        .kind(SubjectKind::Feature)?;
                    Ok(feature_struct(&mut inner.notes, f))
                })
            })
        }
    }
}

/// Whether `key` is 1 to 64 characters of `a-z`, `0-9` and `_`.
fn key_ok(key: &str) -> bool {
    (1..=64).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

c_export! {
    /// Adds an annotation (both strings copied).
    ///
    /// # Safety
    /// `context` NULL or live; `key`, `value` NULL or NUL-terminated; `error` NULL or writable.
    #[c = "Adds `key` = `value` (both copied) to the record, for what only the caller knows (inputs, command line); keys may repeat and keep their order. VMAFX_E_INVALID names a `key` that is not 1 to 64 characters of a-z, 0-9 and _; VMAFX_E_RANGE names `value` over 4096 bytes, and `key` for the 257th annotation. ABI 0.1.5."]
    pub unsafe fn vmafx_context_annotate(
        context: *mut VmafxContext,
        key: *const c_char,
        value: *const c_char;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or live (this function's contract).
        let c = unsafe { self::context(context) }?;
        // SAFETY: `key` is NULL or NUL-terminated (this function's contract).
        let k = unsafe { c_str(key, "key") }.kind(SubjectKind::Parameter)?;
        // SAFETY: `value` is NULL or NUL-terminated (this function's contract).
        let v = unsafe { c_str(value, "value") }.kind(SubjectKind::Parameter)?;
        if !key_ok(k) {
            return Err(fail(
                Status::Invalid,
                "key",
                format!("'{k}' is not 1 to 64 characters of a-z, 0-9 and _"),
            ))
            .kind(SubjectKind::Parameter);
        }
        if v.len() > MAX_VALUE {
            return Err(fail(
                Status::Range,
                "value",
                format!("{} bytes is over {MAX_VALUE}", v.len()),
            ))
            .kind(SubjectKind::Parameter);
        }
        let mut inner = c.lock();
        if inner.notes.annotations.len() >= MAX_ANNOTATIONS {
            return Err(fail(
                Status::Range,
                "key",
                format!("the context holds {MAX_ANNOTATIONS} annotations, the most it keeps"),
            ))
            .kind(SubjectKind::Parameter);
        }
        inner.notes.annotations.push((k.to_string(), v.to_string()));
        Ok(Status::Ok)
    }
}

c_export! {
    /// Annotation `index`, in the order added.
    ///
    /// # Safety
    /// As [`vmafx_context_provenance`].
    #[c = "Annotation `index` in the order added; VMAFX_E_NOTFOUND naming `index` past the last. ABI 0.1.5."]
    pub unsafe fn vmafx_context_annotation(
        context: *const VmafxContext,
        index: u32,
        out: *mut VmafxAnnotation;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or live (this function's contract).
        let c = unsafe { self::context(context) }?;
        // SAFETY: `out` is NULL or valid for its struct_size (this function's contract).
        unsafe {
            put(out, || {
                let mut inner = c.lock();
                let (k, v) = inner
                    .notes
                    .annotations
                    .get(index as usize)
                    .cloned()
                    .ok_or_else(|| not_found_index(index, "annotation"))
                    .kind(SubjectKind::Parameter)?;
                let n = &mut inner.notes;
                Ok(VmafxAnnotation {
                    struct_size: 0,
                    key: n.c(&k),
                    value: n.c(&v),
                })
            })
        }
    }
}

/// Whether `record` is `sha256:` and 64 lower-case hex digits.
fn digest_form(record: &str) -> bool {
    record.len() == 71
        && record.starts_with("sha256:")
        && record[7..]
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

c_export! {
    /// Records (or clears) the digest of the distorted input's encode record.
    ///
    /// # Safety
    /// `context` NULL or live; `record` NULL or NUL-terminated; `error` NULL or writable.
    #[c = "Records the digest of the distorted input's encode record: `sha256:` and 64 lower-case hex digits, copied; NULL or empty clears it. VMAFX_E_INVALID names `record` in any other form. ABI 0.1.5."]
    pub unsafe fn vmafx_context_set_encode_record(
        context: *mut VmafxContext,
        record: *const c_char;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or live (this function's contract).
        let c = unsafe { self::context(context) }?;
        let text = if record.is_null() {
            ""
        } else {
            // SAFETY: non-NULL and NUL-terminated (this function's contract).
            unsafe { c_str(record, "record") }.kind(SubjectKind::Parameter)?
        };
        if !text.is_empty() && !digest_form(text) {
            return Err(fail(
                Status::Invalid,
                "record",
                format!("'{text}' is not sha256: and 64 lower-case hex digits"),
            ))
            .kind(SubjectKind::Parameter);
        }
        c.lock().notes.encode_record = text.to_string();
        Ok(Status::Ok)
    }
}

c_export! {
    /// The record as RFC 8785 JSON; `*json` lives until the next call or the context's end.
    ///
    /// # Safety
    /// `context` NULL or live; `json`, `error` NULL or writable.
    #[c = "The record as RFC 8785 JSON (keys in byte order, no whitespace; 32-bit integers as numbers, 64-bit integers as strings, enums by lower-case names) with its models, features and annotations; VMAFX_PROVENANCE_JSON_CANONICAL leaves out `digest` and `elapsed_ns` (the bytes the digest covers). `*json` lives until the next call on the context or its destruction. VMAFX_E_INVALID names unknown `flags`. ABI 0.1.5."]
    pub unsafe fn vmafx_context_provenance_json(
        context: *mut VmafxContext,
        flags: u32,
        json: *mut *const c_char;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or live (this function's contract).
        let c = unsafe { self::context(context) }?;
        if json.is_null() {
            return Err(null("json")).kind(SubjectKind::Parameter);
        }
        if flags & !PROVENANCE_JSON_CANONICAL != 0 {
            return Err(fail(
                Status::Invalid,
                "flags",
                format!("{flags:#x} has bits beyond VMAFX_PROVENANCE_JSON_CANONICAL"),
            ))
            .kind(SubjectKind::Parameter);
        }
        with_record(c, |inner, r| {
            let text = r.json(flags & PROVENANCE_JSON_CANONICAL == 0);
            inner.notes.json = CString::new(text).unwrap_or_default();
            // SAFETY: `json` is non-NULL (checked above) and writable (this function's contract).
            unsafe { json.write(inner.notes.json.as_ptr()) };
            Ok(Status::Ok)
        })
    }
}
