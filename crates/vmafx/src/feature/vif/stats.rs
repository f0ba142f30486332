//! The VIF statistic of one scale: local means, variances and covariance under the scale's
//! Gaussian window, turned into fixed-point information sums.
//!
//! Each output row is made in two passes over rows, as libvmaf does: a vertical pass sums
//! the window's rows into five 32-bit rows (mean of ref and dis, and the second moments
//! ref², dis², ref·dis), whose borders are then mirrored; a horizontal pass filters those
//! rows and scores each pixel. This scalar code is the reference for faster kernels.

use super::planes::{PaddedRow, Rows};
use super::tables::{log2_table, log2_u32, log2_u64, MAX_HALF, SIGMA_NSQ, TAPS};
use super::xy_plan::XyPlan;

/// Numerator and denominator of one scale, in libvmaf's single precision.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct NumDen {
    /// Information the distorted picture keeps.
    pub num: f32,
    /// Information the reference holds.
    pub den: f32,
}

/// Right shifts (with rounding) that bring the vertical sums back to 16 bits for the mean
/// and 32 bits for the moments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct VerticalShift {
    /// Shift of the mean sums.
    pub mean: u32,
    /// Shift of the second-moment sums.
    pub moment: u32,
}

impl VerticalShift {
    /// The shifts at `scale` for `bpc`-bit input: scale 0 reads the picture itself, later
    /// scales read 16-bit means of the scale above.
    pub(super) fn at(scale: usize, bpc: u32) -> Self {
        if scale == 0 {
            VerticalShift {
                mean: bpc,
                moment: 2 * (bpc - 8),
            }
        } else {
            VerticalShift {
                mean: 16,
                moment: 16,
            }
        }
    }
}

/// `(x + half) >> shift`, rounding to nearest; no rounding term when `shift` is 0.
#[inline]
fn round_shift_u64(x: u64, shift: u32) -> u64 {
    if shift == 0 {
        x
    } else {
        x.wrapping_add(1 << (shift - 1)) >> shift
    }
}

/// Work rows of the statistic, sized in `new` for the widest scale.
#[derive(Debug, Clone, Default)]
pub(super) struct StatScratch {
    pub(super) mu1: PaddedRow,
    pub(super) mu2: PaddedRow,
    pub(super) ref_sq: PaddedRow,
    pub(super) dis_sq: PaddedRow,
    pub(super) ref_dis: PaddedRow,
    /// The three moment rows split into 16-bit halves, for SIMD horizontal kernels that
    /// filter in 32-bit lanes: high and low half of `ref_sq`, `dis_sq`, `ref_dis` in turn.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(super) halves: [Vec<u32>; 6],
    /// The five rows as 16-bit words less 32768 (signed), for SIMD horizontal kernels that
    /// filter with 16-bit multiply-adds: `mu1`, `mu2`, then the high and low halves of
    /// `ref_sq`, `dis_sq`, `ref_dis` in turn; one vector longer than a padded row.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) words: [Vec<i16>; 8],
    /// Columns `0..words_done` of the current row that a vertical kernel wrote straight
    /// into `words` (word `half + x` for column `x`, `half` the scale's half filter
    /// width) instead of into the five rows, which then hold only the columns the scalar
    /// code and the mirrors read; 0 when the rows hold every column. The horizontal
    /// kernel of the same table takes it (leaving 0).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) words_done: usize,
    /// Which blocks the scale-0 vertical pass leaves without their `ref·dis` sums.
    pub(super) xy: XyPlan,
    sum_mu: [Vec<u32>; 2],
    sum_sq: [Vec<u64>; 3],
}

impl StatScratch {
    /// The bodies of the five rows (`mu1`, `mu2`, `ref_sq`, `dis_sq`, `ref_dis`), for the
    /// kernels that write them as a set.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn bodies_mut(&mut self) -> [&mut [u32]; 5] {
        [
            self.mu1.body_mut(),
            self.mu2.body_mut(),
            self.ref_sq.body_mut(),
            self.dis_sq.body_mut(),
            self.ref_dis.body_mut(),
        ]
    }

    /// Rows for pictures up to `width` samples wide.
    pub(super) fn new(width: usize) -> Self {
        let padded = PaddedRow::new(width).padded().len();
        StatScratch {
            halves: std::array::from_fn(|_| vec![0; padded]),
            words: std::array::from_fn(|_| vec![0; padded + 32]),
            words_done: 0,
            xy: XyPlan::default(),
            mu1: PaddedRow::new(width),
            mu2: PaddedRow::new(width),
            ref_sq: PaddedRow::new(width),
            dis_sq: PaddedRow::new(width),
            ref_dis: PaddedRow::new(width),
            sum_mu: [vec![0; width], vec![0; width]],
            sum_sq: [vec![0; width], vec![0; width], vec![0; width]],
        }
    }
}

/// The integer sums of one scale, before they are scaled to [`NumDen`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Sums {
    num_log: i64,
    den_log: i64,
    num_flat: i64,
    den_flat: i64,
}

impl Sums {
    /// Adds sums gathered elsewhere (by a SIMD kernel, in any order: they are integers).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn add_totals(&mut self, num_log: i64, den_log: i64, num_flat: i64, den_flat: i64) {
        self.num_log += num_log;
        self.den_log += den_log;
        self.num_flat += num_flat;
        self.den_flat += den_flat;
    }

    /// The denominator's sums (`den_log`, `den_flat`), which depend on the reference only.
    pub(super) fn den(&self) -> (i64, i64) {
        (self.den_log, self.den_flat)
    }

    /// Scales the sums to the scale's numerator and denominator.
    pub(super) fn finish(self) -> NumDen {
        let num = self.num_log as f64 / 2048.0
            + (self.den_flat as f64 - (self.num_flat as f64 / 16384.0) / 65025.0);
        let den = self.den_log as f64 / 2048.0 + self.den_flat as f64;
        NumDen {
            num: num as f32,
            den: den as f32,
        }
    }

    /// Scores one pixel from its filtered mean sums (`mu1`, `mu2`: 16.16 of the 16-bit
    /// means) and moment sums (`xx`, `yy`, `xy`: before their final 16-bit shift).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn add_pixel(
        &mut self,
        table: &[u16],
        gain_limit: f64,
        mu1: u32,
        mu2: u32,
        xx: u64,
        yy: u64,
        xy: u64,
    ) {
        self.add_moments(
            table,
            gain_limit,
            mu1,
            mu2,
            [moment(xx), moment(yy), moment(xy)],
        );
    }

    /// Scores one pixel from its filtered mean sums (as in [`Sums::add_pixel`]) and its
    /// moment sums already rounded and shifted by 16 bits (`xx`, `yy`, `xy` in turn).
    #[inline]
    pub(super) fn add_moments(
        &mut self,
        table: &[u16],
        gain_limit: f64,
        mu1: u32,
        mu2: u32,
        [xx, yy, xy]: [u32; 3],
    ) {
        let sigma1_sq = xx.wrapping_sub(square(mu1, mu1)) as i32;
        let (sigma2_sq, sigma12) = distorted_sigmas(mu1, mu2, yy, xy);
        self.add_sigmas(table, gain_limit, sigma1_sq, sigma2_sq, sigma12);
    }

    /// Scores one pixel from its reference variance `sigma1_sq`, distorted variance
    /// `sigma2_sq` (already clamped at 0) and covariance `sigma12`.
    #[inline]
    pub(super) fn add_sigmas(
        &mut self,
        table: &[u16],
        gain_limit: f64,
        sigma1_sq: i32,
        sigma2_sq: i32,
        sigma12: i32,
    ) {
        if sigma1_sq < SIGMA_NSQ {
            self.den_flat += 1;
        } else {
            self.den_log += den_term(table, sigma1_sq);
        }
        self.add_numerator(table, gain_limit, sigma1_sq, sigma2_sq, sigma12);
    }

    /// The numerator's part of [`Sums::add_sigmas`]: all a distorted rendition adds when
    /// the reference's denominator is kept (`split.rs`).
    #[inline]
    pub(super) fn add_numerator(
        &mut self,
        table: &[u16],
        gain_limit: f64,
        sigma1_sq: i32,
        sigma2_sq: i32,
        sigma12: i32,
    ) {
        if sigma1_sq < SIGMA_NSQ {
            self.num_flat += sigma2_sq as i64;
        } else if sigma12 > 0 && sigma2_sq > 0 {
            self.num_log += num_term(table, gain_limit, sigma1_sq, sigma2_sq, sigma12);
        }
    }
}

/// `(a * b + 2^31) >> 32`, wrapping: the product of two 16.16 filtered means in the
/// moments' scale.
#[inline]
pub(super) fn square(a: u32, b: u32) -> u32 {
    ((a as u64 * b as u64).wrapping_add(1 << 31) >> 32) as u32
}

/// The rounded 16-bit shift of a filtered moment sum.
#[inline]
pub(super) fn moment(s: u64) -> u32 {
    (s.wrapping_add(32768) >> 16) as u32
}

/// `sigma2_sq` (clamped at 0) and `sigma12` of a pixel from its filtered means and its
/// rounded `dis²` and `ref·dis` moments.
#[inline]
pub(super) fn distorted_sigmas(mu1: u32, mu2: u32, yy: u32, xy: u32) -> (i32, i32) {
    let sigma2_sq = (yy.wrapping_sub(square(mu2, mu2)) as i32).max(0);
    let sigma12 = xy.wrapping_sub(square(mu1, mu2)) as i32;
    (sigma2_sq, sigma12)
}

/// The `den_log` term of a pixel that is not flat (`sigma1_sq >= SIGMA_NSQ`).
#[inline]
pub(super) fn den_term(table: &[u16], sigma1_sq: i32) -> i64 {
    (log2_u32(table, SIGMA_NSQ.wrapping_add(sigma1_sq) as u32) - 2048 * 17) as i64
}

/// The `num_log` term of a pixel that is not flat and has `sigma12 > 0` and
/// `sigma2_sq > 0`.
#[inline]
pub(super) fn num_term(
    table: &[u16],
    gain_limit: f64,
    sigma1_sq: i32,
    sigma2_sq: i32,
    sigma12: i32,
) -> i64 {
    const EPS: f64 = 65536.0 * 1.0e-10;
    let g = sigma12 as f64 / (sigma1_sq as f64 + EPS);
    let sv_sq = ((sigma2_sq as f64 - g * sigma12 as f64) as i32).max(0);
    let g = if g < gain_limit { g } else { gain_limit };
    let numer = sv_sq.wrapping_add(SIGMA_NSQ) as u32;
    let with_signal = (g * g * sigma1_sq as f64) as i64 + numer as i64;
    (log2_u64(table, with_signal as u64) - log2_u64(table, numer as u64)) as i64
}

/// Sums the window's rows around row `y` into the scratch rows (columns `0..width`) and
/// mirrors their borders: the scalar twin of the SIMD vertical kernels.
#[allow(clippy::too_many_arguments)]
pub(super) fn vertical<T: Copy + Into<u32>>(
    reference: &Rows<'_, T>,
    distorted: &Rows<'_, T>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) {
    vertical_columns(reference, distorted, y, 0, width, scale, shift, s);
    mirror_scratch(s, width, scale);
}

/// The vertical sums of columns `from..width` of row `y`, written to the scratch rows.
#[allow(clippy::too_many_arguments)]
pub(super) fn vertical_columns<T: Copy + Into<u32>>(
    reference: &Rows<'_, T>,
    distorted: &Rows<'_, T>,
    y: usize,
    from: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) {
    let taps = TAPS[scale];
    let half = taps.len() / 2;
    let [m1, m2] = &mut s.sum_mu;
    let [xx, yy, xy] = &mut s.sum_sq;
    let (m1, m2, xx, yy, xy) = (
        &mut m1[from..width],
        &mut m2[from..width],
        &mut xx[from..width],
        &mut yy[from..width],
        &mut xy[from..width],
    );
    m1.fill(0);
    m2.fill(0);
    xx.fill(0);
    yy.fill(0);
    xy.fill(0);
    for (k, &c) in taps.iter().enumerate() {
        let row = y as isize - half as isize + k as isize;
        let r = &reference.row(row)[from..width];
        let d = &distorted.row(row)[from..width];
        let c = c as u32;
        for j in 0..width - from {
            let (a, b) = (r[j].into(), d[j].into());
            let (ca, cb) = (c * a, c * b);
            m1[j] = m1[j].wrapping_add(ca);
            m2[j] = m2[j].wrapping_add(cb);
            xx[j] += ca as u64 * a as u64;
            yy[j] += cb as u64 * b as u64;
            xy[j] += ca as u64 * b as u64;
        }
    }
    let mean = |x: u32| round_shift_u64(x as u64, shift.mean) as u16 as u32;
    let moment = |x: u64| round_shift_u64(x, shift.moment) as u32;
    for (dst, src) in s.mu1.body_mut()[from..width].iter_mut().zip(m1.iter()) {
        *dst = mean(*src);
    }
    for (dst, src) in s.mu2.body_mut()[from..width].iter_mut().zip(m2.iter()) {
        *dst = mean(*src);
    }
    for (dst, src) in s.ref_sq.body_mut()[from..width].iter_mut().zip(xx.iter()) {
        *dst = moment(*src);
    }
    for (dst, src) in s.dis_sq.body_mut()[from..width].iter_mut().zip(yy.iter()) {
        *dst = moment(*src);
    }
    for (dst, src) in s.ref_dis.body_mut()[from..width].iter_mut().zip(xy.iter()) {
        *dst = moment(*src);
    }
}

/// Mirrors the borders of the five scratch rows for the filter of `scale`.
pub(super) fn mirror_scratch(s: &mut StatScratch, width: usize, scale: usize) {
    let half = TAPS[scale].len() / 2;
    for r in [
        &mut s.mu1,
        &mut s.mu2,
        &mut s.ref_sq,
        &mut s.dis_sq,
        &mut s.ref_dis,
    ] {
        r.mirror(width, half);
    }
}

/// Filters the scratch rows across and scores columns `0..width`: the scalar twin of the
/// SIMD horizontal kernels.
pub(super) fn horizontal(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) {
    horizontal_columns(s, 0, width, scale, gain_limit, sums);
}

/// Filters the scratch rows across and scores columns `from..width`.
pub(super) fn horizontal_columns(
    s: &StatScratch,
    from: usize,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) {
    let table = log2_table();
    let first = MAX_HALF - TAPS[scale].len() / 2;
    for j in from..width {
        let w = window(s, first + j, scale);
        sums.add_pixel(table, gain_limit, w.mu1, w.mu2, w.xx, w.yy, w.xy);
    }
}

/// The five scratch rows filtered across one window: mean sums (16.16) and moment sums
/// (before their final 16-bit shift).
pub(super) struct Window {
    pub mu1: u32,
    pub mu2: u32,
    pub xx: u64,
    pub yy: u64,
    pub xy: u64,
}

/// The scratch rows of `scale` filtered across the window starting at padded index `at`.
#[inline]
pub(super) fn window(s: &StatScratch, at: usize, scale: usize) -> Window {
    let (m1, m2) = (s.mu1.padded(), s.mu2.padded());
    let (xx, yy, xy) = (s.ref_sq.padded(), s.dis_sq.padded(), s.ref_dis.padded());
    let mut w = Window {
        mu1: 0,
        mu2: 0,
        xx: 0,
        yy: 0,
        xy: 0,
    };
    for (k, &c) in TAPS[scale].iter().enumerate() {
        let i = at + k;
        let c = c as u32;
        w.mu1 = w.mu1.wrapping_add(c * m1[i]);
        w.mu2 = w.mu2.wrapping_add(c * m2[i]);
        w.xx += c as u64 * xx[i] as u64;
        w.yy += c as u64 * yy[i] as u64;
        w.xy += c as u64 * xy[i] as u64;
    }
    w
}

/// A vertical kernel: [`vertical`] or one of its SIMD twins.
pub(super) type VerticalFn<T> =
    fn(&Rows<'_, T>, &Rows<'_, T>, usize, usize, usize, VerticalShift, &mut StatScratch);

/// A horizontal kernel: [`horizontal`] or one of its SIMD twins.
pub(super) type HorizontalFn = fn(&mut StatScratch, usize, usize, f64, &mut Sums);

/// The deferred pass of row `y` at a scale, after the horizontal pass (see `xy_plan`):
/// scores the steps that pass left, `width` columns, with the vertical shifts and the
/// gain limit. [`no_deferred`] or a SIMD twin.
pub(super) type DeferredFn<T> = fn(
    &Rows<'_, T>,
    &Rows<'_, T>,
    (usize, usize, usize),
    VerticalShift,
    f64,
    &mut StatScratch,
    &mut Sums,
);

/// The deferred pass of the tables whose horizontal pass leaves no step: nothing to do.
#[allow(clippy::too_many_arguments)]
pub(super) fn no_deferred<T>(
    _: &Rows<'_, T>,
    _: &Rows<'_, T>,
    _: (usize, usize, usize),
    _: VerticalShift,
    _: f64,
    s: &mut StatScratch,
    _: &mut Sums,
) {
    debug_assert!(!s.xy.has_deferred());
}

/// The statistic of `scale` over the top-left `width` x `height` of the (reference,
/// distorted) planes, whose borders are mirrored by at least the scale's half filter width,
/// computed with the given kernels.
#[allow(clippy::too_many_arguments)]
pub(super) fn scale_statistic<T: Copy + Into<u32>>(
    (reference, distorted): (&Rows<'_, T>, &Rows<'_, T>),
    width: usize,
    height: usize,
    scale: usize,
    shift: VerticalShift,
    gain_limit: f64,
    scratch: &mut StatScratch,
    (vertical, horizontal): (VerticalFn<T>, HorizontalFn),
) -> NumDen {
    let mut sums = Sums::default();
    for y in 0..height {
        vertical(reference, distorted, y, width, scale, shift, scratch);
        horizontal(scratch, width, scale, gain_limit, &mut sums);
    }
    sums.finish()
}
