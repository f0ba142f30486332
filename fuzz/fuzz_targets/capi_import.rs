//! `vmafx_frame_import` (and `vmafx_context_import_frame`) descriptors through the C ABI:
//! random memory and fence kinds, `struct_size` values (0, 4, the 0.1.2 size, the full
//! size, a newer caller's larger one, anything in between), pitches, offsets (some near
//! 2^64), sizes, plane counts, formats, depths and flags, over one real host buffer.
//!
//! Each plane's `size` never exceeds the bytes really readable from its address, so an
//! accepted frame must lie inside the buffer: every sample of it is read back through
//! `vmafx_frame_planes()` (a read past the buffer is an AddressSanitizer crash) and compared
//! with the producer's bytes. The C contract is checked on every call: a failure returns a
//! known negative status, clears `*out` and hands back an error naming a subject and the
//! function; the release callback runs once after the last reference of an accepted frame
//! (and only when the caller's `struct_size` includes it), never for a refused one.
//! `VMAFX_FUZZ_TRACE=1` prints each call's status and the subject of its error.
#![no_main]

use std::ffi::{c_void, CStr};
use std::mem::{offset_of, size_of};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicUsize, Ordering};

use capi::abi::{VmafxContextConfig, VmafxFence, VmafxFrameImport, VmafxFramePlanes};
use capi::context::{vmafx_context_create, vmafx_context_destroy, VmafxContext};
use capi::device::{vmafx_device_create, vmafx_device_unref, VmafxDevice};
use capi::error::{
    vmafx_error_free, vmafx_error_function, vmafx_error_status, vmafx_error_subject, VmafxError,
};
use capi::fence::{vmafx_fence_create, vmafx_fence_destroy, vmafx_fence_signal, vmafx_fence_wait};
use capi::frame::{
    vmafx_frame_planes, vmafx_frame_ref, vmafx_frame_release_fence, vmafx_frame_unref, VmafxFrame,
};
use capi::import::vmafx_frame_import;
use capi::import_rule::vmafx_context_import_frame;
use libfuzzer_sys::fuzz_target;

/// Bytes of the buffer every plane points into (a 64x64 4:4:4 16-bit frame).
const BUFFER: usize = 64 * 64 * 2 * 3;
/// Bytes of input the descriptor takes before the buffer's fill.
const HEADER: usize = 12 + 3 * 8;
/// Pixel format values tried: the ABI's, and two that are not.
const FORMATS: [u32; 10] = [0, 1, 2, 3, 4, 16, 17, 18, 5, 255];

fn byte(d: &[u8], i: usize) -> u8 {
    d.get(i).copied().unwrap_or(0)
}

fn u16_at(d: &[u8], i: usize) -> u64 {
    u64::from(byte(d, i)) | u64::from(byte(d, i + 1)) << 8
}

unsafe extern "C" fn on_release(user: *mut c_void) {
    // SAFETY: `user` is the counter of the iteration that set this callback; it outlives
    // every reference of the frame.
    unsafe { &*(user as *const AtomicUsize) }.fetch_add(1, Ordering::SeqCst);
}

/// The error of a failed call: checks the contract and frees it.
unsafe fn check_failure(status: i32, err: *mut VmafxError, function: &str) {
    assert!((-11..0).contains(&status), "{function}: status {status}");
    assert!(!err.is_null(), "{function}: failed without an error");
    // SAFETY: a live error from the library.
    unsafe {
        assert_eq!(vmafx_error_status(err), status);
        let subject = CStr::from_ptr(vmafx_error_subject(err)).to_bytes();
        assert!(!subject.is_empty(), "{function}: the error names nothing");
        let named = CStr::from_ptr(vmafx_error_function(err)).to_bytes();
        assert_eq!(named, function.as_bytes());
        vmafx_error_free(err);
    }
}

/// Sample `x` of row `y` of a plane the library gives.
unsafe fn sample(pl: &VmafxFramePlanes, p: usize, x: usize, y: usize) -> u16 {
    // SAFETY: (x, y) lies inside plane p of an accepted frame, as vmafx_frame_planes says.
    unsafe {
        let row = (pl.data[p] as *const u8).add(y * pl.stride[p] as usize);
        if pl.bpc > 8 {
            u16::from_le_bytes([*row.add(2 * x), *row.add(2 * x + 1)])
        } else {
            u16::from(*row.add(x))
        }
    }
}

/// The producer's sample `i` of row `y` of descriptor plane `p` (`wide`: 16-bit LE).
fn producer(buf: &[u8], base: usize, d: &VmafxFrameImport, p: usize, i: usize, y: usize) -> u16 {
    let pl = &d.plane[p];
    let start = pl.handle - base + pl.offset as usize + y * pl.pitch as usize;
    let wide = matches!(d.pix_fmt, 17 | 18) || (d.pix_fmt < 16 && d.bpc > 8);
    if wide {
        u16::from_le_bytes([buf[start + 2 * i], buf[start + 2 * i + 1]])
    } else {
        u16::from(buf[start + i])
    }
}

/// Reads every sample of an accepted frame and compares it with the producer's bytes.
unsafe fn check_frame(frame: *mut VmafxFrame, d: &VmafxFrameImport, buf: &[u8]) {
    let mut pl: VmafxFramePlanes = unsafe { std::mem::zeroed() };
    pl.struct_size = size_of::<VmafxFramePlanes>() as u32;
    let mut err = null_mut();
    // SAFETY: a live frame and a full-size out struct.
    let status = unsafe { vmafx_frame_planes(frame, &mut pl, &mut err) };
    assert_eq!(status, 0, "vmafx_frame_planes on an accepted frame");
    let semi = d.pix_fmt >= 16;
    let (w, h) = (d.w, d.h);
    let (pix_fmt, bpc) = match d.pix_fmt {
        16 => (1, 8),
        17 => (1, 10),
        18 => (1, 16),
        f => (f, d.bpc),
    };
    assert_eq!((pl.pix_fmt, pl.bpc), (pix_fmt, bpc));
    let chroma = match pix_fmt {
        1 => Some((w >> 1, h >> 1)),
        2 => Some((w >> 1, h)),
        3 => Some((w, h)),
        _ => None,
    };
    assert_eq!(pl.n_planes, if chroma.is_some() { 3 } else { 1 });
    assert_eq!((pl.w[0], pl.h[0]), (w, h));
    if let Some((cw, ch)) = chroma {
        assert_eq!((pl.w[1], pl.h[1], pl.w[2], pl.h[2]), (cw, ch, cw, ch));
    }
    let shift = if d.pix_fmt == 17 { 6 } else { 0 };
    let base = buf.as_ptr() as usize;
    for p in 0..pl.n_planes as usize {
        for y in 0..pl.h[p] as usize {
            for x in 0..pl.w[p] as usize {
                // SAFETY: inside the plane.
                let got = unsafe { sample(&pl, p, x, y) };
                let want = match (semi, p) {
                    (true, 1) | (true, 2) => producer(buf, base, d, 1, 2 * x + p - 1, y) >> shift,
                    _ => producer(buf, base, d, p, x, y) >> shift,
                };
                assert_eq!(got, want, "plane {p} sample ({x}, {y})");
            }
        }
    }
}

/// A live HOST fence for the acquire field; signalled when `signalled`.
unsafe fn host_fence(signalled: bool) -> VmafxFence {
    let mut f: VmafxFence = unsafe { std::mem::zeroed() };
    f.struct_size = size_of::<VmafxFence>() as u32;
    // SAFETY: a full-size out struct; error NULL logs nothing on success.
    unsafe {
        assert_eq!(vmafx_fence_create(null_mut(), 1, &mut f, null_mut()), 0);
        if signalled {
            assert_eq!(vmafx_fence_signal(&f, null_mut()), 0);
        }
    }
    f
}

/// The descriptor the input describes over `buf` (its acquire fence `fence`).
fn descriptor(
    data: &[u8],
    buf: &[u8],
    fence: &VmafxFence,
    counter: &AtomicUsize,
) -> VmafxFrameImport {
    // SAFETY: every field of the ABI struct is valid all-zero.
    let mut d: VmafxFrameImport = unsafe { std::mem::zeroed() };
    d.struct_size = size_of::<VmafxFrameImport>() as u32;
    d.memory = u32::from(data[0] % 10);
    d.pix_fmt = FORMATS[usize::from(data[1] % 10)];
    d.bpc = u32::from(data[2] % 18);
    let big = data[11] & 8 != 0;
    let dim = |v: u8| {
        if big {
            u32::from(v) << 9
        } else {
            u32::from(v % 65)
        }
    };
    d.w = dim(data[3]);
    d.h = dim(data[4]);
    d.n_planes = u32::from(data[5] % 5);
    d.flags = u32::from(data[6] & 0x7);
    let base = buf.as_ptr() as usize;
    for (p, plane) in d.plane.iter_mut().enumerate() {
        let at = 12 + p * 8;
        let sel = byte(data, at + 7);
        let start = (u16_at(data, at) as usize) % BUFFER;
        let truth = (BUFFER - start) as u64;
        plane.handle = if sel & 0x80 != 0 { 0 } else { base + start };
        plane.fd = -1;
        plane.plane_index = p as u32;
        plane.offset = match sel & 3 {
            0 => 0,
            1 => u16_at(data, at + 2) % 4096,
            2 => u64::MAX - u16_at(data, at + 2),
            _ => u16_at(data, at + 2) << 32,
        };
        plane.pitch = match (sel >> 2) & 3 {
            0 | 1 => u16_at(data, at + 4) % 1024,
            2 => u64::MAX >> (u16_at(data, at + 4) % 64),
            _ => 0,
        };
        plane.modifier = u64::from(sel & 0x10 != 0);
        // Never more than is readable from the address: a smaller size is still truthful.
        let shrink = u64::from(byte(data, at + 6)) * 32;
        plane.size = truth.saturating_sub(shrink).max(1);
    }
    d.acquire.struct_size = match data[10] & 3 {
        0 => size_of::<VmafxFence>() as u32,
        1 => 0,
        2 => 4,
        _ => 24,
    };
    d.acquire.kind = u32::from(data[9] % 10);
    d.acquire.handle = match (data[10] >> 2) & 3 {
        0 | 1 => fence.handle,
        2 => 0,
        _ => usize::from(data[10]) << 20 | 0xdead,
    };
    if data[11] & 2 != 0 {
        d.release = Some(on_release);
        d.user = counter as *const AtomicUsize as *mut c_void;
    }
    d
}

/// The `struct_size` the caller claims: the full size, the 0.1.2 size, 0, 4, a newer
/// caller's larger struct, or anything up to the full size.
fn claimed_size(data: &[u8]) -> usize {
    let full = size_of::<VmafxFrameImport>();
    match data[7] % 8 {
        0 => full,
        1 => offset_of!(VmafxFrameImport, release),
        2 => 0,
        3 => 4,
        4 => full + 8 * usize::from(data[8] % 8 + 1),
        _ => usize::from(data[8]) * full / 255,
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < HEADER {
        return;
    }
    let fill = &data[HEADER..];
    let buffer: Vec<u8> = (0..BUFFER)
        .map(|i| fill.get(i % fill.len().max(1)).copied().unwrap_or(i as u8))
        .collect();
    let counter = AtomicUsize::new(0);
    // SAFETY: the library's own calls with valid arguments.
    let fence = unsafe { host_fence((data[10] >> 2) & 3 == 0) };
    let d = descriptor(data, &buffer, &fence, &counter);

    // The caller's struct, as it compiled it: `size` bytes, its struct_size in front.
    let size = claimed_size(data);
    let mut raw = vec![0u64; size.max(size_of::<VmafxFrameImport>()).div_ceil(8)];
    // SAFETY: `raw` holds at least size_of::<VmafxFrameImport>() bytes, 8-byte aligned.
    unsafe { (raw.as_mut_ptr() as *mut VmafxFrameImport).write(d) };
    let bytes = raw.as_mut_ptr() as *mut u8;
    // SAFETY: inside `raw`; past the caller's size the struct is not the caller's.
    unsafe {
        std::ptr::write_bytes(
            bytes.add(size.min(raw.len() * 8)),
            0,
            raw.len() * 8 - size.min(raw.len() * 8),
        );
        (bytes as *mut u32).write(size as u32);
    }
    let desc = raw.as_ptr() as *const VmafxFrameImport;

    let mode = data[11];
    let mut device: *mut VmafxDevice = null_mut();
    if mode & 1 != 0 {
        // SAFETY: NULL desc is the CPU.
        assert_eq!(
            unsafe { vmafx_device_create(std::ptr::null(), &mut device, null_mut()) },
            0
        );
    }
    // Not NULL: a failure must clear it.
    let mut frame: *mut VmafxFrame = std::ptr::dangling_mut();
    let mut err: *mut VmafxError = null_mut();
    let (status, function) = if mode & 4 != 0 {
        // SAFETY: every field of the ABI struct is valid all-zero.
        let mut cfg: VmafxContextConfig = unsafe { std::mem::zeroed() };
        cfg.struct_size = size_of::<VmafxContextConfig>() as u32;
        cfg.import_retry_wait_ns = 1_000_000;
        let mut ctx: *mut VmafxContext = null_mut();
        // SAFETY: valid arguments; the descriptor is readable for its struct_size and its
        // planes for their sizes.
        unsafe {
            assert_eq!(vmafx_context_create(&cfg, &mut ctx, null_mut()), 0);
            let s = vmafx_context_import_frame(
                ctx,
                device,
                desc,
                std::ptr::null(),
                &mut frame,
                &mut err,
            );
            assert_eq!(vmafx_context_destroy(ctx, null_mut()), 0);
            (s, "vmafx_context_import_frame")
        }
    } else {
        // SAFETY: as above.
        let s = unsafe { vmafx_frame_import(device, desc, &mut frame, &mut err) };
        (s, "vmafx_frame_import")
    };
    if std::env::var_os("VMAFX_FUZZ_TRACE").is_some() {
        let subject = if err.is_null() {
            String::new()
        } else {
            // SAFETY: a live error of that call.
            unsafe { CStr::from_ptr(vmafx_error_subject(err)) }
                .to_string_lossy()
                .into_owned()
        };
        eprintln!("{function}: status {status} {subject}");
    }
    if status != 0 {
        assert!(frame.is_null(), "{function}: *out not cleared on failure");
        // SAFETY: the error of that call.
        unsafe { check_failure(status, err, function) };
        assert_eq!(
            counter.load(Ordering::SeqCst),
            0,
            "release ran for a refused import"
        );
    } else {
        assert!(!frame.is_null() && err.is_null());
        // SAFETY: an accepted frame whose planes lie in `buffer`.
        unsafe {
            check_frame(frame, &d, &buffer);
            let extra = usize::from(mode >> 4 & 3);
            for _ in 0..extra {
                assert_eq!(vmafx_frame_ref(frame), frame);
            }
            let mut rel: VmafxFence = std::mem::zeroed();
            rel.struct_size = size_of::<VmafxFence>() as u32;
            assert_eq!(vmafx_frame_release_fence(frame, 1, &mut rel, null_mut()), 0);
            assert_eq!(
                vmafx_fence_wait(&rel, 0, null_mut()),
                1,
                "released while referenced"
            );
            for _ in 0..extra {
                vmafx_frame_unref(frame);
            }
            assert_eq!(counter.load(Ordering::SeqCst), 0, "release ran early");
            vmafx_frame_unref(frame);
            assert_eq!(vmafx_fence_wait(&rel, 0, null_mut()), 0, "not released");
            assert_eq!(vmafx_fence_destroy(&rel, null_mut()), 0);
        }
        let with_release = size >= size_of::<VmafxFrameImport>() && mode & 2 != 0;
        assert_eq!(counter.load(Ordering::SeqCst), usize::from(with_release));
    }
    // SAFETY: the library's own objects, released once.
    unsafe {
        assert_eq!(vmafx_fence_destroy(&fence, null_mut()), 0);
        vmafx_device_unref(device);
    }
    drop(buffer);
});
