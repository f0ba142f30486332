//! The CPU device's import body: frames over host memory a producer already holds
//! (ADR-1929 items 1 and 5-7), described by a [`FrameImport`].
//!
//! On the CPU device HOST memory is bound without a copy: planar planes
//! become [`ForeignPlane`]s over the producer's bytes; NV12 / P016 luma is bound too, and
//! only what must be converted (interleaved chroma, P010's shifted samples) is written
//! into planes of the library's own through [`crate::frame::layout`]. Every other memory kind is
//! `NotSup` naming it. An acquire fence that is not signalled is `Busy`, never a wait.
//!
//! The producer's memory is handed back through one guard shared by every bound plane
//! and the frame's release hook: where the frame's last count drops the guard signals the
//! release fence and then runs the producer's release callback, once.

use std::sync::Arc;

use crate::device::DeviceInfo;
use crate::error::{Error, Result};
use crate::fence::Fence;
use crate::frame::import::{
    planar_target, FrameImport, ImportPlane, ReleaseCallback, IMPORT_ALLOW_COPY,
};
use crate::frame::layout;
use crate::frame::{
    plane_sizes, validate_geometry, ForeignPlane, Frame, FrameBuilder, MemoryKind, PixelFormat,
    Plane, PlaneStorage, SamplesMut,
};
use crate::hooks;

use super::validate::{
    check_acquire, check_plane, plane_subject, producer_rows, validate, PlaneSpan,
};

/// Signals the release fence, then runs the producer's callback, where the last holder of
/// the producer's memory goes. The callback is armed only once the frame is built, so a
/// refused import or wrap (the guard dropped on an error path) never runs it.
struct ReleaseGuard {
    fence: Fence,
    release: std::sync::Mutex<Option<ReleaseCallback>>,
}

impl ReleaseGuard {
    fn new(fence: Fence) -> Arc<Self> {
        Arc::new(ReleaseGuard {
            fence,
            release: std::sync::Mutex::new(None),
        })
    }

    /// Hands the producer's callback to the guard: the frame exists.
    fn arm(&self, release: Option<ReleaseCallback>) {
        *self.release.lock().unwrap_or_else(|p| p.into_inner()) = release;
    }
}

impl Drop for ReleaseGuard {
    fn drop(&mut self) {
        self.fence.signal();
        let cb = self
            .release
            .get_mut()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(cb) = cb {
            cb();
        }
    }
}

/// The bytes of a validated span.
///
/// # Safety
/// The span's memory must be readable for its extent while the borrow lives.
unsafe fn span_bytes<'a>(s: &PlaneSpan) -> &'a [u8] {
    // SAFETY: the caller guarantees `addr..addr + extent` is readable.
    unsafe { std::slice::from_raw_parts(s.addr as *const u8, s.extent) }
}

/// A plane of the library's own with `w x rows` samples filled row by row by `fill`.
fn owned_plane(w: u32, rows: u32, wide: bool, mut fill: impl FnMut(u32, SamplesMut<'_>)) -> Plane {
    let mut plane = Plane::zeroed(w, rows, wide);
    let stride = plane.stride;
    for y in 0..rows {
        let o = y as usize * stride;
        let row = match plane.samples_mut() {
            Some(SamplesMut::U8(s)) => SamplesMut::U8(&mut s[o..o + w as usize]),
            Some(SamplesMut::U16(s)) => SamplesMut::U16(&mut s[o..o + w as usize]),
            None => unreachable!("a zeroed plane is owned"),
        };
        fill(y, row);
    }
    plane
}

/// A copy of a planar producer plane (the caller counts the import's host copy once).
fn copied_plane(src: &[u8], s: &PlaneSpan, w: u32, wide: bool, shift: u32) -> Plane {
    owned_plane(w, s.rows, wide, |y, row| {
        let r = &src[y as usize * s.pitch..y as usize * s.pitch + s.row_bytes];
        match row {
            SamplesMut::U8(d) => layout::read_row_u8(r, d),
            SamplesMut::U16(d) => layout::read_row_u16(r, shift, d),
        }
    })
}

/// Binds a validated span in place.
///
/// # Safety
/// As [`import_host`]: the memory stays valid and unchanged while `guard` lives.
unsafe fn bound_plane(s: &PlaneSpan, w: u32, wide: bool, guard: &Arc<ReleaseGuard>) -> Plane {
    let bytes = if wide { 2 } else { 1 };
    let g: Arc<dyn Send + Sync> = guard.clone();
    // SAFETY: readable for `extent` and unchanged while the guard lives (the caller's
    // contract); `bindable` checked 2-byte alignment of address and pitch for wide samples.
    let fp = unsafe { ForeignPlane::new(s.addr as *const u8, s.extent, wide, g) };
    Plane {
        width: w,
        height: s.rows,
        stride: s.pitch / bytes,
        storage: PlaneStorage::Foreign(fp),
    }
}

/// Imports HOST memory on a device described by `device` (the CPU's import path).
///
/// Order: a planted test failure, then validation (memory kind, format, depth, planes,
/// size, flags, every plane's address, pitch, modifier and extent), then the acquire fence.
///
/// # Safety
/// As [`crate::device::Device::import`]: each plane's bytes must be readable for the
/// extent the descriptor gives and stay valid and unchanged until the release callback
/// runs (or the release fence is signalled). Nothing is read unless validation passes.
pub unsafe fn import_host(d: &FrameImport, device: &DeviceInfo) -> Result<Frame> {
    hooks::count_import_attempt();
    if let Some(status) = hooks::take_import_failure() {
        return Err(hooks::planted_import_error(status));
    }
    let (format, spans) = validate(d, device)?;
    check_acquire(&d.acquire, device)?;
    let (target, bpc) = planar_target(format, d.bpc);
    let wide = bpc > 8;
    let bytes = layout::sample_bytes(format, d.bpc);
    let allow_copy = d.flags & IMPORT_ALLOW_COPY != 0;
    let fence = Fence::new();
    let guard = ReleaseGuard::new(fence.clone());
    let sizes = plane_sizes(target, d.width, d.height);
    let shift = layout::sample_shift(format);
    let mut planes = Vec::with_capacity(3);
    // Bytes copied on the host: one counted copy per import, whatever its planes; likewise
    // one counted conversion per import that shifts or de-interleaves any plane.
    let mut copied = 0u64;
    let mut converted = false;
    // Planar planes, and the luma of a semi-planar layout.
    let direct = if format.is_planar() { spans.len() } else { 1 };
    for (p, s) in spans.iter().take(direct).enumerate() {
        let w = sizes[p].0;
        let must_convert = shift != 0;
        let bind = !must_convert && s.bindable(bytes) && !hooks::switch(hooks::FORCE_HOST_COPY);
        if !bind && !must_convert && !s.bindable(bytes) && !allow_copy {
            return Err(Error::not_supported(
                plane_subject(p, "handle"),
                "16-bit samples at an odd address or pitch cannot be bound; set VMAFX_IMPORT_ALLOW_COPY to copy",
            ));
        }
        // SAFETY: validated span; the caller's contract keeps it readable and unchanged.
        let src = unsafe { span_bytes(s) };
        planes.push(if bind {
            // SAFETY: as above, for as long as the guard lives.
            unsafe { bound_plane(s, w, wide, &guard) }
        } else if must_convert {
            converted = true;
            owned_plane(w, s.rows, wide, |y, row| {
                let r = &src[y as usize * s.pitch..y as usize * s.pitch + s.row_bytes];
                if let SamplesMut::U16(dst) = row {
                    layout::read_row_u16(r, shift, dst);
                }
            })
        } else {
            copied += (s.row_bytes * s.rows as usize) as u64;
            copied_plane(src, s, w, wide, 0)
        });
    }
    if copied > 0 {
        hooks::count_host_copy(copied);
    }
    if !format.is_planar() {
        let s = &spans[1];
        // SAFETY: validated span; the caller's contract keeps it readable and unchanged.
        let src = unsafe { span_bytes(s) };
        let (cw, ch) = sizes[1];
        let mut cb = Plane::zeroed(cw, ch, wide);
        let mut cr = Plane::zeroed(cw, ch, wide);
        split_chroma(src, s, shift, &mut cb, &mut cr);
        converted = true;
        planes.push(cb);
        planes.push(cr);
    }
    if converted {
        hooks::count_conversion();
    }
    let hook_guard = guard.clone();
    let frame = FrameBuilder::from_planes(target, bpc, d.width, d.height, residency(), planes)?
        .with_release_fence(fence)
        .on_release(Box::new(move |planes| {
            drop(planes);
            drop(hook_guard);
        }))
        .build();
    guard.arm(d.release.clone());
    Ok(frame)
}

/// Where an imported frame says it lives: host memory, unless the residency test hook
/// makes it claim a device backend's memory (so admission of device frames is testable on
/// the CPU).
fn residency() -> MemoryKind {
    match hooks::import_residency() {
        hooks::RESIDENCY_OFF | 0 => MemoryKind::Host,
        _ => MemoryKind::DevicePointer,
    }
}

fn split_chroma(src: &[u8], s: &PlaneSpan, shift: u32, cb: &mut Plane, cr: &mut Plane) {
    let (w, stride) = (cb.width as usize, cb.stride);
    for y in 0..s.rows as usize {
        let r = &src[y * s.pitch..y * s.pitch + s.row_bytes];
        let o = y * stride;
        match (cb.samples_mut(), cr.samples_mut()) {
            (Some(SamplesMut::U8(b)), Some(SamplesMut::U8(c))) => {
                layout::split_chroma_u8(r, &mut b[o..o + w], &mut c[o..o + w])
            }
            (Some(SamplesMut::U16(b)), Some(SamplesMut::U16(c))) => {
                layout::split_chroma_u16(r, shift, &mut b[o..o + w], &mut c[o..o + w])
            }
            _ => unreachable!("both chroma planes are owned and of one depth"),
        }
    }
}

/// A host frame over the caller's planar planes, without a copy (`vmafx_frame_wrap_host`).
///
/// `planes[i]` is the address and row pitch in bytes of plane `i`; `release` runs once
/// where the last count drops, after the release fence is signalled. On failure nothing
/// is read and `release` is not run.
///
/// # Safety
/// Each plane must be readable for `pitch * (rows - 1) + row bytes` bytes and stay valid
/// and unchanged until `release` runs (or the release fence is signalled); 16-bit planes
/// must be 2-byte aligned with an even pitch.
pub unsafe fn wrap_host(
    format: PixelFormat,
    bpc: u32,
    width: u32,
    height: u32,
    planes: &[(usize, u64)],
    release: Option<ReleaseCallback>,
) -> Result<Frame> {
    validate_geometry(format, bpc, width, height)?;
    let n = format.plane_count();
    let wide = bpc > 8;
    let bytes = if wide { 2 } else { 1 };
    let rows = producer_rows(format, bpc, width, height);
    let mut spans = Vec::with_capacity(n);
    for (p, &(rows_p, row_bytes)) in rows.iter().enumerate().take(n) {
        let (handle, pitch) = planes.get(p).copied().unwrap_or((0, 0));
        let ip = ImportPlane {
            handle,
            pitch,
            ..ImportPlane::default()
        };
        let s = check_plane(p, &ip, rows_p, row_bytes).map_err(|e| rename_host_plane(e, p))?;
        if !s.bindable(bytes) {
            return Err(Error::invalid(
                format!("planes.data[{p}]"),
                "16-bit samples need a 2-byte aligned address and an even stride",
            ));
        }
        spans.push(s);
    }
    let fence = Fence::new();
    let guard = ReleaseGuard::new(fence.clone());
    let sizes = plane_sizes(format, width, height);
    let planes = spans
        .iter()
        .enumerate()
        // SAFETY: validated spans; the caller keeps them readable and unchanged.
        .map(|(p, s)| unsafe { bound_plane(s, sizes[p].0, wide, &guard) })
        .collect();
    let hook_guard = guard.clone();
    let frame = FrameBuilder::from_planes(format, bpc, width, height, MemoryKind::Host, planes)?
        .with_release_fence(fence)
        .on_release(Box::new(move |planes| {
            drop(planes);
            drop(hook_guard);
        }))
        .build();
    guard.arm(release);
    Ok(frame)
}

fn rename_host_plane(e: Error, p: usize) -> Error {
    let field = if e.subject().ends_with("pitch") {
        "stride"
    } else {
        "data"
    };
    Error::new(e.status(), format!("planes.{field}[{p}]"), e.message())
}

#[cfg(test)]
#[path = "import_tests.rs"]
mod tests;
