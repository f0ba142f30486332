//! `vmafx_context_import_frame()`: the import rule, ADR-1929 item 8 (ADR-1852 D8), a thin
//! call of the engine's [`vmafx::context::Context::import_frame`].

use crate::c_export;
use std::ffi::c_char;

use crate::abi::VmafxFrameImport;
use crate::context_handle::{get, VmafxContext};
use crate::device::VmafxDevice;
use crate::error::{null, CResult};
use crate::ffi::c_str;
use crate::frame::{into_handle, VmafxFrame};
use crate::{import, sized};
use vmafx::Status;

c_export! {
    /// Imports a frame for `context` under the import rule (`device` NULL: the context's).
    ///
    /// # Safety
    /// `context`, `device` NULL or live; `desc` as for `vmafx_frame_import()`; `input` NULL or
    /// NUL-terminated; `out`, `error` NULL or writable.
    #[c = "Imports and admits a frame under the import rule: a VMAFX_E_BUSY or VMAFX_E_TIMEOUT is retried once after a host wait on `desc.acquire` of at most `import_retry_wait_ns`; a second or any other failure names the input, backend, device, memory kind, format, depth, size, modifiers, cause and attempts. Never a host copy."]
    pub unsafe fn vmafx_context_import_frame(
        context: *mut VmafxContext,
        device: *mut VmafxDevice,
        desc: *const VmafxFrameImport,
        input: *const c_char,
        out: *mut *mut VmafxFrame;
        error
    ) -> VmafxStatus {
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        let input = if input.is_null() {
            "main"
        } else {
            // SAFETY: `input` is NULL or NUL-terminated (this function's contract).
            unsafe { c_str(input, "input") }?
        };
        // SAFETY: `desc` is NULL or readable for its struct_size (this function's contract).
        let (d, size) = unsafe { sized::read(desc, "desc") }?;
        let engine_desc = import::convert(&d, size)?;
        let inner = c.lock();
        // SAFETY: `device` is NULL or live (this function's contract).
        let given = unsafe { device.as_ref() }.map(|d| &d.device);
        // SAFETY: the descriptor's planes are readable for their extents and stay unchanged
        // until its release runs (this function's contract, which is `Device::import`'s).
        let frame = unsafe { inner.ctx.import_frame(given, &engine_desc, input) }
            .map_err(|e| inner.admission_failure(e))?;
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(into_handle(frame)) };
        CResult::Ok(Status::Ok)
    }
}
