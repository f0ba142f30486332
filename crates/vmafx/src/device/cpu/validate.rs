//! Validation of an import descriptor against a device, before any byte is read: memory
//! kind, format, depth, size, flags, every plane's address, pitch, modifier and extent, and
//! the acquire fence. Each refusal names the descriptor field that is wrong.

use crate::device::DeviceInfo;
use crate::error::{Error, Result, Status};
use crate::frame::import::{
    Acquire, FrameImport, ImportPlane, IMPORT_FLAGS_KNOWN, MAX_IMPORT_DIMENSION,
};
use crate::frame::layout;
use crate::frame::{plane_sizes, MemoryKind, PixelFormat};
use crate::hooks;

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

/// Rows and bytes per row of each producer plane of `format`.
pub(super) fn producer_rows(format: PixelFormat, bpc: u32, w: u32, h: u32) -> Vec<(u32, usize)> {
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

pub(super) fn check_acquire(acq: &Acquire, device: &DeviceInfo) -> Result<()> {
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
pub(super) fn validate(
    d: &FrameImport,
    device: &DeviceInfo,
) -> Result<(PixelFormat, Vec<PlaneSpan>)> {
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
