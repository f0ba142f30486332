//! The y4m and raw yuv readers on arbitrary file contents: open, then read frames until the
//! end or an error. Every step returns Ok or Err, never panics.
//!
//! Input layout: a mode byte (bit 0: raw, else y4m; bit 1: also try `skip`), then for raw
//! four parameter bytes (format, depth, width, height), then the file's bytes.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use vmafx::io::{Limits, RawParams, VideoReader};
use vmafx::PixelFormat;

/// Small limits keep the fuzzer's memory bounded; the size checks themselves still run.
const LIMITS: Limits = Limits {
    max_width: 1024,
    max_height: 1024,
    max_frame_bytes: 4 << 20,
};

const FORMATS: [PixelFormat; 4] = [
    PixelFormat::Yuv420p,
    PixelFormat::Yuv422p,
    PixelFormat::Yuv444p,
    PixelFormat::Yuv400p,
];

/// One scratch file per fuzzing process.
fn scratch() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| std::env::temp_dir().join(format!("vmafx-fuzz-{}.bin", std::process::id())))
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let raw = mode & 1 != 0;
    let (params, body) = if raw {
        if rest.len() < 4 {
            return;
        }
        let p = RawParams {
            format: FORMATS[rest[0] as usize % FORMATS.len()],
            // 0..=17 reaches the depth check's both edges.
            bpc: u32::from(rest[1]) % 18,
            width: u32::from(rest[2]) % 40,
            height: u32::from(rest[3]) % 40,
        };
        (Some(p), &rest[4..])
    } else {
        (None, rest)
    };
    let path = scratch();
    if std::fs::write(path, body).is_err() {
        return;
    }
    let opened = match params {
        Some(p) => VideoReader::open_raw(path, p, LIMITS),
        None => VideoReader::open_y4m(path, LIMITS),
    };
    let Ok(mut reader) = opened else {
        return;
    };
    let _ = (reader.geometry(), reader.frame_bytes());
    if mode & 2 != 0 && reader.skip(1).is_err() {
        return;
    }
    for _ in 0..8 {
        match reader.next_frame() {
            Ok(Some(frame)) => {
                let _ = frame.plane(0).get(0, 0);
            }
            Ok(None) | Err(_) => break,
        }
    }
    let _ = (reader.frames_read(), reader.position());
});
