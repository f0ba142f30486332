//! A producer plane checked against its descriptor, bound in place, and the guard that
//! hands the producer's memory back once the last plane over it goes.

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::fence::Fence;
use crate::frame::import::{ImportPlane, ReleaseCallback};
use crate::frame::{ForeignPlane, Plane, PlaneStorage};

/// What validation found out about one producer plane.
#[derive(Debug, Clone, Copy)]
pub(super) struct PlaneSpan {
    pub(super) addr: usize,
    pub(super) pitch: usize,
    pub(super) rows: u32,
    pub(super) row_bytes: usize,
    pub(super) extent: usize,
}

impl PlaneSpan {
    /// Whether `bytes`-byte samples at this address and pitch can be bound in place.
    pub(super) fn bindable(&self, bytes: usize) -> bool {
        self.addr.is_multiple_of(bytes) && self.pitch.is_multiple_of(bytes)
    }
}

pub(super) fn plane_subject(p: usize, field: &str) -> String {
    format!("desc.plane[{p}].{field}")
}

pub(super) fn check_plane(
    p: usize,
    ip: &ImportPlane,
    rows: u32,
    row_bytes: usize,
) -> Result<PlaneSpan> {
    if ip.handle == 0 {
        return Err(Error::invalid(plane_subject(p, "handle"), "no address"));
    }
    if ip.pitch < row_bytes as u64 {
        return Err(Error::invalid(
            plane_subject(p, "pitch"),
            format!("{} bytes is below the {row_bytes} bytes of a row", ip.pitch),
        ));
    }
    if ip.modifier != 0 {
        return Err(Error::not_supported(
            plane_subject(p, "modifier"),
            format!(
                "modifier 0x{:016x}: host memory is read linear only, never de-tiled through a copy",
                ip.modifier
            ),
        ));
    }
    let size_subject = plane_subject(p, "size");
    let end = (rows.max(1) as u64 - 1)
        .checked_mul(ip.pitch)
        .and_then(|v| v.checked_add(row_bytes as u64))
        .and_then(|v| v.checked_add(ip.offset));
    let end =
        end.ok_or_else(|| Error::range(size_subject.clone(), "offset and rows overflow 64 bits"))?;
    let last = usize::try_from(end)
        .ok()
        .and_then(|e| ip.handle.checked_add(e))
        .ok_or_else(|| {
            Error::range(
                size_subject.clone(),
                format!("offset {} wraps the address space", ip.offset),
            )
        })?;
    if ip.size != 0 && end > ip.size {
        return Err(Error::range(
            size_subject,
            format!(
                "the rows end at byte {end}, past the object's {} bytes",
                ip.size
            ),
        ));
    }
    let addr = ip.handle + ip.offset as usize;
    Ok(PlaneSpan {
        addr,
        pitch: ip.pitch as usize,
        rows,
        row_bytes,
        extent: last - addr,
    })
}

/// Signals the release fence, then runs the producer's callback, where the last holder of
/// the producer's memory goes. The callback is armed only once the frame is built, so a
/// refused import or wrap (the guard dropped on an error path) never runs it.
pub(super) struct ReleaseGuard {
    fence: Fence,
    release: std::sync::Mutex<Option<ReleaseCallback>>,
}

impl ReleaseGuard {
    pub(super) fn new(fence: Fence) -> Arc<Self> {
        Arc::new(ReleaseGuard {
            fence,
            release: std::sync::Mutex::new(None),
        })
    }

    /// Hands the producer's callback to the guard: the frame exists.
    pub(super) fn arm(&self, release: Option<ReleaseCallback>) {
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
pub(super) unsafe fn span_bytes<'a>(s: &PlaneSpan) -> &'a [u8] {
    // SAFETY: the caller guarantees `addr..addr + extent` is readable.
    unsafe { std::slice::from_raw_parts(s.addr as *const u8, s.extent) }
}

/// Binds a validated span in place.
///
/// # Safety
/// As [`import_host`]: the memory stays valid and unchanged while `guard` lives.
pub(super) unsafe fn bound_plane(
    s: &PlaneSpan,
    w: u32,
    wide: bool,
    guard: &Arc<ReleaseGuard>,
) -> Plane {
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
