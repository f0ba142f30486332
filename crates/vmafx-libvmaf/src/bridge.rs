//! VMAFx's bridge between libvmaf pictures and libvmafx frames (ABI 0.1.11,
//! `vmafx/libvmaf_bridge.h`): one picture held in both worlds without a copy. Each call
//! takes a new reference; the object passed in stays the caller's.

use std::ffi::c_int;
use std::sync::Arc;

use capi::error::{call, fail, null, VmafxError};
use capi::frame::{into_handle, VmafxFrame};
use vmafx::{MemoryKind, PixelFormat, Status};

use crate::ffi::VmafPicture;
use crate::picture::{hand_out, view_frame, PictureBuffer};

/// A new frame handle viewing `picture`'s planes (a picture from `vmaf_picture_alloc`,
/// `vmaf_fetch_preallocated_picture` or [`vmafx_frame_to_picture`]); the picture keeps its
/// own reference.
///
/// # Safety
/// `picture` NULL or readable; `out` NULL or writable; `error` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmafx_frame_from_picture(
    picture: *mut VmafPicture,
    out: *mut *mut VmafxFrame,
    error: *mut *mut VmafxError,
) -> c_int {
    // SAFETY: `error` is NULL or writable (contract above).
    unsafe {
        call("vmafx_frame_from_picture", error, || {
            // SAFETY: NULL or valid, by the contract above.
            let out = out.as_mut().ok_or_else(|| null("out"))?;
            *out = std::ptr::null_mut();
            // SAFETY: NULL or readable, by the contract above.
            let pic = picture.as_ref().ok_or_else(|| null("picture"))?;
            let frame = view_frame(pic).map_err(|_| {
                fail(
                    Status::Invalid,
                    "picture",
                    "not a live picture of this library (vmaf_picture_alloc, a preallocated \
                     picture or vmafx_frame_to_picture), or its planes lie outside its buffer",
                )
            })?;
            *out = into_handle(frame);
            Ok(Status::Ok)
        })
    }
}

/// Fills `picture` with a view of `frame`'s planes holding a new reference to the frame;
/// release it with `vmaf_picture_unref` or hand it to `vmaf_read_pictures`. The planes are
/// shared: do not write them. Host frames of planar formats only.
///
/// # Safety
/// `frame` NULL or a live frame handle; `picture` NULL or writable; `error` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmafx_frame_to_picture(
    frame: *mut VmafxFrame,
    picture: *mut VmafPicture,
    error: *mut *mut VmafxError,
) -> c_int {
    // SAFETY: `error` is NULL or writable (contract above).
    unsafe {
        call("vmafx_frame_to_picture", error, || {
            // SAFETY: NULL or live, by the contract above.
            let f = frame.as_ref().ok_or_else(|| null("frame"))?.frame().clone();
            // SAFETY: NULL or writable, by the contract above.
            let pic = picture.as_mut().ok_or_else(|| null("picture"))?;
            if f.memory() != MemoryKind::Host {
                return Err(fail(
                    Status::NotSup,
                    "frame",
                    "a device frame has no libvmaf picture; download it first",
                ));
            }
            let pix_fmt = match f.format() {
                PixelFormat::Yuv420p => 1,
                PixelFormat::Yuv422p => 2,
                PixelFormat::Yuv444p => 3,
                PixelFormat::Yuv400p => 4,
                other => {
                    return Err(fail(
                        Status::NotSup,
                        "frame",
                        format!("{other} has no libvmaf pixel format"),
                    ))
                }
            };
            let bytes = if f.bpc() > 8 { 2 } else { 1 };
            // SAFETY: VmafPicture is plain data; all-zero is its cleared state.
            let mut p: VmafPicture = std::mem::zeroed();
            p.pix_fmt = pix_fmt;
            p.bpc = f.bpc();
            for (i, plane) in f.planes().iter().enumerate().take(3) {
                p.w[i] = plane.width;
                p.h[i] = plane.height;
                p.stride[i] = (plane.stride * bytes) as isize;
                p.data[i] = match plane.samples() {
                    vmafx::frame::Samples::U8(s) => s.as_ptr() as *mut _,
                    vmafx::frame::Samples::U16(s) => s.as_ptr() as *mut _,
                };
            }
            p.r#ref = hand_out(Arc::new(PictureBuffer::of_frame(f)));
            *pic = p;
            Ok(Status::Ok)
        })
    }
}
