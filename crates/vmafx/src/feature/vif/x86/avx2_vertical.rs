//! vif's AVX2 vertical entries: which kernel serves a row (the 8-bit row pairs of
//! `avx2_vertical_u8`, the 16-bit row pairs of `avx2_vertical_u16`, the word products of
//! `avx2_vertical_words`, eight-column 32-bit steps, or the 64-bit kernel of
//! `avx2_vertical64`), and how the deferred pass writes again a block whose `ref·dis` sums
//! a pass skipped ([`Refill`]).

use std::arch::x86_64::*;

use super::avx2_lanes32::{by_taps, store8, taps_of, Pixel};
use super::avx2_vertical64::{finish64, step64, store5, vertical, Shift64};
use super::avx2_vertical_u16::{
    serves as pairs16_serve, step as pairs16_step, store_words8, PairTaps,
};
use super::avx2_vertical_u8::{refill_block, serves as pairs_serve, vertical as vertical_pairs};
use super::avx2_vertical_words::refill_block as refill_words;
use super::avx2_vertical_words::{serves as words_serve, vertical as vertical_words};
use crate::feature::vif::planes::Rows;
use crate::feature::vif::stats::{mirror_scratch, vertical_columns, StatScratch, VerticalShift};

/// Samples whose vertical pass may skip a block's `ref·dis` sums (see `xy_plan`).
pub(super) trait Refill: Pixel {
    /// Writes the words of block `b` (columns `16b..16b + 16`) of row `y` of a scale
    /// again, whole, where its vertical pass skipped the `ref·dis` sums (`width`, `scale`
    /// and `shift` that pass's).
    ///
    /// # Safety
    /// AVX2, and `16b + 16 <= width`.
    unsafe fn refill(
        reference: &Rows<'_, Self>,
        distorted: &Rows<'_, Self>,
        at: (usize, usize, usize, VerticalShift),
        b: usize,
        s: &mut StatScratch,
    );
}

impl Refill for u8 {
    /// Only scale 0 reads 8-bit samples.
    unsafe fn refill(
        reference: &Rows<'_, u8>,
        distorted: &Rows<'_, u8>,
        (y, width, scale, shift): (usize, usize, usize, VerticalShift),
        b: usize,
        s: &mut StatScratch,
    ) {
        debug_assert_eq!(scale, 0);
        let at = (y, width, shift);
        // SAFETY: the caller's.
        unsafe { refill_block::<17>(reference, distorted, at, b, &mut s.words) }
    }
}

impl Refill for u16 {
    /// The block's two steps made again whole and all their words written (the other six
    /// rows' words as they were), by the kernel that made them: the word products at
    /// scales 1 and 2, the row pairs at scale 0.
    unsafe fn refill(
        reference: &Rows<'_, u16>,
        distorted: &Rows<'_, u16>,
        (y, width, scale, shift): (usize, usize, usize, VerticalShift),
        b: usize,
        s: &mut StatScratch,
    ) {
        if scale > 0 {
            debug_assert!(words_serve(scale, shift));
            let at = (y, width, scale, shift);
            // SAFETY: the caller's: AVX2, and the block's columns within `width`.
            return unsafe { refill_words(reference, distorted, at, b, &mut s.words) };
        }
        // SAFETY: the caller's: AVX2, and the block's columns within `width`.
        unsafe {
            let pass = Pairs16::<17>::new(reference, distorted, y, width, 0, shift);
            for j in [16 * b, 16 * b + 8] {
                store_words8(&mut s.words, 8 + j, pass.rows(j, true));
            }
        }
    }
}

/// The 16-bit vertical pass: at scales 1 and 2 by interleaved row pairs and word products
/// (`avx2_vertical_words`), sixteen columns a step, the last columns by the scalar code;
/// at scale 0 of input below 16 bits by mirrored row pairs (`avx2_vertical_u16`, a little
/// faster there on 10-bit input than the word products), each step holding a sample at
/// or past 2^15 by the 64-bit kernel instead; at scale 0 of 16-bit input and at scale 3
/// (taps past 15 bits) the 64-bit kernel.
pub(super) fn vertical_u16(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) {
    if scale > 0 && words_serve(scale, shift) {
        // SAFETY: this table is only handed out when the processor has AVX2.
        let from = unsafe { vertical_words(reference, distorted, y, width, scale, shift, s) };
        vertical_columns(reference, distorted, y, from, width, scale, shift, s);
        return mirror_scratch(s, width, scale);
    }
    if !pairs16_serve(scale, shift) {
        return vertical::<u16>(reference, distorted, y, width, scale, shift, s);
    }
    // SAFETY: this table is only handed out when the processor has AVX2.
    unsafe {
        by_taps!(
            scale,
            vertical_u16_pairs,
            (reference, distorted, y, width, scale, shift, s)
        )
    }
    mirror_scratch(s, width, scale);
}

#[target_feature(enable = "avx2")]
unsafe fn vertical_u16_pairs<const N: usize>(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) {
    let n8 = width / 8 * 8;
    let n16 = width / 16 * 16;
    let blocks = n16 / 16;
    let plan = s.xy.begin_vertical(blocks);
    let pass = Pairs16::<N>::new(reference, distorted, y, width, scale, shift);
    for j in (0..n8).step_by(8) {
        // Blocks the plan marks (never the first or last, nor the columns past `n16`)
        // are left without their `ref·dis` words (see `xy_plan`).
        let xy = j >= n16 || plan.get(j / 16 + 1).is_none_or(|&x| x != 0);
        // SAFETY: AVX2 is enabled here; j + 8 <= width, the length of each row.
        let rows = unsafe { pass.rows(j, xy) };
        // The horizontal pass's words up to its own sixteen-column end, the 32-bit rows
        // where the mirrors and scalar columns read them: the first sixteen columns (the
        // left mirror reads 1..=8), the last sixteen before that end and all after it.
        if j < n16 {
            store_words8(&mut s.words, N / 2 + j, rows);
        }
        if j < 16 || j + 16 >= n16 {
            store5(s, j, rows);
        }
        if !xy {
            s.xy.skip(j / 16, blocks);
        }
    }
    s.xy.end_vertical(plan);
    s.words_done = n16;
    vertical_columns(reference, distorted, y, n8, width, scale, shift, s);
}

/// The 16-bit scale-0 pass by row pairs around one row: its window, taps and shifts.
struct Pairs16<const N: usize> {
    rows_r: [*const u16; N],
    rows_d: [*const u16; N],
    coef: [__m256i; N],
    pair_taps: PairTaps<N>,
    sh: Shift64,
    /// The mean's rounding term and shift.
    mean: (__m256i, __m128i),
}

impl<const N: usize> Pairs16<N> {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(
        reference: &Rows<'_, u16>,
        distorted: &Rows<'_, u16>,
        y: usize,
        width: usize,
        scale: usize,
        shift: VerticalShift,
    ) -> Self {
        let taps = taps_of::<N>(scale);
        // Each row is at least `width` long: the loads stay within `..width`.
        let (rows_r, rows_d) = (
            reference.window::<N>(y, width),
            distorted.window::<N>(y, width),
        );
        Pairs16 {
            rows_r,
            rows_d,
            coef: std::array::from_fn(|k| _mm256_set1_epi64x(taps[k] as i64)),
            pair_taps: PairTaps::new(taps),
            sh: Shift64::new(shift),
            mean: (
                _mm256_set1_epi32(((1u32 << shift.mean) >> 1) as i32),
                _mm_cvtsi32_si128(shift.mean as i32),
            ),
        }
    }

    /// The five rows of columns `j..j + 8` (`ref·dis` 0 unless `xy`, where the pairs
    /// serve; a step the 64-bit kernel takes has all five).
    ///
    /// # Safety
    /// AVX2, and `j + 8` at most the width the pass was made with.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn rows(&self, j: usize, xy: bool) -> [__m256i; 5] {
        let (round, count) = self.mean;
        let low16 = _mm256_set1_epi32(0xFFFF);
        let mean = |m| _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(m, round), count), low16);
        let (r, d, t) = (&self.rows_r, &self.rows_d, &self.pair_taps);
        // SAFETY: the caller's.
        let sums = unsafe {
            if xy {
                pairs16_step::<N, true>(r, d, t, j)
            } else {
                pairs16_step::<N, false>(r, d, t, j)
            }
        };
        match sums {
            Some(([m1, m2], [xx, yy, xy])) => [
                mean(m1),
                mean(m2),
                self.sh.moment(xx),
                self.sh.moment(yy),
                self.sh.moment(xy),
            ],
            // SAFETY: as above.
            None => finish64(self.sh, unsafe { step64(r, d, &self.coef, j) }),
        }
    }
}

/// The 8-bit vertical pass. At scale 0 of 8-bit input (no moment shift) every sum fits
/// 32 bits (`c * a * a < 2^29`, taps summing to 2^16 over samples below 2^8), so it runs
/// in 32-bit lanes, by mirrored row pairs sixteen columns a step where the taps fit 15
/// bits (`avx2_vertical_u8`) and eight columns a step for the rest; otherwise it takes
/// the general 64-bit path.
pub(super) fn vertical_u8(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) {
    if shift.moment != 0 {
        return vertical::<u8>(reference, distorted, y, width, scale, shift, s);
    }
    // SAFETY: this table is only handed out when the processor has AVX2.
    unsafe {
        let from = if pairs_serve(scale) {
            by_taps!(
                scale,
                vertical_pairs,
                (reference, distorted, y, width, scale, shift, s)
            )
        } else {
            0
        };
        by_taps!(
            scale,
            vertical_u8_avx2,
            (reference, distorted, y, from, width, scale, shift, s)
        )
    }
    mirror_scratch(s, width, scale);
}

#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn vertical_u8_avx2<const N: usize>(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    y: usize,
    from: usize,
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
    let coef: [__m256i; N] = std::array::from_fn(|k| _mm256_set1_epi32(taps[k] as i32));
    let round = _mm256_set1_epi32(((1u32 << shift.mean) >> 1) as i32);
    let count = _mm_cvtsi32_si128(shift.mean as i32);
    let low16 = _mm256_set1_epi32(0xFFFF);
    let n8 = width / 8 * 8;
    for j in (from..n8).step_by(8) {
        let zero = _mm256_setzero_si256();
        let (mut m1, mut m2, mut xx, mut yy, mut xy) = (zero, zero, zero, zero, zero);
        for k in 0..N {
            let c = coef[k];
            // SAFETY: AVX2 is enabled here; j + 8 <= width, the length of each row.
            let (a, b) = unsafe { (u8::widen8(rows_r[k].add(j)), u8::widen8(rows_d[k].add(j))) };
            let (ca, cb) = (_mm256_mullo_epi32(c, a), _mm256_mullo_epi32(c, b));
            m1 = _mm256_add_epi32(m1, ca);
            m2 = _mm256_add_epi32(m2, cb);
            xx = _mm256_add_epi32(xx, _mm256_mullo_epi32(ca, a));
            yy = _mm256_add_epi32(yy, _mm256_mullo_epi32(cb, b));
            xy = _mm256_add_epi32(xy, _mm256_mullo_epi32(ca, b));
        }
        let mean = |m| _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(m, round), count), low16);
        // SAFETY: AVX2 is enabled here; the stores are bounds-checked.
        unsafe {
            store8(s.mu1.body_mut(), j, mean(m1));
            store8(s.mu2.body_mut(), j, mean(m2));
            store8(s.ref_sq.body_mut(), j, xx);
            store8(s.dis_sq.body_mut(), j, yy);
            store8(s.ref_dis.body_mut(), j, xy);
        }
    }
    vertical_columns(reference, distorted, y, n8, width, scale, shift, s);
}
