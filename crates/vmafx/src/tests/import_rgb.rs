//! RGB imports (RGB, RGBA, BGRA) are converted to Y'CbCr 4:4:4 with the stated matrix and
//! range: at 8 bits within one code value of FFmpeg's swscale with `accurate_rnd` on the
//! same pixels, at 10 to 14 bits within one code value of the exact matrix and at 16 bits
//! within two (the documented tolerances: the conversion is not bit-exact to any one
//! reference). Statements that are
//! missing or not converted are refused by field.

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
    for (matrix, name) in [(1u32, "bt601"), (2, "bt709"), (3, "bt2020")] {
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

/// The exact Y'CbCr (real arithmetic, rounded once) of full-range R'G'B' `p` at `bpc` bits
/// with luma weights `kr`, `kb`, to limited range: the reference of deep conversions.
/// (FFmpeg's swscale is no reference here: from `gbrp10le` it is itself up to 3 code
/// values from this.)
fn exact_limited(p: [u16; 3], bpc: u32, kr: f64, kb: f64) -> [i32; 3] {
    let max = ((1u32 << bpc) - 1) as f64;
    let [r, g, b] = p.map(|v| v as f64 / max);
    let y = kr * r + (1.0 - kr - kb) * g + kb * b;
    let (cb, cr) = ((b - y) / (2.0 * (1.0 - kb)), (r - y) / (2.0 * (1.0 - kr)));
    let scale = (1u32 << (bpc - 8)) as f64;
    [
        ((219.0 * y + 16.0) * scale).round() as i32,
        ((224.0 * cb + 128.0) * scale).round() as i32,
        ((224.0 * cr + 128.0) * scale).round() as i32,
    ]
}

#[test]
fn deep_rgb_layouts_convert_within_one_code_value_of_the_exact_matrix() {
    // Conversions are counted process-wide: hold the lock the counting tests hold.
    let _g = hooks::test_lock();
    for bpc in [10u32, 12, 14, 16] {
        let px = deep_pixels(bpc);
        for (matrix, name, kr, kb) in [
            (1u32, "bt601", 0.299, 0.114),
            (2, "bt709", 0.2126, 0.0722),
            (3, "bt2020", 0.2627, 0.0593),
        ] {
            let reference: Vec<[i32; 3]> =
                px.iter().map(|&p| exact_limited(p, bpc, kr, kb)).collect();
            for format in [PixelFormat::Rgb, PixelFormat::Rgba, PixelFormat::Bgra] {
                // 16-bit words at an odd address, rows padded: read as bytes.
                let mut buf = vec![0u8];
                for row in px.chunks(W as usize) {
                    for &[r, g, b] in row {
                        let words: Vec<u16> = match format {
                            PixelFormat::Rgb => vec![r, g, b],
                            PixelFormat::Rgba => vec![r, g, b, 0x3ff],
                            _ => vec![b, g, r, 0x3ff],
                        };
                        buf.extend(words.iter().flat_map(|v| v.to_le_bytes()));
                    }
                    buf.extend([0xee; 6]);
                }
                let pitch = (buf.len() as u64 - 1) / H as u64;
                let mut d = descriptor(&buf[1..], pitch, format, statement(matrix, 1));
                d.bpc = bpc;
                // SAFETY: `buf` outlives the frame.
                let f = unsafe { import_host(&d, &Device::cpu().info()) }.unwrap();
                assert_eq!((f.format(), f.bpc()), (PixelFormat::Yuv444p, bpc));
                let mut worst = 0i32;
                for (i, want) in reference.iter().enumerate() {
                    let (x, y) = (i as u32 % W, i as u32 / W);
                    for (p, want) in want.iter().enumerate() {
                        let got = f.plane(p).get(x, y) as i32;
                        worst = worst.max((got - want).abs());
                    }
                }
                // The crate works in 15-bit fixed point: at 16 bits that is two code values.
                let tolerance = if bpc == 16 { 2 } else { 1 };
                assert!(
                    worst <= tolerance,
                    "{format} {bpc}-bit {name}: {worst} from the exact matrix"
                );
            }
        }
    }
}

#[test]
fn rgb_statements_are_checked_by_field() {
    let px = pixels();
    let (buf, pitch) = packed(&px, PixelFormat::Rgba, 0);
    let refused = |rgb: RgbStatement, bpc: u32| {
        let mut d = descriptor(&buf, pitch, PixelFormat::Rgba, rgb);
        d.bpc = bpc;
        // SAFETY: refused before reading, or read from `buf`, which outlives the call.
        let e = unsafe { import_host(&d, &Device::cpu().info()) }.unwrap_err();
        (e.status(), e.subject().to_string())
    };
    let ok = statement(2, 1);
    let cases: [(RgbStatement, u32, Status, &str); 9] = [
        (
            RgbStatement { matrix: 0, ..ok },
            8,
            Status::Invalid,
            "desc.rgb_matrix",
        ),
        (
            RgbStatement { matrix: 4, ..ok },
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
            RgbStatement { range: 1, ..ok },
            8,
            Status::NotSup,
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
        (ok, 11, Status::NotSup, "desc.bpc"),
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
