//! libvmaf's `float_psnr`: PSNR of the luma planes converted to float, with libvmaf's
//! per-depth peak and cap.
//!
//! The squared differences are taken in `f32` and summed in `f64`; the score is
//! `min(10 log10(peak² / max(mse, 1e-10)), cap)`, so identical pictures give the cap
//! (60 dB at 8 bits, 72 at 10, 84 at 12, 108 at 16). Wherever that running sum is an
//! integer sum over the scale (every difference of codes below 2^12: always at 8 bits,
//! and for in-range 10- and 12-bit samples, see `float_conv::exact_sums`) the squared
//! differences of the codes are summed instead.

use super::float_conv::exact_sums::PlaneSums;
use super::float_conv::{check_geometry, check_input, picture_to_float, FloatPlane};
use super::{ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptValues, Ordering};
use crate::error::{Error, Result};

const NAME: &str = "float_psnr";

/// The extractors this module defines.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: NAME,
    aliases: &[],
    provided: &["float_psnr"],
    options: &[],
    ordering: Ordering::Independent,
    create,
}];

fn create(_opts: &OptValues) -> Result<Box<dyn Extractor>> {
    Ok(Box::new(FloatPsnr::default()))
}

/// libvmaf's peak and PSNR cap for the float PSNR-like features at `bpc` bits: the peak
/// is that of the 8-bit scale the float pictures are on (`255 * (2^bpc - 1) / 2^bpc *
/// 2^(bpc-8)` reduced, e.g. 255.75 at 10 bits). `None` for depths libvmaf refuses.
pub(crate) fn peak_and_cap(bpc: u32) -> Option<(f64, f64)> {
    match bpc {
        8 => Some((255.0, 60.0)),
        10 => Some((255.75, 72.0)),
        12 => Some((255.9375, 84.0)),
        16 => Some((255.99609375, 108.0)),
        _ => None,
    }
}

/// [`peak_and_cap`] for an extractor's initialisation, refusing other depths.
pub(crate) fn peak_and_cap_for(extractor: &str, g: Geometry) -> Result<(f64, f64)> {
    check_geometry(extractor, g, 1)?;
    peak_and_cap(g.bpc).ok_or_else(|| {
        Error::not_supported(
            format!("{extractor}:bpc"),
            format!("{extractor} has no peak for {} bits", g.bpc),
        )
    })
}

/// The sum of the squared differences of two float pictures of the same size, each
/// square in `f32`, in order in `f64` (libvmaf's `compute_psnr` before its division).
fn noise_sum(r: &FloatPlane, d: &FloatPlane) -> f64 {
    let mut noise = 0.0f64;
    for (&a, &b) in r.data.iter().zip(&d.data) {
        let diff = a - b;
        noise += (diff * diff) as f64;
    }
    noise
}

/// libvmaf's PSNR from the noise sum over `n` samples.
fn psnr_of(noise: f64, n: usize, peak: f64, cap: f64) -> f64 {
    let noise = noise / n as f64;
    (10.0 * (peak * peak / noise.max(1e-10)).log10()).min(cap)
}

#[derive(Default)]
struct FloatPsnr {
    geometry: Option<Geometry>,
    peak: f64,
    cap: f64,
    r: FloatPlane,
    d: FloatPlane,
}

impl Extractor for FloatPsnr {
    fn init(&mut self, g: Geometry) -> Result<()> {
        (self.peak, self.cap) = peak_and_cap_for(NAME, g)?;
        self.geometry = Some(g);
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let g = self
            .geometry
            .ok_or_else(|| Error::invalid(NAME, "extract called before init"))?;
        check_input(NAME, input, g)?;
        let sums = PlaneSums::of_differences(input.reference, input.distorted);
        let noise = if let Some((_, squares)) = sums.scaled(g.bpc) {
            squares
        } else {
            picture_to_float(input.reference, 0, 0.0, &mut self.r);
            picture_to_float(input.distorted, 0, 0.0, &mut self.d);
            noise_sum(&self.r, &self.d)
        };
        let n = g.width as usize * g.height as usize;
        out.put(
            "float_psnr",
            input.index,
            psnr_of(noise, n, self.peak, self.cap),
        );
        Ok(())
    }
}

/// Test helpers shared by the float PSNR, ANSNR and moment tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::error::Error;
    use crate::feature::{ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry};
    use crate::frame::{Frame, FrameBuilder, PixelFormat, SamplesMut};

    /// A 4:2:0 frame of `bpc` bits whose luma sample at (x, y) is `luma(x, y)`.
    pub(crate) fn frame(bpc: u32, w: u32, h: u32, luma: impl Fn(usize, usize) -> u16) -> Frame {
        let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w, h).unwrap();
        let plane = fb.plane_mut(0);
        let stride = plane.stride;
        match plane.samples_mut().unwrap() {
            SamplesMut::U8(s) => {
                for y in 0..h as usize {
                    for x in 0..w as usize {
                        s[y * stride + x] = luma(x, y) as u8;
                    }
                }
            }
            SamplesMut::U16(s) => {
                for y in 0..h as usize {
                    for x in 0..w as usize {
                        s[y * stride + x] = luma(x, y);
                    }
                }
            }
        }
        fb.build()
    }

    /// The geometry of `f`.
    pub(crate) fn geometry(f: &Frame) -> Geometry {
        Geometry {
            format: f.format(),
            bpc: f.bpc(),
            width: f.width(),
            height: f.height(),
        }
    }

    fn input<'a>(r: &'a Frame, d: &'a Frame, index: u64) -> ExtractInput<'a> {
        ExtractInput {
            reference: r,
            distorted: d,
            prev_reference: None,
            prev_prev_reference: None,
            index,
        }
    }

    /// Scores one pair with `info` at default options: (name, value) in the order written.
    pub(crate) fn run_one(info: &ExtractorInfo, r: &Frame, d: &Frame) -> Vec<(String, f64)> {
        let mut x = (info.create)(&info.parse_options(&[]).unwrap()).unwrap();
        x.init(geometry(r)).unwrap();
        let mut out = FrameScores::default();
        x.extract(&input(r, d, 0), &mut out).unwrap();
        out.entries.into_iter().map(|(n, _, v)| (n, v)).collect()
    }

    /// The error `x` returns for the pair.
    pub(crate) fn extract_err(x: &mut dyn Extractor, r: &Frame, d: &Frame) -> Error {
        x.extract(&input(r, d, 0), &mut FrameScores::default())
            .unwrap_err()
    }
}

#[cfg(test)]
mod tests {
    use super::super::float_conv::exact_sums::code_scale;
    use super::testing::{frame, run_one};
    use super::*;
    use crate::testutil::twin_rng::TwinRng;

    #[test]
    fn integer_noise_is_libvmafs_double_noise_to_the_bit() {
        let mut rng = TwinRng::new(0x7073_6e72);
        for trial in 0..48 {
            let bpc = [8, 10, 12, 16][trial % 4];
            let (w, h) = (rng.size(1, 300) as u32, rng.size(1, 40) as u32);
            // Codes in range (16-bit ones below 2^12), runs at 0 and at the top.
            let top = if bpc == 16 { 4095 } else { (1i64 << bpc) - 1 };
            let mut draw = |_: usize, _: usize| match rng.range(0, 4) {
                0 => 0,
                1 => top as u16,
                _ => rng.range(0, top) as u16,
            };
            let codes: Vec<[u16; 2]> = (0..w * h).map(|_| [draw(0, 0), draw(0, 0)]).collect();
            let at = |x: usize, y: usize, i: usize| codes[y * w as usize + x][i];
            let (r, d) = (
                frame(bpc, w, h, |x, y| at(x, y, 0)),
                frame(bpc, w, h, |x, y| at(x, y, 1)),
            );
            let sums = PlaneSums::of_differences(&r, &d);
            assert!(sums.exact(), "{bpc} bits {w}x{h}");
            let scale = code_scale(bpc);
            let got = sums.squares as f64 / (scale * scale);
            let (mut fr, mut fd) = (FloatPlane::default(), FloatPlane::default());
            picture_to_float(&r, 0, 0.0, &mut fr);
            picture_to_float(&d, 0, 0.0, &mut fd);
            assert_eq!(
                got.to_bits(),
                noise_sum(&fr, &fd).to_bits(),
                "{bpc} bits {w}x{h}"
            );
        }
    }

    #[test]
    fn differences_from_2_to_the_12_are_summed_as_floats() {
        // 16-bit codes 65535 and 0: the square of 255.99609375 rounds in f32, which only
        // libvmaf's float sum reproduces.
        let r = frame(16, 3, 3, |_, _| 65535);
        let d = frame(16, 3, 3, |_, _| 0);
        let v = 65535.0f32 / 256.0;
        let want = psnr_of(9.0 * (v * v) as f64, 9, 255.99609375, 108.0);
        assert_eq!(
            run_one(&EXTRACTORS[0], &r, &d),
            vec![("float_psnr".to_string(), want)]
        );
        assert_ne!((v * v) as f64, 65535.0f64 * 65535.0 / 65536.0);
    }

    #[test]
    fn identical_pictures_give_the_cap_at_every_depth() {
        for (bpc, cap) in [(8, 60.0), (10, 72.0), (12, 84.0), (16, 108.0)] {
            let r = frame(bpc, 16, 8, |x, y| (x * 7 + y * 3) as u16);
            let s = run_one(&EXTRACTORS[0], &r, &r);
            assert_eq!(s, vec![("float_psnr".to_string(), cap)], "{bpc} bits");
        }
    }

    #[test]
    fn known_difference_gives_the_hand_computed_value() {
        // One sample in 16x8 off by 4 (8-bit): mse = 16/128 = 0.125.
        let r = frame(8, 16, 8, |_, _| 100);
        let d = frame(8, 16, 8, |x, y| if (x, y) == (3, 2) { 104 } else { 100 });
        let want = 10.0 * (255.0f64 * 255.0 / 0.125).log10();
        let s = run_one(&EXTRACTORS[0], &r, &d);
        assert_eq!(s, vec![("float_psnr".to_string(), want)]);
        assert!((want - 57.161_703).abs() < 1e-6, "{want}");
    }

    #[test]
    fn depth_scaling_keeps_the_8_bit_scale() {
        // A 10-bit difference of 16 codes is 4 on the 8-bit scale: the same mse as the
        // 8-bit case, against the 10-bit peak 255.75.
        let r = frame(10, 16, 8, |_, _| 400);
        let d = frame(10, 16, 8, |x, y| if (x, y) == (3, 2) { 416 } else { 400 });
        let want = 10.0 * (255.75f64 * 255.75 / 0.125).log10();
        let s = run_one(&EXTRACTORS[0], &r, &d);
        assert_eq!(s, vec![("float_psnr".to_string(), want)]);
    }

    #[test]
    fn refuses_depths_without_a_peak_and_mismatched_frames() {
        let r = frame(9, 8, 8, |_, _| 0);
        let info = &EXTRACTORS[0];
        let mut x = (info.create)(&info.parse_options(&[]).unwrap()).unwrap();
        let e = x.init(testing::geometry(&r)).unwrap_err();
        assert_eq!(e.status(), crate::error::Status::NotSup);
        assert!(e.subject().contains("bpc"), "{e}");
        let a = frame(8, 8, 8, |_, _| 0);
        let b = frame(8, 16, 8, |_, _| 0);
        let mut x = (info.create)(&info.parse_options(&[]).unwrap()).unwrap();
        x.init(testing::geometry(&a)).unwrap();
        let e = testing::extract_err(&mut *x, &a, &b);
        assert!(e.subject().contains("distorted"), "{e}");
    }
}
