//! `vmafx_frame_wrap_host`: a host frame over the caller's planar planes, bound in place.

use crate::error::{Error, Result};
use crate::fence::Fence;
use crate::frame::import::{ImportPlane, ReleaseCallback};
use crate::frame::{plane_sizes, validate_geometry, Frame, FrameBuilder, MemoryKind, PixelFormat};

use super::import::producer_rows;
use super::span::{bound_plane, check_plane, ReleaseGuard};

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
