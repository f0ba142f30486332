//! The AVX2 horizontal down-sampling filter and decimation by 16-bit multiply-adds, eight
//! outputs a step, for the filters whose taps fit 15 bits (scales 1 and 2).
//!
//! The vertical filter's row holds values below 2^16; taken less 32768 as signed words,
//! a chunk at a time, its words `2x + 2p` and `2x + 2p + 1` lie side by side, so a load
//! from word `2x + 2p` against the tap pair `(c_2p, c_2p+1)` gives the pair's term of
//! the kept outputs `x..x + 8` in column order. The sum comes out less `32768 * sum(c) =
//! 2^31` (the taps sum to 2^16), which adding 2^31 back restores exactly in wrapping
//! 32-bit lanes (the true sum, plus the rounding term, is below 2^32).

use std::arch::x86_64::*;
use std::mem::MaybeUninit;

use crate::feature::vif::subsample::down_horizontal_columns;
use crate::feature::vif::tables::{tap_pair, MAX_HALF, TAPS};

/// Outputs a chunk converts to words at a time (4 KiB of words on the stack).
const CHUNK: usize = 1024;

/// Whether this filter serves `next_scale`: taps below 2^15.
pub(super) fn serves(next_scale: usize) -> bool {
    TAPS[next_scale].iter().all(|&c| c < 1 << 15)
}

/// The filter of `next_scale` across the padded row `conv`, every other output kept, into
/// `out`. The caller checks [`serves`].
///
/// # Safety
/// AVX2.
pub(super) unsafe fn down_horizontal(conv: &[u32], next_scale: usize, out: &mut [u16]) {
    // SAFETY: the caller has checked AVX2.
    unsafe {
        match TAPS[next_scale].len() {
            17 => down_by::<9>(conv, next_scale, out),
            9 => down_by::<5>(conv, next_scale, out),
            5 => down_by::<3>(conv, next_scale, out),
            _ => down_by::<2>(conv, next_scale, out),
        }
    }
}

/// [`down_horizontal`] with `P` tap pairs.
#[target_feature(enable = "avx2")]
unsafe fn down_by<const P: usize>(conv: &[u32], next_scale: usize, out: &mut [u16]) {
    let taps = TAPS[next_scale];
    debug_assert!(P == taps.len().div_ceil(2) && P <= 9);
    let first = MAX_HALF - taps.len() / 2;
    let pairs: [__m256i; P] =
        std::array::from_fn(|p| _mm256_set1_epi32(tap_pair(taps, 2 * p as isize)));
    let fix = _mm256_set1_epi32(i32::MIN.wrapping_add(32768));
    // A chunk's words: the last load reads 16 words from 2 * (CHUNK - 8) + 2 * (P - 1),
    // within 2 * CHUNK + 32 for up to 9 pairs. A chunk of a thousand outputs, not a few
    // dozen: loads that straddle the conversion's still-pending stores cannot take their
    // data forwarded (measured: the small chunk was no faster than the 32-bit kernel).
    // Written whole by each chunk before it is read (converted words, then zeros past
    // the row's end), so not zeroed first: that was a 4 KiB `memset` per row.
    let mut words = [MaybeUninit::<i16>::uninit(); 2 * CHUNK + 32];
    let n8 = out.len() / 8 * 8;
    for o0 in (0..n8).step_by(CHUNK) {
        let o1 = (o0 + CHUNK).min(n8);
        let from = first + 2 * o0;
        let to = (from + words.len()).min(conv.len());
        let (head, rest) = words.split_at_mut(to - from);
        for (w, &v) in head.iter_mut().zip(&conv[from..to]) {
            w.write((v as u16 ^ 0x8000) as i16);
        }
        rest.fill(MaybeUninit::new(0));
        for ox in (o0..o1).step_by(8) {
            let at = 2 * (ox - o0);
            let mut acc = _mm256_setzero_si256();
            for (p, &c) in pairs.iter().enumerate() {
                let w = &words[at + 2 * p..at + 2 * p + 16];
                // SAFETY: `w` holds the 32 bytes read (unaligned load), every word written
                // above.
                let v = unsafe { _mm256_loadu_si256(w.as_ptr() as *const __m256i) };
                acc = _mm256_add_epi32(acc, _mm256_madd_epi16(v, c));
            }
            let v = _mm256_srli_epi32::<16>(_mm256_add_epi32(acc, fix));
            // Every lane is below 2^16, so the saturating pack keeps it as is.
            let kept =
                _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            let dst = &mut out[ox..ox + 8];
            // SAFETY: `dst` holds the sixteen bytes written (unaligned store).
            unsafe { _mm_storeu_si128(dst.as_mut_ptr() as *mut __m128i, kept) };
        }
    }
    down_horizontal_columns(conv, next_scale, n8, out);
}
