//! Every semi-planar and packed import layout of ABI 0.1.11 scores bit for bit as the
//! planar host frame it was made from (ADR-1929 rule 6, generalised).
//!
//! The producer side is written here, apart from the row readers it checks: each frame of
//! a conformance clip (4:2:2 and 4:4:4 8-bit clips; deeper 4:2:2 / 4:4:4 frames made from
//! the 10-bit 4:2:0 clip by repeating its chroma, and shifted up for 12 and 16 bits) is
//! packed into the layout, padded rows included, imported on the CPU device and scored by
//! a context beside the host frames. Every score at every frame must have the same bits,
//! each import must be one counted conversion and none a host copy, and the luma of the
//! layouts whose samples are the frame's must be bound in place.

use super::import_bitexact::{plane_samples, scaled, session, Scores};
use crate::device::cpu::import_host;
use crate::device::Device;
use crate::frame::import::FrameImport;
use crate::frame::{Frame, FrameBuilder, MemoryKind, PixelFormat, PlaneStorage, SamplesMut};
use crate::hooks;
use crate::testutil;

/// Producer bytes in an 8-byte aligned buffer (so 16-bit planes may be bound).
struct Buffer {
    words: Vec<u64>,
}

impl Buffer {
    fn new(bytes: &[u8]) -> Self {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        for (i, b) in bytes.iter().enumerate() {
            words[i / 8] |= (*b as u64) << (8 * (i % 8));
        }
        Buffer { words }
    }

    fn address(&self) -> usize {
        self.words.as_ptr() as usize
    }
}

/// Appends `v` as a little-endian value of `bytes` bytes.
fn put(out: &mut Vec<u8>, v: u32, bytes: usize) {
    out.extend_from_slice(&v.to_le_bytes()[..bytes]);
}

/// One packed row of `format` from the planar rows `y`, `cb`, `cr`.
fn packed_row(format: PixelFormat, y: &[u16], cb: &[u16], cr: &[u16]) -> Vec<u8> {
    use PixelFormat::*;
    let mut o = Vec::new();
    let (y, cb, cr): (Vec<u32>, Vec<u32>, Vec<u32>) = (
        y.iter().map(|&v| v as u32).collect(),
        cb.iter().map(|&v| v as u32).collect(),
        cr.iter().map(|&v| v as u32).collect(),
    );
    match format {
        Yuyv422 | Uyvy422 | Y210 | Y212 => {
            let (bytes, s) = match format {
                Y210 => (2, 6),
                Y212 => (2, 4),
                _ => (1, 0),
            };
            for k in 0..cb.len() {
                let order = if format == Uyvy422 {
                    [cb[k], y[2 * k], cr[k], y[2 * k + 1]]
                } else {
                    [y[2 * k], cb[k], y[2 * k + 1], cr[k]]
                };
                for v in order {
                    put(&mut o, v << s, bytes);
                }
            }
        }
        Vuyx | Ayuv => {
            for x in 0..y.len() {
                let px = if format == Vuyx {
                    [cr[x], cb[x], y[x], 0xa5]
                } else {
                    [0x5a, y[x], cb[x], cr[x]]
                };
                o.extend(px.iter().map(|&v| v as u8));
            }
        }
        Xv36 => {
            for x in 0..y.len() {
                for v in [cb[x] << 4, y[x] << 4, cr[x] << 4, 0xabcd] {
                    put(&mut o, v, 2);
                }
            }
        }
        Y410 => {
            for x in 0..y.len() {
                put(&mut o, cb[x] | y[x] << 10 | cr[x] << 20 | 3 << 30, 4);
            }
        }
        V210 => {
            // Cb0 Y0 Cr0 Y1 Cb1 Y2 Cr1 Y3 Cb2 Y4 Cr2 Y5 per six pixels, zero past the row.
            let at = |v: &[u32], i: usize| v.get(i).copied().unwrap_or(0);
            for b in 0..y.len().div_ceil(6) {
                let (p, c) = (6 * b, 3 * b);
                let seq = [
                    at(&cb, c),
                    at(&y, p),
                    at(&cr, c),
                    at(&y, p + 1),
                    at(&cb, c + 1),
                    at(&y, p + 2),
                    at(&cr, c + 1),
                    at(&y, p + 3),
                    at(&cb, c + 2),
                    at(&y, p + 4),
                    at(&cr, c + 2),
                    at(&y, p + 5),
                ];
                for t in seq.chunks(3) {
                    put(&mut o, t[0] | t[1] << 10 | t[2] << 20 | 2 << 30, 4);
                }
            }
        }
        other => panic!("{other} is not packed"),
    }
    o
}

/// Rows of `plane` of `f`, `w` samples each.
fn rows(f: &Frame, p: usize) -> Vec<Vec<u16>> {
    let w = f.plane(p).width as usize;
    plane_samples(f, p).chunks(w).map(|r| r.to_vec()).collect()
}

/// `rows` with `pad` bytes of 0xee after each: the planes' bytes and pitch.
fn padded(rows: Vec<Vec<u8>>, pad: usize) -> (Vec<u8>, u64) {
    let pitch = rows[0].len() + pad;
    let mut out = Vec::with_capacity(pitch * rows.len());
    for r in rows {
        out.extend_from_slice(&r);
        out.resize(out.len() + pad, 0xee);
    }
    (out, pitch as u64)
}

/// `f` laid out by a producer as `format`: the buffer and the import descriptor over it.
fn produce(f: &Frame, format: PixelFormat, bpc: u32) -> (Buffer, FrameImport) {
    use PixelFormat::*;
    let (y, cb, cr) = (rows(f, 0), rows(f, 1), rows(f, 2));
    let mut planes: Vec<(Vec<u8>, u64)> = Vec::new();
    match format {
        Nv16 | P210 | P216 | Nv24 | P410 | P416 => {
            let (bytes, s) = match format {
                Nv16 | Nv24 => (1, 0),
                P210 | P410 => (2, 6),
                _ => (2, 0),
            };
            let luma = y.iter().map(|r| {
                let mut o = Vec::new();
                r.iter().for_each(|&v| put(&mut o, (v as u32) << s, bytes));
                o
            });
            planes.push(padded(luma.collect(), 32));
            let chroma = cb.iter().zip(&cr).map(|(b, r)| {
                let mut o = Vec::new();
                for (&b, &r) in b.iter().zip(r) {
                    put(&mut o, (b as u32) << s, bytes);
                    put(&mut o, (r as u32) << s, bytes);
                }
                o
            });
            planes.push(padded(chroma.collect(), 16));
        }
        Yuv444pMsb => {
            for p in [&y, &cb, &cr] {
                let shifted = p.iter().map(|r| {
                    let mut o = Vec::new();
                    r.iter()
                        .for_each(|&v| put(&mut o, (v as u32) << (16 - bpc), 2));
                    o
                });
                planes.push(padded(shifted.collect(), 8));
            }
        }
        _ => {
            let packed: Vec<Vec<u8>> = (0..y.len())
                .map(|i| packed_row(format, &y[i], &cb[i], &cr[i]))
                .collect();
            // V210 rows are padded to 128 bytes, as capture cards do.
            let pad = if format == V210 {
                packed[0].len().next_multiple_of(128) - packed[0].len()
            } else {
                24
            };
            planes.push(padded(packed, pad));
        }
    }
    let mut bytes = Vec::new();
    let mut layout = Vec::new();
    for (b, pitch) in planes {
        layout.push((bytes.len() as u64, pitch));
        bytes.extend_from_slice(&b);
    }
    let buffer = Buffer::new(&bytes);
    let mut d = FrameImport {
        memory: Some(MemoryKind::Host),
        format: Some(format),
        bpc,
        width: f.width(),
        height: f.height(),
        n_planes: layout.len() as u32,
        ..FrameImport::default()
    };
    for (p, (offset, pitch)) in layout.into_iter().enumerate() {
        d.planes[p].handle = buffer.address();
        d.planes[p].offset = offset;
        d.planes[p].pitch = pitch;
        d.planes[p].size = bytes.len() as u64;
    }
    (buffer, d)
}

/// `frames` (4:2:0) as `format` frames (4:2:2 or 4:4:4), each chroma sample repeated.
fn upsampled(frames: &[Frame], format: PixelFormat) -> Vec<Frame> {
    let (sx, sy) = format.chroma_shift();
    frames
        .iter()
        .map(|f| {
            let mut b = FrameBuilder::new(format, f.bpc(), f.width(), f.height()).unwrap();
            for p in 0..3 {
                let src = plane_samples(f, p);
                let sw = f.plane(p).width as usize;
                let pl = b.plane_mut(p);
                let (w, h, stride) = (pl.width as usize, pl.height as usize, pl.stride);
                let (ux, uy) = if p == 0 { (0, 0) } else { (1 - sx, 1 - sy) };
                let SamplesMut::U16(s) = pl.samples_mut().unwrap() else {
                    panic!("a 10-bit frame has 16-bit samples")
                };
                for y in 0..h {
                    for x in 0..w {
                        s[y * stride + x] = src[(y >> uy) * sw + (x >> ux)];
                    }
                }
            }
            b.build()
        })
        .collect()
}

/// Formats whose luma plane holds the frame's own samples, bound in place.
fn binds_luma(format: PixelFormat) -> bool {
    use PixelFormat::*;
    matches!(format, Nv16 | P216 | Nv24 | P416)
}

/// Asserts the frames imported as `format` score as the host frames.
fn assert_imports_alike(what: &str, refs: &[Frame], dis: &[Frame], format: PixelFormat) {
    let host: Scores = session(refs.iter().cloned().zip(dis.iter().cloned()).collect());
    let cpu = Device::cpu().info();
    let (conversions, copies) = (hooks::conversions(), hooks::host_copies());
    let bpc = refs[0].bpc();
    let mut buffers = Vec::new();
    let mut import = |f: &Frame| {
        let (buf, d) = produce(f, format, bpc);
        // SAFETY: `buf` is kept in `buffers`, alive and unchanged until the session ends.
        let frame = unsafe { import_host(&d, &cpu) }.unwrap();
        assert_eq!((frame.format(), frame.bpc()), (f.format(), bpc), "{format}");
        let bound = matches!(frame.plane(0).storage, PlaneStorage::Foreign(_));
        assert_eq!(bound, binds_luma(format), "{format}: luma bound in place");
        buffers.push(buf);
        frame
    };
    let pairs: Vec<(Frame, Frame)> = refs
        .iter()
        .zip(dis)
        .map(|(r, d)| (import(r), import(d)))
        .collect();
    let imported = session(pairs);
    drop(buffers);
    assert!(
        host.features.iter().any(|(k, _)| k == "psnr_cb"),
        "{what}: chroma was scored"
    );
    assert_eq!(host, imported, "{what} as {format}: scores differ");
    let n = 2 * refs.len() as u64;
    assert_eq!(hooks::conversions() - conversions, n, "{what} {format}");
    assert_eq!(hooks::host_copies(), copies, "{what} {format}: host copies");
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn eight_bit_layouts_score_as_the_planar_frames() {
    let Some(dir) = testutil::conformance_dir() else {
        return;
    };
    let _g = hooks::test_lock();
    hooks::reset_counters();
    let (r, d) = testutil::load_clip(&dir, "bbb_352x288_422p8_crf38");
    assert_eq!(r[0].format(), PixelFormat::Yuv422p);
    for format in [
        PixelFormat::Nv16,
        PixelFormat::Yuyv422,
        PixelFormat::Uyvy422,
    ] {
        assert_imports_alike("bbb 4:2:2", &r, &d, format);
    }
    let (r, d) = testutil::load_clip(&dir, "bbb_320x180_444p8_crf38");
    assert_eq!(r[0].format(), PixelFormat::Yuv444p);
    for format in [PixelFormat::Nv24, PixelFormat::Vuyx, PixelFormat::Ayuv] {
        assert_imports_alike("bbb 4:4:4", &r, &d, format);
    }
    assert_eq!(hooks::host_copies(), 0, "no import copied through the host");
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn deep_layouts_score_as_the_planar_frames() {
    let Some(dir) = testutil::conformance_dir() else {
        return;
    };
    let _g = hooks::test_lock();
    hooks::reset_counters();
    let (r, d) = testutil::load_clip(&dir, "bbb_384x216_420p10_crf35");
    let (r422, d422) = (
        upsampled(&r, PixelFormat::Yuv422p),
        upsampled(&d, PixelFormat::Yuv422p),
    );
    for format in [PixelFormat::P210, PixelFormat::Y210, PixelFormat::V210] {
        assert_imports_alike("bbb 4:2:2 10-bit", &r422, &d422, format);
    }
    let (r12, d12) = (scaled(&r422, 12, 2), scaled(&d422, 12, 2));
    assert_imports_alike("bbb 4:2:2 12-bit", &r12, &d12, PixelFormat::Y212);
    let (r16, d16) = (scaled(&r422, 16, 6), scaled(&d422, 16, 6));
    assert_imports_alike("bbb 4:2:2 16-bit", &r16, &d16, PixelFormat::P216);
    let (r444, d444) = (
        upsampled(&r, PixelFormat::Yuv444p),
        upsampled(&d, PixelFormat::Yuv444p),
    );
    for format in [
        PixelFormat::P410,
        PixelFormat::Y410,
        PixelFormat::Yuv444pMsb,
    ] {
        assert_imports_alike("bbb 4:4:4 10-bit", &r444, &d444, format);
    }
    let (r12, d12) = (scaled(&r444, 12, 2), scaled(&d444, 12, 2));
    assert_imports_alike("bbb 4:4:4 12-bit", &r12, &d12, PixelFormat::Xv36);
    let (r16, d16) = (scaled(&r444, 16, 6), scaled(&d444, 16, 6));
    assert_imports_alike("bbb 4:4:4 16-bit", &r16, &d16, PixelFormat::P416);
    assert_eq!(hooks::host_copies(), 0, "no import copied through the host");
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn a_wrong_packing_changes_the_scores() {
    let Some(dir) = testutil::conformance_dir() else {
        return;
    };
    let _g = hooks::test_lock();
    let (r, d) = testutil::load_clip(&dir, "bbb_352x288_422p8_crf38");
    let (r, d) = (&r[..2], &d[..2]);
    let host = session(r.iter().cloned().zip(d.iter().cloned()).collect());
    let cpu = Device::cpu().info();
    // A UYVY producer described as YUYV: luma and chroma trade places.
    let mut buffers = Vec::new();
    let mut import = |f: &Frame| {
        let (buf, mut desc) = produce(f, PixelFormat::Uyvy422, 8);
        desc.format = Some(PixelFormat::Yuyv422);
        // SAFETY: `buf` is kept in `buffers` until the session ends.
        let frame = unsafe { import_host(&desc, &cpu) }.unwrap();
        buffers.push(buf);
        frame
    };
    let pairs = r
        .iter()
        .zip(d)
        .map(|(a, b)| (import(a), import(b)))
        .collect();
    assert_ne!(
        host,
        session(pairs),
        "a swapped packing must change the scores"
    );
}
