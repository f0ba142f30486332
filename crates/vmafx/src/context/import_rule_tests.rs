//! ADR-1929 items 8 (the import rule) and 10 (one device, attached first).

use super::*;
use crate::context::ContextConfig;
use crate::fence::Fence;
use crate::frame::{MemoryKind, PixelFormat};

const W: u32 = 16;
const H: u32 = 8;

fn planar(buf: &[u8]) -> FrameImport {
    let luma = (W * H) as u64;
    let mut d = FrameImport {
        memory: Some(MemoryKind::Host),
        format: Some(PixelFormat::Yuv420p),
        bpc: 8,
        width: W,
        height: H,
        n_planes: 3,
        ..FrameImport::default()
    };
    let offsets = [0, luma, luma + luma / 4];
    let pitches = [W, W / 2, W / 2];
    for p in 0..3 {
        d.planes[p].handle = buf.as_ptr() as usize;
        d.planes[p].offset = offsets[p];
        d.planes[p].pitch = pitches[p] as u64;
    }
    d
}

fn psnr_context() -> Context {
    let mut c = Context::new(ContextConfig::default()).unwrap();
    c.use_feature("psnr", &[]).unwrap();
    c
}

/// Imports through the rule; returns the result and the imports it made.
fn by_rule(c: &Context, d: &FrameImport, input: &str) -> (Result<Frame>, u64) {
    let before = hooks::import_attempts();
    // SAFETY: `d` describes a live buffer of the caller that outlives the frame's use.
    let r = unsafe { c.import_frame(None, d, input) };
    (r, hooks::import_attempts() - before)
}

#[test]
fn one_transient_failure_is_retried() {
    let _g = hooks::test_lock();
    let buf = vec![7u8; (W * H * 3 / 2) as usize];
    let c = psnr_context();
    for status in [Status::Busy, Status::Timeout] {
        hooks::fail_imports(status, 1);
        let (r, attempts) = by_rule(&c, &planar(&buf), "main");
        assert!(r.is_ok(), "{status:?} once: {:?}", r.err());
        assert_eq!(attempts, 2, "{status:?} once");
    }
    assert_eq!(hooks::host_copies(), 0);
}

#[test]
fn a_second_failure_names_the_import() {
    let _g = hooks::test_lock();
    let buf = vec![7u8; (W * H * 3 / 2) as usize];
    let c = psnr_context();
    hooks::fail_imports(Status::Busy, 2);
    let (r, attempts) = by_rule(&c, &planar(&buf), "main");
    hooks::fail_imports(Status::Ok, 0);
    let e = r.unwrap_err();
    assert_eq!((e.status(), attempts), (Status::Busy, 2));
    for part in [
        "main: backend cpu device 0",
        "memory HOST, yuv420p 8-bit 16x8",
        "modifiers 0x0 0x0 0x0",
        "(2 attempts; no host copy)",
    ] {
        assert!(e.message().contains(part), "'{part}' not in: {e}");
    }
}

#[test]
fn a_non_transient_failure_is_not_retried() {
    let _g = hooks::test_lock();
    let buf = vec![7u8; (W * H * 3 / 2) as usize];
    let c = psnr_context();
    let mut d = planar(&buf);
    d.planes[1].modifier = 0x0100_0000_0000_0002;
    let (r, attempts) = by_rule(&c, &d, "reference");
    let e = r.unwrap_err();
    assert_eq!((e.status(), attempts), (Status::NotSup, 1), "{e}");
    assert_eq!(e.subject(), "desc.plane[1].modifier");
    assert!(e.message().contains("0x100000000000002") && e.message().contains("(1 attempt;"));
}

#[test]
fn an_unsignalled_acquire_gets_one_bounded_host_wait() {
    let _g = hooks::test_lock();
    let buf = vec![7u8; (W * H * 3 / 2) as usize];
    let config = ContextConfig {
        import_retry_wait_ns: 250_000_000,
        ..ContextConfig::default()
    };
    let mut c = Context::new(config).unwrap();
    c.use_feature("psnr", &[]).unwrap();
    let mut d = planar(&buf);
    let fence = Fence::new();
    d.acquire = Acquire::Host(Some(fence.clone()));
    hooks::set_virtual_clock(true);
    let start = hooks::clock_now_ns();
    let (r, attempts) = by_rule(&c, &d, "main");
    let waited = hooks::clock_now_ns() - start;
    hooks::set_virtual_clock(false);
    let e = r.unwrap_err();
    assert_eq!((e.status(), attempts), (Status::Busy, 2), "{e}");
    assert!(
        (250_000_000..300_000_000).contains(&waited),
        "waited {waited} ns"
    );
    assert_eq!(hooks::last_retry_wait_ns(), 250_000_000);
    // Signalled by its producer, the same frame imports at once.
    fence.signal();
    let (r, attempts) = by_rule(&c, &d, "main");
    assert!(r.is_ok() && attempts == 1);
}

#[test]
fn admission_through_the_rule_names_the_extractor() {
    let _g = hooks::test_lock();
    let buf = vec![7u8; (W * H * 3 / 2) as usize];
    let mut c = psnr_context();
    c.use_feature("float_ssim", &[]).unwrap();
    hooks::set_import_residency(crate::device::Backend::Cuda as u32);
    let (r, attempts) = by_rule(&c, &planar(&buf), "reference");
    hooks::set_import_residency(hooks::RESIDENCY_OFF);
    let e = r.unwrap_err();
    assert_eq!(
        (e.status(), e.subject(), attempts),
        (Status::NotSup, "psnr", 1)
    );
    for part in [
        "reference: backend cpu",
        "refused by 2 extractors",
        "psnr (cpu",
        "float_ssim (cpu",
        "host copy of device memory",
    ] {
        assert!(e.message().contains(part), "'{part}' not in: {e}");
    }
    assert_eq!(hooks::host_copies(), 0);
}

#[test]
fn the_device_comes_first_and_once() {
    let dev = Device::cpu();
    let mut c = Context::new(ContextConfig::default()).unwrap();
    let before = dev.ref_count();
    c.use_device(dev.clone()).unwrap();
    assert_eq!(dev.ref_count(), before + 1, "the context holds a reference");
    assert!(c.device().same_as(&dev));
    let e = c.use_device(Device::cpu()).unwrap_err();
    assert_eq!((e.status(), e.subject()), (Status::Busy, "device"));
    drop(c);
    assert_eq!(dev.ref_count(), before);

    let mut late = psnr_context();
    let e = late.use_device(dev.clone()).unwrap_err();
    assert_eq!((e.status(), e.subject()), (Status::Invalid, "context"));
}

#[test]
fn another_device_is_refused_by_the_rule() {
    let buf = vec![7u8; (W * H * 3 / 2) as usize];
    let mut c = Context::new(ContextConfig::default()).unwrap();
    c.use_device(Device::cpu()).unwrap();
    c.use_feature("psnr", &[]).unwrap();
    let other = Device::cpu();
    // SAFETY: refused before the descriptor is read.
    let e = unsafe { c.import_frame(Some(&other), &planar(&buf), "main") }.unwrap_err();
    assert_eq!((e.status(), e.subject()), (Status::Invalid, "device"));
}
