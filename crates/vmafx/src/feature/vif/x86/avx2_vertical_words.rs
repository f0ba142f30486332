//! The AVX2 vertical statistic pass over 16-bit words (deep samples at scale 0, the means
//! of the scale above later) at the scales whose taps fit 15 bits (0..2), sixteen columns
//! a step, two rows a multiply-add (the AVX2 twin of `avx512_vertical`'s 16-bit pass).
//!
//! Each row's words are interleaved with the next row's once; the word products of
//! interleaved words are the interleaved products, so one multiply-add against the tap
//! pair `(c_2p, c_2p+1)` adds both rows' terms. An odd last row pairs with itself under
//! the tap pair `(c, 0)`. Words are taken less 32768 as they are summed: their filter is
//! then the sum less 2^31 (the taps sum to 2^16), which adding 2^31 back restores exactly
//! in wrapping 32-bit lanes (each true sum is below 2^32).
//!
//! Squares and products of 16-bit words are 32-bit: they are taken as their high and low
//! words (`vpmulhuw`, `vpmullw`), each filtered as above. The moment `hi * 2^16 + lo`,
//! rounded and shifted by `s` (1..=16), is `hi * 2^(16 - s) + ((lo + 2^(s - 1)) >> s)`
//! (the high part loses no bits, and `lo + 2^(s - 1)` stays below 2^32), truncated to 32
//! bits as the scalar code truncates it.
//!
//! Interleaving within 128-bit lanes leaves columns `0..4, 8..12` in the low half of a
//! step and `4..8, 12..16` in the high half, as in `avx2_vertical_u8`, whose stores put
//! them back in order. The pass writes the horizontal pass's biased words itself
//! (`s.words_done`), and the five 32-bit rows only in the first and last blocks, where the
//! mirrors and the scalar columns read them. Like `avx2_vertical_u8` it leaves out the
//! `ref·dis` sums of the blocks the row's plan marks (`xy_plan`), which a deferred pass
//! writes again where a step needs them ([`refill_block`]).

use std::arch::x86_64::*;

use super::avx2_vertical_u8::{store_step, store_words, Step};
use crate::feature::vif::planes::Rows;
use crate::feature::vif::stats::{StatScratch, VerticalShift};
use crate::feature::vif::tables::{tap_pair, TAPS};

/// Whether this pass serves `scale` with shifts `shift`: taps below 2^15 (scales 0..2)
/// and both shifts in `1..=16`.
pub(super) fn serves(scale: usize, shift: VerticalShift) -> bool {
    TAPS[scale].iter().all(|&c| c < 1 << 15)
        && (1..=16).contains(&shift.mean)
        && (1..=16).contains(&shift.moment)
}

/// Columns `0..width / 16 * 16` of row `y`'s five vertical sums into `s`; returns the
/// number of columns done. The caller checks [`serves`].
///
/// # Safety
/// AVX2.
pub(super) unsafe fn vertical(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) -> usize {
    // SAFETY: the caller has checked AVX2.
    unsafe {
        match TAPS[scale].len() {
            17 => vertical_by::<17, 9>(reference, distorted, y, width, scale, shift, s),
            9 => vertical_by::<9, 5>(reference, distorted, y, width, scale, shift, s),
            5 => vertical_by::<5, 3>(reference, distorted, y, width, scale, shift, s),
            _ => vertical_by::<3, 2>(reference, distorted, y, width, scale, shift, s),
        }
    }
}

/// A pass over one output row: each row pair's starts in both pictures (row `2P - 1` is
/// row `N - 1` again, under a zero tap), the tap pairs, and the shifts as vectors.
struct Window<const N: usize, const P: usize> {
    rows_r: [[*const u16; 2]; P],
    rows_d: [[*const u16; 2]; P],
    pairs: [__m256i; P],
    mean: (__m256i, __m128i),
    moment: (__m256i, __m128i),
    high_count: __m128i,
}

impl<const N: usize, const P: usize> Window<N, P> {
    /// The window of `scale`'s filter around row `y`, each row read up to `width`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(
        reference: &Rows<'_, u16>,
        distorted: &Rows<'_, u16>,
        (y, width, scale, shift): (usize, usize, usize, VerticalShift),
    ) -> Self {
        debug_assert!(P == N.div_ceil(2) && TAPS[scale].len() == N);
        // Each row is at least `width` long: the loads stay within `..width`.
        let pair_up = |rows: [*const u16; N]| -> [[*const u16; 2]; P] {
            std::array::from_fn(|p| [rows[2 * p], rows[(2 * p + 1).min(N - 1)]])
        };
        Window {
            rows_r: pair_up(reference.window::<N>(y, width)),
            rows_d: pair_up(distorted.window::<N>(y, width)),
            pairs: std::array::from_fn(|p| {
                _mm256_set1_epi32(tap_pair(TAPS[scale], 2 * p as isize))
            }),
            mean: (
                _mm256_set1_epi32(((1u32 << shift.mean) >> 1) as i32),
                _mm_cvtsi32_si128(shift.mean as i32),
            ),
            moment: (
                _mm256_set1_epi32((1u32 << (shift.moment - 1)) as i32),
                _mm_cvtsi32_si128(shift.moment as i32),
            ),
            high_count: _mm_cvtsi32_si128(16 - shift.moment as i32),
        }
    }

    /// The five sums of columns `j..j + 16` (the `ref·dis` sums 0 without `XY`), in
    /// lane-interleaved halves. `REFILL` makes the deferred pass's own copy: with two
    /// callers the row loop's copies were not inlined, which cost more than the skipped
    /// sums saved.
    ///
    /// # Safety
    /// AVX2, and `j + 16` at most the `width` the window was made with.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn step<const XY: bool, const REFILL: bool>(&self, j: usize) -> Step {
        let bias16 = _mm256_set1_epi16(i16::MIN);
        let bias32 = _mm256_set1_epi32(i32::MIN);
        let low16 = _mm256_set1_epi32(0xFFFF);
        let load = |row: *const u16| {
            // SAFETY: AVX2 is enabled here; the 16 words from `j` of a row are readable
            // (j + 16 <= width, the row's length: the caller's; unaligned load).
            unsafe { _mm256_loadu_si256(row.add(j) as *const __m256i) }
        };
        // acc[h][t]: term t (a, b, a² high, a² low, b² high, b² low, ab high, ab low) of
        // unpack half h, less 2^31. The halves are summed one after the other (the rows
        // loaded again for the second): sixteen sums at once would not stay in registers.
        let terms = if XY { 8 } else { 6 };
        let mut acc = [[_mm256_setzero_si256(); 8]; 2];
        for (h, acc) in acc.iter_mut().enumerate() {
            for ((r, d), &c) in self.rows_r.iter().zip(&self.rows_d).zip(&self.pairs) {
                let (a0, a1) = (load(r[0]), load(r[1]));
                let (b0, b1) = (load(d[0]), load(d[1]));
                let (a, b) = if h == 0 {
                    (_mm256_unpacklo_epi16(a0, a1), _mm256_unpacklo_epi16(b0, b1))
                } else {
                    (_mm256_unpackhi_epi16(a0, a1), _mm256_unpackhi_epi16(b0, b1))
                };
                let products = [
                    a,
                    b,
                    _mm256_mulhi_epu16(a, a),
                    _mm256_mullo_epi16(a, a),
                    _mm256_mulhi_epu16(b, b),
                    _mm256_mullo_epi16(b, b),
                    _mm256_mulhi_epu16(a, b),
                    _mm256_mullo_epi16(a, b),
                ];
                for (sum, v) in acc.iter_mut().zip(products).take(terms) {
                    let v = _mm256_madd_epi16(_mm256_xor_si256(v, bias16), c);
                    *sum = _mm256_add_epi32(*sum, v);
                }
            }
        }
        let sum = |t: usize| [0, 1].map(|h| _mm256_xor_si256(acc[h][t], bias32));
        let mean = |t: usize| {
            let (round, count) = self.mean;
            sum(t).map(|v| {
                _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(v, round), count), low16)
            })
        };
        let moment = |t: usize| {
            let (hi, lo) = (sum(t), sum(t + 1));
            let (round, count) = self.moment;
            [0, 1].map(|h| {
                let lo = _mm256_srl_epi32(_mm256_add_epi32(lo[h], round), count);
                _mm256_add_epi32(_mm256_sll_epi32(hi[h], self.high_count), lo)
            })
        };
        [mean(0), mean(1), moment(2), moment(4), moment(6)]
    }
}

/// [`vertical`] for `N` taps in `P = (N + 1) / 2` row pairs. Blocks of sixteen columns
/// that the row's plan (`s.xy`, see `xy_plan`) marks are left without their `ref·dis`
/// words.
#[target_feature(enable = "avx2")]
unsafe fn vertical_by<const N: usize, const P: usize>(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) -> usize {
    let half = N / 2;
    let window = Window::<N, P>::new(reference, distorted, (y, width, scale, shift));
    let n16 = width / 16 * 16;
    let blocks = n16 / 16;
    let plan = s.xy.begin_vertical(blocks);
    for (b, j) in (0..n16).step_by(16).enumerate() {
        if plan.get(b + 1).is_none_or(|&x| x != 0) {
            // SAFETY: AVX2 is enabled here; j + 16 <= width.
            let rows = unsafe { window.step::<true, false>(j) };
            store_step(s, half, j, n16, &rows);
        } else {
            // Never the first or last block (`begin_vertical`), so no 32-bit rows.
            // SAFETY: as above.
            let rows = unsafe { window.step::<false, false>(j) };
            store_words::<false>(&mut s.words, half + j, &rows);
            s.xy.skip(b, blocks);
        }
    }
    s.xy.end_vertical(plan);
    s.words_done = n16;
    n16
}

/// Writes the words of block `b` (columns `16b..16b + 16`) of a row again, whole, where
/// the vertical pass skipped its `ref·dis` sums (the deferred pass, see `xy_plan`); `at`
/// is that pass's `(y, width, scale, shift)`. The caller checks [`serves`].
///
/// # Safety
/// AVX2, and `16b + 16 <= width`, the width of the row's vertical pass.
pub(super) unsafe fn refill_block(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    at: (usize, usize, usize, VerticalShift),
    b: usize,
    words: &mut [Vec<i16>; 8],
) {
    // SAFETY: the caller's: AVX2, and the block within the pass's width.
    unsafe {
        match TAPS[at.2].len() {
            17 => refill_by::<17, 9>(reference, distorted, at, b, words),
            9 => refill_by::<9, 5>(reference, distorted, at, b, words),
            5 => refill_by::<5, 3>(reference, distorted, at, b, words),
            _ => refill_by::<3, 2>(reference, distorted, at, b, words),
        }
    }
}

/// [`refill_block`] for `N` taps in `P` row pairs.
#[target_feature(enable = "avx2")]
unsafe fn refill_by<const N: usize, const P: usize>(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    at: (usize, usize, usize, VerticalShift),
    b: usize,
    words: &mut [Vec<i16>; 8],
) {
    let j = 16 * b;
    let window = Window::<N, P>::new(reference, distorted, at);
    // SAFETY: AVX2 is enabled here; j + 16 <= width (the caller's).
    let rows = unsafe { window.step::<true, true>(j) };
    store_words::<true>(words, N / 2 + j, &rows);
}
