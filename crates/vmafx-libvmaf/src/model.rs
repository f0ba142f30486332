//! Models and model collections: loading built-in or file models as libvmaf does, feature
//! overloads and destruction.

use std::ffi::{c_char, c_int, c_uint, CString};
use std::path::PathBuf;

use vmafx::model::{FeatureOverload, LoadedModel, ModelSource, ModelSpec, ModelType, SvmModel};

use crate::dictionary::{self, FeatureDictionary};
use crate::errno::{EBUSY, EINVAL};
use crate::ffi::{VmafModelConfig, MODEL_FLAG_DISABLE_CLIP, MODEL_FLAG_ENABLE_TRANSFORM};
use crate::{errno_of, guard, text};

/// What a `VmafModel *` points to: one single model.
///
/// Clients read libvmaf's private `VmafModel` (pyvmaf reads `->name`), so the handle starts
/// with libvmaf's leading fields, with their meaning: `char *path` (NULL: libvmaf never
/// sets it), `char *name` (the model's name: the config's `name`, or `vmaf`; a member of a
/// collection `<name>_0001`, ...) and `enum VmafModelType type`. What follows is this
/// library's own.
#[derive(Debug)]
#[repr(C)]
pub struct VmafModel {
    /// libvmaf's `path`: NULL.
    path: *mut c_char,
    /// libvmaf's `name`: points into `name_text`.
    name: *const c_char,
    /// libvmaf's `type` (`VMAF_MODEL_TYPE_SVM_NUSVR` 1, `..._BOOTSTRAP_...` 2,
    /// `..._RESIDUE_BOOTSTRAP_...` 3).
    model_type: c_int,
    name_text: CString,
    /// The engine's model (always [`LoadedModel::Single`]).
    pub loaded: LoadedModel,
    /// SHA-256 (hex) of the JSON it was read from.
    pub(crate) sha256: String,
    /// The libvmafx model bound to this handle by `vmafx_model_from_libvmaf` (one count,
    /// released with the handle), or NULL.
    pub(crate) bound: *mut capi::model::VmafxModel,
}

/// What a `VmafModelCollection *` points to: a bootstrap collection.
///
/// Laid out as libvmaf's private `VmafModelCollection` first: `VmafModel **model` (the
/// members, models `"1"`.. of the file, each a [`VmafModel`] named `<name>_0001`...; model
/// `"0"` is the base model the load call returns apart), `unsigned cnt, size`, `enum
/// VmafModelType type` (the members') and `const char *name`.
#[derive(Debug)]
#[repr(C)]
pub struct VmafModelCollection {
    /// libvmaf's `model`: points into `members`.
    model: *mut *mut VmafModel,
    /// libvmaf's `cnt` and `size`: the members.
    cnt: c_uint,
    size: c_uint,
    /// libvmaf's `type`.
    model_type: c_int,
    /// libvmaf's `name`: points into `name_text`.
    name: *const c_char,
    name_text: CString,
    /// The member handles (each from `Box::into_raw`, freed with the collection).
    members: Vec<*mut VmafModel>,
    /// The engine's collection (always [`LoadedModel::Collection`]).
    pub loaded: LoadedModel,
    /// SHA-256 (hex) of the JSON it was read from.
    pub(crate) sha256: String,
    /// The libvmafx set bound to this handle by `vmafx_model_set_from_libvmaf`, or NULL.
    pub(crate) bound: *mut capi::model_set::VmafxModelSet,
}

/// libvmaf's `enum VmafModelType` value of `t`.
fn type_code(t: ModelType) -> c_int {
    match t {
        ModelType::SvmNuSvr => 1,
        ModelType::BootstrapSvmNuSvr => 2,
        ModelType::ResidueBootstrapSvmNuSvr => 3,
    }
}

impl VmafModel {
    /// A handle for `model` (a single model) named `name`.
    fn new(model: SvmModel, name: &str, sha256: String) -> VmafModel {
        // A model name holds no NUL (it came from a C string or a built-in name).
        let name_text = CString::new(name).unwrap_or_default();
        VmafModel {
            path: std::ptr::null_mut(),
            name: name_text.as_ptr(),
            model_type: type_code(model.model_type()),
            name_text,
            loaded: LoadedModel::Single(model),
            sha256,
            bound: std::ptr::null_mut(),
        }
    }
}

impl Drop for VmafModelCollection {
    fn drop(&mut self) {
        for m in self.members.drain(..) {
            // SAFETY: each member came from Box::into_raw in put_collection, freed once here.
            drop(unsafe { Box::from_raw(m) });
        }
    }
}

/// The spec of `source` under `cfg` (NULL: defaults).
///
/// # Safety
/// `cfg` is NULL or points to a `VmafModelConfig` whose `name` is NULL or NUL-terminated.
unsafe fn spec(cfg: *const VmafModelConfig, source: ModelSource) -> Result<ModelSpec, c_int> {
    // SAFETY: NULL or readable by the contract above.
    let cfg = unsafe { cfg.as_ref() };
    let mut spec = ModelSpec {
        source,
        ..ModelSpec::default_model()
    };
    if let Some(cfg) = cfg {
        if !cfg.name.is_null() {
            // SAFETY: non-NULL and NUL-terminated by the contract above.
            spec.name = unsafe { text(cfg.name) }.ok_or(-EINVAL)?.to_string();
        }
        spec.disable_clip = cfg.flags & MODEL_FLAG_DISABLE_CLIP != 0;
        spec.enable_transform = cfg.flags & MODEL_FLAG_ENABLE_TRANSFORM != 0;
    }
    Ok(spec)
}

/// Loads the model `what` names (a built-in version or a path) under `cfg`.
///
/// # Safety
/// As [`spec`]; `what` is NULL or NUL-terminated.
unsafe fn load(
    cfg: *const VmafModelConfig,
    what: *const c_char,
    by_path: bool,
) -> Result<(LoadedModel, String), c_int> {
    // SAFETY: NULL or NUL-terminated by the contract above.
    let what = unsafe { text(what) }.ok_or(-EINVAL)?;
    let source = if by_path {
        ModelSource::Path(PathBuf::from(what))
    } else {
        ModelSource::Version(what.to_string())
    };
    // SAFETY: forwarded contract.
    let spec = unsafe { spec(cfg, source) }?;
    let report = |e: vmafx::Error| {
        eprintln!("libvmaf ERROR {e}");
        errno_of(&e)
    };
    let text = LoadedModel::source_text(&spec).map_err(report)?;
    let loaded = LoadedModel::load_text(&spec, &text).map_err(report)?;
    Ok((loaded, capi::sha256::hex_digest(text.as_bytes())))
}

/// Stores a single model in `*out`; a collection is refused (libvmaf loads those with
/// the collection calls).
///
/// # Safety
/// `out` is NULL or writable.
unsafe fn put_model(
    out: *mut *mut VmafModel,
    loaded: Result<(LoadedModel, String), c_int>,
) -> c_int {
    // SAFETY: NULL or writable by the contract above.
    let Some(out) = (unsafe { out.as_mut() }) else {
        return -EINVAL;
    };
    match loaded {
        Ok((LoadedModel::Single(m), sha256)) => {
            let name = m.name().to_string();
            *out = Box::into_raw(Box::new(VmafModel::new(m, &name, sha256)));
            0
        }
        Ok((LoadedModel::Collection(_), _)) => -EINVAL,
        Err(e) => e,
    }
}

/// Loads built-in model `version` into `*model`.
///
/// # Safety
/// `model` is NULL or writable; `cfg` NULL or valid; `version` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn vmaf_model_load(
    model: *mut *mut VmafModel,
    cfg: *mut VmafModelConfig,
    version: *const c_char,
) -> c_int {
    // SAFETY: forwarded contract.
    guard(|| unsafe { put_model(model, load(cfg, version, false)) })
}

/// Loads the model file `path` into `*model`.
///
/// # Safety
/// As [`vmaf_model_load`].
#[no_mangle]
pub unsafe extern "C" fn vmaf_model_load_from_path(
    model: *mut *mut VmafModel,
    cfg: *mut VmafModelConfig,
    path: *const c_char,
) -> c_int {
    // SAFETY: forwarded contract.
    guard(|| unsafe { put_model(model, load(cfg, path, true)) })
}

/// Applies every option of `dict` to the features extractor `feature_name` computes in
/// `loaded`.
fn overload(loaded: &mut LoadedModel, feature_name: &str, dict: &FeatureDictionary) -> c_int {
    let subject = loaded.name().to_string();
    for (k, v) in &dict.entries {
        let o = FeatureOverload {
            extractor: feature_name.to_string(),
            option: k.clone(),
            value: v.clone(),
        };
        if let Err(e) = loaded.override_feature(&subject, &o) {
            return errno_of(&e);
        }
    }
    0
}

/// Sets `opts_dict`'s options on the model's features computed by extractor
/// `feature_name`; takes `opts_dict` on success.
///
/// # Safety
/// `model` NULL or from `vmaf_model_load*`; `feature_name` NULL or NUL-terminated;
/// `opts_dict` NULL or a dictionary not yet taken.
#[no_mangle]
pub unsafe extern "C" fn vmaf_model_feature_overload(
    model: *mut VmafModel,
    feature_name: *const c_char,
    opts_dict: *mut FeatureDictionary,
) -> c_int {
    guard(|| {
        // SAFETY: NULL or a live model, by the contract above.
        let (Some(model), Some(name)) = (unsafe { model.as_mut() }, unsafe { text(feature_name) })
        else {
            return -EINVAL;
        };
        // SAFETY: NULL or a live dictionary, by the contract above.
        let Some(dict) = (unsafe { dictionary::peek(opts_dict) }) else {
            return -EINVAL;
        };
        if !model.bound.is_null() {
            // The libvmafx view was made from the model as it was; keep the two equal.
            return -EBUSY;
        }
        let mut updated = model.loaded.clone();
        let err = overload(&mut updated, name, dict);
        if err == 0 {
            model.loaded = updated;
            // SAFETY: the dictionary is live and taken once, here.
            drop(unsafe { dictionary::take(opts_dict) });
        }
        err
    })
}

/// Frees a model (NULL is ignored).
///
/// # Safety
/// `model` is NULL or from `vmaf_model_load*` and not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn vmaf_model_destroy(model: *mut VmafModel) {
    guard(|| {
        if !model.is_null() {
            // SAFETY: made by Box::into_raw in put_model, freed once.
            let m = unsafe { Box::from_raw(model) };
            // SAFETY: `bound` is NULL or the count this handle holds.
            unsafe { crate::binding::unbind_model(m.bound) };
        }
        0
    });
}

/// Stores a collection in `*collection` and its base model in `*model`.
///
/// # Safety
/// `model` and `collection` are NULL or writable.
unsafe fn put_collection(
    model: *mut *mut VmafModel,
    collection: *mut *mut VmafModelCollection,
    loaded: Result<(LoadedModel, String), c_int>,
) -> c_int {
    // SAFETY: NULL or writable by the contract above.
    let (Some(mout), Some(cout)) = (unsafe { model.as_mut() }, unsafe { collection.as_mut() })
    else {
        return -EINVAL;
    };
    match loaded {
        Ok((LoadedModel::Collection(c), sha256)) => {
            let name = c.name().to_string();
            let base = VmafModel::new(c.base().clone(), &name, sha256.clone());
            let mut members: Vec<*mut VmafModel> = c
                .members()
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let member =
                        VmafModel::new(m.clone(), &format!("{name}_{:04}", i + 1), sha256.clone());
                    Box::into_raw(Box::new(member))
                })
                .collect();
            let model_type = c.members().first().map_or(0, |m| type_code(m.model_type()));
            let name_text = CString::new(name).unwrap_or_default();
            *mout = Box::into_raw(Box::new(base));
            *cout = Box::into_raw(Box::new(VmafModelCollection {
                model: members.as_mut_ptr(),
                cnt: members.len() as c_uint,
                size: members.capacity() as c_uint,
                model_type,
                name: name_text.as_ptr(),
                name_text,
                members,
                loaded: LoadedModel::Collection(c),
                sha256,
                bound: std::ptr::null_mut(),
            }));
            0
        }
        Ok((LoadedModel::Single(_), _)) => -EINVAL,
        Err(e) => e,
    }
}

/// Loads built-in collection `version`: `*model_collection` gets the collection and
/// `*model` its base model.
///
/// # Safety
/// As [`vmaf_model_load`]; `model_collection` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmaf_model_collection_load(
    model: *mut *mut VmafModel,
    model_collection: *mut *mut VmafModelCollection,
    cfg: *mut VmafModelConfig,
    version: *const c_char,
) -> c_int {
    // SAFETY: forwarded contract.
    guard(|| unsafe { put_collection(model, model_collection, load(cfg, version, false)) })
}

/// Loads the collection file `path`, as [`vmaf_model_collection_load`].
///
/// # Safety
/// As [`vmaf_model_collection_load`].
#[no_mangle]
pub unsafe extern "C" fn vmaf_model_collection_load_from_path(
    model: *mut *mut VmafModel,
    model_collection: *mut *mut VmafModelCollection,
    cfg: *mut VmafModelConfig,
    path: *const c_char,
) -> c_int {
    // SAFETY: forwarded contract.
    guard(|| unsafe { put_collection(model, model_collection, load(cfg, path, true)) })
}

/// Overloads extractor options on the collection and on its base model; takes
/// `opts_dict` on success.
///
/// # Safety
/// `model` NULL or a live model; `model_collection` NULL or pointing to NULL or a live
/// collection; `feature_name` and `opts_dict` as in [`vmaf_model_feature_overload`].
#[no_mangle]
pub unsafe extern "C" fn vmaf_model_collection_feature_overload(
    model: *mut VmafModel,
    model_collection: *mut *mut VmafModelCollection,
    feature_name: *const c_char,
    opts_dict: *mut FeatureDictionary,
) -> c_int {
    guard(|| {
        // SAFETY: each pointer is NULL or live, by the contract above.
        let (Some(model), Some(slot), Some(name)) = (
            unsafe { model.as_mut() },
            unsafe { model_collection.as_mut() },
            unsafe { text(feature_name) },
        ) else {
            return -EINVAL;
        };
        // SAFETY: *slot is NULL or a live collection.
        let Some(coll) = (unsafe { slot.as_mut() }) else {
            return -EINVAL;
        };
        // SAFETY: NULL or a live dictionary.
        let Some(dict) = (unsafe { dictionary::peek(opts_dict) }) else {
            return -EINVAL;
        };
        if !model.bound.is_null() || !coll.bound.is_null() {
            return -EBUSY;
        }
        let (mut m, mut c) = (model.loaded.clone(), coll.loaded.clone());
        let err = match overload(&mut m, name, dict) {
            0 => overload(&mut c, name, dict),
            e => e,
        };
        if err == 0 {
            model.loaded = m;
            coll.loaded = c;
            // SAFETY: the dictionary is live and taken once, here.
            drop(unsafe { dictionary::take(opts_dict) });
        }
        err
    })
}

/// Frees a collection (NULL is ignored).
///
/// # Safety
/// `model_collection` is NULL or from `vmaf_model_collection_load*`, not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn vmaf_model_collection_destroy(model_collection: *mut VmafModelCollection) {
    guard(|| {
        if !model_collection.is_null() {
            // SAFETY: made by Box::into_raw in put_collection, freed once.
            let c = unsafe { Box::from_raw(model_collection) };
            // SAFETY: `bound` is NULL or the count this handle holds.
            unsafe { crate::binding::unbind_set(c.bound) };
        }
        0
    });
}
