//! Shared pieces of the float extractors (float_vif, float_adm, float_motion): the
//! float picture they work on, libvmaf's sample-to-float conversion, the symmetric
//! separable convolution with mirrored borders, and the option-derived feature names.
//!
//! The arithmetic follows libvmaf's scalar C in `f32`, term by term in the same order
//! (Rust never fuses a multiply and an add), so results are bit-identical where the C is.

use super::{ExtractInput, Geometry, OptValues};
use crate::error::{Error, Result};
use crate::frame::{Frame, Samples};
pub(crate) use dispatch::CONV_KERNELS;
pub(crate) use kernels::ConvKernels;

/// A single-channel `f32` picture, rows packed (`stride == width`).
#[derive(Debug, Clone, Default)]
pub(crate) struct FloatPlane {
    /// Width in samples.
    pub width: usize,
    /// Height in rows.
    pub height: usize,
    /// `width * height` samples, row after row.
    pub data: Vec<f32>,
}

impl FloatPlane {
    /// A zeroed picture.
    pub(crate) fn new(width: usize, height: usize) -> Self {
        FloatPlane {
            width,
            height,
            data: vec![0.0; width * height],
        }
    }

    /// Makes the picture `width x height`, zeroed, unless it has that size already (then
    /// its samples are kept).
    pub(crate) fn ensure(&mut self, width: usize, height: usize) {
        if self.width != width || self.height != height {
            *self = FloatPlane::new(width, height);
        }
    }

    /// Row `y`.
    #[inline]
    pub(crate) fn row(&self, y: usize) -> &[f32] {
        &self.data[y * self.width..(y + 1) * self.width]
    }

    /// Sample at (`x`, `y`).
    #[inline]
    pub(crate) fn at(&self, x: usize, y: usize) -> f32 {
        self.data[y * self.width + x]
    }
}

/// Checks that the float extractors can read frames of `g` (libvmaf's `picture_copy`
/// converts 8, 10, 12 and 16 bits; it reads other depths as bytes, which is meaningless).
pub(crate) fn check_geometry(extractor: &str, g: Geometry, min_side: u32) -> Result<()> {
    if !matches!(g.bpc, 8 | 10 | 12 | 16) {
        return Err(Error::not_supported(
            format!("{extractor}:bpc"),
            format!(
                "{extractor} reads 8, 10, 12 or 16-bit pictures (as libvmaf's picture_copy does); got {} bits",
                g.bpc
            ),
        ));
    }
    if g.width < min_side || g.height < min_side {
        return Err(Error::range(
            format!("{extractor}:size"),
            format!(
                "{extractor} needs pictures of at least {min_side}x{min_side}; got {}x{}",
                g.width, g.height
            ),
        ));
    }
    Ok(())
}

/// Checks that `frame` has the geometry the extractor was initialised for.
pub(crate) fn check_frame(extractor: &str, what: &str, frame: &Frame, g: Geometry) -> Result<()> {
    if frame.width() != g.width || frame.height() != g.height || frame.bpc() != g.bpc {
        return Err(Error::invalid(
            format!("{extractor}:{what}"),
            format!(
                "{what} frame is {}x{} at {} bits; {extractor} was initialised for {}x{} at {} bits",
                frame.width(),
                frame.height(),
                frame.bpc(),
                g.width,
                g.height,
                g.bpc
            ),
        ));
    }
    Ok(())
}

/// Checks both frames of `input` against `g`.
pub(crate) fn check_input(extractor: &str, input: &ExtractInput<'_>, g: Geometry) -> Result<()> {
    check_frame(extractor, "reference", input.reference, g)?;
    check_frame(extractor, "distorted", input.distorted, g)
}

/// Converts plane `channel` of `frame` to float as libvmaf's `picture_copy` does: 8-bit
/// samples as they are, deeper ones divided by 4 (10-bit), 16 (12-bit) or 256 (16-bit),
/// then `offset` added.
pub(crate) fn picture_to_float(frame: &Frame, channel: usize, offset: f32, out: &mut FloatPlane) {
    let plane = frame.plane(channel);
    let (w, h) = (plane.width as usize, plane.height as usize);
    if out.width != w || out.height != h {
        *out = FloatPlane::new(w, h);
    }
    let scaler = exact_sums::code_scale(frame.bpc()) as f32;
    match plane.samples() {
        Samples::U8(s) => {
            for y in 0..h {
                let src = &s[y * plane.stride..y * plane.stride + w];
                let dst = &mut out.data[y * w..(y + 1) * w];
                for (d, &v) in dst.iter_mut().zip(src) {
                    *d = v as f32 + offset;
                }
            }
        }
        Samples::U16(s) => {
            for y in 0..h {
                let src = &s[y * plane.stride..y * plane.stride + w];
                let dst = &mut out.data[y * w..(y + 1) * w];
                for (d, &v) in dst.iter_mut().zip(src) {
                    *d = v as f32 / scaler + offset;
                }
            }
        }
    }
}

pub(crate) use rows::mirror;

/// What the vertical pass of [`convolve`] reads at each tap.
#[derive(Clone, Copy)]
pub(crate) enum ConvInput<'a> {
    /// The samples of one picture.
    Plain(&'a FloatPlane),
    /// Their squares.
    Square(&'a FloatPlane),
    /// The products of two pictures' samples.
    Product(&'a FloatPlane, &'a FloatPlane),
}

impl ConvInput<'_> {
    fn size(&self) -> (usize, usize) {
        match self {
            ConvInput::Plain(p) | ConvInput::Square(p) | ConvInput::Product(p, _) => {
                (p.width, p.height)
            }
        }
    }
}

/// The rows of `p` under the filter's taps for output row `i` (mirrored at the ends).
fn tap_rows<'a>(p: &'a FloatPlane, i: usize, taps: usize, out: &mut Vec<&'a [f32]>) {
    let radius = (taps / 2) as isize;
    out.clear();
    out.extend((0..taps).map(|k| p.row(mirror(i as isize - radius + k as isize, p.height))));
}

/// Separable convolution with a symmetric `filter` and mirrored borders, vertical pass
/// first, then horizontal, each output sample summed tap by tap from zero as
/// `sum += f[k] * x` in `f32`: libvmaf's `convolution_f32_*` / `vif_filter1d*`. The
/// row kernels are `kernels`' (any level gives the same bits). Each output row's
/// vertical pass goes into the one row `tmp` and is filtered horizontally at once, while
/// it is in the cache: every sample is computed as a whole vertical pass first would.
pub(crate) fn convolve(
    kernels: &ConvKernels,
    filter: &[f32],
    input: ConvInput<'_>,
    tmp: &mut Vec<f32>,
    dst: &mut FloatPlane,
) {
    let (w, h) = input.size();
    tmp.resize(w, 0.0);
    if dst.width != w || dst.height != h {
        *dst = FloatPlane::new(w, h);
    }
    let (mut ra, mut rb) = (Vec::new(), Vec::new());
    for (i, out) in dst.data.chunks_exact_mut(w.max(1)).take(h).enumerate() {
        match input {
            ConvInput::Plain(p) => {
                tap_rows(p, i, filter.len(), &mut ra);
                (kernels.vertical)(filter, &ra, tmp);
            }
            ConvInput::Square(p) => {
                tap_rows(p, i, filter.len(), &mut ra);
                (kernels.vertical_square)(filter, &ra, tmp);
            }
            ConvInput::Product(a, b) => {
                tap_rows(a, i, filter.len(), &mut ra);
                tap_rows(b, i, filter.len(), &mut rb);
                (kernels.vertical_product)(filter, &ra, &rb, tmp);
            }
        }
        (kernels.horizontal)(filter, tmp, out);
    }
}

/// Collector names for an extractor's features: each provided long name with the
/// non-default feature parameters appended (libvmaf's feature name dictionary); names
/// outside `provided` are written as they are.
#[derive(Debug, Clone)]
pub(crate) struct FeatureNames {
    provided: &'static [&'static str],
    names: Vec<String>,
}

impl FeatureNames {
    /// The names for `provided` under `opts`.
    pub(crate) fn new(provided: &'static [&'static str], opts: &OptValues) -> Self {
        let params = opts.non_default_params();
        FeatureNames {
            provided,
            names: provided
                .iter()
                .map(|p| super::name::feature_name(p, &params))
                .collect(),
        }
    }

    /// The collector key of `feature`.
    pub(crate) fn get<'a>(&'a self, feature: &'a str) -> &'a str {
        match self.provided.iter().position(|p| *p == feature) {
            Some(i) => &self.names[i],
            None => feature,
        }
    }
}

pub(crate) mod dispatch;
pub(crate) mod exact_sums;
pub(crate) mod kernels;
pub(crate) mod rows;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

#[cfg(test)]
pub(crate) mod testkit;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_matches_libvmaf() {
        assert_eq!(mirror(-2, 10), 2);
        assert_eq!(mirror(10, 10), 8);
        assert_eq!(mirror(11, 10), 7);
        assert_eq!(mirror(5, 10), 5);
    }

    #[test]
    fn picture_to_float_scales_like_picture_copy() {
        use crate::frame::{FrameBuilder, PixelFormat, SamplesMut};
        for (bpc, raw, want) in [
            (8u32, 200u16, 72.0f32),
            (10, 800, 72.0),
            (12, 3201, 3201.0 / 16.0 - 128.0),
            (16, 51200, 72.0),
        ] {
            let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, 4, 2).unwrap();
            match fb.plane_mut(0).samples_mut().unwrap() {
                SamplesMut::U8(s) => s.fill(raw as u8),
                SamplesMut::U16(s) => s.fill(raw),
            }
            let mut out = FloatPlane::default();
            picture_to_float(&fb.build(), 0, -128.0, &mut out);
            assert_eq!((out.width, out.height), (4, 2));
            assert!(
                out.data.iter().all(|&v| v == want),
                "{bpc} bits: {:?}",
                out.data
            );
        }
    }

    #[test]
    fn float_extractors_are_registered() {
        use crate::feature::registry;
        for (name, feature) in [
            ("float_vif", "VMAF_feature_vif_scale0_score"),
            ("float_adm", "VMAF_feature_adm2_score"),
            ("float_motion", "VMAF_feature_motion2_score"),
        ] {
            assert_eq!(registry::by_name(name).unwrap().name, name);
            assert_eq!(registry::by_feature(feature).unwrap().name, name);
        }
        assert_eq!(
            registry::by_name("float_motion").unwrap().ordering,
            crate::feature::Ordering::Temporal
        );
    }

    #[test]
    fn convolve_identity_filter_keeps_picture() {
        let mut p = FloatPlane::new(7, 5);
        for (i, v) in p.data.iter_mut().enumerate() {
            *v = i as f32 * 0.5 - 3.0;
        }
        let mut tmp = Vec::new();
        let mut out = FloatPlane::default();
        convolve(
            &ConvKernels::SCALAR,
            &[0.0, 1.0, 0.0],
            ConvInput::Plain(&p),
            &mut tmp,
            &mut out,
        );
        assert_eq!(out.data, p.data);
    }
}
