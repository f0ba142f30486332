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
