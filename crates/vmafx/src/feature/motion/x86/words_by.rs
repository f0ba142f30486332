//! motion's 16-bit pipeline kernels (see `super::super::words` for the ranges) written
//! once over the vector width ([`I16Lanes`]): `N` columns (or windows) a step; a row's
//! last partial step is a full step moved back to end at the row's end, whose repeated
//! columns write the same values again (or, in the horizontal sum, are masked off).
//! [`words_table`] makes a level's safe entries and its [`Words`] table.
//!
//! Both filters multiply words with `vpmaddwd`, which sums two neighbouring words' products
//! into a 32-bit lane. The vertical pass interleaves the symmetric row sums `d0+d4` and
//! `d1+d3` (taps `f0, f1`) and the centre row with ones (taps `f2` and the rounding half);
//! packing the two halves' 32-bit results back to words undoes the unpack's order within
//! each 128-bit block. The horizontal pass needs no interleave: the lane of word pair `m`
//! of the row loaded at offset `s` holds values `s+2m, s+2m+1`, so windows `s+2m` (even)
//! take the loads at offsets 0, 2 and 4 with taps `(f0, f1)`, `(f2, f1)`, `(f0, 0)`, and
//! windows `s+2m+1` (odd) those at 1, 3 and 4 with `(f0, f1)`, `(f2, f1)`, `(0, f0)`.
//!
//! [`Words`]: super::super::words::Words

use std::arch::x86_64::{__m128i, _mm_cvtsi32_si128};

use super::super::kernel::FILTER;
use super::lanes::I16Lanes;

/// Two words as one lane: `lo` in the low (even) word, `hi` in the high one.
const fn pair(lo: i32, hi: i32) -> i32 {
    (hi << 16) | (lo & 0xffff)
}

/// The even window offsets of a step (as 32-bit lanes; the odd ones are one more).
static EVEN: [i32; 16] = [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30];

/// The start of each `step`-wide step over `n >= step` values: `0, step, ...`, the last
/// moved back to `n - step`.
pub(super) fn steps(n: usize, step: usize) -> impl Iterator<Item = usize> {
    (0..n).step_by(step).map(move |j| j.min(n - step))
}

/// All `n >= N` differences of 8-bit rows holding at least `n` samples.
///
/// # Safety
/// The level's instructions; the rows' lengths as above.
#[inline(always)]
pub(super) unsafe fn diff_u8<L: I16Lanes>(prev: &[u8], cur: &[u8], out: &mut [i16]) {
    for j in steps(out.len(), L::N) {
        // SAFETY: j + N <= n, which the rows hold.
        unsafe {
            let p = L::load_u8(prev.as_ptr().add(j));
            let c = L::load_u8(cur.as_ptr().add(j));
            L::store(out.as_mut_ptr().add(j), L::sub16(p, c));
        }
    }
}

/// All `n >= N` differences of 9..16-bit rows holding at least `n` samples; whether every
/// sample is below 2^14.
///
/// # Safety
/// As [`diff_u8`].
#[inline(always)]
pub(super) unsafe fn diff_u16<L: I16Lanes>(prev: &[u16], cur: &[u16], out: &mut [i16]) -> bool {
    // SAFETY: the level's instructions (the caller's contract).
    let mut seen = unsafe { L::splat16(0) };
    for j in steps(out.len(), L::N) {
        // SAFETY: j + N <= n, which the rows hold.
        unsafe {
            let p = L::load(prev.as_ptr().add(j).cast());
            let c = L::load(cur.as_ptr().add(j).cast());
            seen = L::or(seen, L::or(p, c));
            L::store(out.as_mut_ptr().add(j), L::sub16(p, c));
        }
    }
    // SAFETY: as above.
    unsafe { !L::any_and(seen, L::splat16(-(1 << 14))) }
}

/// All `n >= N` columns of the vertical pass over rows holding at least `n` differences,
/// `shift` in `1..=15`; the largest `|value|`, saturated at 32767.
///
/// # Safety
/// As [`diff_u8`].
#[inline(always)]
pub(super) unsafe fn vertical<L: I16Lanes>(d: &[&[i16]; 5], shift: u32, out: &mut [i16]) -> u16 {
    // SAFETY: the level's instructions (the caller's contract); every load and store is of
    // N values at j + N <= n.
    unsafe {
        let outer = L::splat32(pair(FILTER[0], FILTER[1]));
        // The rounding half (at most 2^14) is the tap of a word of ones.
        let centre = L::splat32(pair(FILTER[2], 1 << (shift - 1)));
        let ones = L::splat16(1);
        let count: __m128i = _mm_cvtsi32_si128(shift as i32);
        let mut top = L::splat16(0);
        for j in steps(out.len(), L::N) {
            let x: [L::V; 5] = std::array::from_fn(|k| L::load(d[k].as_ptr().add(j)));
            // Differences below 2^14: the pair sums fit a word.
            let a = L::add16(x[0], x[4]);
            let b = L::add16(x[1], x[3]);
            let half = |high| {
                let s = L::add32(
                    L::madd(L::unpack16(a, b, high), outer),
                    L::madd(L::unpack16(x[2], ones, high), centre),
                );
                L::sra32(s, count)
            };
            let v = L::packs32(half(false), half(true));
            #[cfg(test)]
            let v = if crate::cpu::dispatch::planted() {
                let mut lane = [0i16; 32];
                lane[3] = 1;
                L::add16(v, L::load(lane.as_ptr()))
            } else {
                v
            };
            top = L::max_u16(top, L::abs16(v));
            L::store(out.as_mut_ptr().add(j), v);
        }
        // A -32768 reads 32768 here: saturate it as the scalar pass does.
        L::max_word(top).min(i16::MAX as u16)
    }
}

/// The wrapping sum of `|window output|` over all `len - 4 >= N` full windows of an `i16`
/// row.
///
/// # Safety
/// As [`diff_u8`].
#[inline(always)]
pub(super) unsafe fn windows_abs_sum<L: I16Lanes>(row: &[i16]) -> u32 {
    let windows = row.len() - (FILTER.len() - 1);
    let (f0, f1, f2) = (FILTER[0], FILTER[1], FILTER[2]);
    // SAFETY: the level's instructions (the caller's contract); windows s..s+N read
    // row[s..s+N+4], and s + N <= windows = len - 4.
    unsafe {
        let first = L::splat32(pair(f0, f1));
        let middle = L::splat32(pair(f2, f1));
        let last_even = L::splat32(pair(f0, 0));
        let last_odd = L::splat32(pair(0, f0));
        let round = L::splat32(1 << 15);
        // Each lane's window, from its step's first.
        let even_at = L::load(EVEN.as_ptr().cast());
        let odd_at = L::add32(even_at, L::splat32(1));
        let mut acc = L::splat32(0);
        let mut done = 0;
        for s in steps(windows, L::N) {
            let x: [L::V; 5] = std::array::from_fn(|k| L::load(row.as_ptr().add(s + k)));
            let sum = |a, b, c, last| {
                let t = L::add32(L::madd(a, first), L::madd(b, middle));
                let t = L::add32(t, L::madd(c, last));
                L::abs32(L::sra32_16(L::add32(t, round)))
            };
            let mut even = sum(x[0], x[2], x[4], last_even);
            let mut odd = sum(x[1], x[3], x[4], last_odd);
            if s < done {
                // The last step moved back: windows before `done` are already summed.
                let seen = (done - s) as i32 - 1;
                even = L::keep_above(even, even_at, seen);
                odd = L::keep_above(odd, odd_at, seen);
            }
            acc = L::add32(acc, L::add32(even, odd));
            done = s + L::N;
        }
        // The lane sums wrap at 32 bits, as the scalar sum does.
        L::sum32(acc)
    }
}

/// Defines the module `words` holding `WORDS`, the 16-bit pipeline of the level whose
/// instructions are `$feature` and whose [`I16Lanes`] are `$lanes`, with its safe entries:
/// rows too short for a step, or arguments outside a kernel's contract, go to the scalar
/// twins. The table holding it must only be handed out where the processor has
/// `$feature` (the dispatch does so), which is what makes the calls sound.
macro_rules! words_table {
    ($feature:literal, $lanes:ty) => {
        /// This level's 16-bit pipeline kernels (`super::super::words_by`).
        pub(in crate::feature::motion) mod words {
            use crate::feature::motion::kernel::{edges_abs_sum, FILTER};
            use crate::feature::motion::words::{self as scalar, Words};
            use crate::feature::motion::x86::lanes::I16Lanes;
            use crate::feature::motion::x86::words_by as by;

            /// This level's 16-bit pipeline.
            pub(in crate::feature::motion) const WORDS: Words = Words {
                diff_u8,
                diff_u16,
                vertical,
                abs_sum,
            };

            /// Columns a step.
            const N: usize = <$lanes as I16Lanes>::N;

            /// This level's differences of 8-bit rows.
            fn diff_u8(prev: &[u8], cur: &[u8], out: &mut [i16]) -> bool {
                #[target_feature(enable = $feature)]
                unsafe fn inner(p: &[u8], c: &[u8], o: &mut [i16]) {
                    // SAFETY: the level's instructions are on; the caller checked the rest.
                    unsafe { by::diff_u8::<$lanes>(p, c, o) }
                }
                let n = out.len();
                if n < N || prev.len() < n || cur.len() < n {
                    return scalar::diff_u8(prev, cur, out);
                }
                // SAFETY: the table is handed out only where the level was detected; the
                // rows hold n >= N samples.
                unsafe { inner(prev, cur, out) };
                true
            }

            /// This level's differences of 9..16-bit rows.
            fn diff_u16(prev: &[u16], cur: &[u16], out: &mut [i16]) -> bool {
                #[target_feature(enable = $feature)]
                unsafe fn inner(p: &[u16], c: &[u16], o: &mut [i16]) -> bool {
                    // SAFETY: the level's instructions are on; the caller checked the rest.
                    unsafe { by::diff_u16::<$lanes>(p, c, o) }
                }
                let n = out.len();
                if n < N || prev.len() < n || cur.len() < n {
                    return scalar::diff_u16(prev, cur, out);
                }
                // SAFETY: as in `diff_u8`.
                unsafe { inner(prev, cur, out) }
            }

            /// This level's vertical pass over difference rows.
            fn vertical(d: [&[i16]; 5], shift: u32, out: &mut [i16]) -> u16 {
                #[target_feature(enable = $feature)]
                unsafe fn inner(d: &[&[i16]; 5], s: u32, o: &mut [i16]) -> u16 {
                    // SAFETY: the level's instructions are on; the caller checked the rest.
                    unsafe { by::vertical::<$lanes>(d, s, o) }
                }
                let n = out.len();
                if n < N || !(1..=15).contains(&shift) || d.iter().any(|r| r.len() < n) {
                    return scalar::vertical(d, shift, out);
                }
                // SAFETY: as in `diff_u8`, and the shift is in range.
                unsafe { inner(&d, shift, out) }
            }

            /// This level's horizontal pass and absolute sum of an `i16` row.
            fn abs_sum(row: &[i16]) -> u32 {
                #[target_feature(enable = $feature)]
                unsafe fn inner(r: &[i16]) -> u32 {
                    // SAFETY: the level's instructions are on; the caller checked the rest.
                    unsafe { by::windows_abs_sum::<$lanes>(r) }
                }
                if row.len() < N + FILTER.len() - 1 {
                    return scalar::abs_sum(row);
                }
                // SAFETY: as in `diff_u8`; the row holds at least N + 4 values.
                let windows = unsafe { inner(row) };
                windows.wrapping_add(edges_abs_sum(row))
            }
        }
    };
}
pub(super) use words_table;
