//! Model sets of the C ABI (VMAFx's model.h): a bootstrap collection (`vmaf_b_v0.6.3`),
//! its lead model (the collection's model "0") and its members, reference-counted.

use crate::c_export;
use crate::c_type::VmafxStatus;
use std::ffi::{c_char, CString};
use std::path::PathBuf;
use std::sync::Arc;

use vmafx::model::{LoadedModel, ModelSource};
use vmafx::Status;

use crate::abi::SubjectKind;
use crate::error::{fail, null, CResult, ErrorOut, VmafxError, WithKind};
use crate::ffi::c_str;
use crate::model::{c_text, call_load, failure_sink, read, spec, VmafxModel, VmafxModelConfig};
use crate::model_ops::{busy, override_all};
use crate::options::VmafxOptions;

/// A loaded model set; the handle is one counted reference.
#[derive(Debug)]
pub struct VmafxModelSet {
    /// The collection (always `LoadedModel::Collection`).
    pub(crate) set: LoadedModel,
    /// Its model "0" as a model of its own; the set holds this reference.
    pub(crate) lead: Arc<VmafxModel>,
    name: CString,
    sha256: CString,
    members: u32,
}

impl VmafxModelSet {
    /// What a provenance record says of the set: its name and the digest of its bytes.
    pub(crate) fn record(&self) -> vmafx::provenance::ModelRecord {
        vmafx::provenance::ModelRecord {
            name: self.name.to_string_lossy().into_owned(),
            sha256: self.sha256.to_string_lossy().into_owned(),
            ..vmafx::provenance::ModelRecord::default()
        }
    }

    /// The set's name (its scores' name, `vmaf`), NUL-terminated for the set's lifetime.
    pub(crate) fn c_name(&self) -> *const c_char {
        self.name.as_ptr()
    }

    /// One more counted reference to the set behind `ptr`.
    ///
    /// # Safety
    /// `ptr` is a live set handle.
    pub(crate) unsafe fn retain(ptr: *const VmafxModelSet) -> Arc<VmafxModelSet> {
        // SAFETY: a live handle is one count of an `Arc` made by `vmafx_model_set_load*`.
        unsafe {
            Arc::increment_strong_count(ptr);
            Arc::from_raw(ptr)
        }
    }
}

/// The set behind `ptr`.
///
/// # Safety
/// `ptr` is NULL or a live set handle.
pub(crate) unsafe fn get<'a>(ptr: *const VmafxModelSet) -> CResult<&'a VmafxModelSet> {
    // SAFETY: NULL or live (the caller's contract).
    unsafe { ptr.as_ref() }
        .ok_or_else(|| null("set"))
        .kind(SubjectKind::Model)
}

/// Loads `source` as a set into `*out`.
///
/// # Safety
/// `config` NULL or valid for its size; `out` NULL or writable.
unsafe fn load_set(
    config: *const VmafxModelConfig,
    source: impl FnOnce() -> CResult<ModelSource>,
    out: *mut *mut VmafxModelSet,
) -> CResult {
    if out.is_null() {
        return Err(null("out"));
    }
    // SAFETY: non-NULL and writable (the caller's contract).
    unsafe { out.write(std::ptr::null_mut()) };
    let spec = spec(config, source()?)?;
    let (set, sha256) = read(&spec)?;
    let LoadedModel::Collection(_) = &set else {
        return Err(fail(
            Status::Invalid,
            &spec.subject(),
            "a single model, not a model set (load it with vmafx_model_load)",
        ))
        .kind(SubjectKind::Model);
    };
    let Some(handle) = VmafxModelSet::from_collection(set, &sha256) else {
        return Err(fail(Status::Internal, &spec.subject(), "not a model set"));
    };
    // SAFETY: as above.
    unsafe { out.write(Arc::into_raw(Arc::new(handle)) as *mut VmafxModelSet) };
    Ok(Status::Ok)
}

impl VmafxModelSet {
    /// A set wrapper of a loaded collection (`None` for a single model); `sha256` is the hex
    /// digest of the bytes it was loaded from (also used by the libvmaf drop-in's bridge).
    pub fn from_collection(set: LoadedModel, sha256: &str) -> Option<VmafxModelSet> {
        let LoadedModel::Collection(c) = &set else {
            return None;
        };
        let lead = VmafxModel::new(LoadedModel::Single(c.base().clone()), sha256);
        Some(VmafxModelSet {
            name: c_text(set.name()),
            sha256: c_text(sha256),
            members: c.members().len() as u32,
            lead: Arc::new(lead),
            set,
        })
    }
}

c_export! {
    /// Loads the built-in model set `version` (`vmaf_b_v0.6.3`); an unknown version is
    /// `VMAFX_E_NOTFOUND` naming it, a single model `VMAFX_E_INVALID`.
    ///
    /// # Safety
    /// `config` NULL or valid for its `struct_size`; `version` NULL or NUL-terminated; `out`,
    /// `error` NULL or writable.
    #[c = "Loads the built-in model set `version` (`vmaf_b_v0.6.3`); `config` may be NULL. VMAFX_E_NOTFOUND names an unknown version, VMAFX_E_INVALID one that is not a set."]
    pub unsafe fn vmafx_model_set_load(
        config: *const VmafxModelConfig,
        version: *const c_char,
        out: *mut *mut VmafxModelSet,
        error: *mut *mut VmafxError,
    ) -> VmafxStatus {
        // SAFETY: `config` is NULL or valid for its struct_size (this function's contract).
        let sink = unsafe { failure_sink(config) };
        // SAFETY: `error` is NULL or writable (this function's contract).
        let error = unsafe { ErrorOut::new(error) };
        call_load("vmafx_model_set_load", sink, error, || {
            let source = || {
                // SAFETY: `version` is NULL or NUL-terminated (this function's contract).
                let version = unsafe { c_str(version, "version") }?;
                Ok(ModelSource::Version(version.to_string()))
            };
            // SAFETY: `config` is NULL or valid for its struct_size; `out` NULL or writable (this
            // function's contract).
            unsafe { load_set(config, source, out) }
        })
    }
}

c_export! {
    /// Loads a JSON model set file (UTF-8 path); failures as `vmafx_model_load_file()`.
    ///
    /// # Safety
    /// As [`vmafx_model_set_load`], with `path` for `version`.
    #[c = "Loads a JSON model set file (UTF-8 path); failures as vmafx_model_load_file()."]
    pub unsafe fn vmafx_model_set_load_file(
        config: *const VmafxModelConfig,
        path: *const c_char,
        out: *mut *mut VmafxModelSet,
        error: *mut *mut VmafxError,
    ) -> VmafxStatus {
        // SAFETY: `config` is NULL or valid for its struct_size (this function's contract).
        let sink = unsafe { failure_sink(config) };
        // SAFETY: `error` is NULL or writable (this function's contract).
        let error = unsafe { ErrorOut::new(error) };
        call_load("vmafx_model_set_load_file", sink, error, || {
            let source = || {
                // SAFETY: `path` is NULL or NUL-terminated (this function's contract).
                let path = unsafe { c_str(path, "path") }?;
                Ok(ModelSource::Path(PathBuf::from(path)))
            };
            // SAFETY: `config` is NULL or valid for its struct_size; `out` NULL or writable (this
            // function's contract).
            unsafe { load_set(config, source, out) }
        })
    }
}

c_export! {
    /// Takes one more reference; returns `set` (NULL for NULL).
    ///
    /// # Safety
    /// `set` NULL or live.
    #[c = "Takes one more reference; returns `set` (NULL for NULL)."]
    pub unsafe fn vmafx_model_set_ref(set: *mut VmafxModelSet) -> *mut VmafxModelSet {
        if !set.is_null() {
            // SAFETY: a live handle is one count of its `Arc`.
            unsafe { Arc::increment_strong_count(set) };
        }
        set
    }
}

c_export! {
    /// Drops one reference; the last releases the set and its models. NULL is a no-op.
    ///
    /// # Safety
    /// `set` NULL or live, with a reference the caller gives up.
    #[c = "Drops one reference; the last releases the set and its models. NULL is a no-op."]
    pub unsafe fn vmafx_model_set_unref(set: *mut VmafxModelSet) {
        if !set.is_null() {
            // SAFETY: the caller gives up one count of the handle's `Arc`.
            unsafe { Arc::decrement_strong_count(set) };
        }
    }
}

c_export! {
    /// The set's lead model (its model "0"), borrowed for the set's lifetime; NULL for NULL.
    ///
    /// # Safety
    /// `set` NULL or live.
    #[c = "The set's lead model (its model \"0\"), borrowed: valid as long as the set; take a reference with vmafx_model_ref() to keep it longer. NULL for NULL."]
    pub unsafe fn vmafx_model_set_lead(set: *const VmafxModelSet) -> *mut VmafxModel {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { set.as_ref() }.map_or(std::ptr::null_mut(), |s| {
            Arc::as_ptr(&s.lead) as *mut VmafxModel
        })
    }
}

c_export! {
    /// Number of member models, without the lead; 0 for NULL.
    ///
    /// # Safety
    /// `set` NULL or live.
    #[c = "Number of member models, without the lead; 0 for NULL."]
    pub unsafe fn vmafx_model_set_size(set: *const VmafxModelSet) -> u32 {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { set.as_ref() }.map_or(0, |s| s.members)
    }
}

c_export! {
    /// SHA-256 of the set's bytes as loaded (64 lowercase hex digits); NULL for NULL.
    ///
    /// # Safety
    /// `set` NULL or live.
    #[c = "SHA-256 of the set's bytes as loaded, as vmafx_model_hash(); NULL for NULL."]
    pub unsafe fn vmafx_model_set_hash(set: *const VmafxModelSet) -> *const c_char {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { set.as_ref() }.map_or(std::ptr::null(), |s| s.sha256.as_ptr())
    }
}

c_export! {
    /// `vmafx_model_override_feature()` for the lead and every member; `VMAFX_E_BUSY` once the
    /// set or its lead is shared (a context uses it, or the caller took another reference).
    ///
    /// # Safety
    /// `set` NULL or live; `extractor` NULL or NUL-terminated; `options` NULL or live;
    /// `error` NULL or writable.
    #[c = "vmafx_model_override_feature() for the lead and every member; VMAFX_E_BUSY naming `set` once the set or its lead is shared."]
    pub unsafe fn vmafx_model_set_override_feature(
        set: *mut VmafxModelSet,
        extractor: *const c_char,
        options: *const VmafxOptions;
        error
    ) -> VmafxStatus {
        // SAFETY: `set` is NULL or a live handle of this library (this function's contract).
        unsafe { get(set) }?;
        // SAFETY: `extractor` is NULL or NUL-terminated (this function's contract).
        let name = unsafe { c_str(extractor, "extractor") }?;
        // SAFETY: `options` is NULL or live (this function's contract).
        let opts = unsafe { options.as_ref() }.ok_or_else(|| null("options"))?;
        // SAFETY: `set` is a live handle (checked by `get` above): one count of an `Arc`,
        // borrowed here and never dropped.
        let mut handle = std::mem::ManuallyDrop::new(unsafe { Arc::from_raw(set) });
        let s = Arc::get_mut(&mut handle).ok_or_else(|| busy("set"))?;
        let lead = Arc::get_mut(&mut s.lead).ok_or_else(|| busy("set"))?;
        override_all(&mut lead.model, name, opts)?;
        override_all(&mut s.set, name, opts)?;
        Ok(Status::Ok)
    }
}

crate::c_named!(VmafxModelSet);
