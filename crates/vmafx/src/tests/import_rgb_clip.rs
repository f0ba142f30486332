//! RGB imports of conformance frames: each frame of the 4:4:4 8-bit clip (and of the 10-bit
//! clip, its chroma repeated) is turned into R'G'B' (the exact inverse BT.709 matrix,
//! rounded), packed as RGB, RGBA and BGRA and imported. The frame an import makes is
//! within the documented tolerance of the exact-matrix Y'CbCr of the same R'G'B' (the
//! converted reference), sample for sample, and it scores bit for bit as a planar host
//! frame holding its samples: the import adds nothing to the scores but the conversion.
//! Each import is one counted conversion and no host copy.

use super::import_bitexact::{plane_samples, session, Scores};
use crate::device::cpu::import_host;
use crate::device::Device;
use crate::frame::import::{FrameImport, RgbStatement};
use crate::frame::{Frame, FrameBuilder, MemoryKind, PixelFormat, SamplesMut};
use crate::hooks;
use crate::testutil;

const KR: f64 = 0.2126;
const KB: f64 = 0.0722;

/// How the R'G'B' of a test is coded.
#[derive(Debug, Clone, Copy)]
struct Coding {
    bpc: u32,
    /// 1 limited, 2 full (`VmafxColorRange`).
    rgb_range: u32,
}

impl Coding {
    fn scale(self) -> f64 {
        (1u32 << (self.bpc - 8)) as f64
    }

    fn max(self) -> f64 {
        ((1u32 << self.bpc) - 1) as f64
    }

    /// R'G'B' code values of normalised `[r, g, b]` (0..=1).
    fn code(self, v: [f64; 3]) -> [u16; 3] {
        v.map(|c| {
            let c = c.clamp(0.0, 1.0);
            let code = match self.rgb_range {
                1 => (219.0 * c + 16.0) * self.scale(),
                _ => c * self.max(),
            };
            code.round() as u16
        })
    }

    /// Normalised R'G'B' of code values `p`.
    fn level(self, p: [u16; 3]) -> [f64; 3] {
        p.map(|v| match self.rgb_range {
            1 => ((v as f64 / self.scale() - 16.0) / 219.0).clamp(0.0, 1.0),
            _ => v as f64 / self.max(),
        })
    }
}

/// The R'G'B' of limited-range BT.709 Y'CbCr `[y, cb, cr]` at `bpc` bits.
fn to_rgb(ycc: [u16; 3], bpc: u32, c: Coding) -> [u16; 3] {
    let s = (1u32 << (bpc - 8)) as f64;
    let y = (ycc[0] as f64 / s - 16.0) / 219.0;
    let cb = (ycc[1] as f64 / s - 128.0) / 224.0;
    let cr = (ycc[2] as f64 / s - 128.0) / 224.0;
    let r = y + 2.0 * (1.0 - KR) * cr;
    let b = y + 2.0 * (1.0 - KB) * cb;
    let g = (y - KR * r - KB * b) / (1.0 - KR - KB);
    c.code([r, g, b])
}

/// The exact limited-range BT.709 Y'CbCr of R'G'B' `p` (the converted reference).
fn to_ycc(p: [u16; 3], c: Coding) -> [u16; 3] {
    let [r, g, b] = c.level(p);
    let y = KR * r + (1.0 - KR - KB) * g + KB * b;
    let (cb, cr) = ((b - y) / (2.0 * (1.0 - KB)), (r - y) / (2.0 * (1.0 - KR)));
    let s = c.scale();
    [
        ((219.0 * y + 16.0) * s).round() as u16,
        ((224.0 * cb + 128.0) * s).round() as u16,
        ((224.0 * cr + 128.0) * s).round() as u16,
    ]
}

/// A 4:4:4 frame of `c.bpc` bits with `samples[p][i]`.
fn planar(w: u32, h: u32, bpc: u32, samples: &[Vec<u16>; 3]) -> Frame {
    let mut b = FrameBuilder::new(PixelFormat::Yuv444p, bpc, w, h).unwrap();
    for (p, src) in samples.iter().enumerate() {
        let pl = b.plane_mut(p);
        let stride = pl.stride;
        for (i, &v) in src.iter().enumerate() {
            let at = (i / w as usize) * stride + i % w as usize;
            match pl.samples_mut().unwrap() {
                SamplesMut::U8(s) => s[at] = v as u8,
                SamplesMut::U16(s) => s[at] = v,
            }
        }
    }
    b.build()
}

/// The pixels of a frame as R'G'B' of `c`, and the exact-matrix Y'CbCr frame of them.
fn rgb_and_reference(f: &Frame, c: Coding) -> (Vec<[u16; 3]>, Frame) {
    let ycc: Vec<Vec<u16>> = (0..3).map(|p| plane_samples(f, p)).collect();
    let px: Vec<[u16; 3]> = (0..ycc[0].len())
        .map(|i| to_rgb([ycc[0][i], ycc[1][i], ycc[2][i]], f.bpc(), c))
        .collect();
    let mut reference: [Vec<u16>; 3] = Default::default();
    for p in &px {
        for (plane, v) in reference.iter_mut().zip(to_ycc(*p, c)) {
            plane.push(v);
        }
    }
    let frame = planar(f.width(), f.height(), c.bpc, &reference);
    (px, frame)
}

/// `px` packed as `format` at `c.bpc` bits, rows padded; the buffer and its pitch.
fn packed(px: &[[u16; 3]], w: u32, format: PixelFormat, c: Coding) -> (Vec<u8>, u64) {
    let mut out = Vec::new();
    for row in px.chunks(w as usize) {
        for &[r, g, b] in row {
            let words = match format {
                PixelFormat::Rgb => vec![r, g, b],
                PixelFormat::Rgba => vec![r, g, b, 7],
                _ => vec![b, g, r, 7],
            };
            for v in words {
                if c.bpc > 8 {
                    out.extend(v.to_le_bytes());
                } else {
                    out.push(v as u8);
                }
            }
        }
        out.extend([0xee; 10]);
    }
    let pitch = out.len() as u64 / (px.len() as u64 / w as u64);
    (out, pitch)
}

/// The imported frame of `px` as `format`: checked against `reference` (at most
/// `tolerance` from it, every sample) and returned as a planar host frame of its samples,
/// with the imported frame.
fn import_checked(
    px: &[[u16; 3]],
    reference: &Frame,
    format: PixelFormat,
    c: Coding,
    tolerance: i32,
) -> (Frame, Frame) {
    let (w, h) = (reference.width(), reference.height());
    let (buf, pitch) = packed(px, w, format, c);
    let mut d = FrameImport {
        memory: Some(MemoryKind::Host),
        format: Some(format),
        bpc: c.bpc,
        width: w,
        height: h,
        n_planes: 1,
        rgb: RgbStatement {
            matrix: 1,
            range: c.rgb_range,
            transfer: 1,
            out_range: 1,
        },
        ..FrameImport::default()
    };
    d.planes[0].handle = buf.as_ptr() as usize;
    d.planes[0].pitch = pitch;
    d.planes[0].size = buf.len() as u64;
    // SAFETY: an RGB import converts into planes of the library's own and keeps no
    // reference to `buf`, which outlives the call.
    let f = unsafe { import_host(&d, &Device::cpu().info()) }.unwrap();
    assert_eq!((f.format(), f.bpc()), (PixelFormat::Yuv444p, c.bpc));
    let mut samples: [Vec<u16>; 3] = Default::default();
    for (p, s) in samples.iter_mut().enumerate() {
        *s = plane_samples(&f, p);
        let want = plane_samples(reference, p);
        let worst = s
            .iter()
            .zip(&want)
            .map(|(&a, &b)| (a as i32 - b as i32).abs())
            .max()
            .unwrap();
        assert!(
            worst <= tolerance,
            "{format} {c:?} plane {p}: {worst} from the exact matrix"
        );
    }
    let host = planar(w, h, c.bpc, &samples);
    (f, host)
}

/// Imports every frame of `refs` / `dis` as R'G'B' of `c` in every RGB layout and checks
/// the frames and their scores.
fn assert_rgb_imports(what: &str, refs: &[Frame], dis: &[Frame], c: Coding, tolerance: i32) {
    let made: Vec<_> = refs
        .iter()
        .chain(dis)
        .map(|f| rgb_and_reference(f, c))
        .collect();
    for format in [PixelFormat::Rgb, PixelFormat::Rgba, PixelFormat::Bgra] {
        let (conversions, copies) = (hooks::conversions(), hooks::host_copies());
        let frames: Vec<(Frame, Frame)> = made
            .iter()
            .map(|(px, reference)| import_checked(px, reference, format, c, tolerance))
            .collect();
        let n = refs.len();
        let pairs = |pick: fn(&(Frame, Frame)) -> Frame| -> Vec<(Frame, Frame)> {
            (0..n)
                .map(|i| (pick(&frames[i]), pick(&frames[n + i])))
                .collect()
        };
        let imported: Scores = session(pairs(|p| p.0.clone()));
        let host: Scores = session(pairs(|p| p.1.clone()));
        assert!(
            host.features.iter().any(|(k, _)| k == "psnr_cb"),
            "{what}: chroma was scored"
        );
        assert_eq!(imported, host, "{what} as {format} {c:?}: scores differ");
        assert_eq!(hooks::conversions() - conversions, 2 * n as u64, "{what}");
        assert_eq!(hooks::host_copies(), copies, "{what} {format}: host copies");
    }
}

#[test]
#[cfg_attr(
    vmafx_no_corpus,
    ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
)]
fn rgb_imports_of_conformance_frames_score_as_their_planar_frames() {
    let Some(dir) = testutil::conformance_dir() else {
        return;
    };
    let _g = hooks::test_lock();
    hooks::reset_counters();
    let (r, d) = testutil::load_clip(&dir, "bbb_320x180_444p8_crf38");
    assert_eq!((r[0].format(), r[0].bpc()), (PixelFormat::Yuv444p, 8));
    let full8 = Coding {
        bpc: 8,
        rgb_range: 2,
    };
    assert_rgb_imports("bbb 4:4:4 8-bit", &r, &d, full8, 1);
    let limited8 = Coding {
        bpc: 8,
        rgb_range: 1,
    };
    assert_rgb_imports("bbb 4:4:4 8-bit", &r, &d, limited8, 1);
    // Deeper R'G'B' (13 bits: an odd depth, widened) from the same frames.
    let full13 = Coding {
        bpc: 13,
        rgb_range: 2,
    };
    assert_rgb_imports("bbb 4:4:4 8-bit", &r, &d, full13, 1);
    assert_eq!(hooks::host_copies(), 0, "no import copied through the host");
}
