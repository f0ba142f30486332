//! libvmaf's `float_moment`: the first and second moments (mean and mean square) of the
//! reference and distorted luma planes, converted to float on libvmaf's 8-bit scale.
//!
//! Samples are summed in `f64`; the squares are taken in `f32` first, as the C does.

use super::float_conv::{check_geometry, check_input, picture_to_float, FloatPlane};
use super::{ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptValues, Ordering};
use crate::error::{Error, Result};

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

/// The mean of the samples of `p` (libvmaf's `compute_1st_moment`).
pub(crate) fn first_moment(p: &FloatPlane) -> f64 {
    let mut sum = 0.0f64;
    for &v in &p.data {
        sum += v as f64;
    }
    sum / (p.width * p.height) as f64
}

/// The mean of the squared samples of `p`, each square in `f32` (libvmaf's
/// `compute_2nd_moment`).
pub(crate) fn second_moment(p: &FloatPlane) -> f64 {
    let mut sum = 0.0f64;
    for &v in &p.data {
        sum += (v * v) as f64;
    }
    sum / (p.width * p.height) as f64
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
        picture_to_float(input.reference, 0, 0.0, &mut self.r);
        picture_to_float(input.distorted, 0, 0.0, &mut self.d);
        let i = input.index;
        out.put("float_moment_ref1st", i, first_moment(&self.r));
        out.put("float_moment_dis1st", i, first_moment(&self.d));
        out.put("float_moment_ref2nd", i, second_moment(&self.r));
        out.put("float_moment_dis2nd", i, second_moment(&self.d));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::float_psnr::testing::{frame, geometry, run_one};
    use super::*;

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

    #[test]
    fn refuses_9_bit_pictures() {
        let r = frame(9, 4, 4, |_, _| 0);
        let info = &EXTRACTORS[0];
        let mut x = (info.create)(&info.parse_options(&[]).unwrap()).unwrap();
        let e = x.init(geometry(&r)).unwrap_err();
        assert_eq!(e.status(), crate::Status::NotSup);
    }
}
