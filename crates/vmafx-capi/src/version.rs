//! Version queries.

use crate::c_export;
use std::ffi::c_char;

use crate::abi::ABI_VERSION;

c_export! {
    /// The build version; valid for the process lifetime.
    #[c = "The library's build version; lives for the process."]
    pub fn vmafx_version_string() -> *const c_char {
        static VERSION: &std::ffi::CStr = match std::ffi::CStr::from_bytes_with_nul(
            concat!("vmafx ", env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
        ) {
            Ok(v) => v,
            Err(_) => c"vmafx",
        };
        VERSION.as_ptr()
    }
}

c_export! {
    /// The ABI version of the loaded library; each pointer may be NULL.
    ///
    /// # Safety
    /// Each pointer is NULL or writable.
    #[c = "The ABI version of the loaded library; any pointer may be NULL."]
    pub unsafe fn vmafx_abi_version(major: *mut u32, minor: *mut u32, patch: *mut u32) {
        for (p, v) in [
            (major, ABI_VERSION.0),
            (minor, ABI_VERSION.1),
            (patch, ABI_VERSION.2),
        ] {
            if !p.is_null() {
                // SAFETY: non-NULL and writable (the caller's contract).
                unsafe { p.write(v) };
            }
        }
    }
}
