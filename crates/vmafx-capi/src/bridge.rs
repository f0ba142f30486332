//! VMAFx's `libvmaf_bridge.h`: the libvmaf handle bound to a context, and back.
//!
//! In VMAFx a context wraps a libvmaf `VmafContext`, and these two calls let a caller
//! migrating one call at a time reach it. vmafx is its own engine: no context of this
//! library is bound to a libvmaf handle, so both calls answer NULL, the value the ABI
//! gives for "not bound". A caller that needs libvmaf internals (the feature collector)
//! has no such handle to use here; vmafx's scores are read through score.h instead.

use crate::c_export;

use crate::context::VmafxContext;

/// libvmaf's `VmafContext`, opaque here (declared by `libvmaf/libvmaf.h` in libvmaf).
#[repr(C)]
pub struct VmafContext {
    _opaque: [u8; 0],
}

c_export! {
    /// The vmafx context a libvmaf handle is bound to: always NULL, since no libvmaf handle is
    /// bound to a vmafx context. `vmaf` is not dereferenced.
    #[c = "The context a libvmaf handle is bound to: NULL (no libvmaf handle is bound to a vmafx context)."]
    pub fn vmafx_context_from_libvmaf(vmaf: *mut VmafContext) -> *mut VmafxContext {
        let _ = vmaf;
        std::ptr::null_mut()
    }
}

c_export! {
    /// The libvmaf handle bound to `context`: always NULL (NULL for NULL, and NULL for a live
    /// context, which vmafx scores without libvmaf). `context` is not dereferenced.
    #[c = "The libvmaf handle bound to `context`: NULL for NULL and for every context (vmafx has no libvmaf handle to return)."]
    pub fn vmafx_context_libvmaf_handle(context: *mut VmafxContext) -> *mut VmafContext {
        let _ = context;
        std::ptr::null_mut()
    }
}

crate::c_named!(VmafContext);
