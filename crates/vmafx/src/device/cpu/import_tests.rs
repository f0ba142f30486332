use super::super::wrap::wrap_host;
use super::*;
use crate::device::Device;
use crate::fence::FenceKind;
use crate::frame::import::ReleaseCallback;
use crate::frame::{PixelFormat, Samples};
use crate::hooks;
use std::sync::atomic::{AtomicUsize, Ordering};

const W: u32 = 16;
const H: u32 = 8;

fn cpu() -> DeviceInfo {
    Device::cpu().info()
}

/// A tightly packed planar 8-bit 4:2:0 frame.
fn planar8() -> Vec<u8> {
    (0..(W * H * 3 / 2) as usize)
        .map(|i| (i * 7 % 251) as u8)
        .collect()
}

fn planar_desc(buf: &[u8]) -> FrameImport {
    let base = buf.as_ptr() as usize;
    let luma = (W * H) as usize;
    let chroma = luma / 4;
    let mut d = FrameImport {
        memory: Some(MemoryKind::Host),
        format: Some(PixelFormat::Yuv420p),
        bpc: 8,
        width: W,
        height: H,
        n_planes: 3,
        ..FrameImport::default()
    };
    let offsets = [0, luma, luma + chroma];
    let pitches = [W, W / 2, W / 2];
    for p in 0..3 {
        d.planes[p].handle = base;
        d.planes[p].offset = offsets[p] as u64;
        d.planes[p].pitch = pitches[p] as u64;
    }
    d
}

fn refused(d: &FrameImport) -> (Status, String) {
    // SAFETY: every descriptor here is over live test buffers or is refused before reading.
    let e = unsafe { import_host(d, &cpu()) }.unwrap_err();
    (e.status(), e.subject().to_string())
}

#[test]
fn planar_host_memory_is_bound_not_copied() {
    let _g = hooks::test_lock();
    hooks::reset_counters();
    let buf = planar8();
    let calls = Arc::new(AtomicUsize::new(0));
    let c2 = calls.clone();
    let mut d = planar_desc(&buf);
    d.planes[0].size = (W * H) as u64;
    d.release = Some(Arc::new(move || {
        c2.fetch_add(1, Ordering::SeqCst);
    }));
    // SAFETY: `buf` outlives the frame.
    let f = unsafe { import_host(&d, &cpu()) }.unwrap();
    match f.plane(1).samples() {
        Samples::U8(s) => assert_eq!(s.as_ptr(), buf[(W * H) as usize..].as_ptr()),
        Samples::U16(_) => panic!("8-bit"),
    }
    assert_eq!(
        f.plane(2).get(3, 1),
        buf[(W * H + W * H / 4) as usize + 8 + 3] as u16
    );
    assert_eq!(hooks::host_copies(), 0);
    let fence = f.release_fence();
    let g = f.clone();
    drop(f);
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    assert!(!fence.is_signalled());
    drop(g);
    assert!(fence.is_signalled());
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

/// The semi-planar form of `planar` (4:2:0, `bytes` per sample), each sample shifted up.
fn to_semiplanar(planar: &[u16], shift: u32, wide: bool) -> Vec<u8> {
    let luma = (W * H) as usize;
    let chroma = luma / 4;
    let mut out: Vec<u16> = planar[..luma].iter().map(|v| v << shift).collect();
    for i in 0..chroma {
        out.push(planar[luma + i] << shift);
        out.push(planar[luma + chroma + i] << shift);
    }
    if wide {
        out.iter().flat_map(|v| v.to_le_bytes()).collect()
    } else {
        out.iter().map(|v| *v as u8).collect()
    }
}

fn semiplanar_desc(buf: &[u8], format: PixelFormat, bpc: u32) -> FrameImport {
    let bytes = if bpc > 8 { 2 } else { 1 };
    let mut d = FrameImport {
        memory: Some(MemoryKind::Host),
        format: Some(format),
        bpc,
        width: W,
        height: H,
        n_planes: 2,
        ..FrameImport::default()
    };
    d.planes[0].handle = buf.as_ptr() as usize;
    d.planes[0].pitch = (W * bytes) as u64;
    d.planes[1].handle = buf.as_ptr() as usize;
    d.planes[1].offset = (W * H * bytes) as u64;
    d.planes[1].pitch = (W * bytes) as u64;
    d
}

#[test]
fn semiplanar_imports_match_the_planar_frame() {
    let _g = hooks::test_lock();
    for (format, bpc, shift) in [
        (PixelFormat::Nv12, 8, 0),
        (PixelFormat::P010, 10, 6),
        (PixelFormat::P016, 16, 0),
    ] {
        let max = (1u32 << bpc) - 1;
        let planar: Vec<u16> = (0..(W * H * 3 / 2))
            .map(|i| ((i * 37 + 11) & max) as u16)
            .collect();
        let buf = to_semiplanar(&planar, shift, bpc > 8);
        let d = semiplanar_desc(&buf, format, bpc);
        hooks::reset_counters();
        // SAFETY: `buf` outlives the frame.
        let f = unsafe { import_host(&d, &cpu()) }.unwrap();
        assert_eq!((f.format(), f.bpc()), (PixelFormat::Yuv420p, bpc));
        assert!(hooks::conversions() == 1 && hooks::host_copies() == 0);
        let luma = (W * H) as usize;
        for p in 0..3 {
            let pl = f.plane(p);
            let base = [0, luma, luma + luma / 4][p];
            for y in 0..pl.height {
                for x in 0..pl.width {
                    let want = planar[base + (y * pl.width + x) as usize];
                    assert_eq!(pl.get(x, y), want, "{format} plane {p} at ({x},{y})");
                }
            }
        }
        let bound = matches!(f.plane(0).storage, crate::frame::PlaneStorage::Foreign(_));
        assert_eq!(bound, format != PixelFormat::P010, "{format} luma binding");
    }
}

#[test]
fn refusals_name_the_field() {
    let _g = hooks::test_lock();
    let buf = planar8();
    let luma = (W * H) as u64;
    type Mutation = fn(&mut FrameImport, u64);
    let cases: &[(Mutation, Status, &str)] = &[
        (
            |d, _| d.memory = Some(MemoryKind::None),
            Status::Invalid,
            "desc.memory",
        ),
        (
            |d, _| d.memory = Some(MemoryKind::Dmabuf),
            Status::NotSup,
            "desc.memory",
        ),
        (|d, _| d.format = None, Status::Invalid, "desc.pix_fmt"),
        (|d, _| d.bpc = 17, Status::Invalid, "desc.bpc"),
        (|d, _| d.n_planes = 2, Status::Invalid, "desc.n_planes"),
        (|d, _| d.width = 0, Status::Range, "desc.w"),
        (|d, _| d.height = 40000, Status::Range, "desc.h"),
        (|d, _| d.flags = 1 << 9, Status::Invalid, "desc.flags"),
        (
            |d, _| d.planes[1].handle = 0,
            Status::Invalid,
            "desc.plane[1].handle",
        ),
        (
            |d, _| d.planes[0].pitch = W as u64 - 1,
            Status::Invalid,
            "desc.plane[0].pitch",
        ),
        (
            |d, _| d.planes[2].modifier = 1 << 56 | 1,
            Status::NotSup,
            "desc.plane[2].modifier",
        ),
        (
            |d, l| d.planes[0].size = l - 1,
            Status::Range,
            "desc.plane[0].size",
        ),
        (
            |d, l| {
                d.planes[0].size = l;
                d.planes[0].offset = 1;
            },
            Status::Range,
            "desc.plane[0].size",
        ),
        (
            |d, _| d.planes[0].offset = u64::MAX - 8,
            Status::Range,
            "desc.plane[0].size",
        ),
        (
            |d, _| d.acquire = Acquire::Other(FenceKind::CudaEvent),
            Status::NotSup,
            "desc.acquire.kind",
        ),
        (
            |d, _| d.acquire = Acquire::Host(None),
            Status::Invalid,
            "desc.acquire.handle",
        ),
    ];
    for (i, (mutate, status, subject)) in cases.iter().enumerate() {
        let mut d = planar_desc(&buf);
        mutate(&mut d, luma);
        assert_eq!(refused(&d), (*status, subject.to_string()), "case {i}");
    }
    let mut d = semiplanar_desc(&buf, PixelFormat::Nv12, 10);
    assert_eq!(refused(&d), (Status::Invalid, "desc.bpc".into()));
    d.bpc = 8;
    d.n_planes = 3;
    assert_eq!(refused(&d), (Status::Invalid, "desc.n_planes".into()));
}

#[test]
fn unsignalled_acquire_is_busy_never_a_wait() {
    let _g = hooks::test_lock();
    let buf = planar8();
    let fence = Fence::new();
    let mut d = planar_desc(&buf);
    d.acquire = Acquire::Host(Some(fence.clone()));
    assert_eq!(refused(&d), (Status::Busy, "desc.acquire".into()));
    hooks::set_switches(hooks::SKIP_ACQUIRE_WAIT);
    // SAFETY: `buf` outlives the frame.
    let planted = unsafe { import_host(&d, &cpu()) };
    hooks::set_switches(0);
    assert!(
        planted.is_ok(),
        "the planted defect lets the import through"
    );
    fence.signal();
    // SAFETY: as above.
    assert!(unsafe { import_host(&d, &cpu()) }.is_ok());
}

#[test]
fn planted_failures_and_forced_copies_are_counted() {
    let _g = hooks::test_lock();
    let buf = planar8();
    let d = planar_desc(&buf);
    hooks::reset_counters();
    hooks::fail_imports(Status::Busy, 1);
    assert_eq!(refused(&d), (Status::Busy, "desc".into()));
    hooks::set_switches(hooks::FORCE_HOST_COPY);
    // SAFETY: `buf` outlives the frame.
    let f = unsafe { import_host(&d, &cpu()) }.unwrap();
    hooks::set_switches(0);
    assert_eq!(hooks::import_attempts(), 2);
    assert_eq!(
        hooks::host_copies(),
        1,
        "one host copy per import, not per plane"
    );
    assert_eq!(hooks::host_copy_bytes(), (W * H * 3 / 2) as u64);
    assert_eq!(f.plane(0).get(5, 2), buf[(2 * W + 5) as usize] as u16);
}

#[test]
fn odd_16_bit_addresses_need_allow_copy() {
    let _g = hooks::test_lock();
    let buf = vec![0u8; (W * H * 3 + 2) as usize];
    let mut d = semiplanar_desc(&buf[1..], PixelFormat::P016, 16);
    assert_eq!(refused(&d), (Status::NotSup, "desc.plane[0].handle".into()));
    d.flags = IMPORT_ALLOW_COPY;
    // SAFETY: `buf` outlives the frame.
    assert!(unsafe { import_host(&d, &cpu()) }.is_ok());
}

/// Found by the `capi_import` fuzz target: this refusal comes after the release guard is
/// made, and dropping the guard ran the producer's callback for a frame that never existed
/// (a producer freeing its buffer on failure and in the callback would free it twice).
#[test]
fn a_refused_import_never_runs_the_release_callback() {
    let _g = hooks::test_lock();
    let buf = vec![0u8; (W * H * 3 + 2) as usize];
    let calls = Arc::new(AtomicUsize::new(0));
    let c2 = calls.clone();
    let mut d = semiplanar_desc(&buf[1..], PixelFormat::P016, 16);
    d.release = Some(Arc::new(move || {
        c2.fetch_add(1, Ordering::SeqCst);
    }));
    assert_eq!(refused(&d), (Status::NotSup, "desc.plane[0].handle".into()));
    assert_eq!(
        calls.load(Ordering::SeqCst),
        0,
        "release ran for a refused import"
    );
    d.flags = IMPORT_ALLOW_COPY;
    // SAFETY: `buf` outlives the frame.
    drop(unsafe { import_host(&d, &cpu()) }.unwrap());
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[test]
fn wrapped_host_planes_run_release_once() {
    let buf = planar8();
    let calls = Arc::new(AtomicUsize::new(0));
    let c2 = calls.clone();
    let luma = (W * H) as usize;
    let base = buf.as_ptr() as usize;
    let planes = [
        (base, W as u64),
        (base + luma, (W / 2) as u64),
        (base + luma + luma / 4, (W / 2) as u64),
    ];
    let cb: ReleaseCallback = Arc::new(move || {
        c2.fetch_add(1, Ordering::SeqCst);
    });
    // SAFETY: `buf` outlives the frame.
    let f = unsafe { wrap_host(PixelFormat::Yuv420p, 8, W, H, &planes, Some(cb.clone())) }.unwrap();
    assert_eq!(f.plane(0).get(1, 1), buf[W as usize + 1] as u16);
    drop(f);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    let mut bad = planes;
    bad[1].0 = 0;
    // SAFETY: refused before reading.
    let e = unsafe { wrap_host(PixelFormat::Yuv420p, 8, W, H, &bad, Some(cb)) }.unwrap_err();
    assert_eq!(e.subject(), "planes.data[1]");
    assert_eq!(calls.load(Ordering::SeqCst), 1, "no release on failure");
}

#[test]
fn residency_hook_makes_imports_claim_device_memory() {
    let _g = hooks::test_lock();
    let buf = planar8();
    let d = planar_desc(&buf);
    hooks::set_import_residency(crate::device::Backend::Cuda as u32);
    // SAFETY: `buf` outlives the frame.
    let f = unsafe { import_host(&d, &cpu()) };
    hooks::set_import_residency(hooks::RESIDENCY_OFF);
    assert_eq!(f.unwrap().memory(), MemoryKind::DevicePointer);
    // SAFETY: as above.
    let g = unsafe { import_host(&d, &cpu()) }.unwrap();
    assert_eq!(g.memory(), MemoryKind::Host);
}
