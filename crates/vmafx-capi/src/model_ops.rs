//! model.h's calls on a loaded model beyond its description: its hash and feature
//! overrides.

use crate::c_export;
use std::ffi::c_char;
use std::sync::Arc;

use vmafx::model::{FeatureOverload, LoadedModel};
use vmafx::Status;

use crate::abi::SubjectKind;
use crate::error::{null, CResult, WithKind};
use crate::ffi::c_str;
use crate::model::{get, VmafxModel};
use crate::options::VmafxOptions;

c_export! {
    /// SHA-256 of the model's bytes as loaded (64 lowercase hex digits, equal to `sha256sum`
    /// of its file); NULL for NULL.
    ///
    /// # Safety
    /// `model` NULL or live.
    #[c = "SHA-256 of the model bytes as loaded, 64 lowercase hex digits (equal to `sha256sum` of the file); lives as long as the model. NULL for NULL."]
    pub unsafe fn vmafx_model_hash(model: *const VmafxModel) -> *const c_char {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { model.as_ref() }.map_or(std::ptr::null(), |m| m.c_hash())
    }
}

/// `VMAFX_E_BUSY` naming `what`: a model in use is immutable.
pub(crate) fn busy(what: &str) -> crate::error::Failure {
    crate::error::Failure {
        error: vmafx::Error::new(
            Status::Busy,
            what,
            "in use (by a context or another reference): a shared model is immutable",
        ),
        kind: SubjectKind::Model,
    }
}

/// Sets every option of `options` on the features of `model` that `extractor` computes.
pub(crate) fn override_all(
    model: &mut LoadedModel,
    extractor: &str,
    options: &VmafxOptions,
) -> CResult<()> {
    for (option, value) in options.pairs() {
        let o = FeatureOverload {
            extractor: extractor.to_string(),
            option,
            value,
        };
        model
            .override_feature(extractor, &o)
            .kind(SubjectKind::Extractor)?;
    }
    Ok(())
}

c_export! {
    /// Merges `options` (copied) into the options `model` passes to `extractor`. Only while the
    /// caller holds the only reference: a model a context uses is immutable (`VMAFX_E_BUSY`
    /// naming `model`). An extractor the model has no feature of is `VMAFX_E_NOTFOUND` naming
    /// it. The hash stays the hash of the bytes loaded.
    ///
    /// # Safety
    /// `model` NULL or live; `extractor` NULL or NUL-terminated; `options` NULL or live;
    /// `error` NULL or writable.
    #[c = "Merges `options` (copied) into the options the model passes to `extractor`. Only while the caller holds the only reference: a model a context uses is immutable (VMAFX_E_BUSY naming `model`); VMAFX_E_NOTFOUND names an extractor the model has no feature of."]
    pub unsafe fn vmafx_model_override_feature(
        model: *mut VmafxModel,
        extractor: *const c_char,
        options: *const VmafxOptions;
        error
    ) -> VmafxStatus {
        // SAFETY: `model` is NULL or a live handle of this library (this function's contract).
        unsafe { get(model) }?;
        // SAFETY: `extractor` is NULL or NUL-terminated (this function's contract).
        let name = unsafe { c_str(extractor, "extractor") }?;
        // SAFETY: `options` is NULL or live (this function's contract).
        let opts = unsafe { options.as_ref() }.ok_or_else(|| null("options"))?;
        // The handle's own count, borrowed: never dropped here.
        // SAFETY: `model` is a live handle (checked by `get` above): one count of an `Arc`,
        // borrowed here and never dropped.
        let mut handle = std::mem::ManuallyDrop::new(unsafe { Arc::from_raw(model) });
        let m = Arc::get_mut(&mut handle).ok_or_else(|| busy("model"))?;
        override_all(&mut m.model, name, opts)?;
        for (option, value) in opts.pairs() {
            // A number as the model reads it (`1.0` is 1), anything else as given.
            let value = value.parse::<f64>().map_or(value, |v| v.to_string());
            let entry = format!("{name}.{option}={value}");
            if m.origin.overrides.is_empty() {
                m.origin.overrides = entry;
            } else {
                m.origin.overrides = format!("{}:{entry}", m.origin.overrides);
            }
        }
        Ok(Status::Ok)
    }
}
