//! The strip schedule of scale 0 against whole-band passes, for every kernel table.

use super::bands::zeroed_hvd;
use super::border::with_taps;
use super::cm::{self, Masking};
use super::csf::CsfParams;
use super::decouple::Decouple;
use super::den;
use super::kernels::Kernels;
use super::settings::Settings;
use super::strips::{self, Inputs, Strip0};
use super::weight::{self, Weighted};
use crate::testutil::twin_rng::TwinRng;

/// Settings of the default model, or of a display whose weights are computed.
fn settings(computed_weights: bool, gain_limit: f64, skip_aim: bool) -> Settings {
    let csf = CsfParams {
        mode: 0,
        norm_view_dist: if computed_weights { 5.0 } else { 3.0 },
        ref_display_height: 1080,
        csf_scale: 1.0,
        csf_diag_scale: 1.0,
    };
    Settings {
        debug: false,
        csf,
        factors: std::array::from_fn(|scale| csf.factors(scale)),
        fixed0: weight::fixed0(&csf),
        fixed: [[0; 3]; 4],
        dlm_weight: 0.5,
        gain_limit,
        noise_weight: 0.03125,
        skip_aim,
        skip_scale0: false,
        min_val: 0.0,
    }
}

/// Scale 0 as whole-band passes: decoupling, denominator, then weighting and masking of
/// the detail-loss and AIM sums over full-size bands.
fn whole_bands(input: &Inputs<'_>, k: &Kernels, s: &Settings) -> (f32, f32, f32) {
    let (w, h) = input.size;
    let stride = input.stride;
    let len = input.reference[0].len();
    let region = with_taps(w, h);
    let (mut restored, mut additive) = (zeroed_hvd(len), zeroed_hvd(len));
    (k.decouple0)(
        Decouple::of(
            input.reference,
            input.distorted,
            &mut restored,
            &mut additive,
        ),
        stride,
        region,
        s.gain_limit,
    );
    let den = den::scale0(
        input.reference,
        stride,
        (w, h),
        s.factors[0],
        s.noise_weight,
        k.den0_row,
    );
    let masked = |source: &[Vec<i16>; 3], masker: &[Vec<i16>; 3], nw: f64| {
        let (mut csf, mut activity) = (zeroed_hvd(len), zeroed_hvd(len));
        let out = Weighted {
            csf: &mut csf,
            activity: &mut activity,
        };
        (k.weight0)(masker, out, stride, region, s.fixed0);
        let m = Masking {
            source,
            masker: &csf,
            activity: &activity,
        };
        cm::scale0(m, stride, (w, h), s.fixed0, nw, k.cm0_row)
    };
    let num = masked(&restored, &additive, s.noise_weight);
    let aim = if s.skip_aim {
        0.0
    } else {
        masked(&additive, &restored, 0.0)
    };
    (num, den, aim)
}

/// Random detail bands: small values as real pictures give, or the whole `i16` range.
fn detail(rng: &mut TwinRng, n: usize, lim: i64) -> [Vec<i16>; 3] {
    std::array::from_fn(|_| (0..n).map(|_| rng.range(-lim - 1, lim) as i16).collect())
}

/// A distorted copy: the reference scaled and shifted a little (so that the one-degree
/// test passes often), or unrelated noise.
fn distort(rng: &mut TwinRng, reference: &[Vec<i16>; 3], lim: i64) -> [Vec<i16>; 3] {
    let related = !rng.next_u64().is_multiple_of(4);
    std::array::from_fn(|t| {
        reference[t]
            .iter()
            .map(|&x| {
                let noise = rng.range(-lim / 8 - 1, lim / 8);
                let v = if related {
                    x as i64 * rng.range(6, 12) / 8 + noise
                } else {
                    rng.range(-lim - 1, lim)
                };
                v.clamp(i16::MIN as i64, i16::MAX as i64) as i16
            })
            .collect()
    })
}

#[test]
fn strips_match_whole_bands() {
    let mut rng = TwinRng::new(0x5761);
    let tables: Vec<Kernels> = std::iter::once(Kernels::SCALAR)
        .chain(Kernels::simd_levels())
        .collect();
    for case in 0..60 {
        // Band sizes from the smallest picture's (33 → 17) up, odd and even, some
        // narrower than one vector's worth of scored columns; now and then smaller still,
        // where the masking reads rows outside the decoupling region.
        let least = if case % 6 == 5 { 3 } else { 17 };
        let (w, h) = (rng.size(least, 140), rng.size(least, 120));
        let stride = w + rng.size(0, 3);
        let lim = [300, 1023, 4095, 32767][case % 4];
        let reference = detail(&mut rng, stride * h, lim);
        let distorted = distort(&mut rng, &reference, lim);
        let input = Inputs {
            reference: &reference,
            distorted: &distorted,
            stride,
            size: (w, h),
        };
        let egl = [1.0, 100.0, 1.3][case % 3];
        let s = settings(case % 5 == 4, egl, case % 7 == 6);
        let heights = [
            1,
            2,
            3,
            5,
            16,
            strips::STRIP_ROWS,
            rng.size(1, h + 4),
            h + 3,
        ];
        for k in &tables {
            let expected = whole_bands(&input, k, &s);
            for rows in heights {
                let mut strip = Strip0::new(rows, stride);
                let got = strips::scale0(&input, &mut strip, k, &s);
                let bits = |(a, b, c): (f32, f32, f32)| [a.to_bits(), b.to_bits(), c.to_bits()];
                assert_eq!(
                    bits(got),
                    bits(expected),
                    "case {case}: {:?} strips of {rows} rows differ at {w}x{h} (stride \
                     {stride}, values to {lim}): {got:?} vs {expected:?}",
                    k.level
                );
            }
        }
    }
}
