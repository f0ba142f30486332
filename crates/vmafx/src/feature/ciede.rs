//! CIEDE2000 colour difference (`ciede`), as libvmaf computes it.
//!
//! Each pixel pair is taken from Y'CbCr (BT.709, limited range) to CIELAB and compared with
//! the CIEDE2000 formula (kL 0.65, kC 1, kH 4); the score is `45 - 20 log10(mean dE00)`.
//! The single- and double-precision steps follow libvmaf's exactly (they decide the last
//! printed digit), and so does its chroma upsampling: 4:2:0 chroma is repeated 2x2, while
//! 4:2:2 chroma is read the way libvmaf reads it, as one sample per luma column of the
//! chroma rows of every second line, running on through the zeroed row padding of libvmaf's
//! 32-sample-aligned pictures. That reading is libvmaf's, kept so scores agree.

use std::f64::consts::PI;

use super::{
    ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptSpec, OptValues, Ordering,
};
use crate::error::{Error, Result};
use crate::frame::{Frame, PixelFormat};

/// libvmaf's picture rows are aligned to this many samples.
const LIBVMAF_ALIGN: usize = 32;

static OPTIONS: &[OptSpec] = &[];

/// The extractors this module defines.
pub static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: "ciede",
    aliases: &[],
    provided: &["ciede2000"],
    options: OPTIONS,
    ordering: Ordering::Independent,
    create: |_o: &OptValues| Ok(Box::new(Ciede::default())),
}];

#[derive(Default)]
struct Ciede {
    geometry: Option<Geometry>,
}

#[derive(Clone, Copy)]
struct Lab {
    l: f32,
    a: f32,
    b: f32,
}

fn to_linear(c: f64) -> f64 {
    if c > 10.0 / 255.0 {
        ((c + 0.055) * (1.0 / 1.055)).powf(2.4)
    } else {
        c * (1.0 / 12.92)
    }
}

/// libvmaf's `xyz_to_lab_map` returns single precision.
fn lab_map(c: f64) -> f32 {
    const KAPPA: f64 = 24389.0 / 27.0;
    const EPSILON: f64 = 216.0 / 24389.0;
    if c > EPSILON {
        c.powf(1.0 / 3.0) as f32
    } else {
        ((KAPPA * c + 16.0) * (1.0 / 116.0)) as f32
    }
}

fn lab(y: f64, u: f64, v: f64, bpc: u32) -> Lab {
    let scale = (1u32 << (bpc - 8)) as f64;
    let y = (y - 16.0 * scale) * (1.0 / (219.0 * scale));
    let u = (u - 128.0 * scale) * (1.0 / (224.0 * scale));
    let v = (v - 128.0 * scale) * (1.0 / (224.0 * scale));
    let r = to_linear(y + 1.28033 * v);
    let g = to_linear(y - 0.21482 * u - 0.38059 * v);
    let b = to_linear(y + 2.12798 * u);
    let x = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
    let yy = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
    let z = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;
    let x = lab_map(x * (1.0 / 0.95047)) as f64;
    let yy = lab_map(yy) as f64;
    let z = lab_map(z * (1.0 / 1.08883)) as f64;
    Lab {
        l: (116.0 * yy - 16.0) as f32,
        a: (500.0 * (x - yy)) as f32,
        b: (200.0 * (yy - z)) as f32,
    }
}

fn hue_angle(x: f32, y: f32) -> f32 {
    if x == 0.0 && y == 0.0 {
        return 0.0;
    }
    let mut h = (x as f64).atan2(y as f64) as f32;
    if h < 0.0 {
        h = (h as f64 + 2.0 * PI) as f32;
    }
    h
}

fn delta_hue(c1: f32, c2: f32, h1: f32, h2: f32) -> f32 {
    if c1 == 0.0 || c2 == 0.0 {
        return 0.0;
    }
    if ((h1 - h2).abs() as f64) <= PI {
        h2 - h1
    } else if h2 <= h1 {
        ((h2 - h1) as f64 + 2.0 * PI) as f32
    } else {
        ((h2 - h1) as f64 - 2.0 * PI) as f32
    }
}

fn mean_hue(h1: f32, h2: f32) -> f32 {
    if ((h1 - h2) as f64).abs() > PI {
        (((h1 + h2) as f64 + 2.0 * PI) / 2.0) as f32
    } else {
        ((h1 + h2) as f64 / 2.0) as f32
    }
}

fn t_term(h: f32) -> f32 {
    let h = h as f64;
    (1.0 - 0.17 * (h - PI / 6.0).cos()
        + 0.24 * (2.0 * h).cos()
        + 0.32 * (3.0 * h + PI / 30.0).cos()
        - 0.20 * (4.0 * h - 7.0 * PI / 20.0).cos()) as f32
}

fn to_degrees(r: f32) -> f32 {
    (r as f64 * (180.0 / PI)) as f32
}

fn to_radians(d: f32) -> f32 {
    (d as f64 * (PI / 180.0)) as f32
}

fn rotation(c_bar: f32, h_bar: f32) -> f32 {
    let d = ((to_degrees(h_bar) as f64 - 275.0) * (1.0 / 25.0)) as f32;
    let c7 = c_bar.powf(7.0);
    let ratio = c7 / (c7 + 25f32.powf(7.0));
    let angle = to_radians((60.0 * (-(d.powf(2.0)) as f64).exp()) as f32);
    (-2.0 * (ratio as f64).sqrt() * (angle as f64).sin()) as f32
}

fn ciede2000(c1: Lab, c2: Lab) -> f32 {
    const KL: f32 = 0.65;
    const KC: f32 = 1.0;
    const KH: f32 = 4.0;
    let sq = |x: f32| (x as f64) * (x as f64);
    let dl = c2.l - c1.l;
    let l_bar = (c1.l + c2.l) / 2.0;
    let ch1 = (sq(c1.a) + sq(c1.b)).sqrt() as f32;
    let ch2 = (sq(c2.a) + sq(c2.b)).sqrt() as f32;
    let c_bar = (ch1 + ch2) / 2.0;
    let c_bar7 = (c_bar as f64).powf(7.0);
    let g = 1.0 - (c_bar7 / (c_bar7 + 25f64.powf(7.0))).sqrt();
    let a1 = (c1.a as f64 + (c1.a / 2.0) as f64 * g) as f32;
    let a2 = (c2.a as f64 + (c2.a / 2.0) as f64 * g) as f32;
    let cp1 = (sq(a1) + sq(c1.b)).sqrt() as f32;
    let cp2 = (sq(a2) + sq(c2.b)).sqrt() as f32;
    let cp_bar = (cp1 + cp2) / 2.0;
    let dc = cp2 - cp1;
    let lm = sq(l_bar - 50.0);
    let s_l = (1.0 + (0.015 * lm) / (20.0 + lm).sqrt()) as f32;
    let s_c = (1.0 + 0.045 * cp_bar as f64) as f32;
    let h1 = hue_angle(c1.b, a1);
    let h2 = hue_angle(c2.b, a2);
    let dh = delta_hue(ch1, ch2, h1, h2);
    let d_big_h = (2.0 * ((cp1 * cp2) as f64).sqrt() * (dh as f64 / 2.0).sin()) as f32;
    let h_bar = mean_hue(h1, h2);
    let t = t_term(h_bar);
    let s_h = (1.0 + 0.015 * cp_bar as f64 * t as f64) as f32;
    let r_t = rotation(cp_bar, h_bar);
    let lightness = dl / (KL * s_l);
    let chroma = dc / (KC * s_c);
    let hue = d_big_h / (KH * s_h);
    (sq(lightness) + sq(chroma) + sq(hue) + (r_t * chroma * hue) as f64).sqrt() as f32
}

/// Chroma sample libvmaf's upsampler reads for luma position (x, y) of plane `p`.
///
/// libvmaf keeps Cb and Cr back to back in one allocation with rows of 32-aligned stride,
/// zeroed padding; its upsampler reads row `y / 2` and column `x / 2` (4:2:0) or `x` (4:2:2)
/// by address, so at odd sizes and in 4:2:2 it reads padding, or Cr where Cb ends. Reads are
/// resolved against that layout; anything past both planes reads as zero.
fn chroma_at(frame: &Frame, p: usize, x: u32, y: u32) -> f64 {
    let plane = frame.plane(p);
    let (w, h) = (plane.width as usize, plane.height as usize);
    let col = match frame.format() {
        PixelFormat::Yuv444p => return plane.get(x, y) as f64,
        PixelFormat::Yuv420p => x as usize / 2,
        _ => x as usize,
    };
    let stride = w.div_ceil(LIBVMAF_ALIGN) * LIBVMAF_ALIGN;
    let plane_len = stride * h;
    let addr = (p - 1) * plane_len + (y as usize / 2) * stride + col;
    let (q, rest) = (1 + addr / plane_len.max(1), addr % plane_len.max(1));
    let (row, col) = (rest / stride, rest % stride);
    if q > 2 || col >= w {
        return 0.0;
    }
    frame.plane(q).get(col as u32, row as u32) as f64
}

impl Extractor for Ciede {
    fn init(&mut self, g: Geometry) -> Result<()> {
        if g.format == PixelFormat::Yuv400p {
            return Err(Error::invalid(
                "ciede",
                "CIEDE2000 needs colour: 4:0:0 input has no chroma",
            ));
        }
        if !matches!(g.bpc, 8 | 10 | 12 | 16) {
            return Err(Error::invalid(
                "ciede",
                format!(
                    "{}-bit input: libvmaf's ciede takes 8, 10, 12 or 16 bits",
                    g.bpc
                ),
            ));
        }
        let (sx, sy) = g.format.chroma_shift();
        if g.width >> sx == 0 || g.height >> sy == 0 {
            // libvmaf's upsampler would read chroma planes with no samples.
            return Err(Error::invalid(
                "ciede",
                format!(
                    "{}x{} {}: the chroma planes are empty; CIEDE2000 needs colour",
                    g.width, g.height, g.format
                ),
            ));
        }
        self.geometry = Some(g);
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let g = self
            .geometry
            .ok_or_else(|| Error::invalid("ciede", "extract before init"))?;
        let (r, d) = (input.reference, input.distorted);
        let (ry, dy) = (r.plane(0), d.plane(0));
        let mut sum = 0.0f64;
        for y in 0..g.height {
            for x in 0..g.width {
                let c1 = lab(
                    ry.get(x, y) as f64,
                    chroma_at(r, 1, x, y),
                    chroma_at(r, 2, x, y),
                    g.bpc,
                );
                let c2 = lab(
                    dy.get(x, y) as f64,
                    chroma_at(d, 1, x, y),
                    chroma_at(d, 2, x, y),
                    g.bpc,
                );
                sum += ciede2000(c1, c2) as f64;
            }
        }
        let score = 45.0 - 20.0 * (sum / (g.width as f64 * g.height as f64)).log10();
        out.put("ciede2000", input.index, score);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;

    #[test]
    #[cfg_attr(
        vmafx_no_corpus,
        ignore = "no conformance corpus at ../shared/conformance or VMAFX_CONFORMANCE"
    )]
    fn matches_libvmaf_on_every_clip() {
        let Some(dir) = conformance_dir() else { return };
        let mut checked = 0;
        for clip in clip_ids() {
            let log = expected(&dir, clip, "extra_features").unwrap();
            let want = expected_metric(&log, "ciede2000").unwrap();
            let (rf, df) = load_clip(&dir, clip);
            let mut x = Ciede::default();
            for (i, out) in extract_all(&mut x, &rf, &df).into_iter().enumerate() {
                let got = out.entries[0].2;
                match want[i] {
                    Some(w) => assert!(
                        same_at_6(got, w),
                        "{clip} frame {i} ciede2000: vmafx {got:.6} libvmaf {w:.6}"
                    ),
                    None => assert!(
                        got.is_infinite(),
                        "{clip} frame {i}: libvmaf null, vmafx {got}"
                    ),
                }
                checked += 1;
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn mono_and_odd_depths_are_refused() {
        let mut x = Ciede::default();
        let g = Geometry {
            format: PixelFormat::Yuv400p,
            bpc: 8,
            width: 8,
            height: 8,
        };
        assert!(x.init(g).unwrap_err().message().contains("4:0:0"));
        let g = Geometry {
            format: PixelFormat::Yuv420p,
            bpc: 9,
            width: 8,
            height: 8,
        };
        assert!(x.init(g).unwrap_err().message().contains("9-bit"));
    }

    /// Found by the `extractors` fuzz target: 8x1 4:2:0 has 4x0 chroma planes, which
    /// `extract` indexed out of bounds.
    #[test]
    fn empty_chroma_planes_are_refused() {
        for (format, width, height) in [
            (PixelFormat::Yuv420p, 8, 1),
            (PixelFormat::Yuv420p, 1, 8),
            (PixelFormat::Yuv422p, 1, 8),
        ] {
            let g = Geometry {
                format,
                bpc: 8,
                width,
                height,
            };
            let e = Ciede::default().init(g).unwrap_err();
            assert!(e.message().contains("chroma planes are empty"), "{e}");
        }
        let g = Geometry {
            format: PixelFormat::Yuv444p,
            bpc: 8,
            width: 1,
            height: 1,
        };
        Ciede::default().init(g).unwrap();
    }
}
