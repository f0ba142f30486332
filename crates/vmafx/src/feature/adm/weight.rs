//! CSF weighting of detail bands, and the masking activity (|weighted| / 30) derived from it.
//!
//! Scale 0 works in `i16` with 16-bit fixed-point weights (2^21 for h/v, 2^23 for d; exact
//! constants for the default display), scales 1..3 in `i32` with 2^32 weights.

use super::border::Region;
use super::cnum::{f64_to_u16, f64_to_u32};
use super::csf::CsfParams;

/// The scale-0 fixed-point weights.
pub(super) fn fixed0(p: &CsfParams) -> [u16; 3] {
    let default_display =
        (p.norm_view_dist * p.ref_display_height as f64 - 3.0 * 1080.0).abs() < 1.0e-8;
    if default_display && p.mode == 0 {
        return [36453, 36453, 49417];
    }
    let f = p.factors(0);
    let (q21, q23) = (2f64.powf(21.0), 2f64.powf(23.0));
    [
        f64_to_u16(f[0] as f64 * q21),
        f64_to_u16(f[1] as f64 * q21),
        f64_to_u16(f[2] as f64 * q23),
    ]
}

/// The fixed-point weights of scale `scale` (1..=3).
pub(super) fn fixed123(p: &CsfParams, scale: usize) -> [u32; 3] {
    let q32 = 2f64.powf(32.0);
    p.factors(scale).map(|f| f64_to_u32(f as f64 * q32))
}

/// A CSF weight that its scale's fixed-point format cannot hold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Unfit {
    /// The scale (0 finest).
    pub scale: usize,
    /// The band: 0 horizontal, 1 vertical, 2 diagonal.
    pub band: usize,
    /// The weight.
    pub weight: f32,
    /// The least weight the format cannot hold.
    pub limit: f64,
}

/// The least weight each scale's fixed-point format cannot hold, by band (h, v, d):
/// [`fixed0`]'s 16 bits at 2^21, 2^21 and 2^23; [`fixed123`]'s 32 bits at 2^32.
const WEIGHT_LIMITS: [[f64; 3]; 4] = [
    [1.0 / 32.0, 1.0 / 32.0, 1.0 / 128.0],
    [1.0; 3],
    [1.0; 3],
    [1.0; 3],
];

/// The first of the weights `factors` (by scale, then band) that does not fit its
/// fixed-point format, if one does not. libvmaf converts such a weight with a wrap (a weight
/// of 5.04 becomes 0.04), or a negative one to a huge one, and prints meaningless scores,
/// or nulls from its SIMD code: Barten's CSF (mode 1) at the default `adm_csf_scale` weighs
/// every scale above 1. (The default display's scale-0 constants come from weights that
/// fit.)
pub(super) fn unfit(factors: &[[f32; 3]; 4]) -> Option<Unfit> {
    let weights = factors.iter().zip(&WEIGHT_LIMITS).enumerate();
    weights
        .flat_map(|(scale, (f, l))| (0..3).map(move |band| (scale, band, f[band], l[band])))
        .find(|&(_, _, weight, limit)| !(0.0..limit).contains(&(weight as f64)))
        .map(|(scale, band, weight, limit)| Unfit {
            scale,
            band,
            weight,
            limit,
        })
}

/// Output bands of a weighting: the weighted values and their masking activity.
pub(super) struct Weighted<'a, T> {
    /// CSF-weighted bands (h, v, d).
    pub csf: &'a mut [Vec<T>; 3],
    /// Masking activity of each weighted value.
    pub activity: &'a mut [Vec<T>; 3],
}

/// Scale 0.
pub(super) fn scale0(
    src: &[Vec<i16>; 3],
    out: Weighted<'_, i16>,
    stride: usize,
    region: Region,
    rf: [u16; 3],
) {
    each_row(src, out, stride, region, |t, s, c, a| {
        scale0_row(s, c, a, t, rf[t])
    });
}

/// Calls `row(t, src, csf, activity)` on every row of `region` in each band `t` (h, v, d),
/// with the three bands' columns `left..right` of that row: the walk every level's
/// weighting takes, its row kernels and the scalar code that finishes their rows inside
/// `row`.
pub(super) fn each_row<T>(
    src: &[Vec<T>; 3],
    out: Weighted<'_, T>,
    stride: usize,
    region: Region,
    mut row: impl FnMut(usize, &[T], &mut [T], &mut [T]),
) {
    let bands = src
        .iter()
        .zip(out.csf.iter_mut())
        .zip(out.activity.iter_mut());
    for (t, ((s, c), a)) in bands.enumerate() {
        for i in region.top..region.bottom {
            let (lo, hi) = (i * stride + region.left, i * stride + region.right);
            row(t, &s[lo..hi], &mut c[lo..hi], &mut a[lo..hi]);
        }
    }
}

/// Scale 0 over one row of band `t` (weight `rf`): the three slices run in step.
pub(super) fn scale0_row(src: &[i16], csf: &mut [i16], activity: &mut [i16], t: usize, rf: u16) {
    const SHIFT: [u32; 3] = [15, 15, 17];
    const ROUND: [i32; 3] = [16384, 16384, 65535];
    const ONE_BY_30: i32 = 4369;
    for ((&s, c), a) in src.iter().zip(csf).zip(activity) {
        let v = rf as i32 * s as i32;
        let w = ((v + ROUND[t]) >> SHIFT[t]) as i16;
        *c = w;
        *a = ((ONE_BY_30 * (w as i32).abs() + 2048) >> 12) as i16;
    }
}

/// 1/30 in Q32, the activity's weight at scales 1..3.
pub(super) const ONE_BY_30_Q32: i64 = 143165577;
/// libvmaf's rounding term is 1u << 31 stored in an int32_t: it subtracts 2^31.
pub(super) const ROUND_ACTIVITY: i64 = i32::MIN as i64;

/// Scales 1..3.
pub(super) fn scale123(
    src: &[Vec<i32>; 3],
    out: Weighted<'_, i32>,
    stride: usize,
    region: Region,
    rf: [u32; 3],
) {
    each_row(src, out, stride, region, |t, s, c, a| {
        scale123_row(s, c, a, rf[t])
    });
}

/// Scales 1..3 over one row of one band (weight `rf`): the three slices run in step.
pub(super) fn scale123_row(src: &[i32], csf: &mut [i32], activity: &mut [i32], rf: u32) {
    for ((&s, c), a) in src.iter().zip(csf).zip(activity) {
        let w = ((rf as i64 * s as i64 + (1 << 27)) >> 28) as i32;
        *c = w;
        *a = ((ONE_BY_30_Q32 * w.unsigned_abs() as i64 + ROUND_ACTIVITY) >> 32) as i32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csf(mode: i64, d: f64, h: i64, scale: f64) -> CsfParams {
        CsfParams {
            mode,
            norm_view_dist: d,
            ref_display_height: h,
            csf_scale: scale,
            csf_diag_scale: scale,
        }
    }

    /// The weights of every scale, as `create` keeps them.
    fn factors(p: &CsfParams) -> [[f32; 3]; 4] {
        std::array::from_fn(|scale| p.factors(scale))
    }

    #[test]
    fn watson_weights_fit_at_every_display_the_options_allow() {
        // Every viewing distance (0.75..=24) and height (1..=4320) that `create` accepts
        // (their product at least 3240).
        for h in (1..=4320).step_by(7) {
            for d in (3..=96).map(|q| q as f64 / 4.0) {
                if d * h as f64 >= 3240.0 {
                    assert_eq!(unfit(&factors(&csf(0, d, h, 1.0))), None, "{d} x {h}");
                }
            }
        }
    }

    #[test]
    fn barten_weights_fit_only_scaled_down() {
        let u = unfit(&factors(&csf(1, 3.0, 1080, 1.0))).unwrap();
        assert_eq!((u.scale, u.band, u.limit), (0, 0, 1.0 / 32.0));
        let fits = csf(1, 3.0, 1080, 0.001);
        assert_eq!(unfit(&factors(&fits)), None);
        // What fits converts exactly as the format says: no weight wraps to a small one.
        for scale in 1..4 {
            let q = fixed123(&fits, scale);
            let f = fits.factors(scale);
            for b in 0..3 {
                assert_eq!(q[b] as u64, (f[b] as f64 * 2f64.powi(32)) as u64);
            }
        }
        // A blend mode's missing set-up weighs by libvmaf's -22: unfit too.
        assert!(unfit(&factors(&csf(2, 4.0, 1080, 1.0))).is_some());
        assert_eq!(unfit(&factors(&csf(2, 3.0, 1080, 1.0))), None);
    }
}
