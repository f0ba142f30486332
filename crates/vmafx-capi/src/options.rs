//! `VmafxOptions`: string keys and values for a feature, as libvmaf's dictionary.

use crate::c_export;
use std::ffi::c_char;

use vmafx::Status;

use crate::error::null;
use crate::ffi::c_str;

/// A set of `key=value` options.
#[derive(Debug, Default, Clone)]
pub struct VmafxOptions {
    pairs: Vec<(String, String)>,
}

impl VmafxOptions {
    /// The pairs, in the order set (a key set again keeps its first place).
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.pairs.clone()
    }
}

c_export! {
    /// Sets `key` to `value` in `*options`, creating the set when `*options` is NULL.
    ///
    /// # Safety
    /// `options` NULL or writable, `*options` NULL or live; `key`, `value` NULL or
    /// NUL-terminated; `error` NULL or writable.
    #[c = "Sets `key` to `value` in `*options`, creating the set when `*options` is NULL."]
    pub unsafe fn vmafx_options_set(
        options: *mut *mut VmafxOptions,
        key: *const c_char,
        value: *const c_char;
        error
    ) -> VmafxStatus {
        if options.is_null() {
            return Err(null("options"));
        }
        // SAFETY: `key` is NULL or NUL-terminated (this function's contract).
        let k = unsafe { c_str(key, "key") }?.to_string();
        // SAFETY: `value` is NULL or NUL-terminated (this function's contract).
        let v = unsafe { c_str(value, "value") }?.to_string();
        // SAFETY: `options` is non-NULL (checked above) and points to a readable handle
        // pointer (this function's contract).
        if unsafe { options.read() }.is_null() {
            // SAFETY: `options` is non-NULL (checked above) and writable (this function's contract).
            unsafe { options.write(Box::into_raw(Box::default())) };
        }
        // SAFETY: `*options` is non-NULL now: the caller's live options, or the set made
        // above; no other reference to it exists during this call.
        let set = unsafe { &mut **options };
        match set.pairs.iter_mut().find(|(have, _)| *have == k) {
            Some(p) => p.1 = v,
            None => set.pairs.push((k, v)),
        }
        Ok(Status::Ok)
    }
}

c_export! {
    /// Releases an option set; NULL is a no-op.
    ///
    /// # Safety
    /// `options` NULL or a live set, released once.
    #[c = "Releases an option set; NULL is a no-op."]
    pub unsafe fn vmafx_options_free(options: *mut VmafxOptions) {
        if !options.is_null() {
            // SAFETY: a live set from `Box::into_raw`, released once.
            drop(unsafe { Box::from_raw(options) });
        }
    }
}

crate::c_named!(VmafxOptions);
