use super::*;
use crate::frame::levels::{Component, Levels, Range};

const W: u32 = 37;
const H: u32 = 23;

/// A textured frame: every code value of the depth appears in the luma when it fits.
fn frame(format: PixelFormat, bpc: u32) -> Frame {
    let mut b = FrameBuilder::new(format, bpc, W, H).unwrap();
    let max = (1u32 << bpc) - 1;
    for (p, plane) in b.planes_mut().iter_mut().enumerate() {
        let (w, stride) = (plane.width as usize, plane.stride);
        let value = |i: usize| ((i as u32).wrapping_mul(2_654_435_761 + p as u32) >> 7) & max;
        match plane.samples_mut() {
            Some(SamplesMut::U8(s)) => {
                for (i, v) in s.iter_mut().enumerate().filter(|(i, _)| i % stride < w) {
                    *v = value(i) as u8;
                }
            }
            Some(SamplesMut::U16(s)) => {
                for (i, v) in s.iter_mut().enumerate().filter(|(i, _)| i % stride < w) {
                    *v = value(i) as u16;
                }
            }
            None => unreachable!(),
        }
    }
    b.build()
}

fn desc(format: PixelFormat, src_bpc: u32, dst_bpc: u32) -> ConvertDesc {
    ConvertDesc {
        src_pix_fmt: format as u32,
        src_bpc,
        src_w: W,
        src_h: H,
        dst_pix_fmt: format as u32,
        dst_bpc,
        ..ConvertDesc::default()
    }
}

fn limited() -> Color {
    Color {
        range: 1,
        ..Color::default()
    }
}

/// Every sample of `out` is `map(component, sample of src)`.
fn check_samples(src: &Frame, out: &Frame, map: impl Fn(Component, u16) -> u16) {
    assert_eq!(src.planes().len(), out.planes().len());
    for (p, (a, b)) in src.planes().iter().zip(out.planes()).enumerate() {
        let c = if p == 0 {
            Component::Luma
        } else {
            Component::Chroma
        };
        assert_eq!((a.width, a.height), (b.width, b.height));
        for y in 0..a.height {
            for x in 0..a.width {
                assert_eq!(b.get(x, y), map(c, a.get(x, y)), "plane {p} at {x},{y}");
            }
        }
    }
}

#[test]
fn the_same_geometry_and_colour_is_a_copy() {
    for format in [
        PixelFormat::Yuv420p,
        PixelFormat::Yuv422p,
        PixelFormat::Yuv444p,
        PixelFormat::Yuv400p,
    ] {
        for bpc in [8, 10, 16] {
            let c = FrameConverter::new(&desc(format, bpc, bpc)).unwrap();
            let src = frame(format, bpc);
            let out = c.convert(&src).unwrap();
            assert_eq!((out.format(), out.bpc()), (format, bpc));
            check_samples(&src, &out, |_, v| v);
        }
    }
}

#[test]
fn limited_depth_changes_are_shifts() {
    let src = frame(PixelFormat::Yuv420p, 8);
    let up = FrameConverter::new(&ConvertDesc {
        src_color: limited(),
        dst_color: limited(),
        ..desc(PixelFormat::Yuv420p, 8, 10)
    })
    .unwrap()
    .convert(&src)
    .unwrap();
    check_samples(&src, &up, |_, v| v << 2);
    // And back: the 10-bit frame returns to the same 8-bit samples.
    let down = FrameConverter::new(&desc(PixelFormat::Yuv420p, 10, 8))
        .unwrap()
        .convert(&up)
        .unwrap();
    check_samples(&src, &down, |_, v| v);
    // Down, 10-bit samples round half up.
    let ten = frame(PixelFormat::Yuv444p, 10);
    let down = FrameConverter::new(&desc(PixelFormat::Yuv444p, 10, 8))
        .unwrap()
        .convert(&ten)
        .unwrap();
    check_samples(&ten, &down, |_, v| ((v + 2) >> 2).min(255));
}

#[test]
fn range_and_depth_changes_map_every_sample_exactly() {
    for (s, t) in [(8, 8), (8, 12), (10, 8), (16, 9)] {
        for (from, to) in [(1u32, 2u32), (2, 1), (2, 2)] {
            let src = frame(PixelFormat::Yuv422p, s);
            let d = ConvertDesc {
                src_color: Color {
                    range: from,
                    ..Color::default()
                },
                dst_color: Color {
                    range: to,
                    ..Color::default()
                },
                ..desc(PixelFormat::Yuv422p, s, t)
            };
            let out = FrameConverter::new(&d).unwrap().convert(&src).unwrap();
            let r = |v| if v == 1 { Range::Limited } else { Range::Full };
            let (a, b) = (Levels::new(s, r(from)), Levels::new(t, r(to)));
            check_samples(&src, &out, |c, v| a.rescale(u32::from(v), b, c));
        }
    }
    // One worked value: 8-bit limited white is full white, grey stays grey.
    let (l, f) = (Levels::new(8, Range::Limited), Levels::new(8, Range::Full));
    assert_eq!(l.rescale(235, f, Component::Luma), 255);
    assert_eq!(l.rescale(128, f, Component::Chroma), 128);
    assert_eq!(l.rescale(240, f, Component::Chroma), 255);
}

#[test]
fn what_is_not_converted_is_refused_by_field() {
    let ok = desc(PixelFormat::Yuv420p, 8, 8);
    let cases: Vec<(ConvertDesc, Status, &str)> = vec![
        (
            ConvertDesc {
                src_pix_fmt: 0,
                ..ok
            },
            Status::Invalid,
            "desc.src_pix_fmt",
        ),
        (
            ConvertDesc {
                src_pix_fmt: PixelFormat::Nv12 as u32,
                ..ok
            },
            Status::NotSup,
            "desc.src_pix_fmt",
        ),
        (
            ConvertDesc { src_bpc: 7, ..ok },
            Status::Invalid,
            "desc.src_bpc",
        ),
        (ConvertDesc { src_w: 0, ..ok }, Status::Range, "desc.src_w"),
        (
            ConvertDesc {
                dst_pix_fmt: PixelFormat::Yuv444p as u32,
                ..ok
            },
            Status::NotSup,
            "desc.dst_pix_fmt",
        ),
        (
            ConvertDesc { dst_bpc: 17, ..ok },
            Status::Invalid,
            "desc.dst_bpc",
        ),
        (
            ConvertDesc { dst_w: W * 2, ..ok },
            Status::NotSup,
            "desc.dst_w",
        ),
        (
            ConvertDesc { dst_h: H + 1, ..ok },
            Status::NotSup,
            "desc.dst_h",
        ),
        (
            ConvertDesc { filter: 4, ..ok },
            Status::Invalid,
            "desc.filter",
        ),
        (
            ConvertDesc {
                src_color: Color {
                    primaries: 1,
                    ..Color::default()
                },
                dst_color: Color {
                    primaries: 2,
                    ..Color::default()
                },
                ..ok
            },
            Status::NotSup,
            "desc.dst_color.primaries",
        ),
        (
            ConvertDesc {
                src_color: Color {
                    trc: 1,
                    ..Color::default()
                },
                dst_color: Color {
                    trc: 2,
                    ..Color::default()
                },
                ..ok
            },
            Status::NotSup,
            "desc.dst_color.trc",
        ),
        (
            ConvertDesc {
                src_color: Color {
                    matrix: 4,
                    ..Color::default()
                },
                dst_color: Color {
                    matrix: 1,
                    ..Color::default()
                },
                ..ok
            },
            Status::NotSup,
            "desc.dst_color.matrix",
        ),
        (
            ConvertDesc {
                dst_color: Color {
                    matrix: 6,
                    ..Color::default()
                },
                ..ok
            },
            Status::Invalid,
            "desc.dst_color.matrix",
        ),
        (
            ConvertDesc {
                src_color: Color {
                    range: 3,
                    ..Color::default()
                },
                ..ok
            },
            Status::Invalid,
            "desc.src_color.range",
        ),
    ];
    for (i, (d, status, subject)) in cases.into_iter().enumerate() {
        let e = FrameConverter::new(&d).unwrap_err();
        assert_eq!((e.status(), e.subject()), (status, subject), "case {i}");
    }
    // The same colour on both sides, a filter, and the sizes stated as the source's are fine.
    let same = Color {
        range: 2,
        primaries: 2,
        trc: 2,
        matrix: 2,
    };
    FrameConverter::new(&ConvertDesc {
        src_color: same,
        dst_color: same,
        dst_w: W,
        dst_h: H,
        filter: 3,
        ..ok
    })
    .unwrap();
}

#[test]
fn a_frame_of_another_geometry_is_refused_naming_src() {
    let c = FrameConverter::new(&desc(PixelFormat::Yuv420p, 8, 10)).unwrap();
    for other in [
        frame(PixelFormat::Yuv444p, 8),
        frame(PixelFormat::Yuv420p, 10),
    ] {
        let e = c.convert(&other).unwrap_err();
        assert_eq!((e.status(), e.subject()), (Status::Invalid, "src"));
    }
}
