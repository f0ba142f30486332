//! `VmafFeatureDictionary`: an extractor's `key=value` options, owned by C until a call
//! takes it.

use std::ffi::{c_char, c_int};

use crate::errno::EINVAL;
use crate::{guard, text};

/// The options behind a `VmafFeatureDictionary *`, in the order they were set.
#[derive(Debug, Default, Clone)]
pub struct FeatureDictionary {
    /// `(key, value)` pairs; a key appears once.
    pub entries: Vec<(String, String)>,
}

/// Takes the dictionary behind `dict` (NULL: none) and frees it.
///
/// # Safety
/// `dict` is NULL or a pointer from [`vmaf_feature_dictionary_set`] not yet taken.
pub(crate) unsafe fn take(dict: *mut FeatureDictionary) -> FeatureDictionary {
    if dict.is_null() {
        return FeatureDictionary::default();
    }
    // SAFETY: made by Box::into_raw in vmaf_feature_dictionary_set, not yet taken.
    *unsafe { Box::from_raw(dict) }
}

/// Borrows the dictionary behind `dict` (NULL: empty).
///
/// # Safety
/// As [`take`], and the dictionary is not freed while the borrow lives.
pub(crate) unsafe fn peek<'a>(dict: *const FeatureDictionary) -> Option<&'a FeatureDictionary> {
    // SAFETY: NULL or a live Box allocation by the caller's contract.
    unsafe { dict.as_ref() }
}

/// Sets `key=val` in `*dict`, creating the dictionary when `*dict` is NULL; a key set
/// twice keeps the last value.
///
/// # Safety
/// `dict` is NULL or points to NULL or to a dictionary made here; `key` and `val` are NULL
/// or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn vmaf_feature_dictionary_set(
    dict: *mut *mut FeatureDictionary,
    key: *const c_char,
    val: *const c_char,
) -> c_int {
    guard(|| {
        // SAFETY: key and val are NULL or NUL-terminated (contract above).
        let (Some(key), Some(val)) = (unsafe { text(key) }, unsafe { text(val) }) else {
            return -EINVAL;
        };
        if dict.is_null() {
            return -EINVAL;
        }
        // SAFETY: dict is non-NULL and points to a pointer slot (contract above).
        let slot = unsafe { &mut *dict };
        if slot.is_null() {
            *slot = Box::into_raw(Box::default());
        }
        // SAFETY: *slot is a live dictionary made here.
        let d = unsafe { &mut **slot };
        match d.entries.iter_mut().find(|(k, _)| k == key) {
            Some(e) => e.1 = val.to_string(),
            None => d.entries.push((key.to_string(), val.to_string())),
        }
        0
    })
}

/// Frees `*dict` and clears it (a NULL `*dict` is fine; a NULL `dict` is -EINVAL).
///
/// # Safety
/// `dict` is NULL or points to NULL or to a dictionary made here and not taken.
#[no_mangle]
pub unsafe extern "C" fn vmaf_feature_dictionary_free(dict: *mut *mut FeatureDictionary) -> c_int {
    guard(|| {
        if dict.is_null() {
            return -EINVAL;
        }
        // SAFETY: dict is non-NULL and points to a pointer slot (contract above).
        let slot = unsafe { &mut *dict };
        // SAFETY: *slot is NULL or a dictionary not yet taken.
        drop(unsafe { take(*slot) });
        *slot = std::ptr::null_mut();
        0
    })
}
