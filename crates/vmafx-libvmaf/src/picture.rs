//! Pictures: `vmaf_picture_alloc`, `vmaf_picture_unref`, and the step that turns a
//! picture into an engine frame without copying its samples.
//!
//! A picture's planes live in one 64-byte-aligned [`PictureBuffer`]; `VmafPicture::ref` is
//! an `Arc` of it turned into a raw pointer (the caller's one count). Every such pointer
//! handed out is recorded in `LIVE` until it is unref'd or read, so an unref or a read of
//! a picture this library did not allocate (or already took) answers `-EINVAL` instead of
//! freeing foreign memory.

use std::alloc::Layout;
use std::collections::HashSet;
use std::ffi::{c_int, c_uint, c_void};
use std::ptr::NonNull;
use std::sync::{Arc, Mutex, MutexGuard};

use vmafx::frame::{plane_sizes, validate_geometry, ForeignPlane, Plane, PlaneStorage, Samples};
use vmafx::{Frame, FrameBuilder, MemoryKind, PixelFormat};

use crate::errno::{EINVAL, ENOMEM};
use crate::ffi::VmafPicture;
use crate::{errno_of, guard};

/// Row strides are a multiple of this many bytes, and planes start on such a boundary.
const ALIGN: usize = 64;

/// The memory behind a picture: one allocation holding every plane, or an engine frame
/// whose planes the picture views (`vmafx_frame_to_picture`).
#[derive(Debug)]
pub struct PictureBuffer {
    memory: Memory,
}

#[derive(Debug)]
enum Memory {
    Owned { ptr: NonNull<u8>, layout: Layout },
    Frame(Frame),
}

// SAFETY: the owned allocation is plain memory owned by this value; C writes it only before
// handing the picture over, and the engine only reads it afterwards. A frame is Send + Sync.
unsafe impl Send for PictureBuffer {}
// SAFETY: as above; shared access through frames is read-only.
unsafe impl Sync for PictureBuffer {}

/// The byte range `[start, end)` of a slice.
fn span<T>(s: &[T]) -> (usize, usize) {
    let start = s.as_ptr() as usize;
    (start, start + std::mem::size_of_val(s))
}

impl PictureBuffer {
    fn new(size: usize) -> Option<Self> {
        let layout = Layout::from_size_align(size.max(1), ALIGN).ok()?;
        // SAFETY: the layout has a non-zero size.
        let ptr = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        Some(PictureBuffer {
            memory: Memory::Owned { ptr, layout },
        })
    }

    /// A buffer that keeps `frame` (and so its planes) alive.
    pub(crate) fn of_frame(frame: Frame) -> Self {
        PictureBuffer {
            memory: Memory::Frame(frame),
        }
    }

    /// Whether `[p, p + len)` lies inside the buffer (inside plane `i` of a frame).
    fn holds(&self, i: usize, p: *const u8, len: usize) -> bool {
        let (start, end) = match &self.memory {
            Memory::Owned { ptr, layout } => {
                let start = ptr.as_ptr() as usize;
                (start, start + layout.size())
            }
            Memory::Frame(f) if i < f.planes().len() => match f.plane(i).samples() {
                Samples::U8(s) => span(s),
                Samples::U16(s) => span(s),
            },
            Memory::Frame(_) => return false,
        };
        let p = p as usize;
        p >= start && p.checked_add(len).is_some_and(|e| e <= end)
    }
}

impl Drop for PictureBuffer {
    fn drop(&mut self) {
        if let Memory::Owned { ptr, layout } = &self.memory {
            // SAFETY: allocated in `new` with this layout, freed once.
            unsafe { std::alloc::dealloc(ptr.as_ptr(), *layout) }
        }
    }
}

/// `ref` pointers currently owned by C callers.
static LIVE: Mutex<Option<HashSet<usize>>> = Mutex::new(None);

fn live() -> MutexGuard<'static, Option<HashSet<usize>>> {
    LIVE.lock().unwrap_or_else(|p| p.into_inner())
}

/// The engine's pixel format of libvmaf's `enum VmafPixelFormat` value.
pub(crate) fn pixel_format(v: c_uint) -> Option<PixelFormat> {
    match v {
        1 => Some(PixelFormat::Yuv420p),
        2 => Some(PixelFormat::Yuv422p),
        3 => Some(PixelFormat::Yuv444p),
        4 => Some(PixelFormat::Yuv400p),
        _ => None,
    }
}

/// Fills `pic` with freshly allocated zeroed planes; the caller owns one count.
pub(crate) fn alloc_into(
    pic: &mut VmafPicture,
    pix_fmt: c_uint,
    bpc: c_uint,
    w: c_uint,
    h: c_uint,
) -> c_int {
    let Some(format) = pixel_format(pix_fmt) else {
        return -EINVAL;
    };
    if let Err(e) = validate_geometry(format, bpc, w, h) {
        return errno_of(&e);
    }
    let bytes = if bpc > 8 { 2 } else { 1 };
    let sizes = plane_sizes(format, w, h);
    let mut offsets = [0usize; 3];
    let mut strides = [0usize; 3];
    let mut total = 0usize;
    for (i, (pw, ph)) in sizes.iter().enumerate() {
        strides[i] = (*pw as usize * bytes).div_ceil(ALIGN) * ALIGN;
        offsets[i] = total;
        total += strides[i] * *ph as usize;
    }
    let Some(buf) = PictureBuffer::new(total) else {
        return -ENOMEM;
    };
    let Memory::Owned { ptr, .. } = &buf.memory else {
        return -ENOMEM;
    };
    let base = ptr.as_ptr();
    *pic = VmafPicture {
        pix_fmt,
        bpc,
        w: [0; 3],
        h: [0; 3],
        stride: [0; 3],
        data: [std::ptr::null_mut(); 3],
        r#ref: std::ptr::null_mut(),
        priv_: std::ptr::null_mut(),
    };
    for (i, (pw, ph)) in sizes.iter().enumerate() {
        pic.w[i] = *pw;
        pic.h[i] = *ph;
        pic.stride[i] = strides[i] as isize;
        // SAFETY: offsets[i] + strides[i] * h is at most `total`, the buffer's size.
        pic.data[i] = unsafe { base.add(offsets[i]) } as *mut c_void;
    }
    pic.r#ref = hand_out(Arc::new(buf));
    0
}

/// Records `buf` as owned by a C picture and returns the picture's `ref` pointer.
pub(crate) fn hand_out(buf: Arc<PictureBuffer>) -> *mut c_void {
    let raw = Arc::into_raw(buf) as *mut c_void;
    live().get_or_insert_with(HashSet::new).insert(raw as usize);
    raw
}

/// Takes the caller's count of `pic`'s buffer if this library handed it out and it was
/// not taken yet; the picture is cleared.
fn take_ref(pic: &mut VmafPicture) -> Option<Arc<PictureBuffer>> {
    let raw = pic.r#ref;
    if raw.is_null() || !live().as_mut().is_some_and(|s| s.remove(&(raw as usize))) {
        return None;
    }
    // SAFETY: `raw` came from Arc::into_raw in alloc_into and was still live (just removed,
    // so this count is taken once).
    let buf = unsafe { Arc::from_raw(raw as *const PictureBuffer) };
    // SAFETY: VmafPicture is plain data; all-zero is its cleared state.
    *pic = unsafe { std::mem::zeroed() };
    Some(buf)
}

/// Whether `pic` holds a count this library handed out.
pub(crate) fn is_live(pic: &VmafPicture) -> bool {
    !pic.r#ref.is_null()
        && live()
            .as_ref()
            .is_some_and(|s| s.contains(&(pic.r#ref as usize)))
}

/// Allocates a `w`x`h` picture of `pix_fmt` (libvmaf's enum) at `bpc` bits.
///
/// # Safety
/// `pic` is NULL or points to a writable `VmafPicture`.
#[no_mangle]
pub unsafe extern "C" fn vmaf_picture_alloc(
    pic: *mut VmafPicture,
    pix_fmt: c_uint,
    bpc: c_uint,
    w: c_uint,
    h: c_uint,
) -> c_int {
    guard(|| {
        // SAFETY: NULL or writable by the contract above.
        let Some(pic) = (unsafe { pic.as_mut() }) else {
            return -EINVAL;
        };
        alloc_into(pic, pix_fmt, bpc, w, h)
    })
}

/// Drops the caller's count of `pic` and clears it; `-EINVAL` for a picture this library
/// did not hand out or that was already unref'd or read.
///
/// # Safety
/// `pic` is NULL or points to a writable `VmafPicture`.
#[no_mangle]
pub unsafe extern "C" fn vmaf_picture_unref(pic: *mut VmafPicture) -> c_int {
    guard(|| {
        // SAFETY: NULL or writable by the contract above.
        let Some(pic) = (unsafe { pic.as_mut() }) else {
            return -EINVAL;
        };
        match take_ref(pic) {
            Some(buf) => {
                drop(buf);
                0
            }
            None => -EINVAL,
        }
    })
}

/// Where one plane of a checked picture lies.
pub(crate) struct PlaneSpan {
    width: u32,
    height: u32,
    stride: usize,
    data: *const u8,
    len: usize,
}

/// Checks `pic`'s geometry and that every plane lies inside `buf`.
fn check(pic: &VmafPicture, buf: &PictureBuffer) -> Result<(PixelFormat, Vec<PlaneSpan>), c_int> {
    let format = pixel_format(pic.pix_fmt).ok_or(-EINVAL)?;
    validate_geometry(format, pic.bpc, pic.w[0], pic.h[0]).map_err(|e| errno_of(&e))?;
    let bytes = if pic.bpc > 8 { 2 } else { 1 };
    let mut spans = Vec::new();
    for (i, (w, h)) in plane_sizes(format, pic.w[0], pic.h[0])
        .into_iter()
        .enumerate()
    {
        let stride = usize::try_from(pic.stride[i]).map_err(|_| -EINVAL)?;
        let data = pic.data[i] as *const u8;
        let row = w as usize * bytes;
        if pic.w[i] != w || pic.h[i] != h || stride < row || !stride.is_multiple_of(bytes) {
            return Err(-EINVAL);
        }
        if !(data as usize).is_multiple_of(bytes) {
            return Err(-EINVAL);
        }
        let len = (h as usize - 1) * stride + row;
        if !buf.holds(i, data, len) {
            return Err(-EINVAL);
        }
        spans.push(PlaneSpan {
            width: w,
            height: h,
            stride: stride / bytes,
            data,
            len,
        });
    }
    Ok((format, spans))
}

/// Checks that `pic` is live, well formed and inside its buffer, without taking it.
pub(crate) fn check_picture(pic: &VmafPicture) -> Result<(PixelFormat, Vec<PlaneSpan>), c_int> {
    if !is_live(pic) {
        return Err(-EINVAL);
    }
    // SAFETY: live, so `ref` is an Arc<PictureBuffer> from alloc_into with a count we only
    // borrow here (ManuallyDrop keeps the count untouched); C cannot drop it meanwhile, as
    // libvmaf's API is not to be called on one context from two threads.
    let borrowed =
        std::mem::ManuallyDrop::new(unsafe { Arc::from_raw(pic.r#ref as *const PictureBuffer) });
    check(pic, &borrowed)
}

/// Turns `pic` into an engine frame that reads its planes in place, taking the caller's
/// count (the picture is cleared). On `Err` the picture is left as it was.
pub(crate) fn into_frame(pic: &mut VmafPicture) -> Result<Frame, c_int> {
    let (format, spans) = check_picture(pic)?;
    let (bpc, w, h) = (pic.bpc, pic.w[0], pic.h[0]);
    let buf = take_ref(pic).ok_or(-EINVAL)?;
    frame_over(buf, format, bpc, w, h, spans)
}

/// An engine frame viewing `pic`'s planes, holding a count of its buffer of its own: the
/// picture stays the caller's (`vmafx_frame_from_picture`).
pub(crate) fn view_frame(pic: &VmafPicture) -> Result<Frame, c_int> {
    let (format, spans) = check_picture(pic)?;
    // SAFETY: check_picture proved `ref` live, an Arc<PictureBuffer> from hand_out; this adds
    // a count for the frame and leaves the picture's count to the caller.
    let buf = unsafe {
        Arc::increment_strong_count(pic.r#ref as *const PictureBuffer);
        Arc::from_raw(pic.r#ref as *const PictureBuffer)
    };
    frame_over(buf, format, pic.bpc, pic.w[0], pic.h[0], spans)
}

/// A frame over `spans` of `buf`, which it keeps alive.
fn frame_over(
    buf: Arc<PictureBuffer>,
    format: PixelFormat,
    bpc: u32,
    w: u32,
    h: u32,
    spans: Vec<PlaneSpan>,
) -> Result<Frame, c_int> {
    let guard: Arc<dyn Send + Sync> = buf;
    let wide = bpc > 8;
    let planes = spans
        .into_iter()
        .map(|s| Plane {
            width: s.width,
            height: s.height,
            stride: s.stride,
            // SAFETY: `check` proved [data, data+len) inside the buffer (2-aligned when
            // wide); `guard` keeps the buffer alive, and the planes are only read.
            storage: PlaneStorage::Foreign(unsafe {
                ForeignPlane::new(s.data, s.len, wide, guard.clone())
            }),
        })
        .collect();
    FrameBuilder::from_planes(format, bpc, w, h, MemoryKind::Host, planes)
        .map(FrameBuilder::build)
        .map_err(|e| errno_of(&e))
}
