//! VMAFx's `libvmaf_bridge.h`: the libvmaf handle bound to a context, and back.
//!
//! In VMAFx a context wraps a libvmaf `VmafContext`, and these two calls let a caller
//! migrating one call at a time reach it. vmafx is its own engine: no context of this
//! library is bound to a libvmaf handle, so both calls answer NULL, the value the ABI
//! gives for "not bound". A caller that needs libvmaf internals (the feature collector)
//! has no such handle to use here; vmafx's scores are read through score.h instead.

use std::ffi::c_void;

use crate::context::VmafxContext;
use crate::error::guarded;

/// libvmaf's `VmafContext`, opaque here (declared by `libvmaf/libvmaf.h` in libvmaf).
pub type VmafContext = c_void;

/// The vmafx context a libvmaf handle is bound to: always NULL, since no libvmaf handle is
/// bound to a vmafx context. `vmaf` is not dereferenced.
#[no_mangle]
pub extern "C" fn vmafx_context_from_libvmaf(vmaf: *mut VmafContext) -> *mut VmafxContext {
    guarded("vmafx_context_from_libvmaf", std::ptr::null_mut(), || {
        let _ = vmaf;
        std::ptr::null_mut()
    })
}

/// The libvmaf handle bound to `context`: always NULL (NULL for NULL, and NULL for a live
/// context, which vmafx scores without libvmaf). `context` is not dereferenced.
#[no_mangle]
pub extern "C" fn vmafx_context_libvmaf_handle(context: *mut VmafxContext) -> *mut VmafContext {
    guarded("vmafx_context_libvmaf_handle", std::ptr::null_mut(), || {
        let _ = context;
        std::ptr::null_mut()
    })
}
