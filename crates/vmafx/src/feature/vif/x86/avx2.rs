//! AVX2 twins of `vif`'s row kernels: eight columns at a time, in exactly the integer
//! arithmetic of the scalar code (64-bit sums where it sums in 64 bits), with the scalar
//! code finishing the columns left over.

use std::arch::x86_64::*;

use super::super::kernels::Kernels;
use super::avx2_score::{interleave, square};
use super::avx2_score_loads::ScoreSums;
use super::avx2_vertical_u16::{
    serves as pairs16_serve, step as pairs16_step, store_words8, PairTaps,
};
use super::avx2_vertical_u8::{refill_block, serves as pairs_serve, vertical as vertical_pairs};
use super::avx2_vertical_words::refill_block as refill_words;
use super::avx2_vertical_words::{serves as words_serve, vertical as vertical_words};
use crate::cpu::CpuLevel;
use crate::feature::vif::planes::Rows;
use crate::feature::vif::stats::{
    horizontal_columns, mirror_scratch, vertical_columns, StatScratch, Sums, VerticalShift,
};
use crate::feature::vif::subsample::vertical_down_with;
use crate::feature::vif::subsample::{down_horizontal_columns, down_vertical_columns, DownScratch};
use crate::feature::vif::tables::{MAX_HALF, TAPS};

/// The AVX2 kernel table. The dispatch hands it out only when the processor has AVX2.
pub(in crate::feature::vif) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx2,
    vertical_u8,
    vertical_u16,
    horizontal,
    deferred_u8: deferred::<u8>,
    deferred_u16: deferred::<u16>,
    horizontal_keep: super::avx2_split::horizontal_keep,
    horizontal_dis: super::avx2_split::horizontal_dis,
    down_vertical_u8,
    down_vertical_u16: down_vertical::<u16>,
    down_horizontal,
    vertical_down_u8,
    vertical_down_u16,
};

/// The deferred pass (see `xy_plan`): writes the skipped blocks that the steps the
/// horizontal pass left read, then scores those steps.
#[allow(clippy::too_many_arguments)]
fn deferred<T: Pixel>(
    reference: &Rows<'_, T>,
    distorted: &Rows<'_, T>,
    (y, width, scale): (usize, usize, usize),
    shift: VerticalShift,
    gain_limit: f64,
    s: &mut StatScratch,
    sums: &mut Sums,
) {
    if !s.xy.has_deferred() {
        return;
    }
    let steps = s.xy.take_deferred();
    let blocks = width / 16;
    for &j in &steps {
        let t = j / 16;
        for b in t.saturating_sub(1)..(t + 2).min(blocks) {
            if s.xy.fill(b) {
                // SAFETY: this table is only handed out when the processor has AVX2; a
                // skipped block lies within the vertical pass's `width / 16 * 16` columns.
                unsafe { T::refill(reference, distorted, (y, width, scale, shift), b, s) };
            }
        }
    }
    super::avx2_madd::score_steps(s, &steps, scale, gain_limit, sums);
    s.xy.give_back(steps);
}

/// The fused pass of this table over 8-bit samples: its two kernels one after the other.
#[allow(clippy::too_many_arguments)]
fn vertical_down_u8(
    reference: &Rows<'_, u8>,
    distorted: &Rows<'_, u8>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    d: &mut DownScratch,
) {
    let k = (KERNELS.vertical_u8, KERNELS.down_vertical_u8);
    vertical_down_with(k, reference, distorted, y, width, scale, shift, s, d);
}

/// The fused pass of this table over 16-bit words.
#[allow(clippy::too_many_arguments)]
fn vertical_down_u16(
    reference: &Rows<'_, u16>,
    distorted: &Rows<'_, u16>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    d: &mut DownScratch,
) {
    let k = (KERNELS.vertical_u16, KERNELS.down_vertical_u16);
    vertical_down_with(k, reference, distorted, y, width, scale, shift, s, d);
}

/// Samples the kernels read: widened to eight 32-bit lanes.
trait Pixel: Copy + Into<u32> {
    /// The eight samples from `p` as 32-bit lanes.
    ///
    /// # Safety
    /// The processor must support AVX2 and eight samples from `p` must be readable.
    unsafe fn widen8(p: *const Self) -> __m256i;

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

impl Pixel for u8 {
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn widen8(p: *const u8) -> __m256i {
        // SAFETY: the caller makes the eight bytes read (unaligned) readable.
        unsafe { _mm256_cvtepu8_epi32(_mm_loadl_epi64(p as *const __m128i)) }
    }

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

impl Pixel for u16 {
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn widen8(p: *const u16) -> __m256i {
        // SAFETY: the caller makes the sixteen bytes read (unaligned) readable.
        unsafe { _mm256_cvtepu16_epi32(_mm_loadu_si128(p as *const __m128i)) }
    }

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

/// Eight 32-bit words from `p`.
///
/// # Safety
/// AVX2, and eight words from `p` readable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load8_at(p: *const u32) -> __m256i {
    // SAFETY: the caller makes the 32 bytes read (unaligned) readable.
    unsafe { _mm256_loadu_si256(p as *const __m256i) }
}

/// Runs `$f::<N>` for the filter length `N` of `$scale`, so that each length gets its own
/// unrolled loop.
macro_rules! by_taps {
    ($scale:expr, $f:ident $(::<$t:ty>)?, ($($arg:expr),*)) => {
        match TAPS[$scale].len() {
            17 => $f::<$($t,)? 17>($($arg),*),
            9 => $f::<$($t,)? 9>($($arg),*),
            5 => $f::<$($t,)? 5>($($arg),*),
            _ => $f::<$($t,)? 3>($($arg),*),
        }
    };
}

/// The taps of `scale` as an array of `N`.
#[inline]
fn taps_of<const N: usize>(scale: usize) -> &'static [u16; N] {
    TAPS[scale]
        .try_into()
        .expect("filter length matches the scale")
}

/// Stores eight 32-bit lanes at `at` in `d` (bounds-checked).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store8(d: &mut [u32], at: usize, v: __m256i) {
    let d = &mut d[at..at + 8];
    // SAFETY: `d` holds the 32 bytes written (unaligned store).
    unsafe { _mm256_storeu_si256(d.as_mut_ptr() as *mut __m256i, v) }
}

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

fn vertical<T: Pixel>(
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

/// The 16-bit vertical pass: at scales 1 and 2 by interleaved row pairs and word products
/// (`avx2_vertical_words`), sixteen columns a step, the last columns by the scalar code;
/// at scale 0 of input below 16 bits by mirrored row pairs (`avx2_vertical_u16`, a little
/// faster there on 10-bit input than the word products), each step holding a sample at
/// or past 2^15 by the 64-bit kernel instead; at scale 0 of 16-bit input and at scale 3
/// (taps past 15 bits) the 64-bit kernel.
fn vertical_u16(
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

/// The five sums of a step as even and odd columns' 64-bit lanes: `mu1`, `mu2`,
/// `ref_sq`, `dis_sq`, `ref_dis`.
type Sums64 = [[__m256i; 2]; 5];

/// The 64-bit sums of columns `j..j + 8` of the window `rows_r`, `rows_d` (taps `coef`
/// in 64-bit lanes).
///
/// # Safety
/// AVX2, and columns `j..j + 8` of every row readable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn step64<T: Pixel, const N: usize>(
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
struct Shift64 {
    mean: (__m256i, __m128i),
    moment: (__m256i, __m128i),
}

impl Shift64 {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(shift: VerticalShift) -> Self {
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
    fn moment(self, [e, o]: [__m256i; 2]) -> __m256i {
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
fn store5(s: &mut StatScratch, j: usize, [m1, m2, xx, yy, xy]: [__m256i; 5]) {
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
fn finish64(sh: Shift64, v: Sums64) -> [__m256i; 5] {
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
fn vertical_u8(
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

fn horizontal(s: &mut StatScratch, width: usize, scale: usize, gain_limit: f64, sums: &mut Sums) {
    // Scales 0..2 have taps below 2^15, as the 16-bit multiply-adds need.
    if scale <= 2 {
        return super::avx2_madd::horizontal(s, width, scale, gain_limit, sums);
    }
    // Scale 3, the last, has three taps.
    debug_assert_eq!(scale, 3);
    // SAFETY: this table is only handed out when the processor has AVX2.
    unsafe { horizontal_avx2::<3>(s, width, scale, gain_limit, sums) }
}

/// The symmetric filter `coef` over the eight positions `j..j + 8` of `r`, in wrapping
/// 32-bit lanes: each pair of mirrored taps takes one product. Wrapping sums give the
/// same bits as the scalar sum in any grouping.
///
/// # Safety
/// AVX2, and `j + N + 7 <= r.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn symmetric8<const N: usize>(coef: &[__m256i; N], r: &[u32], j: usize) -> __m256i {
    let p = r.as_ptr();
    let mut acc = _mm256_setzero_si256();
    for (k, &c) in coef.iter().take(N / 2).enumerate() {
        // SAFETY: j + k + 8 and j + N - 1 - k + 8 are at most j + N + 7 <= r.len().
        let pair =
            unsafe { _mm256_add_epi32(load8_at(p.add(j + k)), load8_at(p.add(j + N - 1 - k))) };
        acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(c, pair));
    }
    // SAFETY: as above, for the centre tap.
    let centre = unsafe { load8_at(p.add(j + N / 2)) };
    _mm256_add_epi32(acc, _mm256_mullo_epi32(coef[N / 2], centre))
}

/// `(sum + 32768) >> 16` of the filter of a moment row (32-bit values), from the filters
/// of its high and low 16-bit halves. The taps sum to 2^16, so each half's filter is below
/// `2^16 * 2^16 - 2^16` and fits a 32-bit lane unwrapped; the full sum is
/// `hi * 2^16 + lo`, whose rounded shift is `hi + ((lo + 32768) >> 16)`, below 2^32.
///
/// # Safety
/// AVX2, and `j + N + 7` at most the length of both halves.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn moment8<const N: usize>(
    coef: &[__m256i; N],
    (hi, lo): (&[u32], &[u32]),
    j: usize,
) -> __m256i {
    // SAFETY: the caller's bounds are those of `symmetric8`; AVX2 is enabled here.
    let (h, l) = unsafe { (symmetric8(coef, hi, j), symmetric8(coef, lo, j)) };
    let l = _mm256_srli_epi32::<16>(_mm256_add_epi32(l, _mm256_set1_epi32(32768)));
    _mm256_add_epi32(h, l)
}

/// Splits `src` into its high and low 16-bit halves.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn split_halves(src: &[u32], hi: &mut [u32], lo: &mut [u32]) {
    for ((&x, h), l) in src.iter().zip(hi.iter_mut()).zip(lo.iter_mut()) {
        *h = x >> 16;
        *l = x & 0xFFFF;
    }
}

/// The horizontal pass of scale 3 (taps past 15 bits) in 32-bit lanes, sixteen columns a
/// step as two halves of eight, scored as the madd pass's pixels are
/// (`avx2_score_loads`); the last columns by the scalar code.
#[target_feature(enable = "avx2")]
unsafe fn horizontal_avx2<const N: usize>(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) {
    let mut acc = ScoreSums::new(gain_limit);
    let taps = taps_of::<N>(scale);
    let first = MAX_HALF - N / 2;
    let n16 = width / 16 * 16;
    // Output columns 0..n16 read columns first..first + n16 + N - 1 of the padded rows.
    let len = n16 + N - 1;
    let span = first..first + len;
    {
        let [xh, xl, yh, yl, zh, zl] = &mut s.halves;
        // SAFETY: AVX2 is enabled here.
        unsafe {
            split_halves(
                &s.ref_sq.padded()[span.clone()],
                &mut xh[..len],
                &mut xl[..len],
            );
            split_halves(
                &s.dis_sq.padded()[span.clone()],
                &mut yh[..len],
                &mut yl[..len],
            );
            split_halves(
                &s.ref_dis.padded()[span.clone()],
                &mut zh[..len],
                &mut zl[..len],
            );
        }
    }
    let (m1, m2) = (&s.mu1.padded()[span.clone()], &s.mu2.padded()[span]);
    let [xh, xl, yh, yl, zh, zl] = &s.halves;
    let (xx, yy, xy) = (
        (&xh[..len], &xl[..len]),
        (&yh[..len], &yl[..len]),
        (&zh[..len], &zl[..len]),
    );
    let mut coef = [_mm256_setzero_si256(); N];
    for (k, &c) in taps.iter().enumerate() {
        coef[k] = _mm256_set1_epi32(c as i32);
    }
    let zero = _mm256_setzero_si256();
    for j in (0..n16).step_by(16) {
        let at = [j, j + 8];
        // The filter of a moment row over the eight columns from `at`, less the rounded
        // product of two means: a sigma.
        let sigma = |row, at, a, b| {
            // SAFETY: AVX2 is enabled here; at + N + 7 <= n16 + N - 1 = len, the length of
            // every row slice.
            unsafe { _mm256_sub_epi32(moment8(&coef, row, at), square(a, b)) }
        };
        // SAFETY: as above.
        let means = at.map(|at| unsafe { (symmetric8(&coef, m1, at), symmetric8(&coef, m2, at)) });
        let sigma1 = [0, 1].map(|h| sigma(xx, at[h], means[h].0, means[h].0));
        let sigma2 = [0, 1].map(|h| sigma(yy, at[h], means[h].1, means[h].1));
        let sigma2 = sigma2.map(|v| _mm256_max_epi32(v, zero));
        acc.add16(sigma1, sigma2, || {
            [0, 1].map(|h| sigma(xy, at[h], means[h].0, means[h].1))
        });
    }
    let totals = acc.totals();
    sums.add_totals(totals[0], totals[1], totals[2], totals[3]);
    horizontal_columns(s, n16, width, scale, gain_limit, sums);
}

/// The 8-bit vertical down-sampling filter: by mirrored row sums and multiply-adds where
/// the filter serves (`avx2_down_u8`, scale 1's), the last columns by the scalar code;
/// else eight columns a step in 32-bit lanes.
fn down_vertical_u8(
    src: &Rows<'_, u8>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) {
    if !super::avx2_down_u8::serves(next_scale) {
        return down_vertical::<u8>(src, y, width, next_scale, shift, s);
    }
    // SAFETY: this table is only handed out when the processor has AVX2.
    let from = unsafe { super::avx2_down_u8::down_vertical(src, y, width, next_scale, shift, s) };
    down_vertical_columns(src, y, from, width, next_scale, shift, s);
}

fn down_vertical<T: Pixel>(
    src: &Rows<'_, T>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) {
    // SAFETY: this table is only handed out when the processor has AVX2.
    unsafe {
        by_taps!(
            next_scale,
            down_vertical_avx2::<T>,
            (src, y, width, next_scale, shift, s)
        )
    }
}

#[target_feature(enable = "avx2")]
unsafe fn down_vertical_avx2<T: Pixel, const N: usize>(
    src: &Rows<'_, T>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) {
    let taps = taps_of::<N>(next_scale);
    let half = N / 2;
    // Each row is at least `width` long: the loads below stay within `..width`.
    let mut rows = [std::ptr::null::<T>(); N];
    let mut coef = [_mm256_setzero_si256(); N];
    for (k, &c) in taps.iter().enumerate() {
        rows[k] = src.row(y - half as isize + k as isize)[..width].as_ptr();
        coef[k] = _mm256_set1_epi32(c as i32);
    }
    let round = _mm256_set1_epi32((1u32 << (shift - 1)) as i32);
    let count = _mm_cvtsi32_si128(shift as i32);
    let low16 = _mm256_set1_epi32(0xFFFF);
    let n8 = width / 8 * 8;
    let body = s.convol.body_mut();
    for j in (0..n8).step_by(8) {
        let mut acc = _mm256_setzero_si256();
        for k in 0..N {
            // SAFETY: AVX2 is enabled here; j + 8 <= width, the length of each row.
            let px = unsafe { T::widen8(rows[k].add(j)) };
            acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(coef[k], px));
        }
        let v = _mm256_srl_epi32(_mm256_add_epi32(acc, round), count);
        // SAFETY: AVX2 is enabled here; the store is bounds-checked.
        unsafe { store8(body, j, _mm256_and_si256(v, low16)) };
    }
    down_vertical_columns(src, y, n8, width, next_scale, shift, s);
}

/// The horizontal down-sampling filter: by multiply-adds over the row as words where the
/// taps fit 15 bits (`avx2_down_words`, scales 1 and 2), else in 32-bit lanes.
fn down_horizontal(conv: &[u32], next_scale: usize, out: &mut [u16]) {
    if super::avx2_down_words::serves(next_scale) {
        // SAFETY: this table is only handed out when the processor has AVX2.
        return unsafe { super::avx2_down_words::down_horizontal(conv, next_scale, out) };
    }
    // SAFETY: this table is only handed out when the processor has AVX2.
    unsafe { by_taps!(next_scale, down_horizontal_avx2, (conv, next_scale, out)) }
}

#[target_feature(enable = "avx2")]
unsafe fn down_horizontal_avx2<const N: usize>(conv: &[u32], next_scale: usize, out: &mut [u16]) {
    let taps = taps_of::<N>(next_scale);
    let first = MAX_HALF - N / 2;
    let mut coef = [_mm256_setzero_si256(); N];
    for (k, &c) in taps.iter().enumerate() {
        coef[k] = _mm256_set1_epi32(c as i32);
    }
    let round = _mm256_set1_epi32(32768);
    let evens = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    let n8 = out.len() / 8 * 8;
    for ox in (0..n8).step_by(8) {
        let at = first + 2 * ox;
        // The sixteen positions of this block and the filter's reach past them.
        let window = &conv[at..at + 16 + N - 1];
        let (mut lo, mut hi) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for (k, &c) in coef.iter().enumerate() {
            // SAFETY: AVX2 is enabled here; k + 16 <= window.len().
            unsafe {
                let p = window.as_ptr().add(k);
                lo = _mm256_add_epi32(lo, _mm256_mullo_epi32(c, load8_at(p)));
                hi = _mm256_add_epi32(hi, _mm256_mullo_epi32(c, load8_at(p.add(8))));
            }
        }
        let lo = _mm256_srli_epi32::<16>(_mm256_add_epi32(lo, round));
        let hi = _mm256_srli_epi32::<16>(_mm256_add_epi32(hi, round));
        let lo = _mm256_permutevar8x32_epi32(lo, evens);
        let hi = _mm256_permutevar8x32_epi32(hi, evens);
        let kept = _mm256_permute2x128_si256::<0x20>(lo, hi);
        // Every lane is below 2^16, so the saturating pack keeps it as is.
        let words = _mm_packus_epi32(
            _mm256_castsi256_si128(kept),
            _mm256_extracti128_si256::<1>(kept),
        );
        let dst = &mut out[ox..ox + 8];
        // SAFETY: `dst` holds the sixteen bytes written (unaligned store).
        unsafe { _mm_storeu_si128(dst.as_mut_ptr() as *mut __m128i, words) };
    }
    down_horizontal_columns(conv, next_scale, n8, out);
}
