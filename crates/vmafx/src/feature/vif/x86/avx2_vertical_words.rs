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
//! step and `4..8, 12..16` in the high half; `avx2_vertical_u8`'s stores put them back in
//! order. The pass writes the horizontal pass's biased words itself (`s.words_done`), and
//! the five 32-bit rows only in the first and last blocks, where the mirrors and the
//! scalar columns read them.

use std::arch::x86_64::*;

use super::avx2_vertical_u8::{store_step, Step};
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

/// [`vertical`] for `N` taps in `P = (N + 1) / 2` row pairs.
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
    debug_assert!(P == N.div_ceil(2) && TAPS[scale].len() == N);
    let half = N / 2;
    // Each row is at least `width` long: the loads below stay within `..width`. Row
    // 2P - 1 is row N - 1 again, under a zero tap.
    let mut rows_r = [[std::ptr::null::<u16>(); 2]; P];
    let mut rows_d = [[std::ptr::null::<u16>(); 2]; P];
    for k in 0..2 * P {
        let row = y as isize - half as isize + k.min(N - 1) as isize;
        rows_r[k / 2][k % 2] = reference.row(row)[..width].as_ptr();
        rows_d[k / 2][k % 2] = distorted.row(row)[..width].as_ptr();
    }
    let pairs: [__m256i; P] =
        std::array::from_fn(|p| _mm256_set1_epi32(tap_pair(TAPS[scale], 2 * p as isize)));
    let bias16 = _mm256_set1_epi16(i16::MIN);
    let bias32 = _mm256_set1_epi32(i32::MIN);
    let mean_round = _mm256_set1_epi32(((1u32 << shift.mean) >> 1) as i32);
    let mean_count = _mm_cvtsi32_si128(shift.mean as i32);
    let mom_round = _mm256_set1_epi32((1u32 << (shift.moment - 1)) as i32);
    let mom_count = _mm_cvtsi32_si128(shift.moment as i32);
    let high_count = _mm_cvtsi32_si128(16 - shift.moment as i32);
    let low16 = _mm256_set1_epi32(0xFFFF);
    let n16 = width / 16 * 16;
    let load = |row: *const u16, j: usize| {
        // SAFETY: AVX2 is enabled here; the 16 words from `j` of a row are readable
        // (j + 16 <= width, the row's length; unaligned load).
        unsafe { _mm256_loadu_si256(row.add(j) as *const __m256i) }
    };
    for j in (0..n16).step_by(16) {
        // acc[2t + h]: term t (a, b, a² high, a² low, b² high, b² low, ab high, ab low)
        // of unpack half h, less 2^31.
        let mut acc = [_mm256_setzero_si256(); 16];
        for ((r, d), &c) in rows_r.iter().zip(&rows_d).zip(&pairs) {
            let (a0, a1) = (load(r[0], j), load(r[1], j));
            let (b0, b1) = (load(d[0], j), load(d[1], j));
            let a = [_mm256_unpacklo_epi16(a0, a1), _mm256_unpackhi_epi16(a0, a1)];
            let b = [_mm256_unpacklo_epi16(b0, b1), _mm256_unpackhi_epi16(b0, b1)];
            for h in 0..2 {
                let (a, b) = (a[h], b[h]);
                let terms = [
                    a,
                    b,
                    _mm256_mulhi_epu16(a, a),
                    _mm256_mullo_epi16(a, a),
                    _mm256_mulhi_epu16(b, b),
                    _mm256_mullo_epi16(b, b),
                    _mm256_mulhi_epu16(a, b),
                    _mm256_mullo_epi16(a, b),
                ];
                for (t, v) in terms.into_iter().enumerate() {
                    let v = _mm256_madd_epi16(_mm256_xor_si256(v, bias16), c);
                    acc[2 * t + h] = _mm256_add_epi32(acc[2 * t + h], v);
                }
            }
        }
        let sum = |t: usize| [0, 1].map(|h| _mm256_xor_si256(acc[2 * t + h], bias32));
        let mean = |t: usize| {
            sum(t).map(|v| {
                let v = _mm256_srl_epi32(_mm256_add_epi32(v, mean_round), mean_count);
                _mm256_and_si256(v, low16)
            })
        };
        let moment = |t: usize| {
            let (hi, lo) = (sum(t), sum(t + 1));
            [0, 1].map(|h| {
                let lo = _mm256_srl_epi32(_mm256_add_epi32(lo[h], mom_round), mom_count);
                _mm256_add_epi32(_mm256_sll_epi32(hi[h], high_count), lo)
            })
        };
        let rows: Step = [mean(0), mean(1), moment(2), moment(4), moment(6)];
        store_step::<false>(s, half, j, n16, &rows);
    }
    s.words_done = n16;
    n16
}
