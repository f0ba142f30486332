//! Frames over memory a producer already holds (ADR-1929 items 1 and 5-7).
//!
//! A [`FrameImport`] describes the producer's planes as VMAFx's `VmafxFrameImport` does;
//! subjects of refusals use the C field names (`desc.plane[1].pitch`) so one message
//! serves both APIs. On the CPU device HOST memory is bound without a copy: planar planes
//! become [`ForeignPlane`]s over the producer's bytes; NV12 / P016 luma is bound too, and
//! only what must be converted (interleaved chroma, P010's shifted samples) is written
//! into planes of the library's own through [`super::layout`]. Every other memory kind is
//! `NotSup` naming it. An acquire fence that is not signalled is `Busy`, never a wait.
//!
//! The producer's memory is handed back through one guard shared by every bound plane
//! and the frame's release hook: where the frame's last count drops the guard signals the
//! release fence and then runs the producer's release callback, once.

use std::sync::Arc;

use super::layout;
use super::{plane_sizes, ForeignPlane, Frame, FrameBuilder, MemoryKind, PixelFormat, Plane};
use super::{Samples, SamplesMut};
use crate::device::DeviceInfo;
use crate::error::{Error, Result, Status};
use crate::fence::{Fence, FenceKind};
use crate::hooks;

/// Import flag: a layout the device cannot bind may be copied on the device. A zeroed
/// descriptor (0) requires zero copy. Never a host copy of device memory.
pub const IMPORT_ALLOW_COPY: u32 = 1 << 0;
/// Every import flag this ABI knows.
pub const IMPORT_FLAGS_KNOWN: u32 = IMPORT_ALLOW_COPY;
/// Largest imported width or height.
pub const MAX_IMPORT_DIMENSION: u32 = 32768;

/// Called once when the library no longer reads the producer's memory.
pub type ReleaseCallback = Arc<dyn Fn() + Send + Sync>;

/// Where one plane of an imported frame lives (VMAFx's `VmafxImportPlane`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportPlane {
    /// Address (HOST: of the plane's allocation), device pointer or object handle.
    pub handle: usize,
    /// dma-buf descriptor (DMABUF only).
    pub fd: i32,
    /// Plane of a multi-plane object.
    pub plane_index: u32,
    /// Bytes from `handle` to the plane's first sample.
    pub offset: u64,
    /// Bytes from one row to the next.
    pub pitch: u64,
    /// Format modifier; 0 is linear, the only layout host memory has.
    pub modifier: u64,
    /// Bytes of the memory object; 0 when not given. When set, every row lies inside it.
    pub size: u64,
}

/// The acquire fence of an import.
#[derive(Debug, Clone, Default)]
pub enum Acquire {
    /// No fence: the planes are written.
    #[default]
    None,
    /// A host fence of the library; `None` when the handle named no live fence.
    Host(Option<Fence>),
    /// A fence of another kind (refused by the CPU device).
    Other(FenceKind),
}

/// A frame the producer holds, to import (VMAFx's `VmafxFrameImport`).
///
/// Host planes are bound without a copy; the producer learns through the release callback
/// (or the frame's release fence) when it may reuse its memory.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use std::sync::Arc;
/// use vmafx::device::Device;
/// use vmafx::frame::import::{FrameImport, ImportPlane};
/// use vmafx::{MemoryKind, PixelFormat};
///
/// let (w, h) = (16usize, 8usize);
/// let luma = vec![100u8; w * h];
/// let chroma = [vec![128u8; w * h / 4], vec![128u8; w * h / 4]];
/// let plane = |bytes: &[u8], pitch: usize| ImportPlane {
///     handle: bytes.as_ptr() as usize,
///     pitch: pitch as u64,
///     size: bytes.len() as u64,
///     ..Default::default()
/// };
/// let returned = Arc::new(AtomicBool::new(false));
/// let flag = returned.clone();
/// let desc = FrameImport {
///     memory: Some(MemoryKind::Host),
///     format: Some(PixelFormat::Yuv420p),
///     bpc: 8,
///     width: w as u32,
///     height: h as u32,
///     n_planes: 3,
///     planes: [plane(&luma, w), plane(&chroma[0], w / 2), plane(&chroma[1], w / 2)],
///     release: Some(Arc::new(move || flag.store(true, Ordering::SeqCst))),
///     ..Default::default()
/// };
/// // SAFETY: the three buffers outlive the frame and are not written while it lives.
/// let frame = unsafe { Device::cpu().import(&desc)? };
/// assert_eq!(frame.plane(0).get(3, 2), 100);
/// drop(frame);
/// assert!(returned.load(Ordering::SeqCst), "the producer has its memory back");
/// # Ok::<(), vmafx::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct FrameImport {
    /// What each plane's handle refers to.
    pub memory: Option<MemoryKind>,
    /// The producer's layout.
    pub format: Option<PixelFormat>,
    /// Bits per component.
    pub bpc: u32,
    /// Luma width.
    pub width: u32,
    /// Luma height.
    pub height: u32,
    /// Planes in use: 1 for YUV400P, 2 for NV12 / P010 / P016, else 3.
    pub n_planes: u32,
    /// The planes; entries past `n_planes` are ignored.
    pub planes: [ImportPlane; 3],
    /// Signalled when the producer has written the planes.
    pub acquire: Acquire,
    /// [`IMPORT_ALLOW_COPY`] or 0.
    pub flags: u32,
    /// Run once where the frame's last count drops, after its release fence is signalled.
    pub release: Option<ReleaseCallback>,
}

impl std::fmt::Debug for FrameImport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameImport")
            .field("memory", &self.memory)
            .field("format", &self.format)
            .field("bpc", &self.bpc)
            .field("size", &(self.width, self.height))
            .field("n_planes", &self.n_planes)
            .field("planes", &self.planes)
            .field("acquire", &self.acquire)
            .field("flags", &self.flags)
            .finish()
    }
}

/// The frame an import of `format` at `bpc` makes: planar format and depth.
pub fn planar_target(format: PixelFormat, bpc: u32) -> (PixelFormat, u32) {
    match format {
        PixelFormat::Nv12 => (PixelFormat::Yuv420p, 8),
        PixelFormat::P010 => (PixelFormat::Yuv420p, 10),
        PixelFormat::P016 => (PixelFormat::Yuv420p, 16),
        planar => (planar, bpc),
    }
}

/// What validation found out about one producer plane.
#[derive(Debug, Clone, Copy)]
struct PlaneSpan {
    addr: usize,
    pitch: usize,
    rows: u32,
    row_bytes: usize,
    extent: usize,
}

impl PlaneSpan {
    /// Whether `bytes`-byte samples at this address and pitch can be bound in place.
    fn bindable(&self, bytes: usize) -> bool {
        self.addr.is_multiple_of(bytes) && self.pitch.is_multiple_of(bytes)
    }
}

fn plane_subject(p: usize, field: &str) -> String {
    format!("desc.plane[{p}].{field}")
}

/// Rows and bytes per row of each producer plane of `format`.
fn producer_rows(format: PixelFormat, bpc: u32, w: u32, h: u32) -> Vec<(u32, usize)> {
    let bytes = layout::sample_bytes(format, bpc);
    if format.is_planar() {
        plane_sizes(format, w, h)
            .into_iter()
            .map(|(pw, ph)| (ph, pw as usize * bytes))
            .collect()
    } else {
        vec![
            (h, w as usize * bytes),
            (h >> 1, (w >> 1) as usize * 2 * bytes),
        ]
    }
}

fn check_geometry(d: &FrameImport) -> Result<PixelFormat> {
    let format = d
        .format
        .ok_or_else(|| Error::invalid("desc.pix_fmt", "not a pixel format"))?;
    let bpc_ok = match format {
        PixelFormat::Nv12 => d.bpc == 8,
        PixelFormat::P010 => d.bpc == 10,
        PixelFormat::P016 => d.bpc == 16,
        _ => (8..=16).contains(&d.bpc),
    };
    if !bpc_ok {
        return Err(Error::invalid(
            "desc.bpc",
            format!("{} bits per component is not a depth of {format}", d.bpc),
        ));
    }
    let want = if format.is_planar() {
        format.plane_count() as u32
    } else {
        2
    };
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

fn check_plane(p: usize, ip: &ImportPlane, rows: u32, row_bytes: usize) -> Result<PlaneSpan> {
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
    Ok((format, spans))
}

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
        storage: super::PlaneStorage::Foreign(fp),
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
    super::validate_geometry(format, bpc, width, height)?;
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

/// Bytes a frame's planes occupy, for tests and pools.
pub fn frame_bytes(frame: &Frame) -> usize {
    frame
        .planes()
        .iter()
        .map(|p| match p.samples() {
            Samples::U8(s) => s.len(),
            Samples::U16(s) => s.len() * 2,
        })
        .sum()
}

#[cfg(test)]
#[path = "import_tests.rs"]
mod tests;
