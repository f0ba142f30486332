//! The horizontal pass split into its reference side and its distorted side, for scoring
//! several renditions of one reference (`feature::scratch::is_shared`).
//!
//! Of a pixel's score, the filtered mean `mu1` of the reference and its variance
//! `sigma1_sq` depend on the reference alone, and so do the denominator's sums (`den_log`,
//! `den_flat`: whether the pixel is flat, and `log2(SIGMA_NSQ + sigma1_sq)`). The first
//! rendition of a reference frame runs the fused pass and keeps `mu1` and `sigma1_sq` of
//! every pixel ([`horizontal_keep`]); the next ones filter only the distorted side's three
//! rows (`mu2`, `dis²`, `ref·dis`) and score against the kept values
//! ([`horizontal_dis`]), adding the numerator's sums only: the denominator's are those the
//! first rendition found. This scalar code is the reference for the SIMD twins.

use super::stats::{distorted_sigmas, moment, square, window, StatScratch, Sums};
use super::tables::{log2_table, MAX_HALF, TAPS};

/// A horizontal pass that also keeps the reference's values of columns `0..width`:
/// [`horizontal_keep`] or one of its SIMD twins. The last two arguments are the row's
/// `mu1` and `sigma1_sq`, written.
pub(super) type KeepFn = fn(&mut StatScratch, usize, usize, f64, &mut Sums, &mut [u32], &mut [i32]);

/// A horizontal pass of the distorted side against kept reference values (the row's
/// `mu1` and `sigma1_sq`, columns `0..width`), adding the numerator's sums only:
/// [`horizontal_dis`] or one of its SIMD twins.
pub(super) type DisFn = fn(&mut StatScratch, usize, usize, f64, &mut Sums, &[u32], &[i32]);

impl Sums {
    /// Scores the distorted side of one pixel against the reference's kept `mu1` and
    /// `sigma1_sq`: the numerator's sums of `add_pixel`, not the denominator's.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn add_distorted(
        &mut self,
        table: &[u16],
        gain_limit: f64,
        mu1: u32,
        sigma1_sq: i32,
        mu2: u32,
        yy: u64,
        xy: u64,
    ) {
        let (sigma2_sq, sigma12) = distorted_sigmas(mu1, mu2, moment(yy), moment(xy));
        self.add_numerator(table, gain_limit, sigma1_sq, sigma2_sq, sigma12);
    }
}

/// The fused horizontal pass over columns `0..width` (as `stats::horizontal`), keeping
/// each pixel's `mu1` and `sigma1_sq` in `mu1` and `sigma1`.
pub(super) fn horizontal_keep(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
    mu1: &mut [u32],
    sigma1: &mut [i32],
) {
    horizontal_keep_columns(s, 0, width, scale, gain_limit, sums, mu1, sigma1);
}

/// [`horizontal_keep`] of columns `from..width`.
#[allow(clippy::too_many_arguments)]
pub(super) fn horizontal_keep_columns(
    s: &StatScratch,
    from: usize,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
    mu1: &mut [u32],
    sigma1: &mut [i32],
) {
    let table = log2_table();
    let first = MAX_HALF - TAPS[scale].len() / 2;
    for j in from..width {
        let w = window(s, first + j, scale);
        mu1[j] = w.mu1;
        sigma1[j] = moment(w.xx).wrapping_sub(square(w.mu1, w.mu1)) as i32;
        sums.add_pixel(table, gain_limit, w.mu1, w.mu2, w.xx, w.yy, w.xy);
    }
}

/// The distorted side's horizontal pass over columns `0..width` against the kept `mu1`
/// and `sigma1` of the row: the numerator's sums only.
pub(super) fn horizontal_dis(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
    mu1: &[u32],
    sigma1: &[i32],
) {
    horizontal_dis_columns(s, 0, width, scale, gain_limit, sums, mu1, sigma1);
}

/// [`horizontal_dis`] of columns `from..width`.
#[allow(clippy::too_many_arguments)]
pub(super) fn horizontal_dis_columns(
    s: &StatScratch,
    from: usize,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
    mu1: &[u32],
    sigma1: &[i32],
) {
    let table = log2_table();
    let taps = TAPS[scale];
    let first = MAX_HALF - taps.len() / 2;
    let m2 = s.mu2.padded();
    let (yy, xy) = (s.dis_sq.padded(), s.ref_dis.padded());
    for j in from..width {
        let at = first + j;
        let mut a2 = 0u32;
        let (mut syy, mut sxy) = (0u64, 0u64);
        for (k, &c) in taps.iter().enumerate() {
            let i = at + k;
            let c = c as u32;
            a2 = a2.wrapping_add(c * m2[i]);
            syy += c as u64 * yy[i] as u64;
            sxy += c as u64 * xy[i] as u64;
        }
        sums.add_distorted(table, gain_limit, mu1[j], sigma1[j], a2, syy, sxy);
    }
}

/// The reference's values of one scale-0 picture kept by the shared buffers for the next
/// rendition of the same reference frame.
#[derive(Debug, Clone, Default)]
pub(super) struct Kept {
    /// The reference frame (index, luma address) whose values these are; `None` while
    /// nothing complete is kept.
    pub of: Option<(u64, usize)>,
    /// `mu1` of every pixel, row by row (`width` a row).
    pub mu1: Vec<u32>,
    /// `sigma1_sq` of every pixel, laid out as `mu1`.
    pub sigma1: Vec<i32>,
    /// The denominator's sums of the picture: (`den_log`, `den_flat`).
    pub den: (i64, i64),
}
