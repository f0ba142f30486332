//! The table that binds libvmafx models and sets to the libvmaf handles they were made
//! from (`vmafx_model_from_libvmaf`, `vmafx_model_set_from_libvmaf` in `bridge`), and the
//! unbinding a handle's destroy runs (`model`). A leaf: `bridge` and `model` both use it,
//! and neither imports the other for it.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use capi::model::VmafxModel;
use capi::model_set::VmafxModelSet;

/// libvmafx models and sets bound to a libvmaf handle: the bound object's address → the
/// handle's, so that each maps back to the other while the handle lives.
static BOUND: Mutex<Option<HashMap<usize, usize>>> = Mutex::new(None);

/// The table, locked (a poisoned lock is taken over: the map stays consistent).
pub(crate) fn bound() -> MutexGuard<'static, Option<HashMap<usize, usize>>> {
    BOUND.lock().unwrap_or_else(|p| p.into_inner())
}

/// Forgets the binding of `x` and drops the count its handle held.
///
/// # Safety
/// `x` is NULL or a model handle whose count the caller gives up.
pub(crate) unsafe fn unbind_model(x: *mut VmafxModel) {
    if !x.is_null() {
        if let Some(m) = bound().as_mut() {
            m.remove(&(x as usize));
        }
        // SAFETY: the caller gives up this count.
        unsafe { capi::model::vmafx_model_unref(x) };
    }
}

/// As [`unbind_model`], for a set.
///
/// # Safety
/// `x` is NULL or a set handle whose count the caller gives up.
pub(crate) unsafe fn unbind_set(x: *mut VmafxModelSet) {
    if !x.is_null() {
        if let Some(m) = bound().as_mut() {
            m.remove(&(x as usize));
        }
        // SAFETY: the caller gives up this count.
        unsafe { capi::model_set::vmafx_model_set_unref(x) };
    }
}
