//! Frames of the C ABI: host frames, wrapping, planes, references, release fences.
//!
//! A `VmafxFrame*` is one boxed anchor per engine frame. Each C reference is one count of
//! the engine frame (ADR-1906 item 4 as ADR-1929 item 4 extends it): the anchor holds the
//! first, `vmafx_frame_ref()` stores another clone and returns the same pointer, and
//! `vmafx_frame_unref()` drops one, the last one freeing the anchor. A context that keeps
//! the frame holds engine clones of its own, so the release fence is signalled where the
//! last of all of them goes.

use crate::c_export;
use std::ffi::c_void;
use std::sync::Mutex;

use vmafx::device::cpu::wrap_host;
use vmafx::fence::FenceKind;
use vmafx::frame::import::ReleaseCallback;
use vmafx::frame::{FrameBuilder, MemoryKind, PixelFormat, Samples};
use vmafx::{Frame, Status};

use crate::abi::{SubjectKind, VmafxFence, VmafxFrameDesc, VmafxFramePlanes, VmafxHostPlanes};
use crate::device::VmafxDevice;
use crate::error::{fail, null, CResult, WithKind};
use crate::{fence, host_buffer, sized};

/// A frame handle.
#[derive(Debug)]
pub struct VmafxFrame {
    frame: Frame,
    extra: Mutex<Vec<Frame>>,
    release_handle: Mutex<Option<usize>>,
}

impl VmafxFrame {
    /// The engine frame.
    pub fn frame(&self) -> &Frame {
        &self.frame
    }
}

/// A new handle holding one count of `frame`.
pub fn into_handle(frame: Frame) -> *mut VmafxFrame {
    Box::into_raw(Box::new(VmafxFrame {
        frame,
        extra: Mutex::new(Vec::new()),
        release_handle: Mutex::new(None),
    }))
}

/// A caller's callback and user pointer as an engine release callback.
pub fn release_callback(
    cb: Option<unsafe extern "C" fn(*mut c_void)>,
    user: *mut c_void,
) -> Option<ReleaseCallback> {
    struct User(*mut c_void);
    // SAFETY: the ABI lets the library call the release callback once on any thread; the
    // user pointer is only passed back to it.
    unsafe impl Send for User {}
    // SAFETY: as above; the pointer is never dereferenced here.
    unsafe impl Sync for User {}
    let cb = cb?;
    let user = User(user);
    Some(std::sync::Arc::new(move || {
        let u = &user;
        // SAFETY: the caller's callback, called once (the engine's guard runs this once)
        // with the user pointer it gave.
        unsafe { cb(u.0) }
    }))
}

/// The geometry a `VmafxFrameDesc` gives, checked and named by its fields.
pub fn frame_geometry(d: &VmafxFrameDesc) -> CResult<(PixelFormat, u32, u32, u32)> {
    let format = PixelFormat::from_u32(d.pix_fmt)
        .filter(|f| f.is_planar())
        .ok_or_else(|| {
            fail(
                Status::Invalid,
                "desc.pix_fmt",
                format!("{} is not a planar pixel format", d.pix_fmt),
            )
        })?;
    if !(8..=16).contains(&d.bpc) {
        return Err(fail(
            Status::Range,
            "desc.bpc",
            format!("{} is outside 8..=16", d.bpc),
        ));
    }
    let max = vmafx::frame::MAX_DIMENSION;
    for (name, v) in [("desc.w", d.w), ("desc.h", d.h)] {
        if v == 0 || v > max {
            return Err(fail(
                Status::Range,
                name,
                format!("{v} is outside 1..={max}"),
            ));
        }
    }
    Ok((format, d.bpc, d.w, d.h))
}

c_export! {
    /// Allocates a zeroed host frame.
    ///
    /// # Safety
    /// `device` NULL or live; `desc` NULL or valid for its `struct_size`; `out`, `error` NULL
    /// or writable.
    #[c = "A zeroed host frame (`device` NULL: the CPU); fill it through vmafx_frame_planes() before the first submit. The caller holds one reference."]
    pub unsafe fn vmafx_frame_create_host(
        device: *mut VmafxDevice,
        desc: *const VmafxFrameDesc,
        out: *mut *mut VmafxFrame;
        error
    ) -> VmafxStatus {
        let _ = device;
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        // SAFETY: `desc` is NULL or readable for its struct_size (this function's contract).
        let (d, _) = unsafe { sized::read(desc, "desc") }?;
        let (format, bpc, w, h) = frame_geometry(&d)?;
        let planes = host_buffer::writable_planes(format, bpc, w, h)?;
        let frame = FrameBuilder::from_planes(format, bpc, w, h, MemoryKind::Host, planes)?;
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(into_handle(frame.build())) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// A host frame over the caller's planes, without a copy.
    ///
    /// # Safety
    /// As the header: the planes stay valid and unchanged until `planes.release` runs.
    #[c = "A host frame over the caller's planes without a copy; they stay valid and unchanged until `planes.release` runs, once. On failure it is not called."]
    pub unsafe fn vmafx_frame_wrap_host(
        device: *mut VmafxDevice,
        desc: *const VmafxFrameDesc,
        planes: *const VmafxHostPlanes,
        out: *mut *mut VmafxFrame;
        error
    ) -> VmafxStatus {
        let _ = device;
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        // SAFETY: `desc` is NULL or readable for its struct_size (this function's contract).
        let (d, _) = unsafe { sized::read(desc, "desc") }?;
        // SAFETY: `planes` is NULL or readable for its struct_size (this function's contract).
        let (p, _) = unsafe { sized::read(planes, "planes") }?;
        let (format, bpc, w, h) = frame_geometry(&d)?;
        let given: Vec<(usize, u64)> = (0..3).map(|i| (p.data[i] as usize, p.stride[i])).collect();
        let release = release_callback(p.release, p.user);
        // SAFETY: the planes are readable for their extents and stay unchanged until `release`
        // runs (this function's contract, which is `wrap_host`'s).
        let frame = unsafe { wrap_host(format, bpc, w, h, &given, release) }?;
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(into_handle(frame)) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// Describes where the samples of a frame are.
    ///
    /// # Safety
    /// `frame` NULL or live; `out` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "Describes the planes of a frame."]
    pub unsafe fn vmafx_frame_planes(
        frame: *const VmafxFrame,
        out: *mut VmafxFramePlanes;
        error
    ) -> VmafxStatus {
        // SAFETY: `frame` is NULL or live (this function's contract).
        let f = &unsafe { frame.as_ref() }
            .ok_or_else(|| null("frame"))?
            .frame;
        // SAFETY: `out` is NULL or readable and writable for its struct_size (this function's contract).
        let size = unsafe { sized::out_size(out, "out") }?;
        let mut v = VmafxFramePlanes {
            struct_size: 0,
            pix_fmt: f.format() as u32,
            bpc: f.bpc(),
            n_planes: f.planes().len() as u32,
            w: [0; 3],
            h: [0; 3],
            stride: [0; 3],
            data: [std::ptr::null_mut(); 3],
        };
        let bytes = if f.bpc() > 8 { 2 } else { 1 };
        for (i, p) in f.planes().iter().enumerate() {
            v.w[i] = p.width;
            v.h[i] = p.height;
            v.stride[i] = (p.stride * bytes) as u64;
            v.data[i] = match p.samples() {
                Samples::U8(s) => s.as_ptr() as *mut c_void,
                Samples::U16(s) => s.as_ptr() as *mut c_void,
            };
        }
        // SAFETY: `out` passed `out_size`: writable for that many bytes (this function's contract).
        unsafe { sized::write(out, size, &v) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// One more reference; returns `frame` (NULL for NULL).
    ///
    /// # Safety
    /// `frame` is NULL or a live frame of this library.
    #[c = "One more reference (one more count of the frame); returns `frame` (NULL for NULL)."]
    pub unsafe fn vmafx_frame_ref(frame: *mut VmafxFrame) -> *mut VmafxFrame {
        // SAFETY: NULL or live (the caller's contract).
        if let Some(f) = unsafe { frame.as_ref() } {
            let count = f.frame.clone();
            f.extra
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(count);
        }
        frame
    }
}

c_export! {
    /// Drops one reference; the last frees the handle. NULL is a no-op.
    ///
    /// # Safety
    /// `frame` is NULL or a live frame of this library whose reference the caller gives up.
    #[c = "Drops one reference; the last one anywhere signals the release fence and returns a pool frame. NULL is a no-op."]
    pub unsafe fn vmafx_frame_unref(frame: *mut VmafxFrame) {
        // SAFETY: NULL or live (the caller's contract).
        let Some(f) = (unsafe { frame.as_ref() }) else {
            return;
        };
        let spare = f.extra.lock().unwrap_or_else(|p| p.into_inner()).pop();
        if spare.is_none() {
            // SAFETY: the caller gives up the last reference: no other holder of this
            // pointer remains, and it came from `Box::into_raw`.
            drop(unsafe { Box::from_raw(frame) });
        }
    }
}

c_export! {
    /// A HOST fence signalled where the frame's last count is dropped.
    ///
    /// # Safety
    /// `frame` NULL or live; `out` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "A HOST fence signalled where the frame's last reference goes, in any context or caller; every call returns a reference the caller destroys (one fence per frame)."]
    pub unsafe fn vmafx_frame_release_fence(
        frame: *mut VmafxFrame,
        kind: u32,
        out: *mut VmafxFence;
        error
    ) -> VmafxStatus {
        // SAFETY: `frame` is NULL or live (this function's contract).
        let f = unsafe { frame.as_ref() }.ok_or_else(|| null("frame"))?;
        // SAFETY: `out` is NULL or readable and writable for its struct_size (this function's contract).
        let size = unsafe { sized::out_size(out, "out") }?;
        match FenceKind::from_u32(kind) {
            Some(FenceKind::Host) => {}
            Some(FenceKind::None) => {
                return Err(fail(
                    Status::Invalid,
                    "kind",
                    "a NONE fence signals nothing",
                ))
                .kind(SubjectKind::Fence)
            }
            Some(k) => {
                return Err(fail(
                    Status::NotSup,
                    "kind",
                    format!("the cpu device cannot signal {} release fences", k.name()),
                ))
                .kind(SubjectKind::Fence)
            }
            None if crate::abi::extra_fence_name(kind).is_some() => {
                return Err(fail(
                    Status::NotSup,
                    "kind",
                    format!(
                        "{} is not supported",
                        crate::abi::extra_fence_name(kind).unwrap_or_default()
                    ),
                ))
                .kind(SubjectKind::Fence)
            }
            None => {
                return Err(fail(
                    Status::Invalid,
                    "kind",
                    format!("{kind} is not a fence kind"),
                ))
                .kind(SubjectKind::Fence)
            }
        }
        let mut slot = f.release_handle.lock().unwrap_or_else(|p| p.into_inner());
        let handle = fence::share(*slot, &f.frame.release_fence());
        *slot = Some(handle);
        // SAFETY: `out` passed `out_size` above: writable for `size` bytes.
        unsafe { fence::write_host(out, size, handle) };
        Ok(Status::Ok)
    }
}

crate::c_named!(VmafxFrame);
