//! Synthetic files: deep, mono, alpha and odd-size layouts, FRAME parameters, skipping.

use super::{y4m_file, Scratch};
use crate::frame::{Frame, PixelFormat};
use crate::io::{Limits, RawParams, VideoReader};

/// A sample value for plane `i` at (x, y) of frame `k`, within `bpc` bits.
fn sample(k: u32, i: usize, x: u32, y: u32, bpc: u32) -> u16 {
    let v = (k * 7919 + i as u32 * 104_729 + y * 613 + x * 37 + x * y) % (1 << bpc);
    v as u16
}

/// One frame's bytes for stored planes `sizes`, as a file holds them.
fn payload(k: u32, sizes: &[(u32, u32)], bpc: u32) -> Vec<u8> {
    let mut v = Vec::new();
    for (i, &(w, h)) in sizes.iter().enumerate() {
        for y in 0..h {
            for x in 0..w {
                let s = sample(k, i, x, y, bpc);
                if bpc > 8 {
                    v.extend_from_slice(&s.to_le_bytes());
                } else {
                    v.push(s as u8);
                }
            }
        }
    }
    v
}

/// Checks that `f` holds the top-left region of every stored plane of frame `k`.
fn check(f: &Frame, k: u32, want: (PixelFormat, u32, u32, u32), kept: &[(u32, u32)]) {
    let (format, bpc, w, h) = want;
    assert_eq!(
        (f.format(), f.bpc(), f.width(), f.height()),
        (format, bpc, w, h)
    );
    assert_eq!(f.planes().len(), kept.len());
    for (i, &(pw, ph)) in kept.iter().enumerate() {
        let p = f.plane(i);
        assert_eq!((p.width, p.height), (pw, ph), "plane {i}");
        for y in 0..ph {
            for x in 0..pw {
                assert_eq!(
                    p.get(x, y),
                    sample(k, i, x, y, bpc),
                    "frame {k} plane {i} ({x}, {y})"
                );
            }
        }
    }
}

/// (colour space, format, bpc, width, height, stored plane sizes, frame plane sizes)
type Case = (
    &'static str,
    PixelFormat,
    u32,
    u32,
    u32,
    Vec<(u32, u32)>,
    Vec<(u32, u32)>,
);

fn cases() -> Vec<Case> {
    use PixelFormat::*;
    vec![
        (
            "C420p12",
            Yuv420p,
            12,
            6,
            4,
            vec![(6, 4), (3, 2), (3, 2)],
            vec![(6, 4), (3, 2), (3, 2)],
        ),
        (
            "C422p12",
            Yuv422p,
            12,
            5,
            3,
            vec![(5, 3), (3, 3), (3, 3)],
            vec![(5, 3), (2, 3), (2, 3)],
        ),
        (
            "C444p12",
            Yuv444p,
            12,
            3,
            2,
            vec![(3, 2); 3],
            vec![(3, 2); 3],
        ),
        (
            "C420p16",
            Yuv420p,
            16,
            7,
            5,
            vec![(7, 5), (4, 3), (4, 3)],
            vec![(7, 5), (3, 2), (3, 2)],
        ),
        (
            "C422p16",
            Yuv422p,
            16,
            4,
            2,
            vec![(4, 2), (2, 2), (2, 2)],
            vec![(4, 2), (2, 2), (2, 2)],
        ),
        (
            "C444p16",
            Yuv444p,
            16,
            2,
            3,
            vec![(2, 3); 3],
            vec![(2, 3); 3],
        ),
        (
            "C420p10",
            Yuv420p,
            10,
            5,
            5,
            vec![(5, 5), (3, 3), (3, 3)],
            vec![(5, 5), (2, 2), (2, 2)],
        ),
        (
            "C422p10",
            Yuv422p,
            10,
            4,
            4,
            vec![(4, 4), (2, 4), (2, 4)],
            vec![(4, 4), (2, 4), (2, 4)],
        ),
        (
            "C444p10",
            Yuv444p,
            10,
            3,
            3,
            vec![(3, 3); 3],
            vec![(3, 3); 3],
        ),
        ("Cmono", Yuv400p, 8, 5, 3, vec![(5, 3)], vec![(5, 3)]),
        ("Cmono10", Yuv400p, 10, 4, 3, vec![(4, 3)], vec![(4, 3)]),
        ("Cmono12", Yuv400p, 12, 3, 3, vec![(3, 3)], vec![(3, 3)]),
        ("Cmono16", Yuv400p, 16, 3, 1, vec![(3, 1)], vec![(3, 1)]),
        (
            "C420jpeg",
            Yuv420p,
            8,
            3,
            3,
            vec![(3, 3), (2, 2), (2, 2)],
            vec![(3, 3), (1, 1), (1, 1)],
        ),
        (
            "C420paldv",
            Yuv420p,
            8,
            4,
            2,
            vec![(4, 2), (2, 1), (2, 1)],
            vec![(4, 2), (2, 1), (2, 1)],
        ),
        (
            "C420",
            Yuv420p,
            8,
            2,
            2,
            vec![(2, 2), (1, 1), (1, 1)],
            vec![(2, 2), (1, 1), (1, 1)],
        ),
        (
            "C422",
            Yuv422p,
            8,
            3,
            2,
            vec![(3, 2), (2, 2), (2, 2)],
            vec![(3, 2), (1, 2), (1, 2)],
        ),
        ("C444", Yuv444p, 8, 2, 2, vec![(2, 2); 3], vec![(2, 2); 3]),
        (
            "C444alpha",
            Yuv444p,
            8,
            2,
            2,
            vec![(2, 2); 4],
            vec![(2, 2); 3],
        ),
        // No C tag: 4:2:0, 8-bit.
        (
            "",
            Yuv420p,
            8,
            4,
            4,
            vec![(4, 4), (2, 2), (2, 2)],
            vec![(4, 4), (2, 2), (2, 2)],
        ),
    ]
}

#[test]
fn every_colour_space_reads_its_layout() {
    let scratch = Scratch::new("spaces");
    for (cs, format, bpc, w, h, stored, kept) in cases() {
        let payloads: Vec<_> = (0..3).map(|k| payload(k, &stored, bpc)).collect();
        // FRAME parameters are accepted and ignored.
        let mut bytes = y4m_file(
            &format!("W{w} H{h} F25:1 Ip A1:1 {cs} XCOLORRANGE=LIMITED"),
            &[],
        );
        for (k, p) in payloads.iter().enumerate() {
            let head = if k == 1 {
                "FRAME Ip XTAG=1\n"
            } else {
                "FRAME\n"
            };
            bytes.extend_from_slice(head.as_bytes());
            bytes.extend_from_slice(p);
        }
        let path = scratch.file(
            &format!("{}.y4m", if cs.is_empty() { "none" } else { cs }),
            &bytes,
        );
        // Through the file's map (frames bound in place where aligned) and copied.
        for copy in [false, true] {
            let mut r = VideoReader::open(&path, None).unwrap_or_else(|e| panic!("{cs}: {e}"));
            if copy {
                r = r.copying();
            }
            assert_eq!(r.is_mapped(), !copy && cfg!(unix));
            let g = r.geometry();
            assert_eq!(
                (g.format, g.bpc, g.width, g.height),
                (format, bpc, w, h),
                "{cs}"
            );
            // Every frame held to the end: a bound frame outlives the reader's position.
            let frames: Vec<Frame> = (0..3)
                .map(|_| {
                    r.next_frame()
                        .unwrap_or_else(|e| panic!("{cs}: {e}"))
                        .unwrap()
                })
                .collect();
            assert!(r.next_frame().unwrap().is_none(), "{cs}");
            assert_eq!(r.frames_read(), 3);
            drop(r);
            for (k, f) in frames.iter().enumerate() {
                check(f, k as u32, (format, bpc, w, h), &kept);
            }
        }
    }
}

#[test]
fn raw_files_of_every_format_and_depth() {
    use PixelFormat::*;
    let scratch = Scratch::new("raw");
    let cases = [
        (
            Yuv420p,
            8,
            5,
            3,
            vec![(5, 3), (3, 2), (3, 2)],
            vec![(5, 3), (2, 1), (2, 1)],
        ),
        (
            Yuv422p,
            12,
            3,
            2,
            vec![(3, 2), (2, 2), (2, 2)],
            vec![(3, 2), (1, 2), (1, 2)],
        ),
        (Yuv444p, 16, 2, 2, vec![(2, 2); 3], vec![(2, 2); 3]),
        (Yuv400p, 9, 3, 3, vec![(3, 3)], vec![(3, 3)]),
    ];
    for (format, bpc, w, h, stored, kept) in cases {
        let bytes: Vec<u8> = (0..4).flat_map(|k| payload(k, &stored, bpc)).collect();
        let path = scratch.file(&format!("{format}_{bpc}.yuv"), &bytes);
        let raw = RawParams {
            width: w,
            height: h,
            format,
            bpc,
        };
        for copy in [false, true] {
            let mut r = VideoReader::open(&path, Some(raw)).unwrap();
            if copy {
                r = r.copying();
            }
            assert_eq!(r.frame_bytes() * 4, bytes.len() as u64);
            assert_eq!(r.skip(1).unwrap(), 1);
            for k in 1..4 {
                check(
                    &r.next_frame().unwrap().unwrap(),
                    k,
                    (format, bpc, w, h),
                    &kept,
                );
            }
            assert!(r.next_frame().unwrap().is_none());
            assert_eq!((r.frames_read(), r.position()), (3, 4));
        }
    }
}

#[test]
fn header_only_y4m_has_no_frames() {
    let scratch = Scratch::new("header-only");
    let path = scratch.file("h.y4m", &y4m_file("W4 H4 F25:1 C420jpeg", &[]));
    let mut r = VideoReader::open(&path, None).unwrap();
    assert!(r.next_frame().unwrap().is_none());
    assert_eq!(r.skip(3).unwrap(), 0);
    assert_eq!(r.frames_read(), 0);
}

#[test]
fn y4m_is_found_by_content_and_extension_case() {
    let scratch = Scratch::new("detect");
    let sizes = [(2, 2), (1, 1), (1, 1)];
    let bytes = y4m_file("W2 H2 C420", &[payload(0, &sizes, 8)]);
    for name in ["clip.bin", "CLIP.Y4M"] {
        let path = scratch.file(name, &bytes);
        // Raw parameters are ignored for y4m input: the header rules.
        let raw = RawParams::from_names(64, 64, "444", 16).unwrap();
        let mut r = VideoReader::open(&path, Some(raw)).unwrap();
        assert_eq!(r.geometry().width, 2, "{name}");
        check(
            &r.next_frame().unwrap().unwrap(),
            0,
            (PixelFormat::Yuv420p, 8, 2, 2),
            &sizes,
        );
    }
}

#[test]
fn skip_reads_through_a_pipe_like_file_too() {
    // A FIFO has no length: skipping reads and drops instead of seeking.
    let scratch = Scratch::new("fifo");
    let sizes = [(2, 2), (1, 1), (1, 1)];
    let payloads: Vec<_> = (0..3).map(|k| payload(k, &sizes, 8)).collect();
    let bytes = y4m_file("W2 H2", &payloads);
    let fifo = scratch.missing("pipe.y4m");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.map(|s| s.success()).unwrap_or(false) {
        eprintln!("skipping: mkfifo unavailable");
        return;
    }
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, bytes).unwrap())
    };
    let mut r = VideoReader::open_with_limits(&fifo, None, Limits::default()).unwrap();
    assert_eq!(r.skip(2).unwrap(), 2);
    check(
        &r.next_frame().unwrap().unwrap(),
        2,
        (PixelFormat::Yuv420p, 8, 2, 2),
        &sizes,
    );
    assert!(r.next_frame().unwrap().is_none());
    writer.join().unwrap();
}

/// Where frame `f`'s first plane lives, to tell reused memory from new.
fn plane0_addr(f: &Frame) -> usize {
    match f.plane(0).samples() {
        crate::frame::Samples::U8(s) => s.as_ptr() as usize,
        crate::frame::Samples::U16(s) => s.as_ptr() as usize,
    }
}

#[test]
fn released_frames_lend_their_planes_and_held_frames_keep_theirs() {
    let scratch = Scratch::new("recycle");
    for (cs, format, bpc, w, h, stored, kept) in cases() {
        let payloads: Vec<_> = (0..6).map(|k| payload(k, &stored, bpc)).collect();
        let bytes = y4m_file(&format!("W{w} H{h} F25:1 {cs}"), &payloads);
        let name = format!("{}.y4m", if cs.is_empty() { "none" } else { cs });
        // Planes are lent on the copying route; a mapped file's frames are its own pages.
        let mut r = VideoReader::open(scratch.file(&name, &bytes), None)
            .unwrap()
            .copying();
        let want = (format, bpc, w, h);
        let held: Vec<Frame> = (0..3).map(|_| r.next_frame().unwrap().unwrap()).collect();
        let third = r.next_frame().unwrap().unwrap();
        check(&third, 3, want, &kept);
        let at = plane0_addr(&third);
        assert!(held.iter().all(|f| plane0_addr(f) != at), "{cs}");
        drop(third);
        // The released frame's planes carry the next one, every sample rewritten.
        let fourth = r.next_frame().unwrap().unwrap();
        assert_eq!(plane0_addr(&fourth), at, "{cs}: planes not reused");
        check(&fourth, 4, want, &kept);
        // A frame still held is never read into.
        let fifth = r.next_frame().unwrap().unwrap();
        assert_ne!(plane0_addr(&fifth), at, "{cs}");
        check(&fifth, 5, want, &kept);
        for (k, f) in held.iter().enumerate() {
            check(f, k as u32, want, &kept);
        }
        assert_eq!(r.frames_read(), 6);
    }
}
