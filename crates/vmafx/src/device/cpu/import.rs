//! The CPU device's import body: frames over host memory a producer already holds
//! (ADR-1929 items 1 and 5-7), described by a [`FrameImport`].
//!
//! On the CPU device HOST memory is bound without a copy: planar planes become foreign
//! planes over the producer's bytes; the luma of the semi-planar layouts whose samples are
//! the frame's (NV12 / NV16 / NV24, P016 / P216 / P416) is bound too, and only what must be
//! converted (interleaved chroma, high-bit samples, packed layouts) is written into planes
//! of the library's own through [`crate::frame::layout`]; RGB layouts are converted to
//! Y'CbCr as their statement says (`rgb`). Every other memory kind is `NotSup` naming it. An acquire fence that is not signalled is `Busy`, never a wait.
//!
//! The producer's memory is handed back through one guard shared by every bound plane
//! and the frame's release hook: where the frame's last count drops the guard signals the
//! release fence and then runs the producer's release callback, once.

use std::sync::Arc;

use crate::device::backend::DeviceInfo;
use crate::error::{Error, Result, Status};
use crate::fence::Fence;
use crate::frame::import::{
    planar_target, Acquire, FrameImport, IMPORT_ALLOW_COPY, IMPORT_FLAGS_KNOWN,
    MAX_IMPORT_DIMENSION,
};
use crate::frame::layout::{self, Family};
use crate::frame::{plane_sizes, Frame, FrameBuilder, MemoryKind, PixelFormat, Plane};
use crate::hooks;

use super::convert::{copied_plane, split_chroma, unpacked_planes};
use super::rgb;
use super::span::{bound_plane, check_plane, plane_subject, span_bytes, PlaneSpan, ReleaseGuard};

/// Rows and bytes per row of each producer plane of `format`.
pub(super) fn producer_rows(format: PixelFormat, bpc: u32, w: u32, h: u32) -> Vec<(u32, usize)> {
    let bytes = layout::sample_bytes(format, bpc);
    match layout::family(format) {
        Family::Planar => plane_sizes(format, w, h)
            .into_iter()
            .map(|(pw, ph)| (ph, pw as usize * bytes))
            .collect(),
        Family::SemiPlanar => {
            let (sx, sy) = format.chroma_shift();
            vec![
                (h, w as usize * bytes),
                (h >> sy, (w >> sx) as usize * 2 * bytes),
            ]
        }
        Family::Packed(p) => vec![(h, layout::packed_row_bytes(p, w))],
        Family::Rgb => vec![(h, w as usize * rgb::elements(format) * bytes)],
    }
}

fn check_geometry(d: &FrameImport) -> Result<PixelFormat> {
    let format = d
        .format
        .ok_or_else(|| Error::invalid("desc.pix_fmt", "not a pixel format"))?;
    let bpc_ok = match (format.fixed_bpc(), format) {
        (Some(fixed), _) => d.bpc == fixed,
        (None, PixelFormat::Yuv444pMsb) => (9..=16).contains(&d.bpc),
        (None, _) => (8..=16).contains(&d.bpc),
    };
    if !bpc_ok {
        return Err(Error::invalid(
            "desc.bpc",
            format!("{} bits per component is not a depth of {format}", d.bpc),
        ));
    }
    if layout::family(format) == Family::Rgb {
        rgb::check(format, d.bpc, &d.rgb)?;
    }
    let want = layout::producer_plane_count(format) as u32;
    if d.n_planes != want {
        return Err(Error::invalid(
            "desc.n_planes",
            format!("{format} has {want} planes, not {}", d.n_planes),
        ));
    }
    for (name, v) in [("desc.w", d.width), ("desc.h", d.height)] {
        if v == 0 || v > MAX_IMPORT_DIMENSION {
            return Err(Error::range(
                name,
                format!("{v} is outside 1..={MAX_IMPORT_DIMENSION}"),
            ));
        }
    }
    if d.flags & !IMPORT_FLAGS_KNOWN != 0 {
        return Err(Error::invalid(
            "desc.flags",
            format!("unknown import flags 0x{:x}", d.flags & !IMPORT_FLAGS_KNOWN),
        ));
    }
    Ok(format)
}

fn check_acquire(acq: &Acquire, device: &DeviceInfo) -> Result<()> {
    match acq {
        Acquire::None => Ok(()),
        Acquire::Other(kind) => Err(Error::not_supported(
            "desc.acquire.kind",
            format!(
                "{} acquire fences are not supported by the {} device",
                kind.name(),
                device.name
            ),
        )),
        Acquire::Host(None) => Err(Error::invalid(
            "desc.acquire.handle",
            "not a host fence of this library",
        )),
        Acquire::Host(Some(f)) => {
            if f.is_signalled() || hooks::switch(hooks::SKIP_ACQUIRE_WAIT) {
                Ok(())
            } else {
                Err(Error::new(
                    Status::Busy,
                    "desc.acquire",
                    format!(
                        "acquire fence not signalled; the {} device has no queue to wait on it",
                        device.name
                    ),
                ))
            }
        }
    }
}

/// Further acquire fences: the CPU device waits on none (it has no queue), so any that is
/// set is refused naming it.
fn check_acquire_more(d: &FrameImport, device: &DeviceInfo) -> Result<()> {
    for (i, acq) in d.acquire_more.iter().enumerate() {
        let kind = match acq {
            Acquire::None => continue,
            Acquire::Host(_) => "VMAFX_FENCE_HOST",
            Acquire::Other(k) => k.name(),
        };
        return Err(Error::not_supported(
            format!("desc.acquire_more[{i}]"),
            format!(
                "the {} device waits on one acquire fence only, not a further {kind}",
                device.name
            ),
        ));
    }
    Ok(())
}

/// Checks `d` against the device, naming the first field that is wrong.
fn validate(d: &FrameImport, device: &DeviceInfo) -> Result<(PixelFormat, Vec<PlaneSpan>)> {
    let memory = d
        .memory
        .ok_or_else(|| Error::invalid("desc.memory", "not a memory kind"))?;
    if memory == MemoryKind::None {
        return Err(Error::invalid(
            "desc.memory",
            "VMAFX_MEMORY_NONE: no memory given",
        ));
    }
    if !device.memory_kinds.contains(&memory) {
        return Err(Error::not_supported(
            "desc.memory",
            format!(
                "{} is not imported by the {} device",
                memory.name(),
                device.name
            ),
        ));
    }
    let format = check_geometry(d)?;
    let spans = producer_rows(format, d.bpc, d.width, d.height)
        .into_iter()
        .enumerate()
        .map(|(p, (rows, row_bytes))| check_plane(p, &d.planes[p], rows, row_bytes))
        .collect::<Result<Vec<_>>>()?;
    if let Acquire::Other(_) = d.acquire {
        check_acquire(&d.acquire, device)?;
    }
    check_acquire_more(d, device)?;
    Ok((format, spans))
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
    let fence = Fence::new();
    let guard = ReleaseGuard::new(fence.clone());
    let sizes = plane_sizes(target, d.width, d.height);
    let shift = layout::sample_shift(format, d.bpc);
    let (planes, converted) = match layout::family(format) {
        Family::Packed(p) => {
            // SAFETY: validated span; the caller's contract keeps it readable and unchanged.
            let src = unsafe { span_bytes(&spans[0]) };
            (
                unpacked_planes(src, &spans[0], p, shift, &sizes, wide),
                true,
            )
        }
        Family::Rgb => {
            let conversion = rgb::check(format, d.bpc, &d.rgb)?;
            // SAFETY: validated span; the caller's contract keeps it readable and unchanged.
            let src = unsafe { span_bytes(&spans[0]) };
            let planes = rgb::converted(src, &spans[0], format, d.bpc, d.width, conversion)?;
            (planes, true)
        }
        // SAFETY: forwarded contract: the spans stay readable and unchanged while `guard`
        // (which every bound plane holds) lives.
        _ => unsafe { planar_planes(d, format, &spans, &sizes, wide, shift, &guard) }?,
    };
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

/// The planes of a planar or semi-planar import: each producer plane bound in place where
/// its samples are the frame's, else converted (a shift, a de-interleave) or, with a bad
/// alignment and [`IMPORT_ALLOW_COPY`], copied. Returns whether anything was converted.
///
/// # Safety
/// As [`import_host`], for as long as `guard` lives.
unsafe fn planar_planes(
    d: &FrameImport,
    format: PixelFormat,
    spans: &[PlaneSpan],
    sizes: &[(u32, u32)],
    wide: bool,
    shift: u32,
    guard: &Arc<ReleaseGuard>,
) -> Result<(Vec<Plane>, bool)> {
    let bytes = layout::sample_bytes(format, d.bpc);
    let allow_copy = d.flags & IMPORT_ALLOW_COPY != 0;
    let mut planes = Vec::with_capacity(3);
    // Bytes copied on the host: one counted copy per import, whatever its planes; likewise
    // one counted conversion per import that shifts or de-interleaves any plane.
    let mut copied = 0u64;
    let mut converted = false;
    // Planar planes, and the luma of a semi-planar layout.
    let semi = layout::family(format) == Family::SemiPlanar;
    let direct = if semi { 1 } else { spans.len() };
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
            unsafe { bound_plane(s, w, wide, guard) }
        } else if must_convert {
            converted = true;
            copied_plane(src, s, w, wide, shift)
        } else {
            copied += (s.row_bytes * s.rows as usize) as u64;
            copied_plane(src, s, w, wide, 0)
        });
    }
    if copied > 0 {
        hooks::count_host_copy(copied);
    }
    if semi {
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
    Ok((planes, converted))
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

#[cfg(test)]
#[path = "import_tests.rs"]
mod tests;
