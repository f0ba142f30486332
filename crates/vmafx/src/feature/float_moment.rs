//! libvmaf's `float_moment`: the first and second moments (mean and mean square) of the
//! reference and distorted luma planes, converted to float on libvmaf's 8-bit scale.
//!
//! libvmaf sums the float samples, and their squares taken in `f32`, one by one into a
//! `double`. Wherever that running sum is an integer sum over the scale (every sample
//! below 2^12: always at 8 bits, and every in-range 10- or 12-bit sample, see
//! `float_conv::exact_sums`) the integers are summed instead; other planes (16-bit, or
//! out-of-range samples) are summed as libvmaf does.

use super::float_conv::exact_sums::PlaneSums;
use super::float_conv::{check_geometry, check_input, picture_to_float, FloatPlane};
use super::{ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptValues, Ordering};
use crate::error::{Error, Result};
use crate::frame::Frame;

const NAME: &str = "float_moment";

/// The extractors this module defines. libvmaf's provided name is `float_moment`; the
/// features written are `float_moment_ref1st`, `float_moment_dis1st`,
/// `float_moment_ref2nd` and `float_moment_dis2nd`.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: NAME,
    aliases: &[],
    provided: &["float_moment"],
    options: &[],
    ordering: Ordering::Independent,
    create,
}];

fn create(_opts: &OptValues) -> Result<Box<dyn Extractor>> {
    Ok(Box::new(FloatMoment::default()))
}

/// The sum of the samples of `p` in order, in `f64` (libvmaf's `compute_1st_moment`
/// before its division).
fn first_sum(p: &FloatPlane) -> f64 {
    let mut sum = 0.0f64;
    for &v in &p.data {
        sum += v as f64;
    }
    sum
}

/// The sum of the squared samples of `p` in order, each square in `f32`, in `f64`
/// (libvmaf's `compute_2nd_moment` before its division).
fn second_sum(p: &FloatPlane) -> f64 {
    let mut sum = 0.0f64;
    for &v in &p.data {
        sum += (v * v) as f64;
    }
    sum
}

/// Plane 0 of `frame`: its samples' sum and its squares' sum, each as libvmaf's running
/// `double` sum gives it. `scratch` holds the float plane where libvmaf's way is taken.
fn moment_sums(frame: &Frame, scratch: &mut FloatPlane) -> (f64, f64) {
    if let Some(sums) = PlaneSums::of_codes(frame).scaled(frame.bpc()) {
        return sums;
    }
    picture_to_float(frame, 0, 0.0, scratch);
    (first_sum(scratch), second_sum(scratch))
}

#[derive(Default)]
struct FloatMoment {
    geometry: Option<Geometry>,
    r: FloatPlane,
    d: FloatPlane,
}

impl Extractor for FloatMoment {
    fn init(&mut self, g: Geometry) -> Result<()> {
        check_geometry(NAME, g, 1)?;
        self.geometry = Some(g);
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let g = self
            .geometry
            .ok_or_else(|| Error::invalid(NAME, "extract called before init"))?;
        check_input(NAME, input, g)?;
        // libvmaf divides each sum by the plane's size as a double.
        let n = (g.width as usize * g.height as usize) as f64;
        let (r1, r2) = moment_sums(input.reference, &mut self.r);
        let (d1, d2) = moment_sums(input.distorted, &mut self.d);
        let i = input.index;
        out.put("float_moment_ref1st", i, r1 / n);
        out.put("float_moment_dis1st", i, d1 / n);
        out.put("float_moment_ref2nd", i, r2 / n);
        out.put("float_moment_dis2nd", i, d2 / n);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::float_psnr::testing::{frame, geometry, run_one};
    use super::*;
    use crate::testutil::twin_rng::TwinRng;

    fn named(v: [f64; 4]) -> Vec<(String, f64)> {
        ["ref1st", "dis1st", "ref2nd", "dis2nd"]
            .iter()
            .zip(v)
            .map(|(n, v)| (format!("float_moment_{n}"), v))
            .collect()
    }

    #[test]
    fn known_pictures_give_the_hand_computed_moments() {
        // Reference: half the samples 10, half 30 (mean 20, mean square 500); distorted
        // flat 7.
        let r = frame(8, 8, 4, |x, _| if x < 4 { 10 } else { 30 });
        let d = frame(8, 8, 4, |_, _| 7);
        assert_eq!(
            run_one(&EXTRACTORS[0], &r, &d),
            named([20.0, 7.0, 500.0, 49.0])
        );
    }

    #[test]
    fn deeper_pictures_are_on_the_8_bit_scale() {
        // 10-bit 82 is 20.5, 12-bit 328 is 20.5, 16-bit 5248 is 20.5.
        for (bpc, code) in [(10, 82), (12, 328), (16, 5248)] {
            let r = frame(bpc, 6, 6, |_, _| code);
            assert_eq!(
                run_one(&EXTRACTORS[0], &r, &r),
                named([20.5, 20.5, 420.25, 420.25]),
                "{bpc} bits"
            );
        }
    }

    #[test]
    fn squares_are_single_precision() {
        // 16-bit 65535 is 255.99609375; its square needs 32 significant bits and is
        // rounded to f32 before the f64 sum.
        let r = frame(16, 2, 2, |_, _| 65535);
        let v = 65535.0f32 / 256.0;
        let s = run_one(&EXTRACTORS[0], &r, &r);
        assert_eq!(s[2].1, (v * v) as f64);
        assert_ne!(s[2].1, (v as f64) * (v as f64));
    }

    /// libvmaf's way: the float plane summed in order.
    fn float_sums(f: &Frame) -> (f64, f64) {
        let mut p = FloatPlane::default();
        picture_to_float(f, 0, 0.0, &mut p);
        (first_sum(&p), second_sum(&p))
    }

    #[test]
    fn integer_sums_are_libvmafs_double_sums_to_the_bit() {
        let mut rng = TwinRng::new(0x6d6f_6d65);
        for trial in 0..48 {
            let bpc = [8, 10, 12, 16][trial % 4];
            let (w, h) = (rng.size(1, 300) as u32, rng.size(1, 40) as u32);
            // In range, with runs at the top code; 16-bit samples kept below 2^12.
            let top = if bpc == 16 { 4095 } else { (1i64 << bpc) - 1 };
            let codes: Vec<u16> = (0..w * h)
                .map(|_| match rng.range(0, 3) {
                    0 => top as u16,
                    _ => rng.range(0, top) as u16,
                })
                .collect();
            let f = frame(bpc, w, h, |x, y| codes[y * w as usize + x]);
            let mut scratch = FloatPlane::default();
            let got = moment_sums(&f, &mut scratch);
            assert!(
                scratch.data.is_empty(),
                "{bpc} bits {w}x{h}: not the integer way"
            );
            let want = float_sums(&f);
            assert_eq!(got.0.to_bits(), want.0.to_bits(), "{bpc} bits {w}x{h}");
            assert_eq!(got.1.to_bits(), want.1.to_bits(), "{bpc} bits {w}x{h}");
        }
    }

    #[test]
    fn samples_from_2_to_the_12_are_summed_as_floats() {
        // 10-bit 4097 is out of range; its square needs 25 bits, which f32 rounds (an
        // integer sum would not), so only libvmaf's float sum gives its value.
        let f = frame(10, 7, 5, |x, _| if x == 3 { 4097 } else { 5 });
        let mut scratch = FloatPlane::default();
        let got = moment_sums(&f, &mut scratch);
        assert!(!scratch.data.is_empty());
        assert_eq!(got, float_sums(&f));
        let v = 4097.0f32 / 4.0;
        assert_ne!((v * v) as f64, 4097.0f64 * 4097.0 / 16.0);
    }

    #[test]
    fn refuses_9_bit_pictures() {
        let r = frame(9, 4, 4, |_, _| 0);
        let info = &EXTRACTORS[0];
        let mut x = (info.create)(&info.parse_options(&[]).unwrap()).unwrap();
        let e = x.init(geometry(&r)).unwrap_err();
        assert_eq!(e.status(), crate::error::Status::NotSup);
    }
}
