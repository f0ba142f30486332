//! Frames: reference-counted pictures that several readers share.
//!
//! A [`Frame`] is an `Arc` over its planes: `Clone` is one more count, and the last count
//! dropped (in any context, caller or worker thread) runs the frame's release hook (a pool
//! takes its buffers back there) and then signals its release fence. Samples of 8-bit frames
//! are stored as `u8`, deeper ones as `u16`. Plane sizes follow libvmaf: chroma of a 4:2:0
//! frame is `(w >> 1) x (h >> 1)`, rounded down, whatever the file held.

pub mod converter;
mod format;
mod geometry;
pub mod import;
pub(crate) mod layout;
pub mod levels;
pub mod pool;

pub use format::{MemoryKind, PixelFormat};
pub use geometry::Geometry;

use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};
use crate::fence::Fence;

/// Largest width or height accepted (libvmaf's tools go no further in practice).
pub const MAX_DIMENSION: u32 = 1 << 16;

/// Most producer fences one frame signals where it is released
/// ([`Frame::signal_on_release`]).
pub const MAX_RELEASE_SIGNALS: usize = 3;

/// Row strides are a multiple of this many bytes, so SIMD rows start aligned to each other.
pub const STRIDE_ALIGN: usize = 64;

/// The samples of one plane, borrowed.
#[derive(Debug, Clone, Copy)]
pub enum Samples<'a> {
    /// 8-bit samples.
    U8(&'a [u8]),
    /// 9- to 16-bit samples, one per `u16`.
    U16(&'a [u16]),
}

/// The samples of one plane, mutably borrowed.
#[derive(Debug)]
pub enum SamplesMut<'a> {
    /// 8-bit samples.
    U8(&'a mut [u8]),
    /// 9- to 16-bit samples.
    U16(&'a mut [u16]),
}

/// Owned storage of one plane.
#[derive(Debug, Clone)]
pub enum PlaneStorage {
    /// 8-bit samples.
    U8(Vec<u8>),
    /// Deeper samples.
    U16(Vec<u16>),
    /// Samples held in place in memory the producer owns (zero-copy import); the guard
    /// keeps the producer's memory alive and says when it is handed back.
    Foreign(ForeignPlane),
}

/// A plane held in producer memory without a copy.
#[derive(Clone)]
pub struct ForeignPlane {
    ptr: *const u8,
    len_bytes: usize,
    wide: bool,
    _guard: Arc<dyn Send + Sync>,
}

impl std::fmt::Debug for ForeignPlane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ForeignPlane")
            .field("ptr", &self.ptr)
            .field("len_bytes", &self.len_bytes)
            .field("wide", &self.wide)
            .finish()
    }
}

// SAFETY: a ForeignPlane is only built through `ForeignPlane::new`, whose contract is that
// the memory stays valid and unmodified while the guard lives; it is only read.
unsafe impl Send for ForeignPlane {}
// SAFETY: as above; shared access is read-only.
unsafe impl Sync for ForeignPlane {}

impl ForeignPlane {
    /// Wraps `len_bytes` bytes at `ptr` as a plane of 8-bit (`wide` false) or 16-bit samples.
    ///
    /// # Safety
    /// `ptr` must be valid for reads of `len_bytes` bytes, aligned to 2 when `wide`, and the
    /// memory must not be written nor freed while `guard` (or any clone of this plane) lives.
    pub unsafe fn new(
        ptr: *const u8,
        len_bytes: usize,
        wide: bool,
        guard: Arc<dyn Send + Sync>,
    ) -> Self {
        ForeignPlane {
            ptr,
            len_bytes,
            wide,
            _guard: guard,
        }
    }

    /// The address of the first sample.
    pub fn as_ptr(&self) -> *const u8 {
        self.ptr
    }

    fn samples(&self) -> Samples<'_> {
        if self.wide {
            // SAFETY: `new`'s contract: valid, 2-aligned, unmodified for our lifetime.
            Samples::U16(unsafe {
                std::slice::from_raw_parts(self.ptr as *const u16, self.len_bytes / 2)
            })
        } else {
            // SAFETY: `new`'s contract: valid and unmodified for our lifetime.
            Samples::U8(unsafe { std::slice::from_raw_parts(self.ptr, self.len_bytes) })
        }
    }
}

/// One plane: its size, its row stride in samples, and its storage.
#[derive(Debug, Clone)]
pub struct Plane {
    /// Width in samples.
    pub width: u32,
    /// Height in rows.
    pub height: u32,
    /// Distance between rows, in samples.
    pub stride: usize,
    /// The samples.
    pub storage: PlaneStorage,
}

impl Plane {
    /// A zeroed plane with an aligned stride.
    pub fn zeroed(width: u32, height: u32, wide: bool) -> Self {
        let bytes = if wide { 2 } else { 1 };
        let stride = (width as usize * bytes).div_ceil(STRIDE_ALIGN) * STRIDE_ALIGN / bytes;
        let stride = stride.max(1);
        let len = stride * height as usize;
        let storage = if wide {
            PlaneStorage::U16(vec![0; len])
        } else {
            PlaneStorage::U8(vec![0; len])
        };
        Plane {
            width,
            height,
            stride,
            storage,
        }
    }

    /// The samples, borrowed.
    pub fn samples(&self) -> Samples<'_> {
        match &self.storage {
            PlaneStorage::U8(v) => Samples::U8(v),
            PlaneStorage::U16(v) => Samples::U16(v),
            PlaneStorage::Foreign(f) => f.samples(),
        }
    }

    /// The samples, mutably borrowed; `None` for foreign memory, which is read-only.
    pub fn samples_mut(&mut self) -> Option<SamplesMut<'_>> {
        match &mut self.storage {
            PlaneStorage::U8(v) => Some(SamplesMut::U8(v)),
            PlaneStorage::U16(v) => Some(SamplesMut::U16(v)),
            PlaneStorage::Foreign(_) => None,
        }
    }

    /// Row `y` of an 8-bit plane (`width` samples).
    pub fn row_u8(&self, y: u32) -> &[u8] {
        match self.samples() {
            Samples::U8(s) => {
                let o = y as usize * self.stride;
                &s[o..o + self.width as usize]
            }
            Samples::U16(_) => panic!("row_u8 on a 16-bit plane"),
        }
    }

    /// Row `y` of a 16-bit plane (`width` samples).
    pub fn row_u16(&self, y: u32) -> &[u16] {
        match self.samples() {
            Samples::U16(s) => {
                let o = y as usize * self.stride;
                &s[o..o + self.width as usize]
            }
            Samples::U8(_) => panic!("row_u16 on an 8-bit plane"),
        }
    }

    /// Sample at (x, y) widened to u16, for code that reads every depth alike.
    #[inline]
    pub fn get(&self, x: u32, y: u32) -> u16 {
        let i = y as usize * self.stride + x as usize;
        match self.samples() {
            Samples::U8(s) => s[i] as u16,
            Samples::U16(s) => s[i],
        }
    }
}

/// Called with the frame's planes where its last count drops (a pool takes them back).
pub type ReleaseHook = Box<dyn FnOnce(Vec<Plane>) + Send>;

struct FrameInner {
    format: PixelFormat,
    bpc: u32,
    width: u32,
    height: u32,
    memory: MemoryKind,
    planes: Vec<Plane>,
    release_fence: Fence,
    release_hook: Mutex<Option<ReleaseHook>>,
    /// The producer's fences ([`Frame::signal_on_release`]).
    release_signals: Mutex<Vec<Fence>>,
}

impl Drop for FrameInner {
    fn drop(&mut self) {
        // Nothing reads the frame any more: the producer's fences first, then the hook
        // (an import's release callback runs there), then the frame's own fence.
        let signals = self
            .release_signals
            .get_mut()
            .unwrap_or_else(|p| p.into_inner());
        for f in signals.drain(..) {
            f.signal();
        }
        let planes = std::mem::take(&mut self.planes);
        let hook = self
            .release_hook
            .get_mut()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(hook) = hook {
            hook(planes);
        } else {
            drop(planes);
        }
        // Signalled last: the producer gets its memory back only once nothing reads it.
        self.release_fence.signal();
    }
}

/// A reference-counted picture. `Clone` adds a count; dropping the last signals
/// [`Frame::release_fence`].
///
/// ```
/// use vmafx::frame::SamplesMut;
/// use vmafx::{FrameBuilder, PixelFormat};
///
/// let mut b = FrameBuilder::new(PixelFormat::Yuv420p, 8, 16, 8)?;
/// if let Some(SamplesMut::U8(luma)) = b.plane_mut(0).samples_mut() {
///     luma.fill(128);
/// }
/// let frame = b.build();
/// assert_eq!((frame.width(), frame.height(), frame.planes().len()), (16, 8, 3));
/// assert_eq!(frame.plane(1).width, 8); // 4:2:0 chroma is half size
/// let released = frame.release_fence();
/// let copy = frame.clone(); // one more count on the same picture
/// drop(frame);
/// assert!(!released.is_signalled());
/// drop(copy);
/// assert!(released.is_signalled());
/// # Ok::<(), vmafx::Error>(())
/// ```
#[derive(Clone)]
pub struct Frame {
    inner: Arc<FrameInner>,
}

impl std::fmt::Debug for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Frame")
            .field("format", &self.inner.format)
            .field("bpc", &self.inner.bpc)
            .field("width", &self.inner.width)
            .field("height", &self.inner.height)
            .field("memory", &self.inner.memory)
            .finish()
    }
}

/// Checks a frame geometry, naming the offending parameter.
pub fn validate_geometry(format: PixelFormat, bpc: u32, width: u32, height: u32) -> Result<()> {
    if !format.is_planar() {
        return Err(Error::invalid(
            "pixel format",
            format!("{format} is import-only; host frames are planar"),
        ));
    }
    if !(8..=16).contains(&bpc) {
        return Err(Error::range(
            "bit depth",
            format!("{bpc} bits per component; 8 to 16 are supported"),
        ));
    }
    for (name, v) in [("width", width), ("height", height)] {
        if v == 0 || v > MAX_DIMENSION {
            return Err(Error::range(
                name,
                format!("{v} is outside 1..={MAX_DIMENSION}"),
            ));
        }
    }
    Ok(())
}

/// Plane sizes of a frame as libvmaf computes them (chroma rounded down).
pub fn plane_sizes(format: PixelFormat, width: u32, height: u32) -> Vec<(u32, u32)> {
    let (sx, sy) = format.chroma_shift();
    let mut v = vec![(width, height)];
    if format.plane_count() == 3 {
        let c = (width >> sx, height >> sy);
        v.push(c);
        v.push(c);
    }
    v
}

/// A frame under construction: uniquely owned, so its planes can be written.
pub struct FrameBuilder {
    format: PixelFormat,
    bpc: u32,
    width: u32,
    height: u32,
    memory: MemoryKind,
    planes: Vec<Plane>,
    release_hook: Option<ReleaseHook>,
    release_fence: Option<Fence>,
}

impl FrameBuilder {
    /// A zeroed host frame.
    pub fn new(format: PixelFormat, bpc: u32, width: u32, height: u32) -> Result<Self> {
        validate_geometry(format, bpc, width, height)?;
        let wide = bpc > 8;
        let planes = plane_sizes(format, width, height)
            .into_iter()
            .map(|(w, h)| Plane::zeroed(w, h, wide))
            .collect();
        Ok(FrameBuilder {
            format,
            bpc,
            width,
            height,
            memory: MemoryKind::Host,
            planes,
            release_hook: None,
            release_fence: None,
        })
    }

    /// A frame over planes the caller made (imports and pools use this).
    pub fn from_planes(
        format: PixelFormat,
        bpc: u32,
        width: u32,
        height: u32,
        memory: MemoryKind,
        planes: Vec<Plane>,
    ) -> Result<Self> {
        validate_geometry(format, bpc, width, height)?;
        let sizes = plane_sizes(format, width, height);
        if sizes.len() != planes.len() {
            return Err(Error::invalid(
                "planes",
                format!(
                    "{format} needs {} planes, got {}",
                    sizes.len(),
                    planes.len()
                ),
            ));
        }
        for (i, ((w, h), p)) in sizes.iter().zip(&planes).enumerate() {
            let needed = if *h == 0 {
                0
            } else {
                (*h as usize - 1) * p.stride + *w as usize
            };
            let have = match p.samples() {
                Samples::U8(s) => {
                    if bpc > 8 {
                        return Err(Error::invalid(
                            format!("plane {i}"),
                            "8-bit storage for a deep frame",
                        ));
                    }
                    s.len()
                }
                Samples::U16(s) => {
                    if bpc == 8 {
                        return Err(Error::invalid(
                            format!("plane {i}"),
                            "16-bit storage for an 8-bit frame",
                        ));
                    }
                    s.len()
                }
            };
            if p.width != *w || p.height != *h || p.stride < *w as usize || have < needed {
                return Err(Error::invalid(
                    format!("plane {i}"),
                    format!(
                        "plane is {}x{} stride {} with {have} samples; {w}x{h} needs {needed}",
                        p.width, p.height, p.stride
                    ),
                ));
            }
        }
        Ok(FrameBuilder {
            format,
            bpc,
            width,
            height,
            memory,
            planes,
            release_hook: None,
            release_fence: None,
        })
    }

    /// Plane `i`, writable.
    pub fn plane_mut(&mut self, i: usize) -> &mut Plane {
        &mut self.planes[i]
    }

    /// All planes, writable.
    pub fn planes_mut(&mut self) -> &mut [Plane] {
        &mut self.planes
    }

    /// Runs `hook` with the planes where the frame's last count drops.
    pub fn on_release(mut self, hook: ReleaseHook) -> Self {
        self.release_hook = Some(hook);
        self
    }

    /// Uses `fence` as the release fence instead of a new one.
    pub fn with_release_fence(mut self, fence: Fence) -> Self {
        self.release_fence = Some(fence);
        self
    }

    /// Freezes the frame; from here on it is shared and read-only.
    pub fn build(self) -> Frame {
        Frame {
            inner: Arc::new(FrameInner {
                format: self.format,
                bpc: self.bpc,
                width: self.width,
                height: self.height,
                memory: self.memory,
                planes: self.planes,
                release_fence: self.release_fence.unwrap_or_default(),
                release_hook: Mutex::new(self.release_hook),
                release_signals: Mutex::new(Vec::new()),
            }),
        }
    }
}

impl Frame {
    /// The pixel format.
    pub fn format(&self) -> PixelFormat {
        self.inner.format
    }
    /// Bits per component.
    pub fn bpc(&self) -> u32 {
        self.inner.bpc
    }
    /// Luma width.
    pub fn width(&self) -> u32 {
        self.inner.width
    }
    /// Luma height.
    pub fn height(&self) -> u32 {
        self.inner.height
    }
    /// Where the samples live.
    pub fn memory(&self) -> MemoryKind {
        self.inner.memory
    }
    /// Plane `i` (0 luma, 1 Cb, 2 Cr).
    pub fn plane(&self, i: usize) -> &Plane {
        &self.inner.planes[i]
    }
    /// All planes.
    pub fn planes(&self) -> &[Plane] {
        &self.inner.planes
    }
    /// The fence signalled where the last count of this frame drops.
    pub fn release_fence(&self) -> Fence {
        self.inner.release_fence.clone()
    }
    /// Signals the producer's `fence` where the last count of this frame drops, behind
    /// its last reader in every context and before the release callback of an import
    /// runs. At most [`MAX_RELEASE_SIGNALS`] per frame; another is `Range`.
    pub fn signal_on_release(&self, fence: Fence) -> Result<()> {
        let mut signals = self
            .inner
            .release_signals
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if signals.len() >= MAX_RELEASE_SIGNALS {
            return Err(Error::range(
                "fence",
                format!("a frame signals at most {MAX_RELEASE_SIGNALS} producer fences"),
            ));
        }
        signals.push(fence);
        Ok(())
    }
    /// Counts held on this frame.
    pub fn ref_count(&self) -> usize {
        Arc::strong_count(&self.inner)
    }
    /// Whether two handles are one frame.
    pub fn same_as(&self, other: &Frame) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
    /// Whether `other` has the same format, depth and size.
    pub fn same_geometry(&self, other: &Frame) -> bool {
        self.format() == other.format()
            && self.bpc() == other.bpc()
            && self.width() == other.width()
            && self.height() == other.height()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_sizes_round_chroma_down() {
        let f = FrameBuilder::new(PixelFormat::Yuv420p, 8, 351, 287)
            .unwrap()
            .build();
        assert_eq!((f.plane(1).width, f.plane(1).height), (175, 143));
        assert_eq!(f.plane(0).stride % STRIDE_ALIGN, 0);
    }

    #[test]
    fn last_count_signals_release_and_runs_hook() {
        let hit = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let h2 = hit.clone();
        let f = FrameBuilder::new(PixelFormat::Yuv444p, 10, 4, 4)
            .unwrap()
            .on_release(Box::new(move |planes| {
                h2.store(planes.len(), std::sync::atomic::Ordering::SeqCst)
            }))
            .build();
        let fence = f.release_fence();
        let g = f.clone();
        drop(f);
        assert!(!fence.is_signalled());
        drop(g);
        assert!(fence.is_signalled());
        assert_eq!(hit.load(std::sync::atomic::Ordering::SeqCst), 3);
    }

    #[test]
    fn bad_geometry_is_named() {
        let e = FrameBuilder::new(PixelFormat::Yuv420p, 8, 0, 10)
            .err()
            .unwrap();
        assert_eq!(e.subject(), "width");
        let e = FrameBuilder::new(PixelFormat::Nv12, 8, 2, 2).err().unwrap();
        assert_eq!(e.subject(), "pixel format");
        let e = FrameBuilder::new(PixelFormat::Yuv420p, 17, 2, 2)
            .err()
            .unwrap();
        assert_eq!(e.subject(), "bit depth");
    }
}
