//! Planes in memory a C caller writes: host frames and pool frames.
//!
//! The planes of `vmafx_frame_create_host()` and of pools are written by the caller
//! through the pointers `vmafx_frame_planes()` gives, so they live in raw allocations of
//! their own (never behind a Rust reference) and are lent to the engine as foreign planes;
//! the allocation is freed when the last plane holding it goes.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::sync::Arc;

use vmafx::frame::{plane_sizes, ForeignPlane, PixelFormat, Plane, PlaneStorage, STRIDE_ALIGN};
use vmafx::{Error, Result};

/// One zeroed allocation, freed on drop.
struct Allocation {
    ptr: *mut u8,
    layout: Layout,
}

// SAFETY: the allocation is plain memory owned by this value; the engine only reads it
// and the C caller writes it before submitting, as the ABI documents.
unsafe impl Send for Allocation {}
// SAFETY: as above.
unsafe impl Sync for Allocation {}

impl Drop for Allocation {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from `alloc_zeroed(layout)` and is freed once, here.
        unsafe { dealloc(self.ptr, self.layout) };
    }
}

/// Zeroed, writable planes of a frame of this geometry, each row `STRIDE_ALIGN`-aligned.
pub fn writable_planes(
    format: PixelFormat,
    bpc: u32,
    width: u32,
    height: u32,
) -> Result<Vec<Plane>> {
    let wide = bpc > 8;
    let bytes = if wide { 2 } else { 1 };
    plane_sizes(format, width, height)
        .into_iter()
        .map(|(w, h)| {
            let pitch = (w as usize * bytes).div_ceil(STRIDE_ALIGN).max(1) * STRIDE_ALIGN;
            let len = pitch * h.max(1) as usize;
            let layout = Layout::from_size_align(len, STRIDE_ALIGN)
                .map_err(|_| Error::new(vmafx::Status::NoMem, "desc", "frame too large"))?;
            // SAFETY: `layout` has a non-zero size.
            let ptr = unsafe { alloc_zeroed(layout) };
            if ptr.is_null() {
                return Err(Error::new(
                    vmafx::Status::NoMem,
                    "desc",
                    format!("{len} bytes"),
                ));
            }
            let guard: Arc<dyn Send + Sync> = Arc::new(Allocation { ptr, layout });
            // SAFETY: `ptr` is valid for `len` bytes, 64-byte aligned, and lives as long as
            // `guard`; the engine only reads it.
            let fp = unsafe { ForeignPlane::new(ptr, len, wide, guard) };
            Ok(Plane {
                width: w,
                height: h,
                stride: pitch / bytes,
                storage: PlaneStorage::Foreign(fp),
            })
        })
        .collect()
}
