//! The AVX2 8-bit vertical statistic pass by mirrored row pairs, sixteen columns a step,
//! for the filters whose taps fit 15 bits (scale 0 of 8-bit input, no moment shift).
//!
//! The taps are symmetric, so rows `k` and `N - 1 - k` share a tap `c`. Their samples,
//! interleaved as 16-bit words, give in one multiply-add each `c * (a_k + a_m)` (against
//! the tap pair `(c, c)`), `a_k^2 + a_m^2`, `b_k^2 + b_m^2` and `a_k b_k + a_m b_m` (the
//! samples against themselves), the last three then times `c` in 32-bit lanes; the centre
//! row is paired with zeros and the tap pair `(c, 0)`. Every term is non-negative and each
//! full sum is below 2^32 (taps summing to 2^16 over samples below 2^8), so the wrapping
//! 32-bit sums are the scalar code's sums exactly, in any order.
//!
//! Interleaving within 128-bit lanes leaves columns `0..4, 8..12` in the low half of a
//! step and `4..8, 12..16` in the high half; the stores put them back in order. The pass
//! writes the horizontal pass's biased words itself (`s.words_done`), and the five 32-bit
//! rows only in the blocks whose columns the mirrors and scalar columns read.

use std::arch::x86_64::*;

use crate::feature::vif::planes::Rows;
use crate::feature::vif::stats::{StatScratch, VerticalShift};
use crate::feature::vif::tables::TAPS;

/// Whether the taps of `scale` fit this kernel's signed 16-bit multiply-adds.
pub(super) fn serves(scale: usize) -> bool {
    TAPS[scale].iter().all(|&c| c < 1 << 15)
}

/// Sixteen samples from `p` as 16-bit words.
///
/// # Safety
/// AVX2, and sixteen bytes from `p` readable.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn widen16(p: *const u8) -> __m256i {
    // SAFETY: the caller makes the sixteen bytes read (unaligned) readable.
    unsafe { _mm256_cvtepu8_epi16(_mm_loadu_si128(p as *const __m128i)) }
}

/// Stores the two halves of a step (see the module note) as columns `j..j + 16` of `d`
/// (bounds-checked).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn store16(d: &mut [u32], j: usize, [lo, hi]: [__m256i; 2]) {
    let d = &mut d[j..j + 16];
    let first = _mm256_permute2x128_si256::<0x20>(lo, hi);
    let second = _mm256_permute2x128_si256::<0x31>(lo, hi);
    // SAFETY: `d` holds the 64 bytes written (unaligned stores).
    unsafe {
        _mm256_storeu_si256(d.as_mut_ptr() as *mut __m256i, first);
        _mm256_storeu_si256(d.as_mut_ptr().add(8) as *mut __m256i, second);
    }
}

/// Writes a step's five sums as the horizontal pass's eight rows of biased words (see
/// `avx2_madd`) at words `at..at + 16`: the means whole, the moments as their high and
/// low halves. Packing the two halves of a step puts its words in column order (each
/// 128-bit lane packs columns `0..4` with `4..8`, then `8..12` with `12..16`), and every
/// packed lane is below 2^16, so the saturating pack is exact.
#[inline]
#[target_feature(enable = "avx2")]
fn store_words(words: &mut [Vec<i16>; 8], at: usize, rows: &Step) {
    let bias = _mm256_set1_epi16(i16::MIN);
    let low16 = _mm256_set1_epi32(0xFFFF);
    let packed = |v: [__m256i; 2]| _mm256_xor_si256(_mm256_packus_epi32(v[0], v[1]), bias);
    let high = |v: [__m256i; 2]| packed(v.map(|x| _mm256_srli_epi32::<16>(x)));
    let low = |v: [__m256i; 2]| packed(v.map(|x| _mm256_and_si256(x, low16)));
    let out = [
        packed(rows[0]),
        packed(rows[1]),
        high(rows[2]),
        low(rows[2]),
        high(rows[3]),
        low(rows[3]),
        high(rows[4]),
        low(rows[4]),
    ];
    for (dst, v) in words.iter_mut().zip(out) {
        let d = &mut dst[at..at + 16];
        // SAFETY: `d` holds the 32 bytes written (unaligned store).
        unsafe { _mm256_storeu_si256(d.as_mut_ptr() as *mut __m256i, v) };
    }
}

/// Writes a step's five sums at columns `j..j + 16` of a pass over `n16` columns: as the
/// horizontal pass's words (from word `half + j`), and as the 32-bit rows only where the
/// mirrors and the scalar columns read them: the first block (the left mirror reads
/// columns 1..=8) and the last (the right mirror and the horizontal pass's scalar columns
/// read up to 8 columns back from `n16`).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn store_step(s: &mut StatScratch, half: usize, j: usize, n16: usize, rows: &Step) {
    store_words(&mut s.words, half + j, rows);
    if j == 0 || j + 16 == n16 {
        let dst = [
            s.mu1.body_mut(),
            s.mu2.body_mut(),
            s.ref_sq.body_mut(),
            s.dis_sq.body_mut(),
            s.ref_dis.body_mut(),
        ];
        for (d, &v) in dst.into_iter().zip(rows) {
            store16(d, j, v);
        }
    }
}

/// The five sums of one step: `mu1`, `mu2`, `ref_sq`, `dis_sq`, `ref_dis`, each as its
/// two halves.
pub(super) type Step = [[__m256i; 2]; 5];

/// Adds one row pair (or the centre row and zeros) to `acc`: `(ak, am)` and `(bk, bm)`
/// the reference's and the distorted picture's sixteen words of each row, `pair` the tap
/// pair, `c` the tap.
#[inline]
#[target_feature(enable = "avx2")]
fn add_pair(
    acc: &mut Step,
    (ak, am): (__m256i, __m256i),
    (bk, bm): (__m256i, __m256i),
    pair: __m256i,
    c: __m256i,
) {
    let a = [_mm256_unpacklo_epi16(ak, am), _mm256_unpackhi_epi16(ak, am)];
    let b = [_mm256_unpacklo_epi16(bk, bm), _mm256_unpackhi_epi16(bk, bm)];
    for h in 0..2 {
        let (a, b) = (a[h], b[h]);
        acc[0][h] = _mm256_add_epi32(acc[0][h], _mm256_madd_epi16(a, pair));
        acc[1][h] = _mm256_add_epi32(acc[1][h], _mm256_madd_epi16(b, pair));
        let xx = _mm256_mullo_epi32(_mm256_madd_epi16(a, a), c);
        let yy = _mm256_mullo_epi32(_mm256_madd_epi16(b, b), c);
        let xy = _mm256_mullo_epi32(_mm256_madd_epi16(a, b), c);
        acc[2][h] = _mm256_add_epi32(acc[2][h], xx);
        acc[3][h] = _mm256_add_epi32(acc[3][h], yy);
        acc[4][h] = _mm256_add_epi32(acc[4][h], xy);
    }
}

/// Columns `0..width / 16 * 16` of row `y`'s five vertical sums into `s`; returns the
/// number of columns done. The caller checks [`serves`] and `shift.moment == 0`.
///
/// # Safety
/// AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn vertical<const N: usize>(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
) -> usize {
    let taps: &[u16; N] = TAPS[scale]
        .try_into()
        .expect("filter length matches the scale");
    let half = N / 2;
    debug_assert!(taps.iter().all(|&c| c < 1 << 15) && shift.moment == 0);
    // Each row is at least `width` long: the loads below stay within `..width`.
    let mut rows_r = [std::ptr::null::<u8>(); N];
    let mut rows_d = [std::ptr::null::<u8>(); N];
    for k in 0..N {
        let row = y as isize - half as isize + k as isize;
        rows_r[k] = reference.row(row)[..width].as_ptr();
        rows_d[k] = distorted.row(row)[..width].as_ptr();
    }
    // Pairs 0..half are rows (k, N - 1 - k); pair `half` is the centre row.
    let pairs: [__m256i; N] = std::array::from_fn(|k| {
        let c = taps[k.min(half)] as i32;
        _mm256_set1_epi32(if k < half { c | c << 16 } else { c })
    });
    let coef: [__m256i; N] = std::array::from_fn(|k| _mm256_set1_epi32(taps[k] as i32));
    let round = _mm256_set1_epi32(((1u32 << shift.mean) >> 1) as i32);
    let count = _mm_cvtsi32_si128(shift.mean as i32);
    let low16 = _mm256_set1_epi32(0xFFFF);
    let zero = _mm256_setzero_si256();
    let n16 = width / 16 * 16;
    for j in (0..n16).step_by(16) {
        let mut acc: Step = [[zero; 2]; 5];
        for k in 0..half {
            let m = N - 1 - k;
            // SAFETY: AVX2 is enabled here; j + 16 <= width, the length of each row.
            let (a, b) = unsafe {
                (
                    (widen16(rows_r[k].add(j)), widen16(rows_r[m].add(j))),
                    (widen16(rows_d[k].add(j)), widen16(rows_d[m].add(j))),
                )
            };
            add_pair(&mut acc, a, b, pairs[k], coef[k]);
        }
        // SAFETY: as above, for the centre row.
        let (a, b) = unsafe { (widen16(rows_r[half].add(j)), widen16(rows_d[half].add(j))) };
        add_pair(&mut acc, (a, zero), (b, zero), pairs[half], coef[half]);
        let mean = |m: [__m256i; 2]| {
            m.map(|m| _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(m, round), count), low16))
        };
        let rows: Step = [mean(acc[0]), mean(acc[1]), acc[2], acc[3], acc[4]];
        store_step(s, half, j, n16, &rows);
    }
    s.words_done = n16;
    n16
}
