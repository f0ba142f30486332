//! The AVX2 vertical down-sampling filter over 8-bit pictures (scale 0 to scale 1),
//! sixteen columns a step, by mirrored row sums and 16-bit multiply-adds.
//!
//! The filter of `N = 4Q + 1` taps (nine here) is symmetric: rows `k` and `N - 1 - k`
//! share a tap, so their samples are added first (below 2^9). The sums of rows `2p` and
//! `2p + 1` (with their mirrors), interleaved as words, take the tap pair
//! `(c_2p, c_2p+1)` in one multiply-add; the centre row pairs with itself under `(c, 0)`.
//! Every term is non-negative and the sum is below 2^24 (taps summing to 2^16), so the
//! 32-bit sums are the scalar code's exactly.

use std::arch::x86_64::*;

use super::avx2_vertical_u8::store16;
use crate::cpu::widen::widen_u8x16;
use crate::feature::vif::planes::Rows;
use crate::feature::vif::subsample::DownScratch;
use crate::feature::vif::tables::{tap_pair, TAPS};

/// Whether this filter serves `next_scale`: taps below 2^15 in a symmetric filter of
/// `4Q + 1` taps.
pub(super) fn serves(next_scale: usize) -> bool {
    let taps = TAPS[next_scale];
    taps.len() % 4 == 1 && taps.iter().all(|&c| c < 1 << 15)
}

/// Columns `0..width / 16 * 16` of the filter of `next_scale` around row `y` of `src`,
/// into the body of `s.convol`; returns the number of columns done. The caller checks
/// [`serves`].
///
/// # Safety
/// AVX2.
pub(super) unsafe fn down_vertical(
    src: &Rows<'_, u8>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) -> usize {
    // SAFETY: the caller has checked AVX2.
    unsafe {
        match TAPS[next_scale].len() {
            17 => down_by::<17, 4>(src, y, width, next_scale, shift, s),
            9 => down_by::<9, 2>(src, y, width, next_scale, shift, s),
            _ => down_by::<5, 1>(src, y, width, next_scale, shift, s),
        }
    }
}

/// [`down_vertical`] for `N = 4Q + 1` taps.
#[target_feature(enable = "avx2")]
unsafe fn down_by<const N: usize, const Q: usize>(
    src: &Rows<'_, u8>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) -> usize {
    let taps = TAPS[next_scale];
    debug_assert!(taps.len() == N && N == 4 * Q + 1);
    let half = N / 2;
    // Each row is at least `width` long: the loads below stay within `..width`.
    let rows: [*const u8; N] =
        std::array::from_fn(|k| src.row(y - half as isize + k as isize)[..width].as_ptr());
    let pairs: [__m256i; Q] =
        std::array::from_fn(|p| _mm256_set1_epi32(tap_pair(taps, 2 * p as isize)));
    let centre = _mm256_set1_epi32(taps[half] as i32);
    let round = _mm256_set1_epi32((1u32 << (shift - 1)) as i32);
    let count = _mm_cvtsi32_si128(shift as i32);
    let low16 = _mm256_set1_epi32(0xFFFF);
    let n16 = width / 16 * 16;
    let body = s.convol.body_mut();
    for j in (0..n16).step_by(16) {
        // SAFETY: AVX2 is enabled here; j + 16 <= width, the length of each row.
        let row = |k: usize| unsafe { widen_u8x16(rows[k].add(j)) };
        let mirrored = |k: usize| _mm256_add_epi16(row(k), row(N - 1 - k));
        let c = row(half);
        let mut acc = [
            _mm256_madd_epi16(_mm256_unpacklo_epi16(c, c), centre),
            _mm256_madd_epi16(_mm256_unpackhi_epi16(c, c), centre),
        ];
        for (p, &pair) in pairs.iter().enumerate() {
            let (u, v) = (mirrored(2 * p), mirrored(2 * p + 1));
            let halves = [_mm256_unpacklo_epi16(u, v), _mm256_unpackhi_epi16(u, v)];
            for (acc, h) in acc.iter_mut().zip(halves) {
                *acc = _mm256_add_epi32(*acc, _mm256_madd_epi16(h, pair));
            }
        }
        let out = acc.map(|v| {
            let v = _mm256_srl_epi32(_mm256_add_epi32(v, round), count);
            _mm256_and_si256(v, low16)
        });
        store16(body, j, out);
    }
    n16
}
