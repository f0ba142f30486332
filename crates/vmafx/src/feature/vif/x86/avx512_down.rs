//! AVX-512 (VNNI) down-sampling between scales, for next scales 1 and 2 (taps below
//! 2^15; scale 3 by AVX2): thirty-two columns a step, two taps a dot product
//! (`vpdpwssd`).
//!
//! Samples are taken as 16-bit words less 32768; the filter of such words is the sum less
//! 2^31 (the taps sum to 2^16), which adding 2^31 back restores exactly in 32-bit lanes
//! (see `avx2_madd`). Vertically, each row is interleaved with the next (a dummy row under
//! a zero tap pairs the last); horizontally, a load of pairs of columns from an even
//! column gives the kept (even) outputs directly.

use std::arch::x86_64::*;

use super::avx2;
use super::avx2_madd::to_words;
use crate::cpu::vnni::dpwssd;
use crate::feature::vif::planes::Rows;
use crate::feature::vif::subsample::{down_horizontal_columns, down_vertical_columns, DownScratch};
use crate::feature::vif::tables::{tap_pair, MAX_HALF, TAPS};

/// Samples the vertical kernel reads as words.
pub(super) trait Words: Copy + Into<u32> {
    /// Thirty-two samples from `p` as words less 32768.
    ///
    /// # Safety
    /// AVX-512 BW, and 32 samples from `p` readable.
    unsafe fn words32(p: *const Self) -> __m512i;
}

impl Words for u8 {
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn words32(p: *const u8) -> __m512i {
        // SAFETY: the caller makes the 32 bytes read (unaligned) readable.
        let v = unsafe { _mm512_cvtepu8_epi16(_mm256_loadu_si256(p as *const __m256i)) };
        _mm512_xor_si512(v, _mm512_set1_epi16(i16::MIN))
    }
}

impl Words for u16 {
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn words32(p: *const u16) -> __m512i {
        // SAFETY: the caller makes the 64 bytes read (unaligned) readable.
        let v = unsafe { _mm512_loadu_si512(p as *const _) };
        _mm512_xor_si512(v, _mm512_set1_epi16(i16::MIN))
    }
}

/// Taps `2p` and `2p + 1` as a pair of words in every 32-bit lane (0 past the last).
#[target_feature(enable = "avx512f")]
fn tap_pairs<const P: usize>(taps: &[u16]) -> [__m512i; P] {
    std::array::from_fn(|p| _mm512_set1_epi32(tap_pair(taps, 2 * p as isize)))
}

/// The vertical filter of `next_scale` around row `y` of an 8-bit plane (see
/// `down_vertical`).
pub(super) fn down_vertical_u8(
    src: &Rows<'_, u8>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) {
    if next_scale == 1 && (1..=16).contains(&shift) {
        // SAFETY: as in `vertical`.
        unsafe { vertical_u8_avx512(src, y, width, shift, s) };
        down_vertical_columns(src, y, width / 32 * 32, width, next_scale, shift, s);
    } else if !vertical(src, y, width, next_scale, shift, s) {
        (avx2::KERNELS.down_vertical_u8)(src, y, width, next_scale, shift, s);
    }
}

/// The vertical filter of `next_scale` around row `y` of a 16-bit plane.
pub(super) fn down_vertical_u16(
    src: &Rows<'_, u16>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) {
    if !vertical(src, y, width, next_scale, shift, s) {
        (avx2::KERNELS.down_vertical_u16)(src, y, width, next_scale, shift, s);
    }
}

/// The vertical filter where this kernel takes it (next scales 1 and 2, shifts 1..=16);
/// false, with nothing written, elsewhere.
fn vertical<T: Words>(
    src: &Rows<'_, T>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) -> bool {
    if !(1..=16).contains(&shift) {
        return false;
    }
    // SAFETY: the AVX-512 table, which lists this kernel, is only handed out when the
    // processor has AVX-512 (F, BW) and VNNI.
    unsafe {
        match TAPS[next_scale].len() {
            9 => vertical_avx512::<T, 9, 5>(src, y, width, next_scale, shift, s),
            5 => vertical_avx512::<T, 5, 3>(src, y, width, next_scale, shift, s),
            _ => return false,
        }
    }
    down_vertical_columns(src, y, width / 32 * 32, width, next_scale, shift, s);
    true
}

#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn vertical_avx512<T: Words, const N: usize, const P: usize>(
    src: &Rows<'_, T>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) {
    let half = N / 2;
    // Each row is at least `width` long: the loads below stay within `..width`. Row 2P-1
    // is the dummy: row N-1 again, under a zero tap.
    let mut rows = [std::ptr::null::<T>(); 10];
    for (k, r) in rows.iter_mut().enumerate().take(2 * P) {
        *r = src.row(y - half as isize + k.min(N - 1) as isize)[..width].as_ptr();
    }
    let pairs = tap_pairs::<P>(TAPS[next_scale]);
    let bias = _mm512_set1_epi32(i32::MIN);
    let round = _mm512_set1_epi32((1u32 << (shift - 1)) as i32);
    let count = _mm_cvtsi32_si128(shift as i32);
    let low16 = _mm512_set1_epi32(0xFFFF);
    let first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    let second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    let n32 = width / 32 * 32;
    let body = s.convol.body_mut();
    for j in (0..n32).step_by(32) {
        let (mut lo, mut hi) = (_mm512_setzero_si512(), _mm512_setzero_si512());
        for (p, &c) in pairs.iter().enumerate() {
            // SAFETY: j + 32 <= width, the length of each row.
            let (u, v) = unsafe {
                (
                    T::words32(rows[2 * p].add(j)),
                    T::words32(rows[2 * p + 1].add(j)),
                )
            };
            lo = dpwssd(lo, _mm512_unpacklo_epi16(u, v), c);
            hi = dpwssd(hi, _mm512_unpackhi_epi16(u, v), c);
        }
        for (i, idx) in [first, second].into_iter().enumerate() {
            let v = _mm512_xor_si512(_mm512_permutex2var_epi64(lo, idx, hi), bias);
            let v = _mm512_and_si512(_mm512_srl_epi32(_mm512_add_epi32(v, round), count), low16);
            let d = &mut body[j + 16 * i..j + 16 * i + 16];
            // SAFETY: `d` holds the 64 bytes written (unaligned store).
            unsafe { _mm512_storeu_si512(d.as_mut_ptr() as *mut _, v) };
        }
    }
}

/// The vertical filter of scale 1 over 8-bit samples. The filter is symmetric and a row
/// and its mirror row add within 9 bits: the four such pairs' sums and the centre row
/// take three dot products, their words unbiased (the sum stays below 2^24).
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn vertical_u8_avx512(
    src: &Rows<'_, u8>,
    y: isize,
    width: usize,
    shift: u32,
    s: &mut DownScratch,
) {
    const N: usize = 9;
    let taps = TAPS[1];
    debug_assert!(taps.len() == N && (0..N).all(|k| taps[k] == taps[N - 1 - k]));
    let half = N / 2;
    // Each row is at least `width` long: the loads below stay within `..width`.
    let rows: [*const u8; N] =
        std::array::from_fn(|k| src.row(y - half as isize + k as isize)[..width].as_ptr());
    // Taps (0, 1) for the sums of rows 0 + 8 and 1 + 7, (2, 3) for 2 + 6 and 3 + 5, and
    // (4, none) for row 4 paired with zeros.
    let pairs =
        [tap_pair(taps, 0), tap_pair(taps, 2), taps[half] as i32].map(|c| _mm512_set1_epi32(c));
    let round = _mm512_set1_epi32((1u32 << (shift - 1)) as i32);
    let count = _mm_cvtsi32_si128(shift as i32);
    let low16 = _mm512_set1_epi32(0xFFFF);
    let first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    let second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    let zero = _mm512_setzero_si512();
    let n32 = width / 32 * 32;
    let body = s.convol.body_mut();
    for j in (0..n32).step_by(32) {
        // SAFETY: j + 32 <= width, the length of each row (unaligned loads).
        let w = |k: usize| unsafe {
            _mm512_cvtepu8_epi16(_mm256_loadu_si256(rows[k].add(j) as *const __m256i))
        };
        let sums = [
            (_mm512_add_epi16(w(0), w(8)), _mm512_add_epi16(w(1), w(7))),
            (_mm512_add_epi16(w(2), w(6)), _mm512_add_epi16(w(3), w(5))),
            (w(4), zero),
        ];
        let (mut lo, mut hi) = (zero, zero);
        for ((u, v), c) in sums.into_iter().zip(pairs) {
            lo = dpwssd(lo, _mm512_unpacklo_epi16(u, v), c);
            hi = dpwssd(hi, _mm512_unpackhi_epi16(u, v), c);
        }
        for (i, idx) in [first, second].into_iter().enumerate() {
            let v = _mm512_permutex2var_epi64(lo, idx, hi);
            let v = _mm512_and_si512(_mm512_srl_epi32(_mm512_add_epi32(v, round), count), low16);
            let d = &mut body[j + 16 * i..j + 16 * i + 16];
            // SAFETY: `d` holds the 64 bytes written (unaligned store).
            unsafe { _mm512_storeu_si512(d.as_mut_ptr() as *mut _, v) };
        }
    }
}

/// Output columns per chunk of the horizontal kernel (its words live on the stack).
const CHUNK: usize = 512;

/// The horizontal filter of `next_scale` kept at every second column (see
/// `down_horizontal`).
pub(super) fn down_horizontal(conv: &[u32], next_scale: usize, out: &mut [u16]) {
    // SAFETY: as for `vertical`.
    let done = unsafe {
        match TAPS[next_scale].len() {
            9 => horizontal_avx512::<9, 5>(conv, next_scale, out),
            5 => horizontal_avx512::<5, 3>(conv, next_scale, out),
            _ => return (avx2::KERNELS.down_horizontal)(conv, next_scale, out),
        }
    };
    down_horizontal_columns(conv, next_scale, done, out);
}

/// Output columns `0..16 k` in steps of sixteen; returns where the scalar loop resumes.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn horizontal_avx512<const N: usize, const P: usize>(
    conv: &[u32],
    next_scale: usize,
    out: &mut [u16],
) -> usize {
    let first = MAX_HALF - N / 2;
    let pairs = tap_pairs::<P>(TAPS[next_scale]);
    let bias = _mm512_set1_epi32(i32::MIN);
    let round = _mm512_set1_epi32(32768);
    // Outputs ox.. read columns first + 2 ox ..= first + 2 ox + N - 1; sixteen of them
    // load 2P + 30 words (the last under a zero tap).
    let mut words = [0i16; 2 * CHUNK + 64];
    let n16 = out.len() / 16 * 16;
    let mut start = 0;
    while start < n16 {
        let stop = (start + CHUNK).min(n16);
        let from = first + 2 * start;
        let len = (2 * (stop - start) + N).min(conv.len() - from);
        to_words(&conv[from..from + len], None, &mut words[..len]);
        let w = words.as_ptr();
        for ox in (0..stop - start).step_by(16) {
            let mut acc = _mm512_setzero_si512();
            for (k, &c) in pairs.iter().enumerate() {
                // SAFETY: 2 ox + 2k + 32 <= 2 (stop - start) + 2P + 30 < words.len().
                let x = unsafe { _mm512_loadu_si512(w.add(2 * ox + 2 * k) as *const _) };
                acc = _mm512_dpwssd_epi32(acc, x, c);
            }
            let v = _mm512_add_epi32(_mm512_xor_si512(acc, bias), round);
            let v = _mm512_srli_epi32::<16>(v);
            let dst = &mut out[start + ox..start + ox + 16];
            // Every lane is below 2^16: keeping the low words is exact.
            // SAFETY: `dst` holds the 32 bytes written (unaligned store).
            unsafe {
                _mm256_storeu_si256(dst.as_mut_ptr() as *mut __m256i, _mm512_cvtepi32_epi16(v))
            };
        }
        start = stop;
    }
    n16
}
