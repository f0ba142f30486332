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
//! A step widens sixteen bytes of each row within 128-bit lanes (`cpu::widen`) and unpacks
//! the two rows of a pair by words, so no instruction of the loop crosses lanes; its two
//! halves hold columns `0..4, 8..12` and `4..8, 12..16`, and the ten sums of a step stay in
//! registers (all but one) through its nine row pairs. The pass writes the horizontal
//! pass's biased words itself (`s.words_done`), and the five 32-bit rows only in the
//! blocks whose columns the mirrors and scalar columns read.

use std::arch::x86_64::*;

use crate::cpu::widen::widen_u8x16;
use crate::feature::vif::planes::Rows;
use crate::feature::vif::stats::{StatScratch, VerticalShift};
use crate::feature::vif::tables::TAPS;

/// Whether the taps of `scale` fit this kernel's signed 16-bit multiply-adds.
pub(super) fn serves(scale: usize) -> bool {
    TAPS[scale].iter().all(|&c| c < 1 << 15)
}

/// Stores the two lane-interleaved halves of a step (columns `0..4, 8..12` and `4..8,
/// 12..16`, as `avx2_vertical_words` makes them) as columns `j..j + 16` of `d`
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
/// low halves; without `XY`, the first six rows only (the `ref·dis` sums were skipped, see
/// `xy_plan`). Packing the two lane-interleaved halves of a step puts its words in column
/// order (each 128-bit lane packs columns `0..4` with `4..8`, then `8..12` with `12..16`).
/// Every packed lane is below 2^16, so the saturating pack is exact.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn store_words<const XY: bool>(words: &mut [Vec<i16>; 8], at: usize, rows: &Step) {
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
    let n = if XY { 8 } else { 6 };
    for (dst, v) in words.iter_mut().zip(out).take(n) {
        let d = &mut dst[at..at + 16];
        // SAFETY: `d` holds the 32 bytes written (unaligned store).
        unsafe { _mm256_storeu_si256(d.as_mut_ptr() as *mut __m256i, v) };
    }
}

/// Writes a step's five sums at columns `j..j + 16` of a pass over `n16` columns: as the
/// horizontal pass's words (from word `half + j`), and as the 32-bit rows only where the
/// mirrors and the scalar columns read them: the first block (the left mirror reads
/// columns 1..=8) and the last (the right mirror and the horizontal pass's scalar columns
/// read up to 8 columns back from `n16`). The halves are lane-interleaved (see
/// [`store16`]).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn store_step(s: &mut StatScratch, half: usize, j: usize, n16: usize, rows: &Step) {
    store_words::<true>(&mut s.words, half + j, rows);
    if j == 0 || j + 16 == n16 {
        store_rows(s, j, rows);
    }
}

/// Writes a step's five sums as the 32-bit rows' columns `j..j + 16` (kept out of line:
/// two blocks of a row take it).
#[inline(never)]
#[target_feature(enable = "avx2")]
fn store_rows(s: &mut StatScratch, j: usize, rows: &Step) {
    for (d, &v) in s.bodies_mut().into_iter().zip(rows) {
        store16(d, j, v);
    }
}

/// The five sums of one step: `mu1`, `mu2`, `ref_sq`, `dis_sq`, `ref_dis`, each as its
/// two halves of eight columns.
pub(super) type Step = [[__m256i; 2]; 5];

/// Sixteen columns of rows `k` and `m` from `pk` and `pm` (readable) as interleaved 16-bit
/// words, in lane-interleaved halves: columns `0..4, 8..12`, then `4..8, 12..16` (each
/// row widened in-lane, then the two unpacked by words: no instruction crosses lanes).
///
/// # Safety
/// AVX2, and sixteen bytes from each pointer readable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn pair16(pk: *const u8, pm: *const u8) -> [__m256i; 2] {
    // SAFETY: the caller makes the sixteen bytes read from each readable.
    let (k, m) = unsafe { (widen_u8x16(pk), widen_u8x16(pm)) };
    [_mm256_unpacklo_epi16(k, m), _mm256_unpackhi_epi16(k, m)]
}

/// Sixteen columns of the centre row from `p` (readable) as words `(a0, 0, a1, 0, ..)`, in
/// the halves of [`pair16`].
///
/// # Safety
/// AVX2, and sixteen bytes from `p` readable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn centre16(p: *const u8) -> [__m256i; 2] {
    // SAFETY: the caller makes the sixteen bytes read readable.
    let w = unsafe { widen_u8x16(p) };
    let zero = _mm256_setzero_si256();
    [
        _mm256_unpacklo_epi16(w, zero),
        _mm256_unpackhi_epi16(w, zero),
    ]
}

/// The five sums of one half of a step (eight columns).
type Sums8 = [__m256i; 5];

/// Adds one row pair (or the centre row and zeros) of eight columns to `acc`: `a` and `b`
/// the reference's and the distorted picture's interleaved words, `pair` the tap pair,
/// `c` the tap; the `ref·dis` sum only with `XY`.
#[inline]
#[target_feature(enable = "avx2")]
fn add_pair<const XY: bool>(acc: &mut Sums8, a: __m256i, b: __m256i, pair: __m256i, c: __m256i) {
    acc[0] = _mm256_add_epi32(acc[0], _mm256_madd_epi16(a, pair));
    acc[1] = _mm256_add_epi32(acc[1], _mm256_madd_epi16(b, pair));
    let xx = _mm256_mullo_epi32(_mm256_madd_epi16(a, a), c);
    let yy = _mm256_mullo_epi32(_mm256_madd_epi16(b, b), c);
    acc[2] = _mm256_add_epi32(acc[2], xx);
    acc[3] = _mm256_add_epi32(acc[3], yy);
    if XY {
        let xy = _mm256_mullo_epi32(_mm256_madd_epi16(a, b), c);
        acc[4] = _mm256_add_epi32(acc[4], xy);
    }
}

/// The rows of a pass around one output row: the `N` rows' starts in each picture, the
/// tap pairs (pair `half` the centre row's `(c, 0)`) and the taps.
struct Window<const N: usize> {
    rows_r: [*const u8; N],
    rows_d: [*const u8; N],
    pairs: [__m256i; N],
    coef: [__m256i; N],
}

impl<const N: usize> Window<N> {
    /// The window of scale `scale`'s filter around row `y`, each row read up to `width`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(
        reference: &Rows<'_, u8>,
        distorted: &Rows<'_, u8>,
        y: usize,
        width: usize,
        scale: usize,
    ) -> Self {
        let taps: &[u16; N] = TAPS[scale]
            .try_into()
            .expect("filter length matches the scale");
        let half = N / 2;
        debug_assert!(taps.iter().all(|&c| c < 1 << 15));
        let (rows_r, rows_d) = (
            reference.window::<N>(y, width),
            distorted.window::<N>(y, width),
        );
        // Pairs 0..half are rows (k, N - 1 - k); pair `half` is the centre row.
        let pairs = std::array::from_fn(|k| {
            let c = taps[k.min(half)] as i32;
            _mm256_set1_epi32(if k < half { c | c << 16 } else { c })
        });
        let coef = std::array::from_fn(|k| _mm256_set1_epi32(taps[k] as i32));
        Window {
            rows_r,
            rows_d,
            pairs,
            coef,
        }
    }

    /// The sums of columns `j..j + 16` (each half's five sums; the `ref·dis` sums 0
    /// without `XY`).
    ///
    /// # Safety
    /// AVX2, and `j + 16` at most the `width` the window was made with.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sums<const XY: bool>(&self, j: usize) -> [Sums8; 2] {
        let half = N / 2;
        let zero = _mm256_setzero_si256();
        let mut acc: [Sums8; 2] = [[zero; 5]; 2];
        for k in 0..half {
            let m = N - 1 - k;
            // SAFETY: j + 16 <= width, the length of each row (the caller's).
            let (a, b) = unsafe {
                (
                    pair16(self.rows_r[k].add(j), self.rows_r[m].add(j)),
                    pair16(self.rows_d[k].add(j), self.rows_d[m].add(j)),
                )
            };
            for h in 0..2 {
                add_pair::<XY>(&mut acc[h], a[h], b[h], self.pairs[k], self.coef[k]);
            }
        }
        // SAFETY: as above, for the centre row.
        let (a, b) = unsafe {
            (
                centre16(self.rows_r[half].add(j)),
                centre16(self.rows_d[half].add(j)),
            )
        };
        for h in 0..2 {
            add_pair::<XY>(&mut acc[h], a[h], b[h], self.pairs[half], self.coef[half]);
        }
        acc
    }
}

/// Columns `0..width / 16 * 16` of row `y`'s five vertical sums into `s`; returns the
/// number of columns done. The caller checks [`serves`] and `shift.moment == 0`. Blocks
/// of sixteen columns that the row's plan (`s.xy`, see `xy_plan`) marks are left without
/// their `ref·dis` words.
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
    debug_assert!(shift.moment == 0);
    let half = N / 2;
    // Each row is at least `width` long: the loads below stay within `..width`.
    let window = Window::<N>::new(reference, distorted, y, width, scale);
    let n16 = width / 16 * 16;
    let blocks = n16 / 16;
    let step = |acc| finish(acc, shift);
    let plan = s.xy.begin_vertical(blocks);
    for (b, j) in (0..n16).step_by(16).enumerate() {
        if plan.get(b + 1).is_none_or(|&x| x != 0) {
            // SAFETY: AVX2 is enabled here; j + 16 <= width.
            let out = step(unsafe { window.sums::<true>(j) });
            store_step(s, half, j, n16, &out);
        } else {
            // Never the first or last block (`begin_vertical`), so no 32-bit rows.
            // SAFETY: as above.
            let out = step(unsafe { window.sums::<false>(j) });
            store_words::<false>(&mut s.words, half + j, &out);
            s.xy.skip(b, blocks);
        }
    }
    s.xy.end_vertical(plan);
    s.words_done = n16;
    n16
}

/// The five sums of a step from its two halves' raw sums: the means rounded and shifted
/// by `shift.mean` and cut to 16 bits, the moments as they are.
#[inline]
#[target_feature(enable = "avx2")]
fn finish(acc: [Sums8; 2], shift: VerticalShift) -> Step {
    let round = _mm256_set1_epi32(((1u32 << shift.mean) >> 1) as i32);
    let count = _mm_cvtsi32_si128(shift.mean as i32);
    let low16 = _mm256_set1_epi32(0xFFFF);
    let mean =
        |m: __m256i| _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(m, round), count), low16);
    let halves = |q: usize| [acc[0][q], acc[1][q]];
    [
        halves(0).map(mean),
        halves(1).map(mean),
        halves(2),
        halves(3),
        halves(4),
    ]
}

/// Writes the words of block `b` (columns `16b..16b + 16`) of row `y` again, whole, where
/// the vertical pass skipped its `ref·dis` sums (the deferred pass, see `xy_plan`; the
/// other six rows' words come out as they were).
///
/// # Safety
/// AVX2, and `16b + 16 <= width`, the width of the row's vertical pass.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn refill_block<const N: usize>(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    (y, width, shift): (usize, usize, VerticalShift),
    b: usize,
    words: &mut [Vec<i16>; 8],
) {
    let j = 16 * b;
    let window = Window::<N>::new(reference, distorted, y, width, 0);
    // SAFETY: AVX2 is enabled here; j + 16 <= width (the caller's).
    let out = finish(unsafe { window.sums::<true>(j) }, shift);
    store_words::<true>(words, N / 2 + j, &out);
}
