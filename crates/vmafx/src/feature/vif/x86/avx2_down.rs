//! vif's AVX2 down-sampling entries: the vertical filter (mirrored row sums and
//! multiply-adds of `avx2_down_u8` where they serve, else eight columns a step in 32-bit
//! lanes) and the horizontal one (the word multiply-adds of `avx2_down_words` where the
//! taps fit 15 bits, else 32-bit lanes).

use std::arch::x86_64::*;

use super::avx2_lanes32::{by_taps, load8_at, store8, taps_of, Pixel};
use crate::feature::vif::planes::Rows;
use crate::feature::vif::subsample::{down_horizontal_columns, down_vertical_columns, DownScratch};
use crate::feature::vif::tables::MAX_HALF;

/// The 8-bit vertical down-sampling filter: by mirrored row sums and multiply-adds where
/// the filter serves (`avx2_down_u8`, scale 1's), the last columns by the scalar code;
/// else eight columns a step in 32-bit lanes.
pub(super) fn down_vertical_u8(
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

pub(super) fn down_vertical<T: Pixel>(
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
pub(super) fn down_horizontal(conv: &[u32], next_scale: usize, out: &mut [u16]) {
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
