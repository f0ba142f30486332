//! RGB imports (RGB, RGBA, BGRA) are converted to Y'CbCr 4:4:4 with the stated matrix and
//! ranges: full-range R'G'B' at 8 bits within one code value of FFmpeg's swscale with
//! `accurate_rnd` on the same pixels; at 9 to 14 bits, and limited-range R'G'B' at 8 to 14
//! bits, within one code value of the exact matrix; at 15 and 16 bits within one to three
//! ([`tolerance`]; the documented tolerances: the conversion is not bit-exact to any one
//! reference). Statements that are
//! missing or not converted are refused by field.
//!
//! `VmafxColorMatrix` values (ABI 0.1.11): 1 BT.709, 2 BT.2020 NCL, 3 ICtCp, 4 BT.601,
//! 5 BT.2020 CL. `VmafxColorTransfer`: 1 BT.709, 2 PQ, 3 sRGB, 4 HLG, 5 linear.

use std::process::Command;

use crate::device::cpu::import_host;
use crate::device::Device;
use crate::frame::import::{FrameImport, RgbStatement};
use crate::frame::{Frame, MemoryKind, PixelFormat};
use crate::hooks;
use crate::Status;

const W: u32 = 64;
const H: u32 = 48;

/// Textured R'G'B' pixels: ramps, a colour wheel of sorts and noise, the corners of the
/// cube included.
fn pixels() -> Vec<[u8; 3]> {
    (0..W * H)
        .map(|i| {
            let (x, y) = (i % W, i / W);
            let n = i.wrapping_mul(2_654_435_761) >> 27;
            match (x / 16, y / 16) {
                (0, 0) => [0, 0, 0],
                (3, 0) => [255, 255, 255],
                (0, 2) => [255, 0, 0],
                (3, 2) => [0, 0, 255],
                _ => [
                    (x * 4 + n) as u8,
                    (y * 5 + 3 * n) as u8,
                    ((x + y) * 2 + 7 * n) as u8,
                ],
            }
        })
        .collect()
}

/// The pixels as `format` with `pad` bytes after each row, and the row pitch.
fn packed(px: &[[u8; 3]], format: PixelFormat, pad: usize) -> (Vec<u8>, u64) {
    let mut out = Vec::new();
    for row in px.chunks(W as usize) {
        for &[r, g, b] in row {
            match format {
                PixelFormat::Rgb => out.extend([r, g, b]),
                PixelFormat::Rgba => out.extend([r, g, b, 0x11]),
                _ => out.extend([b, g, r, 0x22]),
            }
        }
        out.resize(out.len() + pad, 0xee);
    }
    let pitch = out.len() as u64 / H as u64;
    (out, pitch)
}

fn statement(matrix: u32, out_range: u32) -> RgbStatement {
    RgbStatement {
        matrix,
        range: 2,
        transfer: 1,
        out_range,
    }
}

fn descriptor(buf: &[u8], pitch: u64, format: PixelFormat, rgb: RgbStatement) -> FrameImport {
    let mut d = FrameImport {
        memory: Some(MemoryKind::Host),
        format: Some(format),
        bpc: 8,
        width: W,
        height: H,
        n_planes: 1,
        rgb,
        ..FrameImport::default()
    };
    d.planes[0].handle = buf.as_ptr() as usize;
    d.planes[0].pitch = pitch;
    d.planes[0].size = buf.len() as u64;
    d
}

fn import(buf: &[u8], pitch: u64, format: PixelFormat, rgb: RgbStatement) -> crate::Result<Frame> {
    let d = descriptor(buf, pitch, format, rgb);
    // SAFETY: `buf` outlives the frame (every caller drops it first).
    unsafe { import_host(&d, &Device::cpu().info()) }
}

/// swscale's Y'CbCr 4:4:4 of the pixels, or `None` without an `ffmpeg` to run.
fn swscale(px: &[[u8; 3]], matrix: &str, range: &str) -> Option<Vec<u8>> {
    let dir = std::env::temp_dir().join(format!("vmafx-rgb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let (input, output) = (
        dir.join("in.rgb"),
        dir.join(format!("{matrix}-{range}.yuv")),
    );
    std::fs::write(&input, px.iter().flatten().copied().collect::<Vec<u8>>()).ok()?;
    let filter = format!(
        "scale=flags=accurate_rnd+full_chroma_int+full_chroma_inp:out_color_matrix={matrix}:out_range={range}"
    );
    let status = Command::new("ffmpeg")
        .args(["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24"])
        .args(["-s", &format!("{W}x{H}"), "-i"])
        .arg(&input)
        .args(["-vf", &filter, "-pix_fmt", "yuv444p", "-f", "rawvideo"])
        .arg(&output)
        .status()
        .ok()?;
    assert!(status.success(), "ffmpeg failed on {matrix} {range}");
    let out = std::fs::read(&output).ok();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn rgb_layouts_convert_within_one_code_value_of_swscale() {
    let _g = hooks::test_lock();
    let px = pixels();
    for (matrix, name) in [(4u32, "bt601"), (1, "bt709"), (2, "bt2020")] {
        for (out_range, range) in [(1u32, "limited"), (2, "full")] {
            let Some(reference) = swscale(&px, name, range) else {
                eprintln!("no ffmpeg: the swscale comparison is skipped");
                return;
            };
            for format in [PixelFormat::Rgb, PixelFormat::Rgba, PixelFormat::Bgra] {
                let (buf, pitch) = packed(&px, format, 12);
                hooks::reset_counters();
                let f = import(&buf, pitch, format, statement(matrix, out_range)).unwrap();
                assert_eq!((f.format(), f.bpc()), (PixelFormat::Yuv444p, 8));
                assert_eq!((hooks::conversions(), hooks::host_copies()), (1, 0));
                let mut worst = 0i32;
                for p in 0..3 {
                    let plane = &reference[(p * W * H) as usize..((p + 1) * W * H) as usize];
                    for y in 0..H {
                        for x in 0..W {
                            let want = plane[(y * W + x) as usize] as i32;
                            let got = f.plane(p as usize).get(x, y) as i32;
                            worst = worst.max((got - want).abs());
                        }
                    }
                }
                assert!(
                    worst <= 1,
                    "{format} {name} {range}: {worst} code values from swscale"
                );
            }
        }
    }
}

/// Deep pixels of `bpc` bits (the 8-bit ones scaled up, low bits filled), R G B.
fn deep_pixels(bpc: u32) -> Vec<[u16; 3]> {
    pixels()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let fill = (i as u16).wrapping_mul(7) & ((1 << (bpc - 8)) - 1);
            p.map(|v| (v as u16) << (bpc - 8) | fill)
        })
        .collect()
}

/// The exact Y'CbCr (real arithmetic, rounded once) of R'G'B' `p` at `bpc` bits in range
/// `range` (1 limited, 2 full; limited samples outside 16..=235 clip to black and white)
/// with luma weights `kr`, `kb`, to `out_range`: the reference of deep and limited
/// conversions. (FFmpeg's swscale is no reference here: from `gbrp10le` it is itself up to
/// 3 code values from this, and it reads every R'G'B' as full range.)
fn exact(p: [u16; 3], bpc: u32, range: u32, out_range: u32, kr: f64, kb: f64) -> [i32; 3] {
    let max = ((1u32 << bpc) - 1) as f64;
    let scale = (1u32 << (bpc - 8)) as f64;
    let [r, g, b] = p.map(|v| match range {
        1 => ((v as f64 - 16.0 * scale) / (219.0 * scale)).clamp(0.0, 1.0),
        _ => v as f64 / max,
    });
    let y = kr * r + (1.0 - kr - kb) * g + kb * b;
    let (cb, cr) = ((b - y) / (2.0 * (1.0 - kb)), (r - y) / (2.0 * (1.0 - kr)));
    let code = |v: f64| v.round() as i32;
    match out_range {
        1 => [
            code((219.0 * y + 16.0) * scale),
            code((224.0 * cb + 128.0) * scale),
            code((224.0 * cr + 128.0) * scale),
        ],
        _ => {
            let mid = (1u32 << (bpc - 1)) as f64;
            [code(max * y), code(max * cb + mid), code(max * cr + mid)]
        }
    }
}

const MATRICES: [(u32, &str, f64, f64); 3] = [
    (4, "bt601", 0.299, 0.114),
    (1, "bt709", 0.2126, 0.0722),
    (2, "bt2020", 0.2627, 0.0593),
];

/// `px` as `format` words of `bpc` bits (bytes at 8 bits) at an odd address, rows padded;
/// the buffer and the offset of the first row.
fn packed_words(px: &[[u16; 3]], format: PixelFormat, bpc: u32) -> Vec<u8> {
    let mut buf = vec![0u8];
    for row in px.chunks(W as usize) {
        for &[r, g, b] in row {
            let words: Vec<u16> = match format {
                PixelFormat::Rgb => vec![r, g, b],
                PixelFormat::Rgba => vec![r, g, b, 0x3ff],
                _ => vec![b, g, r, 0x3ff],
            };
            if bpc > 8 {
                buf.extend(words.iter().flat_map(|v| v.to_le_bytes()));
            } else {
                buf.extend(words.iter().map(|&v| v as u8));
            }
        }
        buf.extend([0xee; 6]);
    }
    buf
}

/// The largest distance of frame `f`'s samples from `reference`.
fn worst_from(f: &Frame, reference: &[[i32; 3]]) -> i32 {
    let mut worst = 0i32;
    for (i, want) in reference.iter().enumerate() {
        let (x, y) = (i as u32 % W, i as u32 / W);
        for (p, want) in want.iter().enumerate() {
            let got = f.plane(p).get(x, y) as i32;
            worst = worst.max((got - want).abs());
        }
    }
    worst
}

/// Imports `px` at `bpc` bits in every RGB layout with `rgb` and checks each frame is
/// within `tolerance` of the exact matrix.
fn check_against_exact(px: &[[u16; 3]], bpc: u32, rgb: RgbStatement, tolerance: i32) {
    let (_, name, kr, kb) = MATRICES.iter().find(|m| m.0 == rgb.matrix).unwrap();
    let reference: Vec<[i32; 3]> = px
        .iter()
        .map(|&p| exact(p, bpc, rgb.range, rgb.out_range, *kr, *kb))
        .collect();
    for format in [PixelFormat::Rgb, PixelFormat::Rgba, PixelFormat::Bgra] {
        let buf = packed_words(px, format, bpc);
        let pitch = (buf.len() as u64 - 1) / H as u64;
        let mut d = descriptor(&buf[1..], pitch, format, rgb);
        d.bpc = bpc;
        hooks::reset_counters();
        // SAFETY: `buf` outlives the frame.
        let f = unsafe { import_host(&d, &Device::cpu().info()) }.unwrap();
        assert_eq!((f.format(), f.bpc()), (PixelFormat::Yuv444p, bpc));
        assert_eq!((hooks::conversions(), hooks::host_copies()), (1, 0));
        let worst = worst_from(&f, &reference);
        assert!(
            worst <= tolerance,
            "{format} {bpc}-bit {name} range {} -> {}: {worst} from the exact matrix",
            rgb.range,
            rgb.out_range
        );
    }
}

/// The documented tolerance at `bpc` bits for statement `rgb` (as measured): one code
/// value up to 14 bits. The crate works in 15-bit fixed point at 16 bits: two code values
/// from full-range R'G'B' to limited Y'CbCr (its own entry point), three where the samples
/// are mapped to 16 bits and back (limited R'G'B', full-range output); at 15 bits that is
/// one to limited and two to full-range output (the finer steps of the full range).
fn tolerance(bpc: u32, rgb: RgbStatement) -> i32 {
    match (bpc, rgb.range, rgb.out_range) {
        (..=14, ..) => 1,
        (15, _, 1) => 1,
        (15, ..) => 2,
        (_, 2, 1) => 2,
        _ => 3,
    }
}

#[test]
fn deep_rgb_layouts_convert_within_the_tolerance_of_the_exact_matrix() {
    // Conversions are counted process-wide: hold the lock the counting tests hold.
    let _g = hooks::test_lock();
    for bpc in 9..=16u32 {
        let px = deep_pixels(bpc);
        for &(matrix, ..) in &MATRICES {
            for out_range in [1u32, 2] {
                let rgb = statement(matrix, out_range);
                check_against_exact(&px, bpc, rgb, tolerance(bpc, rgb));
            }
        }
    }
}

#[test]
fn limited_range_rgb_converts_within_the_tolerance_of_the_exact_matrix() {
    let _g = hooks::test_lock();
    for bpc in 8..=16u32 {
        // Every code value below black and above white is among the pixels (they clip).
        let px = deep_pixels(bpc);
        for &(matrix, ..) in &MATRICES {
            for out_range in [1u32, 2] {
                let rgb = RgbStatement {
                    range: 1,
                    ..statement(matrix, out_range)
                };
                check_against_exact(&px, bpc, rgb, tolerance(bpc, rgb));
            }
        }
    }
}

#[test]
fn limited_range_white_black_and_grey_are_exact() {
    let _g = hooks::test_lock();
    // Up to 14 bits; at 15 and 16 the crate's fixed point moves them by one.
    for bpc in [8u32, 9, 10, 11, 12, 13, 14] {
        let k = 1u16 << (bpc - 8);
        let mut px = vec![[16 * k, 16 * k, 16 * k]; (W * H) as usize];
        px[1] = [235 * k; 3];
        px[2] = [126 * k; 3];
        px[3] = [0, 0, 0];
        px[4] = [255 * k; 3];
        for &(matrix, ..) in &MATRICES {
            let rgb = RgbStatement {
                range: 1,
                ..statement(matrix, 1)
            };
            // Limited to limited: grey stays where it is, chroma in the middle.
            check_against_exact(&px, bpc, rgb, 0);
        }
    }
}

#[test]
fn rgb_statements_are_checked_by_field() {
    // Each refusal still passes the import hooks (attempt counter, planted failures).
    let _g = hooks::test_lock();
    let px = pixels();
    let (buf, pitch) = packed(&px, PixelFormat::Rgba, 0);
    let refused = |rgb: RgbStatement, bpc: u32| {
        let mut d = descriptor(&buf, pitch, PixelFormat::Rgba, rgb);
        d.bpc = bpc;
        // SAFETY: refused before reading, or read from `buf`, which outlives the call.
        let e = unsafe { import_host(&d, &Device::cpu().info()) }.unwrap_err();
        (e.status(), e.subject().to_string())
    };
    let ok = statement(1, 1);
    let cases: [(RgbStatement, u32, Status, &str); 8] = [
        (
            RgbStatement { matrix: 0, ..ok },
            8,
            Status::Invalid,
            "desc.rgb_matrix",
        ),
        (
            RgbStatement { matrix: 3, ..ok },
            8,
            Status::NotSup,
            "desc.rgb_matrix",
        ),
        (
            RgbStatement { matrix: 5, ..ok },
            8,
            Status::NotSup,
            "desc.rgb_matrix",
        ),
        (
            RgbStatement { matrix: 9, ..ok },
            8,
            Status::Invalid,
            "desc.rgb_matrix",
        ),
        (
            RgbStatement { range: 0, ..ok },
            8,
            Status::Invalid,
            "desc.rgb_range",
        ),
        (
            RgbStatement { transfer: 5, ..ok },
            8,
            Status::NotSup,
            "desc.rgb_transfer",
        ),
        (
            RgbStatement { out_range: 0, ..ok },
            8,
            Status::Invalid,
            "desc.rgb_out_range",
        ),
        (ok, 17, Status::Invalid, "desc.bpc"),
    ];
    for (i, (rgb, bpc, status, subject)) in cases.into_iter().enumerate() {
        assert_eq!(refused(rgb, bpc), (status, subject.to_string()), "case {i}");
    }
    // Every transfer that describes a non-linear signal is accepted, and changes nothing.
    let base = import(&buf, pitch, PixelFormat::Rgba, ok).unwrap();
    for transfer in 2..=4 {
        let f = import(
            &buf,
            pitch,
            PixelFormat::Rgba,
            RgbStatement { transfer, ..ok },
        )
        .unwrap();
        assert_eq!(f.plane(0).get(5, 7), base.plane(0).get(5, 7));
    }
}
