//! CIEDE2000 colour difference (`ciede`), as libvmaf computes it.
//!
//! Each pixel pair is taken from Y'CbCr (BT.709, limited range) to CIELAB and compared with
//! the CIEDE2000 formula (kL 0.65, kC 1, kH 4); the score is `45 - 20 log10(mean dE00)`.
//! The single- and double-precision steps follow libvmaf's exactly (they decide the last
//! printed digit), and so does its chroma upsampling: 4:2:0 chroma is repeated 2x2, while
//! 4:2:2 chroma is read the way libvmaf reads it, as one sample per luma column of the
//! chroma rows of every second line, running on through the zeroed row padding of libvmaf's
//! 32-sample-aligned pictures. That reading is libvmaf's, kept so scores agree.
//!
//! At 8 and 10 bits the per-pixel work is cached: the difference by the pair of sample
//! triples, the Lab value by the triple (both pure functions of the integers, so cached
//! values are the computed ones bit for bit), which skips most `pow` and trigonometric
//! calls on natural pictures.

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
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
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
    /// Differences of recently seen pairs of sample triples and Lab values of recently
    /// seen triples (8- and 10-bit input).
    cache: Option<(DeltaCache, LabCache)>,
    /// One row's luma, Cb and Cr per luma column, of the reference and the distorted.
    rows: [[Vec<u16>; 3]; 2],
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

fn lab([y, u, v]: [u16; 3], bpc: u32) -> Lab {
    let (y, u, v) = (y as f64, u as f64, v as f64);
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
        self.cache = (g.bpc <= 10).then(|| (DeltaCache::new(), LabCache::new()));
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let g = self
            .geometry
            .ok_or_else(|| Error::invalid("ciede", "extract before init"))?;
        let frames = [input.reference, input.distorted];
        let mut sum = 0.0f64;
        for y in 0..g.height {
            for (frame, row) in frames.iter().zip(&mut self.rows) {
                fill_row(frame, y, row);
            }
            let [[ry, ru, rv], [dy, du, dv]] = &self.rows;
            for x in 0..g.width as usize {
                let (t1, t2) = ([ry[x], ru[x], rv[x]], [dy[x], du[x], dv[x]]);
                let de = match (&mut self.cache, key(t1), key(t2)) {
                    (Some((pairs, labs)), Some(k1), Some(k2)) => pairs.delta_e(k1, k2, || {
                        let c1 = labs.get(k1, || lab(t1, g.bpc));
                        let c2 = labs.get(k2, || lab(t2, g.bpc));
                        ciede2000(c1, c2)
                    }),
                    _ => ciede2000(lab(t1, g.bpc), lab(t2, g.bpc)),
                };
                sum += de as f64;
            }
        }
        let score = 45.0 - 20.0 * (sum / (g.width as f64 * g.height as f64)).log10();
        out.put("ciede2000", input.index, score);
        Ok(())
    }
}

/// Row `y` of `frame` as libvmaf's upsampler hands it to the colour conversion: the luma
/// and, per luma column, the Cb and Cr samples it reads ([`chroma_at`]).
fn fill_row(frame: &Frame, y: u32, row: &mut [Vec<u16>; 3]) {
    let width = frame.width();
    for v in row.iter_mut() {
        v.clear();
    }
    let luma = frame.plane(0);
    row[0].extend((0..width).map(|x| luma.get(x, y)));
    // 4:2:0 and 4:4:4 read column x >> s of row y >> s, where the plane holds them all.
    let shift = match frame.format() {
        PixelFormat::Yuv420p => Some(1),
        PixelFormat::Yuv444p => Some(0),
        _ => None,
    };
    for (p, out) in row.iter_mut().enumerate().skip(1) {
        let plane = frame.plane(p);
        match shift {
            Some(s) if plane.width > (width - 1) >> s && plane.height > y >> s => {
                out.extend((0..width).map(|x| plane.get(x >> s, y >> s)));
            }
            _ => out.extend((0..width).map(|x| chroma_at(frame, p, x, y) as u16)),
        }
    }
}

/// A triple of samples below 2^10 packed into 30 bits (`None` for deeper samples).
fn key([y, u, v]: [u16; 3]) -> Option<u32> {
    ((y | u | v) < 1 << 10).then_some((y as u32) << 20 | (u as u32) << 10 | v as u32)
}

/// A direct-mapped cache of Lab values keyed by the sample triple ([`key`]): the
/// conversion is a pure function of the three integers (a hit returns exactly what it
/// would compute) and costs six `pow` calls.
struct LabCache {
    /// `key + 1` of the triple in each slot (0: empty), and its Lab value.
    slots: Vec<(u32, Lab)>,
}

impl LabCache {
    /// log2 of the slots (16 bytes each).
    const BITS: u32 = 14;

    fn new() -> Self {
        let none = Lab {
            l: 0.0,
            a: 0.0,
            b: 0.0,
        };
        LabCache {
            slots: vec![(0, none); 1 << Self::BITS],
        }
    }

    /// The Lab value of the triple packed in `k`.
    fn get(&mut self, k: u32, compute: impl FnOnce() -> Lab) -> Lab {
        let key = k + 1;
        let slot = &mut self.slots[(key.wrapping_mul(0x9e37_79b1) >> (32 - Self::BITS)) as usize];
        if slot.0 != key {
            *slot = (key, compute());
        }
        slot.1
    }
}

/// A direct-mapped cache of CIEDE2000 values keyed by the pair of sample triples. The
/// colour conversion and the difference are pure functions of the six integers, so a hit
/// returns exactly what they would compute; natural pictures repeat pairs often (flat
/// areas, repeated colours), and each pair costs about twenty `pow`, trigonometric and
/// square-root calls.
struct DeltaCache {
    /// `key + 1` of the pair in each slot (0: empty), and its difference.
    slots: Vec<(u64, f32)>,
}

impl DeltaCache {
    /// log2 of the slots (16 bytes each).
    const BITS: u32 = 14;

    /// A cache for samples of up to 10 bits (a pair of triples packs into 60 bits).
    fn new() -> Self {
        DeltaCache {
            slots: vec![(0, 0.0); 1 << Self::BITS],
        }
    }

    /// The difference of the triples packed in `k1` and `k2` ([`key`]).
    fn delta_e(&mut self, k1: u32, k2: u32, compute: impl FnOnce() -> f32) -> f32 {
        let key = ((k1 as u64) << 30 | k2 as u64) + 1;
        let hash = key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - Self::BITS);
        let slot = &mut self.slots[hash as usize];
        if slot.0 != key {
            *slot = (key, compute());
        }
        slot.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feature::extract_all::extract_all;
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

    /// The score computed pixel by pixel through [`chroma_at`], with no row buffers and
    /// no caches: what `extract` must give bit for bit.
    fn direct_score(r: &Frame, d: &Frame) -> f64 {
        let (w, h, bpc) = (r.width(), r.height(), r.bpc());
        let triple = |f: &Frame, x, y| {
            let c = |p| chroma_at(f, p, x, y) as u16;
            [f.plane(0).get(x, y), c(1), c(2)]
        };
        let mut sum = 0.0f64;
        for y in 0..h {
            for x in 0..w {
                let (c1, c2) = (lab(triple(r, x, y), bpc), lab(triple(d, x, y), bpc));
                sum += ciede2000(c1, c2) as f64;
            }
        }
        45.0 - 20.0 * (sum / (w as f64 * h as f64)).log10()
    }

    /// A frame of samples drawn from `levels` values (few levels: many repeated triples
    /// and pairs, so the caches hit; many: mostly misses).
    fn random_frame(format: PixelFormat, bpc: u32, w: u32, h: u32, seed: u64) -> Frame {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        let levels = 1 + next() % 40;
        let step = ((1u32 << bpc) - 1) / levels.max(1);
        let mut b = crate::frame::FrameBuilder::new(format, bpc, w, h).unwrap();
        for p in 0..format.plane_count() {
            let plane = b.plane_mut(p);
            let (pw, ph, stride) = (plane.width as usize, plane.height as usize, plane.stride);
            match plane.samples_mut().unwrap() {
                crate::frame::SamplesMut::U8(s) => (0..ph).for_each(|y| {
                    (0..pw).for_each(|x| s[y * stride + x] = ((next() % levels) * step) as u8)
                }),
                crate::frame::SamplesMut::U16(s) => (0..ph).for_each(|y| {
                    (0..pw).for_each(|x| s[y * stride + x] = ((next() % levels) * step) as u16)
                }),
            }
        }
        b.build()
    }

    #[test]
    fn row_buffers_and_caches_give_the_direct_scores() {
        let formats = [
            PixelFormat::Yuv420p,
            PixelFormat::Yuv422p,
            PixelFormat::Yuv444p,
        ];
        let mut seed = 7;
        for format in formats {
            for bpc in [8, 10, 12] {
                for (w, h) in [(33, 17), (64, 48), (7, 9)] {
                    seed += 1;
                    let r = random_frame(format, bpc, w, h, seed);
                    let d = random_frame(format, bpc, w, h, seed * 31);
                    let mut x = Ciede::default();
                    let got = extract_all(
                        &mut x,
                        &[r.clone(), d.clone(), r.clone()],
                        &[d.clone(), r.clone(), r.clone()],
                    );
                    let want = [
                        direct_score(&r, &d),
                        direct_score(&d, &r),
                        direct_score(&r, &r),
                    ];
                    for (g, w) in got.iter().zip(want) {
                        let g = g.entries[0].2;
                        assert_eq!(g.to_bits(), w.to_bits(), "{format} {bpc} bits: {g} {w}");
                    }
                }
            }
        }
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
