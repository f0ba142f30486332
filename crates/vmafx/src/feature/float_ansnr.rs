//! libvmaf's `float_ansnr`: anti-noise SNR. The reference luma is smoothed by a 3x3
//! kernel, the distorted luma by a 5x5 one (both on samples shifted by -128), and the
//! signal-to-noise ratio of the two smoothed pictures is written as `float_ansnr`, their
//! PSNR (against libvmaf's per-depth peak and cap) as `float_anpsnr`.
//!
//! libvmaf's defaults are kept: full 2-D kernels (not the separable variant), borders
//! mirrored (`-i` before the start, which skips the edge sample; `2n - i - 1` past the
//! end, which repeats it), no normalisation. Everything but the final
//! logarithms is single precision, summed in the C's order. Because the two kernels
//! differ, identical pictures do not give the cap unless they are flat at mid-grey.

use super::float_conv::{check_geometry, check_input, picture_to_float, FloatPlane};
use super::float_psnr::peak_and_cap_for;
use super::{ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptValues, Ordering};
use crate::error::{Error, Result};

const NAME: &str = "float_ansnr";

/// The extractors this module defines. libvmaf lists only `float_ansnr` as provided,
/// though it also writes `float_anpsnr`.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: NAME,
    aliases: &[],
    provided: &["float_ansnr"],
    options: &[],
    ordering: Ordering::Independent,
    create,
}];

fn create(_opts: &OptValues) -> Result<Box<dyn Extractor>> {
    Ok(Box::new(FloatAnsnr::default()))
}

/// Weights of the 3x3 reference kernel, in sixteenths.
const REF_WEIGHTS: [f64; 9] = [1.0, 2.0, 1.0, 2.0, 4.0, 2.0, 1.0, 2.0, 1.0];
/// Weights of the 5x5 distorted kernel, in 571ths.
const DIS_WEIGHTS: [f64; 25] = [
    2.0, 7.0, 12.0, 7.0, 2.0, //
    7.0, 31.0, 52.0, 31.0, 7.0, //
    12.0, 52.0, 127.0, 52.0, 12.0, //
    7.0, 31.0, 52.0, 31.0, 7.0, //
    2.0, 7.0, 12.0, 7.0, 2.0,
];

/// A square kernel as libvmaf stores it: each weight divided in double, then rounded
/// to `f32`.
fn kernel(weights: &[f64], divisor: f64) -> Vec<f32> {
    weights.iter().map(|&w| (w / divisor) as f32).collect()
}

/// Mirrors `i` into `0..n` as libvmaf's ANSNR filter does: `-i` below, `2n - i - 1`
/// above (not symmetric: only the far edge is repeated). Needs `n` at least the kernel
/// radius plus one.
#[inline]
fn reflect(i: isize, n: usize) -> usize {
    let n = n as isize;
    if i < 0 {
        (-i) as usize
    } else if i >= n {
        (2 * n - i - 1) as usize
    } else {
        i as usize
    }
}

/// Convolves `src` with the square kernel `k` (side `side`), each output summed row of
/// taps by row of taps, each row from zero, in `f32` (libvmaf's `ansnr_filter2d`).
pub(crate) fn filter2d(k: &[f32], side: usize, src: &FloatPlane, dst: &mut FloatPlane) {
    let (w, h) = (src.width, src.height);
    if dst.width != w || dst.height != h {
        *dst = FloatPlane::new(w, h);
    }
    let r = (side / 2) as isize;
    let mut cols = vec![0usize; side];
    for i in 0..h {
        for j in 0..w {
            for (fj, c) in cols.iter_mut().enumerate() {
                *c = reflect(j as isize - r + fj as isize, w);
            }
            let mut acc = 0.0f32;
            for fi in 0..side {
                let row = src.row(reflect(i as isize - r + fi as isize, h));
                let taps = &k[fi * side..(fi + 1) * side];
                let mut inner = 0.0f32;
                for (&f, &c) in taps.iter().zip(&cols) {
                    inner += f * row[c];
                }
                acc += inner;
            }
            dst.data[i * w + j] = acc;
        }
    }
}

/// Signal energy of `r` and noise energy of `r - d`, summed per row then over rows in
/// `f32` (libvmaf's `ansnr_mse`, which does not divide by the area).
pub(crate) fn signal_and_noise(r: &FloatPlane, d: &FloatPlane) -> (f32, f32) {
    let (mut sig, mut noise) = (0.0f32, 0.0f32);
    for y in 0..r.height {
        let (mut s, mut n) = (0.0f32, 0.0f32);
        for (&a, &b) in r.row(y).iter().zip(d.row(y)) {
            s += a * a;
            n += (a - b) * (a - b);
        }
        sig += s;
        noise += n;
    }
    (sig, noise)
}

/// `(float_ansnr, float_anpsnr)` from the energies of a `w x h` picture.
pub(crate) fn scores(sig: f32, noise: f32, w: usize, h: usize, peak: f64, cap: f64) -> (f64, f64) {
    let ansnr = if noise == 0.0 {
        cap
    } else {
        10.0 * ((sig / noise) as f64).log10()
    };
    let anpsnr =
        (10.0 * (peak * peak * w as f64 * h as f64 / (noise as f64).max(1e-10)).log10()).min(cap);
    (ansnr, anpsnr)
}

#[derive(Default)]
struct FloatAnsnr {
    geometry: Option<Geometry>,
    peak: f64,
    cap: f64,
    ref_kernel: Vec<f32>,
    dis_kernel: Vec<f32>,
    r: FloatPlane,
    d: FloatPlane,
    rf: FloatPlane,
    df: FloatPlane,
}

impl Extractor for FloatAnsnr {
    fn init(&mut self, g: Geometry) -> Result<()> {
        (self.peak, self.cap) = peak_and_cap_for(NAME, g)?;
        // The 5x5 kernel's mirrored taps stay inside pictures of at least 3x3.
        check_geometry(NAME, g, 3)?;
        self.ref_kernel = kernel(&REF_WEIGHTS, 16.0);
        self.dis_kernel = kernel(&DIS_WEIGHTS, 571.0);
        self.geometry = Some(g);
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let g = self
            .geometry
            .ok_or_else(|| Error::invalid(NAME, "extract called before init"))?;
        check_input(NAME, input, g)?;
        picture_to_float(input.reference, 0, -128.0, &mut self.r);
        picture_to_float(input.distorted, 0, -128.0, &mut self.d);
        filter2d(&self.ref_kernel, 3, &self.r, &mut self.rf);
        filter2d(&self.dis_kernel, 5, &self.d, &mut self.df);
        let (sig, noise) = signal_and_noise(&self.rf, &self.df);
        let (ansnr, anpsnr) = scores(sig, noise, self.r.width, self.r.height, self.peak, self.cap);
        out.put("float_ansnr", input.index, ansnr);
        out.put("float_anpsnr", input.index, anpsnr);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::float_psnr::testing::{frame, geometry, run_one};
    use super::*;

    fn named(ansnr: f64, anpsnr: f64) -> Vec<(String, f64)> {
        vec![
            ("float_ansnr".to_string(), ansnr),
            ("float_anpsnr".to_string(), anpsnr),
        ]
    }

    #[test]
    fn flat_mid_grey_gives_the_cap_at_every_depth() {
        for (bpc, grey, cap) in [
            (8, 128, 60.0),
            (10, 512, 72.0),
            (12, 2048, 84.0),
            (16, 32768, 108.0),
        ] {
            let r = frame(bpc, 12, 10, |_, _| grey);
            assert_eq!(
                run_one(&EXTRACTORS[0], &r, &r),
                named(cap, cap),
                "{bpc} bits"
            );
        }
    }

    #[test]
    fn flat_pictures_give_the_hand_computed_value() {
        // Flat pictures stay flat under both kernels (mirroring only repeats samples):
        // the reference at 10 (138 - 128) times the 3x3 sum, which is exactly 1, the
        // distorted at 0. So every sample has signal 100 and noise 100: ansnr 0 dB, and
        // anpsnr 10 log10(255² * 12 * 10 / (100 * 120)).
        let r = frame(8, 12, 10, |_, _| 138);
        let d = frame(8, 12, 10, |_, _| 128);
        let want = 10.0 * (255.0f64 * 255.0 * 12.0 * 10.0 / 12000.0).log10();
        assert_eq!(run_one(&EXTRACTORS[0], &r, &d), named(0.0, want));
        assert!((want - 28.130_803).abs() < 1e-6, "{want}");
        // At 10 bits the same pictures (codes times 4) give the same energies against the
        // 10-bit peak.
        let r = frame(10, 12, 10, |_, _| 552);
        let d = frame(10, 12, 10, |_, _| 512);
        let want = 10.0 * (255.75f64 * 255.75 * 120.0 / 12000.0).log10();
        assert_eq!(run_one(&EXTRACTORS[0], &r, &d), named(0.0, want));
    }

    #[test]
    fn filter_mirrors_as_libvmaf_does() {
        // A ramp 0, 1, 2, 3 along x: at x = 0 the 3-tap row [1 2 1]/4 reads x = 1, 0, 1,
        // at x = 3 it reads 2, 3, 2 (2n - i - 1 for i = 4).
        let mut p = FloatPlane::new(4, 3);
        for (i, v) in p.data.iter_mut().enumerate() {
            *v = (i % 4) as f32;
        }
        let mut out = FloatPlane::default();
        filter2d(&kernel(&REF_WEIGHTS, 16.0), 3, &p, &mut out);
        assert_eq!(out.row(1), &[0.5, 1.0, 2.0, 2.75]);
    }

    #[test]
    fn kernels_are_rounded_from_double() {
        let k = kernel(&DIS_WEIGHTS, 571.0);
        assert_eq!(k[12], (127.0f64 / 571.0) as f32);
        assert_eq!(k.len(), 25);
        assert_eq!(kernel(&REF_WEIGHTS, 16.0)[4], 0.25);
    }

    #[test]
    fn refuses_pictures_below_3x3() {
        let r = frame(8, 2, 8, |_, _| 0);
        let info = &EXTRACTORS[0];
        let mut x = (info.create)(&info.parse_options(&[]).unwrap()).unwrap();
        let e = x.init(geometry(&r)).unwrap_err();
        assert_eq!(e.status(), crate::error::Status::Range);
        assert!(e.subject().contains("size"), "{e}");
    }
}
