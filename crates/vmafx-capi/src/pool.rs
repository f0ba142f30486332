//! Frame pools of the C ABI (ADR-1929 item 11).
//!
//! A `VmafxFramePool*` is a boxed engine [`FramePool`] over planes a caller may write.
//! Destroying it drops the caller's handle only: frames still out keep the pool's state
//! alive through their release hooks.

use crate::c_export;
use vmafx::frame::pool::FramePool;
use vmafx::Status;

use crate::abi::VmafxFrameDesc;
use crate::device::VmafxDevice;
use crate::error::{fail, null};
use crate::frame::{frame_geometry, into_handle, VmafxFrame};
use crate::{host_buffer, sized};

/// A pool handle.
#[derive(Debug)]
pub struct VmafxFramePool {
    pool: FramePool,
}

c_export! {
    /// Allocates `count` frames of geometry `desc` once.
    ///
    /// # Safety
    /// `device` NULL or live; `desc` NULL or valid for its `struct_size`; `out`, `error` NULL
    /// or writable.
    #[c = "Allocates `count` (1 to 1024) frames of a planar geometry once."]
    pub unsafe fn vmafx_frame_pool_create(
        device: *mut VmafxDevice,
        desc: *const VmafxFrameDesc,
        count: u32,
        out: *mut *mut VmafxFramePool;
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
        let max = vmafx::frame::pool::MAX_POOL_FRAMES;
        if count == 0 || count > max {
            return Err(fail(
                Status::Range,
                "count",
                format!("{count} is outside 1..={max}"),
            ));
        }
        let sets = (0..count)
            .map(|_| host_buffer::writable_planes(format, bpc, w, h))
            .collect::<vmafx::Result<Vec<_>>>()?;
        let pool = FramePool::with_planes(format, bpc, w, h, sets)?;
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(Box::into_raw(Box::new(VmafxFramePool { pool }))) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// A free frame of the pool; `VMAFX_E_BUSY` naming `pool` when every frame is in use.
    ///
    /// # Safety
    /// `pool` NULL or live; `out`, `error` NULL or writable.
    #[c = "A free frame with one reference; its planes keep their last content. VMAFX_E_BUSY naming `pool` when all are in use."]
    pub unsafe fn vmafx_frame_pool_acquire(
        pool: *mut VmafxFramePool,
        out: *mut *mut VmafxFrame;
        error
    ) -> VmafxStatus {
        // SAFETY: `pool` is NULL or live (this function's contract).
        let p = unsafe { pool.as_ref() }.ok_or_else(|| null("pool"))?;
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        let frame = p.pool.acquire()?;
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(into_handle(frame)) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// Drops the caller's pool handle; frames in use stay valid. NULL is a no-op.
    ///
    /// # Safety
    /// `pool` is NULL or a live pool of this library, destroyed once.
    #[c = "Drops the caller's pool; frames in use stay valid and the pool goes with the last of them. NULL is a no-op."]
    pub unsafe fn vmafx_frame_pool_destroy(pool: *mut VmafxFramePool) {
        if !pool.is_null() {
            // SAFETY: a live pool from `Box::into_raw`, destroyed once (the contract).
            drop(unsafe { Box::from_raw(pool) });
        }
    }
}

crate::c_named!(VmafxFramePool);
