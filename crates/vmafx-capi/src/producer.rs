//! What a producer asks of a context and of its frames (ABI 0.1.11's frame path): the
//! retention and in-flight bounds it sizes its pool by, frames the context preallocates,
//! scores computed outside the library, fences a frame signals on release, and the names
//! of backends.

use std::ffi::c_char;

use vmafx::fence::FenceKind;
use vmafx::frame::pool::{FramePool, MAX_POOL_FRAMES};
use vmafx::Status;

use crate::abi::{extra_fence_name, SubjectKind, VmafxFence, VmafxFrameDesc};
use crate::context::{get, VmafxContext};
use crate::error::{call, fail, guarded, null, ErrorOut, VmafxError, WithKind};
use crate::ffi::c_str;
use crate::frame::{frame_geometry, into_handle, VmafxFrame};
use crate::{fence, host_buffer, sized};

/// Earlier reference frames the context keeps after a submit returns; 0 for NULL.
///
/// # Safety
/// `context` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn vmafx_context_frame_retention(context: *const VmafxContext) -> u32 {
    guarded("vmafx_context_frame_retention", 0, || {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { context.as_ref() }.map_or(0, |c| c.lock().ctx.frame_retention())
    })
}

/// The most frames of each input the context holds when a submit returns; 0 for NULL.
///
/// # Safety
/// `context` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn vmafx_context_max_in_flight(context: *const VmafxContext) -> u32 {
    guarded("vmafx_context_max_in_flight", 0, || {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { context.as_ref() }.map_or(0, |c| c.lock().ctx.max_in_flight())
    })
}

/// Allocates `count` host frames of geometry `desc` for the producer, once per context.
///
/// # Safety
/// `context` NULL or live; `desc` NULL or valid for its `struct_size`; `error` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn vmafx_context_preallocate(
    context: *mut VmafxContext,
    desc: *const VmafxFrameDesc,
    count: u32,
    error: *mut *mut VmafxError,
) -> i32 {
    // SAFETY: `error` is NULL or writable (this function's contract).
    let error = unsafe { ErrorOut::new(error) };
    call("vmafx_context_preallocate", error, || {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: `desc` is NULL or readable for its struct_size (this function's contract).
        let (d, _) = unsafe { sized::read(desc, "desc") }?;
        let (format, bpc, w, h) = frame_geometry(&d)?;
        if count == 0 || count > MAX_POOL_FRAMES {
            return Err(fail(
                Status::Range,
                "count",
                format!("{count} is outside 1..={MAX_POOL_FRAMES}"),
            ));
        }
        let sets = (0..count)
            .map(|_| host_buffer::writable_planes(format, bpc, w, h))
            .collect::<vmafx::Result<Vec<_>>>()?;
        let pool = FramePool::with_planes(format, bpc, w, h, sets)?;
        c.lock().ctx.preallocate(pool).kind(SubjectKind::Context)?;
        Ok(Status::Ok)
    })
}

/// A free preallocated frame with one reference the caller holds.
///
/// # Safety
/// `context` NULL or live; `out`, `error` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmafx_context_acquire_frame(
    context: *mut VmafxContext,
    out: *mut *mut VmafxFrame,
    error: *mut *mut VmafxError,
) -> i32 {
    // SAFETY: `error` is NULL or writable (this function's contract).
    let error = unsafe { ErrorOut::new(error) };
    call("vmafx_context_acquire_frame", error, || {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        let frame = c.lock().ctx.acquire_frame().kind(SubjectKind::Context)?;
        // SAFETY: as above.
        unsafe { out.write(into_handle(frame)) };
        Ok(Status::Ok)
    })
}

/// Records `value` as the score of `feature` at frame `index`, computed outside.
///
/// # Safety
/// `context` NULL or live; `feature` NULL or NUL-terminated; `error` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmafx_context_import_score(
    context: *mut VmafxContext,
    feature: *const c_char,
    index: u64,
    value: f64,
    error: *mut *mut VmafxError,
) -> i32 {
    // SAFETY: `error` is NULL or writable (this function's contract).
    let error = unsafe { ErrorOut::new(error) };
    call("vmafx_context_import_score", error, || {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: `feature` is NULL or NUL-terminated (this function's contract).
        let name = unsafe { c_str(feature, "feature") }?;
        c.lock()
            .ctx
            .import_score(name, index, value)
            .kind(SubjectKind::Feature)?;
        Ok(Status::Ok)
    })
}

/// Signals the producer's `fence` where the frame's last reference goes, behind its last
/// reader and before its release callback: HOST fences on the CPU device, up to three.
///
/// # Safety
/// `frame` NULL or live; `fence` NULL or valid for its `struct_size`; `error` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn vmafx_frame_signal_on_release(
    frame: *mut VmafxFrame,
    fence: *const VmafxFence,
    error: *mut *mut VmafxError,
) -> i32 {
    // SAFETY: `error` is NULL or writable (this function's contract).
    let error = unsafe { ErrorOut::new(error) };
    call("vmafx_frame_signal_on_release", error, || {
        // SAFETY: `frame` is NULL or live (this function's contract).
        let f = unsafe { frame.as_ref() }
            .ok_or_else(|| null("frame"))
            .kind(SubjectKind::Frame)?;
        // SAFETY: `fence` is NULL or readable for its struct_size (this function's contract).
        let (d, _) = unsafe { sized::read(fence, "fence") }?;
        let refuse =
            |status, why: String| Err(fail(status, "fence.kind", why)).kind(SubjectKind::Fence);
        match FenceKind::from_u32(d.kind) {
            Some(FenceKind::Host) => {}
            Some(FenceKind::None) => {
                return refuse(Status::Invalid, "a NONE fence cannot be signalled".into())
            }
            Some(k) => {
                return refuse(
                    Status::NotSup,
                    format!("the cpu device cannot signal {} fences", k.name()),
                )
            }
            None => match extra_fence_name(d.kind) {
                Some(n) => {
                    return refuse(
                        Status::NotSup,
                        format!("the cpu device cannot signal {n} fences"),
                    )
                }
                None => return refuse(Status::Invalid, format!("{} is not a fence kind", d.kind)),
            },
        }
        let host = fence::lookup(d.handle)
            .ok_or_else(|| {
                fail(
                    Status::Invalid,
                    "fence.handle",
                    "not a live host fence of this library",
                )
            })
            .kind(SubjectKind::Fence)?;
        f.frame().signal_on_release(host).kind(SubjectKind::Fence)?;
        Ok(Status::Ok)
    })
}

/// Lower-case name of a `VmafxBackend` (`cpu`, `cuda`, ...), `unknown` otherwise.
#[no_mangle]
pub extern "C" fn vmafx_backend_name(backend: u32) -> *const c_char {
    guarded("vmafx_backend_name", c"unknown".as_ptr(), || {
        let name = match backend {
            0 => c"cpu",
            1 => c"cuda",
            2 => c"sycl",
            3 => c"metal",
            4 => c"hip",
            _ => c"unknown",
        };
        name.as_ptr()
    })
}
