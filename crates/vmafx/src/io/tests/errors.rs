//! Every bad input: the error's status and that its text names the file, frame and offset.

use std::path::Path;

use super::{file_name, y4m_file, Scratch};
use crate::error::{Error, Status};
use crate::frame::PixelFormat;
use crate::io::{Limits, RawParams, VideoReader};

/// 2x2 4:2:0 8-bit: 6 bytes a frame.
const TINY: &str = "W2 H2 F25:1 C420jpeg";
const TINY_BYTES: usize = 6;

fn open_err(path: &Path, raw: Option<RawParams>) -> Error {
    match VideoReader::open(path, raw) {
        Ok(r) => panic!("{} opened: {r:?}", path.display()),
        Err(e) => e,
    }
}

/// Reads frames until the first error, which it returns with the frames read before it.
fn read_err(path: &Path, raw: Option<RawParams>) -> (u64, Error) {
    let mut r = VideoReader::open(path, raw).unwrap_or_else(|e| panic!("{e}"));
    loop {
        match r.next_frame() {
            Ok(Some(_)) => {}
            Ok(None) => panic!("{}: no error", path.display()),
            Err(e) => {
                // The reader stays failed and says so again.
                assert_eq!(r.next_frame().unwrap_err(), e);
                return (r.frames_read(), e);
            }
        }
    }
}

/// Asserts the status and that the error's text holds the file's name and each of `parts`.
fn assert_err(e: &Error, path: &Path, status: Status, parts: &[&str]) {
    let text = e.to_string();
    assert_eq!(e.status(), status, "{text}");
    assert!(e.subject().contains(&file_name(path)), "subject of: {text}");
    for p in parts {
        assert!(text.contains(p), "'{p}' missing from: {text}");
    }
}

fn tiny_frames(n: usize) -> Vec<Vec<u8>> {
    (0..n).map(|k| vec![k as u8; TINY_BYTES]).collect()
}

#[test]
fn missing_file_and_directory_are_io_errors() {
    let s = Scratch::new("missing");
    let p = s.missing("nope.y4m");
    assert_err(
        &open_err(&p, None),
        &p,
        Status::Io,
        &["cannot open", "no such file"],
    );
    let dir = std::env::temp_dir();
    let e = VideoReader::open_y4m(&dir, Limits::default()).unwrap_err();
    assert_eq!(e.status(), Status::Io, "{e}");
    assert!(e.to_string().contains("directory"), "{e}");
}

#[test]
fn empty_files_are_refused() {
    let s = Scratch::new("empty");
    let raw = RawParams::from_names(2, 2, "420", 8).unwrap();
    for (name, raw) in [("e.y4m", None), ("e.yuv", Some(raw)), ("e.bin", None)] {
        let p = s.file(name, b"");
        assert_err(
            &open_err(&p, raw),
            &p,
            Status::Invalid,
            &["byte 0", "empty"],
        );
    }
    let p = s.file("e2.yuv", b"");
    let e = VideoReader::open_raw(&p, raw, Limits::default()).unwrap_err();
    assert_err(&e, &p, Status::Invalid, &["byte 0", "empty"]);
    let p = s.file("e3.dat", b"");
    let e = VideoReader::open_y4m(&p, Limits::default()).unwrap_err();
    assert_err(&e, &p, Status::Invalid, &["byte 0", "empty"]);
}

#[test]
fn garbage_and_bad_magic_are_refused() {
    let s = Scratch::new("magic");
    for (name, bytes) in [
        ("garbage.y4m", &b"\x00\x01garbage\xff\n"[..]),
        ("nospace.y4m", b"YUV4MPEG2W2 H2\n"),
        ("lower.y4m", b"yuv4mpeg2 W2 H2\n"),
    ] {
        let p = s.file(name, bytes);
        assert_err(
            &open_err(&p, None),
            &p,
            Status::Invalid,
            &["byte 0", "not a y4m file"],
        );
    }
    let p = s.file("garbage.bin", b"not a video at all");
    assert_err(
        &open_err(&p, None),
        &p,
        Status::Invalid,
        &["byte 0", "no raw yuv parameters"],
    );
}

#[test]
fn unterminated_header_is_refused() {
    let s = Scratch::new("unterminated");
    let p = s.file("u.y4m", b"YUV4MPEG2 W2 H2 C420");
    assert_err(
        &open_err(&p, None),
        &p,
        Status::Invalid,
        &["byte 0", "unterminated", "byte 20"],
    );
    let mut long = b"YUV4MPEG2 W2 H2 ".to_vec();
    long.resize(5000, b'X');
    let p = s.file("long.y4m", &long);
    assert_err(
        &open_err(&p, None),
        &p,
        Status::Invalid,
        &["no newline within", "4096"],
    );
}

/// Opens a y4m whose header is `YUV4MPEG2 {header}` and checks the error names `tag` and
/// its byte offset.
fn header_err(s: &Scratch, name: &str, header: &str, tag: &str, status: Status, why: &str) {
    let p = s.file(name, &y4m_file(header, &tiny_frames(1)));
    let at = format!("byte {}", "YUV4MPEG2 ".len() + header.find(tag).unwrap());
    let quoted = format!("'{tag}'");
    assert_err(&open_err(&p, None), &p, status, &[&quoted, &at, why]);
}

#[test]
fn bad_tags_name_the_tag_and_its_offset() {
    let s = Scratch::new("tags");
    let inv = Status::Invalid;
    header_err(
        &s,
        "cs.y4m",
        "W2 H2 F25:1 Cfoo",
        "Cfoo",
        inv,
        "unknown colour space",
    );
    header_err(
        &s,
        "cs8.y4m",
        "W2 H2 C420p8",
        "C420p8",
        inv,
        "unknown colour space",
    );
    header_err(
        &s,
        "cs17.y4m",
        "W2 H2 C444p17",
        "C444p17",
        inv,
        "unknown colour space",
    );
    header_err(&s, "411.y4m", "W2 H2 C411", "C411", Status::NotSup, "4:1:1");
    header_err(&s, "it.y4m", "W2 H2 It C420", "It", inv, "interlaced");
    header_err(&s, "ib.y4m", "W2 H2 Ib", "Ib", inv, "bottom field first");
    header_err(
        &s,
        "im.y4m",
        "W2 H2 Im",
        "Im",
        inv,
        "interlaced video (mixed modes)",
    );
    header_err(&s, "ix.y4m", "W2 H2 Ix", "Ix", inv, "unknown interlacing");
    header_err(
        &s,
        "w.y4m",
        "Wabc H2",
        "Wabc",
        inv,
        "width is not a whole number",
    );
    header_err(
        &s,
        "wneg.y4m",
        "W-2 H2",
        "W-2",
        inv,
        "width is not a whole number",
    );
    header_err(
        &s,
        "wempty.y4m",
        "H2 W",
        "W",
        inv,
        "width is not a whole number",
    );
    header_err(
        &s,
        "wbig.y4m",
        "W99999999999 H2",
        "W99999999999",
        inv,
        "not a whole number",
    );
    header_err(
        &s,
        "h.y4m",
        "W2 H2.5",
        "H2.5",
        inv,
        "height is not a whole number",
    );
    header_err(
        &s,
        "f.y4m",
        "W2 H2 F25",
        "F25",
        inv,
        "frame rate is not n:d",
    );
    header_err(
        &s,
        "a.y4m",
        "W2 H2 A1:x",
        "A1:x",
        inv,
        "aspect ratio is not n:d",
    );
    let p = s.file("utf.y4m", "YUV4MPEG2 W2 H2 Cé\n".as_bytes());
    assert_err(&open_err(&p, None), &p, inv, &["byte 16", "not ASCII"]);
}

#[test]
fn missing_width_or_height_is_refused() {
    let s = Scratch::new("wh");
    for (name, header, tag) in [("now.y4m", "H2 C420", "W"), ("noh.y4m", "W2 C420", "H")] {
        let p = s.file(name, &y4m_file(header, &tiny_frames(1)));
        let no = format!("no {tag} tag");
        assert_err(&open_err(&p, None), &p, Status::Invalid, &["byte 0", &no]);
    }
}

#[test]
fn zero_and_absurd_sizes_fail_before_allocating() {
    let s = Scratch::new("sizes");
    let cases = [
        ("w0.y4m", "W0 H2", "width 0"),
        ("h0.y4m", "W2 H0", "height 0"),
    ];
    for (name, header, why) in cases {
        let p = s.file(name, &y4m_file(header, &[]));
        assert_err(
            &open_err(&p, None),
            &p,
            Status::Invalid,
            &["byte 0", why, "1..=65536"],
        );
    }
    let p = s.file("huge.y4m", &y4m_file("W70000 H2", &[]));
    assert_err(
        &open_err(&p, None),
        &p,
        Status::Invalid,
        &["width 70000", "1..=65536"],
    );

    let small = Limits {
        max_width: 100,
        max_height: 50,
        ..Limits::default()
    };
    let p = s.file("wide.y4m", &y4m_file("W200 H2", &[]));
    let e = VideoReader::open_with_limits(&p, None, small).unwrap_err();
    assert_err(&e, &p, Status::Invalid, &["width 200", "1..=100"]);

    // 65536 x 65536 4:4:4 16-bit: 24 GiB a frame, refused by the default byte limit.
    let p = s.file("big.y4m", &y4m_file("W65536 H65536 C444p16", &[]));
    let e = open_err(&p, None);
    assert_err(
        &e,
        &p,
        Status::NoMem,
        &["25769803776 bytes", "limit of 1073741824"],
    );
    let tight = Limits {
        max_frame_bytes: 5,
        ..Limits::default()
    };
    let p = s.file("tight.yuv", &[0; 12]);
    let raw = RawParams::from_names(2, 2, "420", 8).unwrap();
    let e = VideoReader::open_with_limits(&p, Some(raw), tight).unwrap_err();
    assert_err(
        &e,
        &p,
        Status::NoMem,
        &["raw yuv parameters", "6 bytes", "limit of 5"],
    );
}

#[test]
fn missing_or_garbled_frame_headers_name_frame_and_offset() {
    let s = Scratch::new("frames");
    let base = y4m_file(TINY, &tiny_frames(2));
    let frame2 = base.len();
    for (name, tail, why) in [
        (
            "lost.y4m",
            &b"GARBAGE!garbage\n"[..],
            "expected a FRAME header (lost framing), found 'GARBAGE!garbage\\n'",
        ),
        ("framex.y4m", b"FRAMEX\n012345", "lost framing"),
        (
            "cut.y4m",
            b"FRA",
            "truncated FRAME header: the file ends after 'FRA'",
        ),
        ("cut5.y4m", b"FRAME", "truncated FRAME header"),
        ("nonl.y4m", b"FRAME Ip", "the file ends at byte"),
        ("blank.y4m", b"\n", "lost framing"),
    ] {
        let mut bytes = base.clone();
        bytes.extend_from_slice(tail);
        let p = s.file(name, &bytes);
        let (read, e) = read_err(&p, None);
        assert_eq!(read, 2, "{name}");
        let at = format!("frame 2 at byte {frame2}");
        assert_err(&e, &p, Status::Invalid, &[&at, why]);
    }
    let mut bytes = base.clone();
    bytes.extend_from_slice(b"FRAME ");
    bytes.resize(bytes.len() + 2000, b'x');
    let p = s.file("longframe.y4m", &bytes);
    let (_, e) = read_err(&p, None);
    assert_err(
        &e,
        &p,
        Status::Invalid,
        &["frame 2 at byte", "no newline within 1024"],
    );
    // The first frame's header is missing: samples follow the stream header directly.
    let mut bytes = b"YUV4MPEG2 W2 H2\n".to_vec();
    bytes.extend_from_slice(&[1; 6]);
    let p = s.file("noframe.y4m", &bytes);
    let (_, e) = read_err(&p, None);
    assert_err(
        &e,
        &p,
        Status::Invalid,
        &["frame 0 at byte 16", "lost framing"],
    );
}

#[test]
fn truncated_last_frame_is_an_error_never_a_short_read() {
    let s = Scratch::new("trunc");
    let mut bytes = y4m_file(TINY, &tiny_frames(3));
    let full = bytes.len();
    bytes.truncate(full - 2);
    let p = s.file("t.y4m", &bytes);
    let frame2 = full - (6 + TINY_BYTES);
    let at = format!("frame 2 at byte {frame2} is truncated");
    let end = format!("ends at byte {} after 4 of the frame's 6 bytes", full - 2);
    let (read, e) = read_err(&p, None);
    assert_eq!(read, 2);
    assert_err(&e, &p, Status::Invalid, &[&at, &end]);
    // Skipping over it finds it too.
    let mut r = VideoReader::open(&p, None).unwrap();
    let e = r.skip(5).unwrap_err();
    assert_err(&e, &p, Status::Invalid, &[&at, &end]);
    assert_eq!(r.position(), 2);
    // Deep samples cut mid-word.
    let mut bytes = y4m_file("W2 H2 C420p10", &[vec![0; 12], vec![0; 12]]);
    bytes.pop();
    let p = s.file("t10.y4m", &bytes);
    let (_, e) = read_err(&p, None);
    assert_err(
        &e,
        &p,
        Status::Invalid,
        &["frame 1 at byte", "11 of the frame's 12 bytes"],
    );
}

#[test]
fn raw_file_of_partial_frames_names_the_partial_one() {
    let s = Scratch::new("partial");
    let raw = RawParams {
        width: 2,
        height: 2,
        format: PixelFormat::Yuv420p,
        bpc: 8,
    };
    let p = s.file("p.yuv", &[7; 3 * 6 + 4]);
    let (read, e) = read_err(&p, Some(raw));
    assert_eq!(read, 3);
    let why = "the file's 22 bytes are not a whole number of 6-byte frames";
    assert_err(
        &e,
        &p,
        Status::Invalid,
        &["frame 3 at byte 18 is truncated", "4 of the", why],
    );
    let mut r = VideoReader::open(&p, Some(raw)).unwrap();
    let e = r.skip(10).unwrap_err();
    assert_err(&e, &p, Status::Invalid, &["frame 3 at byte 18", why]);
}

#[test]
fn bad_raw_params_are_refused() {
    let s = Scratch::new("params");
    let p = s.file("r.yuv", &[0; 64]);
    let mk = |width, height, format, bpc| {
        Some(RawParams {
            width,
            height,
            format,
            bpc,
        })
    };
    use PixelFormat::*;
    let cases = [
        (
            mk(0, 2, Yuv420p, 8),
            Status::Range,
            "width 0 is outside 1..=65536",
        ),
        (mk(2, 0, Yuv420p, 8), Status::Range, "height 0"),
        (mk(70000, 2, Yuv420p, 8), Status::Range, "width 70000"),
        (
            mk(2, 2, Yuv420p, 7),
            Status::Range,
            "bit depth 7 is outside 8..=16",
        ),
        (mk(2, 2, Yuv420p, 17), Status::Range, "bit depth 17"),
        (mk(2, 2, Nv12, 8), Status::Invalid, "nv12 is not planar"),
    ];
    for (raw, status, why) in cases {
        let e = open_err(&p, raw);
        assert_err(&e, &p, status, &["raw yuv parameters", why]);
    }
    let e = RawParams::from_names(2, 2, "411", 8).unwrap_err();
    assert_eq!((e.status(), e.subject()), (Status::Invalid, "pixel format"));
    assert!(e.to_string().contains("'411'"), "{e}");
}

#[test]
fn iteration_stops_after_an_error() {
    let s = Scratch::new("iter");
    let mut bytes = y4m_file(TINY, &tiny_frames(2));
    bytes.extend_from_slice(b"junk");
    let p = s.file("i.y4m", &bytes);
    let mut r = VideoReader::open(&p, None).unwrap();
    let items: Vec<_> = r.frames().collect();
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok() && items[1].is_ok());
    let e = items[2].as_ref().unwrap_err();
    assert_err(e, &p, Status::Invalid, &["frame 2"]);
}

/// A mapped file cut short after it was opened: the frame whose pages are gone is an `Io`
/// error naming it, never a crash (the pages are mapped in before the frame is handed out).
#[cfg(target_os = "linux")]
#[test]
fn a_mapped_file_cut_while_read_is_an_io_error() {
    let s = Scratch::new("cut-mapped");
    // 64x64 4:2:0: 6144 bytes a frame, so frame 1 reaches pages past the cut.
    let frames: Vec<Vec<u8>> = (0..4).map(|k| vec![k as u8; 6144]).collect();
    let bytes = y4m_file("W64 H64 F25:1 C420jpeg", &frames);
    let p = s.file("cut.y4m", &bytes);
    let mut r = VideoReader::open(&p, None).unwrap();
    assert!(r.is_mapped());
    let first = r.next_frame().unwrap().unwrap();
    assert_eq!(first.plane(0).get(63, 63), 0);
    drop(first);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&p)
        .unwrap()
        .set_len(6200)
        .unwrap();
    let e = r.next_frame().unwrap_err();
    assert_err(
        &e,
        &p,
        Status::Io,
        &["frame 1 at byte", "cut short while being read"],
    );
}

/// A mapped file cut inside a frame's chroma, whose pages are not mapped in with the luma:
/// still an `Io` error naming the frame, before it is handed out.
#[cfg(target_os = "linux")]
#[test]
fn a_mapped_file_cut_in_a_frames_chroma_is_an_io_error() {
    let s = Scratch::new("cut-chroma");
    // 128x128 4:2:0: a 16384-byte luma (four pages) and 8192 bytes of chroma a frame.
    let frames: Vec<Vec<u8>> = (0..3).map(|k| vec![k as u8; 24576]).collect();
    let bytes = y4m_file("W128 H128 F25:1 C420jpeg", &frames);
    let p = s.file("cut.y4m", &bytes);
    let mut r = VideoReader::open(&p, None).unwrap();
    assert!(r.is_mapped());
    drop(r.next_frame().unwrap().unwrap());
    // Frame 1's samples start after the second frame header; cut past its luma.
    let second = bytes
        .windows(6)
        .enumerate()
        .filter(|(_, w)| w == b"FRAME\n")
        .nth(1)
        .map(|(i, _)| i + 6)
        .unwrap();
    let cut = (second + 16384 + 4096) as u64;
    let file = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
    file.set_len(cut).unwrap();
    let e = r.next_frame().unwrap_err();
    assert_err(
        &e,
        &p,
        Status::Io,
        &["frame 1 at byte", "cut short while being read"],
    );
}
