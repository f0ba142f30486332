//! motion's `i32` row passes (see `super::super::dispatch` for the arithmetic) written once
//! over the vector width ([`I16Lanes`], `N / 2` lanes of `i32`): the vertical passes over
//! 8- and 9..16-bit samples and the horizontal pass with its absolute sum, which take the
//! rows and depths the 16-bit pipeline (`super::words_by`) cannot. As there, a row's last
//! partial step is a full step moved back to end at the row's end: the vertical pass
//! writes its repeated columns again with the same values, the horizontal sum masks its
//! repeated windows off. [`rows32_table`] makes a level's safe entries.

use std::arch::x86_64::{__m128i, _mm_cvtsi32_si128};
use std::ops::RangeInclusive;

use super::super::kernel::{edges_abs_sum, horizontal_abs_sum, MotionSample, FILTER};
use super::lanes::I16Lanes;
use super::words_by::steps;

/// Each 32-bit lane's index, for masking the windows a moved-back step repeats.
static LANE: [i32; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// Whether every row holds at least `n` samples.
fn rows_hold<T>(rows: &[&[T]; 5], n: usize) -> bool {
    rows.iter().all(|r| r.len() >= n)
}

/// The frame of every vector vertical pass: where `out` is shorter than `min` columns,
/// `shift` is outside `shifts` or a row holds fewer samples than `out` has columns, the
/// scalar twin runs (which reports a mistake the way the reference does); else `kernel`,
/// which says whether some value it wrote is not 0.
pub(super) fn vertical_with<T: MotionSample>(
    (prev, cur): ([&[T]; 5], [&[T]; 5]),
    shift: u32,
    out: &mut [i32],
    (min, shifts): (usize, RangeInclusive<u32>),
    kernel: impl FnOnce(&[&[T]; 5], &[&[T]; 5], u32, &mut [i32]) -> bool,
) -> bool {
    let n = out.len();
    if n < min || !shifts.contains(&shift) || !rows_hold(&prev, n) || !rows_hold(&cur, n) {
        return T::vertical(prev, cur, shift, out);
    }
    kernel(&prev, &cur, shift, out)
}

/// The symmetric taps, each in every lane.
///
/// # Safety
/// The level's instructions.
#[inline(always)]
unsafe fn taps<L: I16Lanes>() -> [L::V; 3] {
    // SAFETY: the caller's contract.
    std::array::from_fn(|k| unsafe { L::splat32(FILTER[k]) })
}

/// `f0·(x0+x4) + f1·(x1+x3) + f2·x2` in 32-bit lanes.
///
/// # Safety
/// The level's instructions.
#[inline(always)]
unsafe fn tap_sum<L: I16Lanes>(x: &[L::V; 5], f: &[L::V; 3]) -> L::V {
    // SAFETY: the caller's contract.
    unsafe {
        let a = L::mul32(f[0], L::add32(x[0], x[4]));
        let b = L::mul32(f[1], L::add32(x[1], x[3]));
        let c = L::mul32(f[2], x[2]);
        L::add32(L::add32(a, b), c)
    }
}

/// `(Σ f·x + round) >> shift` for inputs of up to 17 bits signed and `shift >= 8`, by the
/// high/low split (`rest` is `shift - 8`).
///
/// # Safety
/// The level's instructions.
#[inline(always)]
pub(super) unsafe fn split_filter<L: I16Lanes>(
    x: &[L::V; 5],
    f: &[L::V; 3],
    round: L::V,
    rest: __m128i,
) -> L::V {
    // SAFETY: the caller's contract.
    unsafe {
        let low_mask = L::splat32(255);
        let hi = x.map(|v| L::sra32_8(v));
        let lo = x.map(|v| L::and(v, low_mask));
        let a = tap_sum::<L>(&hi, f);
        let b = L::add32(tap_sum::<L>(&lo, f), round);
        L::sra32(L::add32(a, L::sra32_8(b)), rest)
    }
}

/// All `n >= N / 2` columns of the 8-bit vertical pass, `shift` in `1..=16`, over rows
/// holding at least `n` samples.
///
/// # Safety
/// The level's instructions; the rows' lengths and the shift as above.
#[inline(always)]
pub(super) unsafe fn vertical_u8<L: I16Lanes>(
    prev: &[&[u8]; 5],
    cur: &[&[u8]; 5],
    shift: u32,
    out: &mut [i32],
) {
    // SAFETY: the level's instructions (the caller's contract); every load and store is of
    // N / 2 values at j + N / 2 <= n.
    unsafe {
        let f = taps::<L>();
        let round = L::splat32(1 << (shift - 1));
        let count: __m128i = _mm_cvtsi32_si128(shift as i32);
        for j in steps(out.len(), L::N / 2) {
            let x: [L::V; 5] = std::array::from_fn(|k| {
                let p = L::load_u8_32(prev[k].as_ptr().add(j));
                L::sub32(p, L::load_u8_32(cur[k].as_ptr().add(j)))
            });
            let v = L::sra32(L::add32(tap_sum::<L>(&x, &f), round), count);
            L::store32(out.as_mut_ptr().add(j), v);
        }
    }
}

/// All `n >= N / 2` columns of the 9..16-bit vertical pass, `shift` in `8..=16`, over
/// rows holding at least `n` samples.
///
/// # Safety
/// As [`vertical_u8`].
#[inline(always)]
pub(super) unsafe fn vertical_u16<L: I16Lanes>(
    prev: &[&[u16]; 5],
    cur: &[&[u16]; 5],
    shift: u32,
    out: &mut [i32],
) {
    // SAFETY: as in `vertical_u8`.
    unsafe {
        let f = taps::<L>();
        let round = L::splat32(1 << (shift - 1));
        let rest: __m128i = _mm_cvtsi32_si128(shift as i32 - 8);
        for j in steps(out.len(), L::N / 2) {
            let x: [L::V; 5] = std::array::from_fn(|k| {
                let p = L::load_u16_32(prev[k].as_ptr().add(j));
                L::sub32(p, L::load_u16_32(cur[k].as_ptr().add(j)))
            });
            L::store32(
                out.as_mut_ptr().add(j),
                split_filter::<L>(&x, &f, round, rest),
            );
        }
    }
}

/// The horizontal pass's own filter: [`split_filter`] with the rounding half `2^15` and
/// the shift 16.
///
/// # Safety
/// The level's instructions.
#[inline(always)]
pub(super) unsafe fn horizontal_filter<L: I16Lanes>(x: &[L::V; 5]) -> L::V {
    // SAFETY: the caller's contract.
    unsafe { split_filter::<L>(x, &taps::<L>(), L::splat32(1 << 15), _mm_cvtsi32_si128(8)) }
}

/// The wrapping sum of `|filter(x)|` over all `len - 4 >= N / 2` full windows of `row`,
/// where `x[k]` holds the values `k` places after each window's first; `None` if a value
/// of the row is outside -2^16..2^16 (the range the filters' split takes).
///
/// # Safety
/// The level's instructions; the row's length as above.
#[inline(always)]
pub(super) unsafe fn windows_abs_sum<L: I16Lanes>(
    row: &[i32],
    filter: impl Fn(&[L::V; 5]) -> L::V,
) -> Option<u32> {
    let windows = row.len() - (FILTER.len() - 1);
    let n = L::N / 2;
    // SAFETY: the level's instructions (the caller's contract); windows s..s+n read
    // row[s..s+n+4], and s + n <= windows = len - 4.
    unsafe {
        let at = L::load32(LANE.as_ptr());
        let (mut acc, mut low, mut high) = (L::splat32(0), L::splat32(0), L::splat32(0));
        let mut done = 0;
        for s in steps(windows, n) {
            let x: [L::V; 5] = std::array::from_fn(|k| L::load32(row.as_ptr().add(s + k)));
            // The windows' first values and their last ones cover the row.
            low = L::min32(low, L::min32(x[0], x[4]));
            high = L::max32(high, L::max32(x[0], x[4]));
            let mut v = L::abs32(filter(&x));
            if s < done {
                // The last step moved back: windows before `done` are already summed.
                v = L::keep_above(v, at, (done - s) as i32 - 1);
            }
            acc = L::add32(acc, v);
            done = s + n;
        }
        if L::any_gt32(L::splat32(-(1 << 16)), low) || L::any_gt32(high, L::splat32((1 << 16) - 1))
        {
            return None;
        }
        // The lane sums wrap at 32 bits, as the scalar sum does.
        Some(L::sum32(acc))
    }
}

/// The horizontal pass and absolute sum of a row, its full windows by `windows` where the
/// row holds at least `lanes` of them; rows too short, or holding values the split cannot
/// take (`None`; the vertical pass never makes them), go to the scalar twin.
pub(super) fn abs_sum_with(
    row: &[i32],
    lanes: usize,
    windows: impl FnOnce(&[i32]) -> Option<u32>,
) -> u32 {
    if row.len() < lanes + FILTER.len() - 1 {
        return horizontal_abs_sum(row);
    }
    match windows(row) {
        Some(sum) => sum.wrapping_add(edges_abs_sum(row)),
        None => horizontal_abs_sum(row),
    }
}

/// Defines the module `rows32` holding the safe `i32` row-pass entries (`vertical_u8`,
/// `vertical_u16`, `abs_sum`) of the level whose instructions are `$feature` and whose
/// [`I16Lanes`] are `$lanes`: rows too short for a step, or arguments outside a kernel's
/// contract, go to the scalar twins. The table holding them must only be handed out where
/// the processor has `$feature` (the dispatch does so), which is what makes the calls
/// sound.
macro_rules! rows32_table {
    ($feature:literal, $lanes:ty) => {
        /// This level's `i32` row passes (`super::super::rows32_by`).
        pub(in crate::feature::motion) mod rows32 {
            use crate::feature::motion::x86::lanes::I16Lanes;
            use crate::feature::motion::x86::rows32_by as by;

            /// Columns (or windows) a step.
            const LANES: usize = <$lanes as I16Lanes>::N / 2;

            /// This level's vertical pass over 8-bit samples.
            pub(in crate::feature::motion) fn vertical_u8(
                prev: [&[u8]; 5],
                cur: [&[u8]; 5],
                shift: u32,
                out: &mut [i32],
            ) -> bool {
                #[target_feature(enable = $feature)]
                unsafe fn inner(p: &[&[u8]; 5], c: &[&[u8]; 5], s: u32, o: &mut [i32]) {
                    // SAFETY: the level's instructions are on; the caller checked the rest.
                    unsafe { by::vertical_u8::<$lanes>(p, c, s, o) }
                }
                by::vertical_with((prev, cur), shift, out, (LANES, 1..=16), |p, c, s, o| {
                    // SAFETY: the table is handed out only where the level was detected;
                    // the rows hold n >= LANES samples and the shift is in range.
                    unsafe { inner(p, c, s, o) };
                    o.iter().any(|&v| v != 0)
                })
            }

            /// This level's vertical pass over 9..16-bit samples.
            pub(in crate::feature::motion) fn vertical_u16(
                prev: [&[u16]; 5],
                cur: [&[u16]; 5],
                shift: u32,
                out: &mut [i32],
            ) -> bool {
                #[target_feature(enable = $feature)]
                unsafe fn inner(p: &[&[u16]; 5], c: &[&[u16]; 5], s: u32, o: &mut [i32]) {
                    // SAFETY: the level's instructions are on; the caller checked the rest.
                    unsafe { by::vertical_u16::<$lanes>(p, c, s, o) }
                }
                by::vertical_with((prev, cur), shift, out, (LANES, 8..=16), |p, c, s, o| {
                    // SAFETY: as in `vertical_u8`.
                    unsafe { inner(p, c, s, o) };
                    o.iter().any(|&v| v != 0)
                })
            }

            /// This level's horizontal pass and absolute sum of one row buffer.
            pub(in crate::feature::motion) fn abs_sum(row: &[i32]) -> u32 {
                #[target_feature(enable = $feature)]
                unsafe fn inner(r: &[i32]) -> Option<u32> {
                    // SAFETY: the level's instructions are on; the caller checked the rest.
                    unsafe {
                        by::windows_abs_sum::<$lanes>(r, |x| by::horizontal_filter::<$lanes>(x))
                    }
                }
                // SAFETY: as in `vertical_u8`; `abs_sum_with` passes rows of at least
                // LANES full windows.
                by::abs_sum_with(row, LANES, |r| unsafe { inner(r) })
            }
        }
    };
}
pub(super) use rows32_table;
