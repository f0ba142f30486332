//! `vmafx_context_import_frame()`: the import rule, ADR-1929 item 8 (ADR-1852 D8), a thin
//! call of the engine's [`vmafx::context::Context::import_frame`].

use std::ffi::c_char;

use crate::abi::VmafxFrameImport;
use crate::context::{get, VmafxContext};
use crate::device::VmafxDevice;
use crate::error::{call, null, CResult, VmafxError};
use crate::ffi::c_str;
use crate::frame::{into_handle, VmafxFrame};
use crate::{import, sized};
use vmafx::Status;

/// Imports a frame for `context` under the import rule (`device` NULL: the context's).
///
/// # Safety
/// `context`, `device` NULL or live; `desc` as for `vmafx_frame_import()`; `input` NULL or
/// NUL-terminated; `out`, `error` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmafx_context_import_frame(
    context: *mut VmafxContext,
    device: *mut VmafxDevice,
    desc: *const VmafxFrameImport,
    input: *const c_char,
    out: *mut *mut VmafxFrame,
    error: *mut *mut VmafxError,
) -> i32 {
    // SAFETY: every pointer is used under the caller's contract above.
    unsafe {
        call("vmafx_context_import_frame", error, || {
            if out.is_null() {
                return Err(null("out"));
            }
            out.write(std::ptr::null_mut());
            let c = get(context)?;
            let input = if input.is_null() {
                "main"
            } else {
                c_str(input, "input")?
            };
            let (d, size) = sized::read(desc, "desc")?;
            let engine_desc = import::convert(&d, size)?;
            let inner = c.lock();
            let given = device.as_ref().map(|d| &d.device);
            let frame = inner
                .ctx
                .import_frame(given, &engine_desc, input)
                .map_err(|e| inner.admission_failure(e))?;
            out.write(into_handle(frame));
            CResult::Ok(Status::Ok)
        })
    }
}
