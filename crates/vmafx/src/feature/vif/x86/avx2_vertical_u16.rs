//! One eight-column step of the AVX2 16-bit vertical statistic pass at scale 0 by mirrored
//! row pairs (the 16-bit twin of `avx2_vertical_u8`).
//!
//! The taps are symmetric, so rows `k` and `N - 1 - k` share a tap `c`. Each column's two
//! samples go into one 32-bit lane as 16-bit words (row `k` low, row `N - 1 - k` high),
//! and one multiply-add each gives `c (a_k + a_m)` (against the tap pair `(c, c)`),
//! `a_k^2 + a_m^2`, `b_k^2 + b_m^2` and `a_k b_k + a_m b_m` (the words against
//! themselves); the last three are then multiplied by `c` into 64-bit lanes, even and odd
//! columns apart. The centre row is paired with zeros and the tap pair `(c, 0)`.
//!
//! The multiply-adds read signed words: with every sample below 2^15 each pair sum of
//! squares is below 2^31 and the mean sums below 2^31 (taps below 2^15 summing to 2^16),
//! every term non-negative, so the sums are the scalar code's exactly. A step holding a
//! sample at or past 2^15 (only a malformed picture: the pass serves depths of 15 bits at
//! most, 16-bit input going to the 64-bit kernel whole) is left to the caller's 64-bit
//! kernel.

use std::arch::x86_64::*;

use crate::feature::vif::stats::VerticalShift;
use crate::feature::vif::tables::TAPS;

/// Whether this step serves the pass of `scale` with shifts `shift`: scale 0, whose taps
/// fit signed 16-bit words, for input below 16 bits (the mean shift at scale 0 is the
/// depth). At 16 bits most steps hold a sample at or past 2^15, so the pair attempt
/// would be wasted work before the 64-bit kernel: such input goes to that kernel directly.
pub(super) fn serves(scale: usize, shift: VerticalShift) -> bool {
    scale == 0 && shift.mean < 16 && TAPS[scale].iter().all(|&c| c < 1 << 15)
}

/// The taps of a window as this step uses them.
pub(super) struct PairTaps<const N: usize> {
    /// Pair `k < N / 2`: the tap of rows `k` and `N - 1 - k` in both words; pair `N / 2`:
    /// the centre tap in the low word only.
    pairs: [__m256i; N],
    /// Tap `k` in each 64-bit lane.
    wide: [__m256i; N],
}

impl<const N: usize> PairTaps<N> {
    /// The vectors of `taps` (each below 2^15).
    #[target_feature(enable = "avx2")]
    pub(super) fn new(taps: &[u16; N]) -> Self {
        let half = N / 2;
        PairTaps {
            pairs: std::array::from_fn(|k| {
                let c = taps[k.min(half)] as i32;
                _mm256_set1_epi32(if k < half { c | c << 16 } else { c })
            }),
            wide: std::array::from_fn(|k| _mm256_set1_epi64x(taps[k] as i64)),
        }
    }
}

/// The eight samples at `p` as 32-bit lanes.
///
/// # Safety
/// AVX2, and eight words from `p` readable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn widen(p: *const u16) -> __m256i {
    // SAFETY: the caller makes the sixteen bytes read (unaligned) readable.
    unsafe { _mm256_cvtepu16_epi32(_mm_loadu_si128(p as *const __m128i)) }
}

/// The eight samples at `pk` (low words) and `pm` (high words) interleaved, a column a
/// 32-bit lane.
///
/// # Safety
/// AVX2, and eight words from each pointer readable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn interleave(pk: *const u16, pm: *const u16) -> __m256i {
    // SAFETY: the caller makes the sixteen bytes read from each (unaligned) readable.
    let (k, m) = unsafe {
        (
            _mm_loadu_si128(pk as *const __m128i),
            _mm_loadu_si128(pm as *const __m128i),
        )
    };
    _mm256_set_m128i(_mm_unpackhi_epi16(k, m), _mm_unpacklo_epi16(k, m))
}

/// The raw sums of columns `j..j + 8` of the window whose rows start at `rows_r` and
/// `rows_d`: `mu1`, `mu2` (32-bit lanes), then the even and odd columns' 64-bit
/// `ref_sq`, `dis_sq`, `ref_dis` sums; `None` when a sample of the step is at or past
/// 2^15. Without `XY` the `ref_dis` sums are left 0 (skipped, see `xy_plan`).
///
/// # Safety
/// AVX2, and columns `j..j + 8` of every row readable.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn step<const N: usize, const XY: bool>(
    rows_r: &[*const u16; N],
    rows_d: &[*const u16; N],
    taps: &PairTaps<N>,
    j: usize,
) -> Option<([__m256i; 2], [[__m256i; 2]; 3])> {
    let half = N / 2;
    let zero = _mm256_setzero_si256();
    let mut acc = Acc {
        means: [zero; 2],
        moments: [[zero; 2]; 3],
        any: zero,
    };
    for k in 0..half {
        let m = N - 1 - k;
        // SAFETY: the caller makes columns j..j + 8 of every row readable.
        let (a, b) = unsafe {
            (
                interleave(rows_r[k].add(j), rows_r[m].add(j)),
                interleave(rows_d[k].add(j), rows_d[m].add(j)),
            )
        };
        acc.add::<XY>(a, b, taps.pairs[k], taps.wide[k]);
    }
    // SAFETY: as above, for the centre row.
    let (a, b) = unsafe { (widen(rows_r[half].add(j)), widen(rows_d[half].add(j))) };
    acc.add::<XY>(a, b, taps.pairs[half], taps.wide[half]);
    let Acc {
        means,
        moments,
        any,
    } = acc;
    let signs = _mm256_set1_epi16(i16::MIN);
    if _mm256_testz_si256(any, signs) == 0 {
        return None;
    }
    Some((means, moments))
}

/// The running sums of a step.
struct Acc {
    /// `mu1`, `mu2` in 32-bit lanes.
    means: [__m256i; 2],
    /// `ref_sq`, `dis_sq`, `ref_dis`, each as even and odd columns' 64-bit lanes.
    moments: [[__m256i; 2]; 3],
    /// Every sample word of the step or'ed together.
    any: __m256i,
}

impl Acc {
    /// Adds the row pair (or centre row) whose words are `a` (reference) and `b`
    /// (distorted), with tap pair `pair` and tap `c` in 64-bit lanes; the `ref_dis` sums
    /// only with `XY`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn add<const XY: bool>(&mut self, a: __m256i, b: __m256i, pair: __m256i, c: __m256i) {
        self.any = _mm256_or_si256(self.any, _mm256_or_si256(a, b));
        self.means[0] = _mm256_add_epi32(self.means[0], _mm256_madd_epi16(a, pair));
        self.means[1] = _mm256_add_epi32(self.means[1], _mm256_madd_epi16(b, pair));
        let squares = [
            _mm256_madd_epi16(a, a),
            _mm256_madd_epi16(b, b),
            _mm256_madd_epi16(a, b),
        ];
        let n = if XY { 3 } else { 2 };
        for (sum, v) in self.moments.iter_mut().zip(squares).take(n) {
            sum[0] = _mm256_add_epi64(sum[0], _mm256_mul_epu32(v, c));
            let odd = _mm256_srli_epi64::<32>(v);
            sum[1] = _mm256_add_epi64(sum[1], _mm256_mul_epu32(odd, c));
        }
    }
}

/// Writes a step's five rows (eight columns in order, each lane below 2^16 for the means)
/// as the horizontal pass's eight rows of biased words (see `avx2_madd`) at words
/// `at..at + 8`: the means whole, the moments as their high and low halves. Two rows are
/// packed together (each 128-bit lane packs four columns of both), the 64-bit quarters
/// put each row's eight words in one half, and the halves are stored apart.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn store_words8(words: &mut [Vec<i16>; 8], at: usize, rows: [__m256i; 5]) {
    let bias = _mm256_set1_epi16(i16::MIN);
    let low16 = _mm256_set1_epi32(0xFFFF);
    let [m1, m2, xx, yy, xy] = rows;
    let hi = |v: __m256i| _mm256_srli_epi32::<16>(v);
    let lo = |v: __m256i| _mm256_and_si256(v, low16);
    let pairs = [
        (m1, m2),
        (hi(xx), lo(xx)),
        (hi(yy), lo(yy)),
        (hi(xy), lo(xy)),
    ];
    for (p, (a, b)) in pairs.into_iter().enumerate() {
        let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(a, b));
        let v = _mm256_xor_si256(packed, bias);
        let halves = [_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)];
        for (row, half) in words[2 * p..2 * p + 2].iter_mut().zip(halves) {
            let d = &mut row[at..at + 8];
            // SAFETY: `d` holds the 16 bytes written (unaligned store).
            unsafe { _mm_storeu_si128(d.as_mut_ptr() as *mut __m128i, half) };
        }
    }
}
