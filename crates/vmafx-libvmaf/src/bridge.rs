//! VMAFx's bridge between libvmaf's objects and libvmafx's (ABI 0.1.11,
//! `vmafx/libvmaf_bridge.h`): one picture held in both worlds without a copy (each call
//! takes a new reference; the object passed in stays the caller's), and a libvmaf model or
//! collection seen as a libvmafx model or set and back.

use std::collections::HashMap;
use std::ffi::c_int;
use std::sync::Arc;

use capi::error::{call, fail, null, ErrorOut, VmafxError};
use capi::frame::{into_handle, VmafxFrame};
use capi::model::VmafxModel;
use capi::model_set::VmafxModelSet;
use vmafx::{MemoryKind, PixelFormat, Status};

use crate::binding::bound;
use crate::ffi::VmafPicture;
use crate::model::{VmafModel, VmafModelCollection};
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
    let error = unsafe { ErrorOut::new(error) };
    call("vmafx_frame_from_picture", error, || {
        // SAFETY: NULL or valid, by the contract above.
        let out = unsafe { out.as_mut() }.ok_or_else(|| null("out"))?;
        *out = std::ptr::null_mut();
        // SAFETY: NULL or readable, by the contract above.
        let pic = unsafe { picture.as_ref() }.ok_or_else(|| null("picture"))?;
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
    let error = unsafe { ErrorOut::new(error) };
    call("vmafx_frame_to_picture", error, || {
        // SAFETY: NULL or live, by the contract above.
        let f = unsafe { frame.as_ref() }
            .ok_or_else(|| null("frame"))?
            .frame()
            .clone();
        // SAFETY: NULL or writable, by the contract above.
        let pic = unsafe { picture.as_mut() }.ok_or_else(|| null("picture"))?;
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
        let mut p: VmafPicture = unsafe { std::mem::zeroed() };
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

/// The libvmafx model of a libvmaf model handle (NULL for NULL): made on the first call from
/// the model as it is then, owned by the handle (valid until `vmaf_model_destroy`; take a
/// reference with `vmafx_model_ref` to keep it longer). Feature overloads on the handle are
/// refused from then on (`-EBUSY`), so the two stay one model.
///
/// # Safety
/// `model` NULL or a live libvmaf model handle.
#[no_mangle]
pub unsafe extern "C" fn vmafx_model_from_libvmaf(model: *mut VmafModel) -> *mut VmafxModel {
    capi::error::guarded("vmafx_model_from_libvmaf", std::ptr::null_mut(), || {
        // SAFETY: NULL or live, by the contract above.
        let Some(m) = (unsafe { model.as_mut() }) else {
            return std::ptr::null_mut();
        };
        if m.bound.is_null() {
            let x = VmafxModel::new(m.loaded.clone(), &m.sha256);
            m.bound = Arc::into_raw(Arc::new(x)) as *mut VmafxModel;
            bound()
                .get_or_insert_with(HashMap::new)
                .insert(m.bound as usize, model as usize);
        }
        m.bound
    })
}

/// The libvmaf handle a libvmafx model came from (through [`vmafx_model_from_libvmaf`]),
/// while that handle lives; NULL for NULL and for a model loaded through libvmafx.
///
/// # Safety
/// `model` NULL or a live model handle (only its address is used).
#[no_mangle]
pub unsafe extern "C" fn vmafx_model_libvmaf_handle(model: *mut VmafxModel) -> *mut VmafModel {
    capi::error::guarded("vmafx_model_libvmaf_handle", std::ptr::null_mut(), || {
        bound()
            .as_ref()
            .and_then(|m| m.get(&(model as usize)))
            .map_or(std::ptr::null_mut(), |&h| h as *mut VmafModel)
    })
}

/// The libvmafx set of a libvmaf collection handle, as [`vmafx_model_from_libvmaf`].
///
/// # Safety
/// `collection` NULL or a live libvmaf collection handle.
#[no_mangle]
pub unsafe extern "C" fn vmafx_model_set_from_libvmaf(
    collection: *mut VmafModelCollection,
) -> *mut VmafxModelSet {
    capi::error::guarded("vmafx_model_set_from_libvmaf", std::ptr::null_mut(), || {
        // SAFETY: NULL or live, by the contract above.
        let Some(c) = (unsafe { collection.as_mut() }) else {
            return std::ptr::null_mut();
        };
        if c.bound.is_null() {
            let Some(x) = VmafxModelSet::from_collection(c.loaded.clone(), &c.sha256) else {
                return std::ptr::null_mut();
            };
            c.bound = Arc::into_raw(Arc::new(x)) as *mut VmafxModelSet;
            bound()
                .get_or_insert_with(HashMap::new)
                .insert(c.bound as usize, collection as usize);
        }
        c.bound
    })
}

/// The libvmaf handle a libvmafx set came from, as [`vmafx_model_libvmaf_handle`].
///
/// # Safety
/// `set` NULL or a live set handle (only its address is used).
#[no_mangle]
pub unsafe extern "C" fn vmafx_model_set_libvmaf_handle(
    set: *mut VmafxModelSet,
) -> *mut VmafModelCollection {
    capi::error::guarded(
        "vmafx_model_set_libvmaf_handle",
        std::ptr::null_mut(),
        || {
            bound()
                .as_ref()
                .and_then(|m| m.get(&(set as usize)))
                .map_or(std::ptr::null_mut(), |&h| h as *mut VmafModelCollection)
        },
    )
}
