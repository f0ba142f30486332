//! The AVX2 vertical pass in 64-bit lanes, eight columns a step: the general kernel,
//! exact for every depth, scale and shift (each product and sum as the scalar code's),
//! which the faster 32-bit and 16-bit passes fall back to; and its parts that the 16-bit
//! row-pair pass uses for the steps it does not serve.

use std::arch::x86_64::*;

use super::avx2_lanes32::{by_taps, store8, taps_of, Pixel};
use super::avx2_score::interleave;
use crate::feature::vif::planes::Rows;
use crate::feature::vif::stats::{mirror_scratch, vertical_columns, StatScratch, VerticalShift};

/// `(x + round) >> count` on 64-bit lanes (`round` is half of `1 << count`, or 0).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn round_shift64(x: __m256i, round: __m256i, count: __m128i) -> __m256i {
    _mm256_srl_epi64(_mm256_add_epi64(x, round), count)
}

/// A 64-bit rounding term and shift count for `shift`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn shift64(shift: u32) -> (__m256i, __m128i) {
    let round = (1u64 << shift) >> 1;
    (
        _mm256_set1_epi64x(round as i64),
        _mm_cvtsi32_si128(shift as i32),
    )
}

/// The vertical pass of row `y` by the 64-bit kernel over every column (the last by the
/// scalar code), then the mirrored columns of the scratch rows.
pub(super) fn vertical<T: Pixel>(
    reference: &Rows<'_, T>,
    distorted: &Rows<'_, T>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) {
    // SAFETY: this table is only handed out when the processor has AVX2.
    unsafe {
        by_taps!(
            scale,
            vertical_avx2::<T>,
            (reference, distorted, y, width, scale, shift, s)
        )
    }
    mirror_scratch(s, width, scale);
}

/// The five sums of a step as even and odd columns' 64-bit lanes: `mu1`, `mu2`,
/// `ref_sq`, `dis_sq`, `ref_dis`.
pub(super) type Sums64 = [[__m256i; 2]; 5];

/// The 64-bit sums of columns `j..j + 8` of the window `rows_r`, `rows_d` (taps `coef`
/// in 64-bit lanes).
///
/// # Safety
/// AVX2, and columns `j..j + 8` of every row readable.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn step64<T: Pixel, const N: usize>(
    rows_r: &[*const T; N],
    rows_d: &[*const T; N],
    coef: &[__m256i; N],
    j: usize,
) -> Sums64 {
    let zero = _mm256_setzero_si256();
    let (mut m1e, mut m1o, mut m2e, mut m2o) = (zero, zero, zero, zero);
    let (mut xxe, mut xxo, mut yye, mut yyo, mut xye, mut xyo) =
        (zero, zero, zero, zero, zero, zero);
    for k in 0..N {
        let c = coef[k];
        // SAFETY: the caller makes columns j..j + 8 of every row readable.
        let (a, b) = unsafe { (T::widen8(rows_r[k].add(j)), T::widen8(rows_d[k].add(j))) };
        let (ao, bo) = (_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b));
        // c * sample fits in 32 bits; its 64-bit product with a sample is exact.
        let (cae, cao) = (_mm256_mul_epu32(c, a), _mm256_mul_epu32(c, ao));
        let (cbe, cbo) = (_mm256_mul_epu32(c, b), _mm256_mul_epu32(c, bo));
        m1e = _mm256_add_epi64(m1e, cae);
        m1o = _mm256_add_epi64(m1o, cao);
        m2e = _mm256_add_epi64(m2e, cbe);
        m2o = _mm256_add_epi64(m2o, cbo);
        xxe = _mm256_add_epi64(xxe, _mm256_mul_epu32(cae, a));
        xxo = _mm256_add_epi64(xxo, _mm256_mul_epu32(cao, ao));
        yye = _mm256_add_epi64(yye, _mm256_mul_epu32(cbe, b));
        yyo = _mm256_add_epi64(yyo, _mm256_mul_epu32(cbo, bo));
        xye = _mm256_add_epi64(xye, _mm256_mul_epu32(cae, b));
        xyo = _mm256_add_epi64(xyo, _mm256_mul_epu32(cao, bo));
    }
    [[m1e, m1o], [m2e, m2o], [xxe, xxo], [yye, yyo], [xye, xyo]]
}

/// A pass's shifts as vectors: 64-bit rounding terms and counts of the mean and the
/// moment shifts.
#[derive(Clone, Copy)]
pub(super) struct Shift64 {
    mean: (__m256i, __m128i),
    moment: (__m256i, __m128i),
}

impl Shift64 {
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn new(shift: VerticalShift) -> Self {
        // SAFETY: AVX2 is enabled here.
        unsafe {
            Shift64 {
                mean: shift64(shift.mean),
                moment: shift64(shift.moment),
            }
        }
    }

    /// The moment sums `(even, odd)` shifted, as eight 32-bit lanes in column order.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn moment(self, [e, o]: [__m256i; 2]) -> __m256i {
        let (round, count) = self.moment;
        // SAFETY: AVX2 is enabled here.
        unsafe {
            interleave(
                round_shift64(e, round, count),
                round_shift64(o, round, count),
            )
        }
    }

    /// The mean sums `(even, odd)` shifted and cut to 16 bits, in column order.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn mean(self, [e, o]: [__m256i; 2]) -> __m256i {
        let (round, count) = self.mean;
        // SAFETY: AVX2 is enabled here.
        let v = unsafe {
            interleave(
                round_shift64(e, round, count),
                round_shift64(o, round, count),
            )
        };
        _mm256_and_si256(v, _mm256_set1_epi32(0xFFFF))
    }
}

/// Stores the five finished rows of columns `j..j + 8`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn store5(s: &mut StatScratch, j: usize, [m1, m2, xx, yy, xy]: [__m256i; 5]) {
    // SAFETY: AVX2 is enabled here; the stores are bounds-checked.
    unsafe {
        store8(s.mu1.body_mut(), j, m1);
        store8(s.mu2.body_mut(), j, m2);
        store8(s.ref_sq.body_mut(), j, xx);
        store8(s.dis_sq.body_mut(), j, yy);
        store8(s.ref_dis.body_mut(), j, xy);
    }
}

/// The 64-bit sums `v` of a step finished as the five rows.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn finish64(sh: Shift64, v: Sums64) -> [__m256i; 5] {
    [
        sh.mean(v[0]),
        sh.mean(v[1]),
        sh.moment(v[2]),
        sh.moment(v[3]),
        sh.moment(v[4]),
    ]
}

#[target_feature(enable = "avx2")]
unsafe fn vertical_avx2<T: Pixel, const N: usize>(
    reference: &Rows<'_, T>,
    distorted: &Rows<'_, T>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) {
    let taps = taps_of::<N>(scale);
    // Each row is at least `width` long: the loads below stay within `..width`.
    let (rows_r, rows_d) = (
        reference.window::<N>(y, width),
        distorted.window::<N>(y, width),
    );
    let coef: [__m256i; N] = std::array::from_fn(|k| _mm256_set1_epi64x(taps[k] as i64));
    let sh = Shift64::new(shift);
    let n8 = width / 8 * 8;
    for j in (0..n8).step_by(8) {
        // SAFETY: AVX2 is enabled here; j + 8 <= width, the length of each row.
        let v = unsafe { step64(&rows_r, &rows_d, &coef, j) };
        store5(s, j, finish64(sh, v));
    }
    vertical_columns(reference, distorted, y, n8, width, scale, shift, s);
}
