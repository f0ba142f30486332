//! What a producer asks of a context and of its frames (ABI 0.1.11's frame path): the
//! retention and in-flight bounds it sizes its pool by, frames the context preallocates,
//! scores computed outside the library, fences a frame signals on release, and the names
//! of backends.

use crate::c_export;
use std::ffi::c_char;

use vmafx::fence::FenceKind;
use vmafx::frame::pool::{FramePool, MAX_POOL_FRAMES};
use vmafx::Status;

use crate::abi::{extra_fence_name, SubjectKind, VmafxFence, VmafxFrameDesc};
use crate::context_handle::{get, VmafxContext};
use crate::error::{fail, null, WithKind};
use crate::ffi::c_str;
use crate::frame::{frame_geometry, into_handle, VmafxFrame};
use crate::{fence, host_buffer, sized};

c_export! {
    /// Earlier reference frames the context keeps after a submit returns; 0 for NULL.
    ///
    /// # Safety
    /// `context` NULL or live.
    #[c = "How many earlier reference frames the context keeps after vmafx_submit() returns: as many as its registered extractors read (0 when none reads an earlier frame, as psnr; 1 for a reader of frame n-1, as motion; 2 for a reader of frame n-2, as motion with motion_five_frame_window). 0 for NULL. ABI 0.1.11."]
    pub unsafe fn vmafx_context_frame_retention(context: *const VmafxContext) -> u32 {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { context.as_ref() }.map_or(0, |c| c.lock().ctx.frame_retention())
    }
}

c_export! {
    /// The most frames of each input the context holds when a submit returns; 0 for NULL.
    ///
    /// # Safety
    /// `context` NULL or live.
    #[c = "The most frames of each input the context holds when a submit of frames in index order returns: R + J * (R + 1), R the retention and J the jobs its worker threads may hold (each worker's, plus the temporal lane's with a temporal feature; 0 without threads). A frame submitted ahead of the next index waits in the reorder window and adds one frame of each input until then. Size a producer's pool by it. 0 for NULL. ABI 0.1.11."]
    pub unsafe fn vmafx_context_max_in_flight(context: *const VmafxContext) -> u32 {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { context.as_ref() }.map_or(0, |c| c.lock().ctx.max_in_flight())
    }
}

c_export! {
    /// Allocates `count` host frames of geometry `desc` for the producer, once per context.
    ///
    /// # Safety
    /// `context` NULL or live; `desc` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "Allocates `count` (1 to 1024) host frames of geometry `desc` for the producer to fill (vmafx_frame_planes()) and submit, once per context (again: VMAFX_E_BUSY naming the context). ABI 0.1.11."]
    pub unsafe fn vmafx_context_preallocate(
        context: *mut VmafxContext,
        desc: *const VmafxFrameDesc,
        count: u32;
        error
    ) -> VmafxStatus {
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
    }
}

c_export! {
    /// A free preallocated frame with one reference the caller holds.
    ///
    /// # Safety
    /// `context` NULL or live; `out`, `error` NULL or writable.
    #[c = "A free preallocated frame with one reference the caller holds; it returns where its last reference goes, counted like a pool frame. VMAFX_E_BUSY while every frame is in use, VMAFX_E_INVALID naming the context before vmafx_context_preallocate(). ABI 0.1.11."]
    pub unsafe fn vmafx_context_acquire_frame(
        context: *mut VmafxContext,
        out: *mut *mut VmafxFrame;
        error
    ) -> VmafxStatus {
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
    }
}

c_export! {
    /// Records `value` as the score of `feature` at frame `index`, computed outside.
    ///
    /// # Safety
    /// `context` NULL or live; `feature` NULL or NUL-terminated; `error` NULL or writable.
    #[c = "Records `value` as the score of `feature` at frame `index`, computed outside the library; read like extracted scores after the flush. Another value for a score the context holds is VMAFX_E_INVALID. ABI 0.1.11."]
    pub unsafe fn vmafx_context_import_score(
        context: *mut VmafxContext,
        feature: *const c_char,
        index: u64,
        value: f64;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: `feature` is NULL or NUL-terminated (this function's contract).
        let name = unsafe { c_str(feature, "feature") }?;
        c.lock()
            .ctx
            .import_score(name, index, value)
            .kind(SubjectKind::Feature)?;
        Ok(Status::Ok)
    }
}

c_export! {
    /// Signals the producer's `fence` where the frame's last reference goes, behind its last
    /// reader and before its release callback: HOST fences on the CPU device, up to three.
    ///
    /// # Safety
    /// `frame` NULL or live; `fence` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "Signals the producer's `fence` (borrowed; the library takes a reference) where the frame's last reference goes, behind its last reader in every context and before its release callback. HOST fences on the CPU device, at most 3 per frame (another: VMAFX_E_RANGE naming `fence`); another kind is VMAFX_E_NOTSUP naming `fence.kind`. ABI 0.1.11."]
    pub unsafe fn vmafx_frame_signal_on_release(
        frame: *mut VmafxFrame,
        fence: *const VmafxFence;
        error
    ) -> VmafxStatus {
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
    }
}

c_export! {
    /// Lower-case name of a `VmafxBackend` (`cpu`, `cuda`, ...), `unknown` otherwise.
    #[c = "Lower-case name of a VmafxBackend (`cpu`, `cuda`, `sycl`, `metal`, `hip`), `unknown` for any other value; valid for the process lifetime. ABI 0.1.11."]
    pub fn vmafx_backend_name(backend: u32) -> *const c_char {
        let name = match backend {
            0 => c"cpu",
            1 => c"cuda",
            2 => c"sycl",
            3 => c"metal",
            4 => c"hip",
            _ => c"unknown",
        };
        name.as_ptr()
    }
}
