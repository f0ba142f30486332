//! Descriptors of frames over memory a producer already holds (ADR-1929 items 1 and 5-7).
//!
//! A [`FrameImport`] describes the producer's planes as VMAFx's `VmafxFrameImport` does;
//! subjects of refusals use the C field names (`desc.plane[1].pitch`) so one message
//! serves both APIs. What a device does with one is the device's: the CPU device's import
//! body is [`crate::device::cpu::import_host`]. Frames know nothing of devices, so a new
//! backend lane adds its import body beside its device without editing this module.

use std::sync::Arc;

use super::{Frame, MemoryKind, PixelFormat, Samples};
use crate::fence::{Fence, FenceKind};

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
    /// Planes in use: 1 for YUV400P and the packed layouts, 2 for the semi-planar
    /// layouts, else 3.
    pub n_planes: u32,
    /// The planes; entries past `n_planes` are ignored.
    pub planes: [ImportPlane; 3],
    /// Signalled when the producer has written the planes.
    pub acquire: Acquire,
    /// [`IMPORT_ALLOW_COPY`] or 0.
    pub flags: u32,
    /// Run once where the frame's last count drops, after its release fence is signalled.
    pub release: Option<ReleaseCallback>,
    /// Further acquire fences (`acquire_more`, ABI 0.1.11: a frame written under several
    /// timelines); a device that waits on one fence only refuses any that is set.
    pub acquire_more: [Acquire; 2],
    /// The colour statement of an RGB layout (`rgb_*`, ABI 0.1.11); ignored otherwise.
    pub rgb: RgbStatement,
}

/// What an RGB producer states about its samples: raw `VmafxColorMatrix`,
/// `VmafxColorRange` and `VmafxColorTransfer` values, 0 where not stated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RgbStatement {
    /// Matrix of the Y'CbCr the frame is converted to.
    pub matrix: u32,
    /// Range of the R'G'B' samples.
    pub range: u32,
    /// Transfer characteristic of the R'G'B' samples.
    pub transfer: u32,
    /// Range of the Y'CbCr frame made.
    pub out_range: u32,
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
            .field("acquire_more", &self.acquire_more)
            .field("rgb", &self.rgb)
            .finish()
    }
}

/// The frame an import of `format` at `bpc` makes: planar format and depth.
pub fn planar_target(format: PixelFormat, bpc: u32) -> (PixelFormat, u32) {
    format.import_target(bpc)
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
