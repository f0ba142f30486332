//! `vmafx_context_import_frame()`: the import rule, ADR-1929 item 8 (ADR-1852 D8).
//!
//! Import and admit; a `VMAFX_E_BUSY` or `VMAFX_E_TIMEOUT` is retried once after a host
//! wait on the acquire fence of at most the context's `import_retry_wait_ns`; a second
//! failure, or any other, fails with one message naming the input, backend, device, memory
//! kind, pixel format, depth, size, every plane's modifier, the cause and the number of
//! attempts. The zero-copy rule is never relaxed.
//!
//! The engine context has no import rule of its own yet; this is written over the safe
//! engine calls (device import, admission) so it can move there unchanged.

use std::ffi::c_char;
use std::time::Duration;

use vmafx::device::Device;
use vmafx::frame::import::{Acquire, FrameImport};
use vmafx::hooks::{self, TestClock};
use vmafx::{Error, Frame, Status};

use crate::abi::VmafxFrameImport;
use crate::context::{c_str, get, VmafxContext};
use crate::device::VmafxDevice;
use crate::error::{call, fail, null, CResult, Failure, VmafxError};
use crate::frame::{into_handle, VmafxFrame};
use crate::{import, sized};

fn transient(e: &Error) -> bool {
    matches!(e.status(), Status::Busy | Status::Timeout)
}

fn describe(desc: &FrameImport, input: &str, device: &Device) -> String {
    let info = device.info();
    let n = (desc.n_planes as usize).min(3);
    let modifiers: Vec<String> = desc.planes[..n]
        .iter()
        .enumerate()
        .map(|(i, p)| format!("plane {i} modifier 0x{:x}", p.modifier))
        .collect();
    format!(
        "input '{input}' on backend {} device {} '{}': {} {} {}-bit {}x{}, {}",
        info.backend,
        info.index,
        info.name,
        desc.memory.map_or("unknown memory", |m| m.name()),
        desc.format.map_or("unknown format", |f| f.name()),
        desc.bpc,
        desc.width,
        desc.height,
        modifiers.join(", ")
    )
}

/// Runs the rule for a context whose import wait is `wait`.
///
/// # Safety
/// As `Device::import` for `desc`.
pub unsafe fn import_rule(
    admit: &dyn Fn(&Frame) -> vmafx::Result<()>,
    device: &Device,
    desc: &FrameImport,
    input: &str,
    wait: Duration,
) -> vmafx::Result<Frame> {
    // SAFETY: forwarded contract.
    let attempt = || unsafe { device.import(desc) }.and_then(|f| admit(&f).map(|_| f));
    let mut attempts = 1;
    let result = match attempt() {
        Err(e) if transient(&e) => {
            if let Acquire::Host(Some(f)) = &desc.acquire {
                let _ = f.wait_with_clock(wait, "desc.acquire", &TestClock);
            }
            hooks::note_retry_wait(wait.as_nanos().min(u64::MAX as u128) as u64);
            attempts = 2;
            attempt()
        }
        other => other,
    };
    result.map_err(|e| {
        Error::new(
            e.status(),
            e.subject(),
            format!(
                "{}: {} (after {attempts} attempt{}; never a host copy)",
                describe(desc, input, device),
                e.message(),
                if attempts == 1 { "" } else { "s" }
            ),
        )
    })
}

/// Imports a frame for `context` under the import rule.
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
            let dev = inner.device();
            if let Some(given) = device.as_ref() {
                if !given.device.same_as(&dev) && inner.device.is_some() {
                    return Err(fail(Status::Invalid, "device", "not the context's device"));
                }
            }
            let wait = inner.ctx.config().import_retry_wait();
            let admit = |f: &Frame| inner.ctx.admit(f);
            let frame =
                import_rule(&admit, &dev, &engine_desc, input, wait).map_err(Failure::from)?;
            out.write(into_handle(frame));
            CResult::Ok(Status::Ok)
        })
    }
}
