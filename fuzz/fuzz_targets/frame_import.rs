//! Zero-copy import descriptors (the engine behind `vmafx_frame_import`): random memory
//! kind, format, depth, size, plane count, offsets, pitches and flags over one real host
//! buffer. Each plane's `size` is the bytes really readable from its address, so the
//! importer must refuse any extent beyond it; under AddressSanitizer a read past the
//! buffer of an accepted frame is a crash. Import returns Ok or Err, never panics.
//! `VMAFX_FUZZ_TRACE=1` prints each import's outcome.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vmafx::device::Device;
use vmafx::frame::import::{FrameImport, ImportPlane};
use vmafx::frame::{MemoryKind, PixelFormat, Samples};

/// Bytes of the buffer every plane points into.
const BUFFER: usize = 64 * 64 * 2 * 3;

fn u64_at(d: &[u8], i: usize) -> u64 {
    u64::from(d.get(i).copied().unwrap_or(0)) | u64::from(d.get(i + 1).copied().unwrap_or(0)) << 8
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let buffer: Vec<u8> = (0..BUFFER).map(|i| data[i % data.len()]).collect();
    let base = buffer.as_ptr() as usize;
    let mut planes = [ImportPlane::default(); 3];
    for (p, plane) in planes.iter_mut().enumerate() {
        let at = 8 + p * 6;
        // Start somewhere in the buffer; say truthfully how much is readable from there.
        let start = (u64_at(data, at) as usize) % BUFFER;
        *plane = ImportPlane {
            handle: base + start,
            fd: -1,
            plane_index: p as u32,
            offset: u64_at(data, at + 2) % 4096,
            pitch: u64_at(data, at + 4) % 512,
            modifier: 0,
            size: (BUFFER - start) as u64,
        };
    }
    let desc = FrameImport {
        memory: MemoryKind::from_u32(u32::from(data[0] % 8)),
        format: PixelFormat::from_u32(u32::from(data[1] % 20)),
        bpc: u32::from(data[2] % 18),
        width: u32::from(data[3] % 65),
        height: u32::from(data[4] % 65),
        n_planes: u32::from(data[5] % 5),
        planes,
        flags: u32::from(data[6]) & 0x7,
        ..FrameImport::default()
    };
    // SAFETY: every plane address lies in `buffer`, which outlives the frame, and each
    // plane's `size` is exactly the bytes readable from it.
    let imported = unsafe { Device::cpu().import(&desc) };
    if std::env::var_os("VMAFX_FUZZ_TRACE").is_some() {
        match &imported {
            Ok(_) => eprintln!("import: accepted"),
            Err(e) => eprintln!("import: {} {}", e.status(), e.subject()),
        }
    }
    let Ok(frame) = imported else {
        return;
    };
    let mut sum = 0u64;
    for plane in frame.planes() {
        match plane.samples() {
            Samples::U8(s) => sum += s.iter().map(|&v| u64::from(v)).sum::<u64>(),
            Samples::U16(s) => sum += s.iter().map(|&v| u64::from(v)).sum::<u64>(),
        }
    }
    std::hint::black_box(sum);
    drop(frame);
    drop(buffer);
});
