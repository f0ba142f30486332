//! AVX-512 twin of the scalar c-value row: sixteen columns a step by masked gathers, the
//! last partial step by masked loads and stores.

use std::arch::x86_64::*;

use super::avx2::check_bounds;
use crate::feature::cambi::cvalues::{RowInput, CONTRAST_WEIGHTS};

/// The c-values of a row (see [`crate::feature::cambi::cvalues::c_value_row`]).
pub fn c_value_row(r: &RowInput<'_>, out: &mut [f32]) {
    check_bounds(r, out);
    // SAFETY: this function is only in a table made after AVX-512 was detected, and
    // `check_bounds` has checked every length the kernel reads and writes.
    unsafe { row_avx512(r, out) }
}

/// Sixteen columns a step, the last step masked.
///
/// # Safety
/// AVX-512 (F, BW), and the bounds of [`check_bounds`].
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn row_avx512(r: &RowInput<'_>, out: &mut [f32]) {
    let c = r.contrast;
    let w = r.width;
    let zero = _mm512_setzero_si512();
    let low16 = _mm512_set1_epi32(0xffff);
    let size = _mm512_set1_epi32(r.size as i32);
    let width = _mm512_set1_epi32(w as i32);
    let base = _mm512_set1_epi32(r.base as i32);
    let offset = _mm512_set1_epi32(c.num_diffs as i32);
    let vlt = _mm512_set1_epi32(c.vlt_luma as i32);
    let last_recip = _mm512_set1_epi32(r.recip.len() as i32 - 1);
    let lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let counts = r.counts.as_ptr() as *const i32;
    let mut col = 0;
    while col < w {
        let tail: __mmask16 = if w - col >= 16 {
            0xffff
        } else {
            (1u16 << (w - col)) - 1
        };
        // SAFETY: the masked lanes are columns below width <= the lengths of mask and image.
        let (m, v) = unsafe {
            (
                _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(
                    tail,
                    r.mask.as_ptr().add(col) as *const _,
                )),
                _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(
                    tail,
                    r.image.as_ptr().add(col) as *const _,
                )),
            )
        };
        let level = _mm512_sub_epi32(v, base);
        let active = _mm512_test_epi32_mask(m, m) & _mm512_cmplt_epu32_mask(level, size) & tail;
        let mut best = _mm512_setzero_ps();
        if active != 0 {
            let cols = _mm512_add_epi32(_mm512_set1_epi32(col as i32), lanes);
            let row_of = |l: __m512i| _mm512_add_epi32(_mm512_mullo_epi32(l, width), cols);
            // SAFETY: active lanes have 0 <= level < size, so the index is below
            // size * width and the 4 bytes read end inside the padded histograms.
            let p0 =
                unsafe { _mm512_mask_i32gather_epi32::<2>(zero, active, row_of(level), counts) };
            let p0 = _mm512_and_si512(p0, low16);
            let offset_value = _mm512_add_epi32(v, offset);
            for (d, (&tvi, weight)) in c.tvi_for_diff.iter().zip(CONTRAST_WEIGHTS).enumerate() {
                let step = _mm512_set1_epi32(d as i32 + 1);
                let on = active
                    & _mm512_cmple_epi32_mask(offset_value, _mm512_set1_epi32(tvi as i32))
                    & _mm512_cmpgt_epi32_mask(_mm512_add_epi32(offset_value, step), vlt);
                if on == 0 {
                    continue;
                }
                let up = _mm512_add_epi32(level, step);
                let up_on = on & _mm512_cmplt_epi32_mask(up, size);
                let down = _mm512_sub_epi32(level, step);
                let down_on = on & _mm512_cmpge_epi32_mask(down, zero);
                // SAFETY: the gathered lanes have 0 <= level < size (as for p0).
                let (p1, p2) = unsafe {
                    (
                        _mm512_mask_i32gather_epi32::<2>(zero, up_on, row_of(up), counts),
                        _mm512_mask_i32gather_epi32::<2>(zero, down_on, row_of(down), counts),
                    )
                };
                let p = _mm512_max_epi32(_mm512_and_si512(p1, low16), _mm512_and_si512(p2, low16));
                let product =
                    _mm512_mullo_epi32(_mm512_mullo_epi32(_mm512_set1_epi32(weight), p0), p);
                let sum = _mm512_min_epi32(_mm512_add_epi32(p, p0), last_recip);
                // SAFETY: 0 <= p + p0 (counts are below 2^16), clamped to the last entry.
                let rc = unsafe {
                    _mm512_mask_i32gather_ps::<4>(_mm512_setzero_ps(), on, sum, r.recip.as_ptr())
                };
                let val = _mm512_mul_ps(_mm512_cvtepi32_ps(product), rc);
                let better = on & _mm512_cmp_ps_mask::<_CMP_GT_OQ>(val, best);
                best = _mm512_mask_mov_ps(best, better, val);
            }
        }
        // SAFETY: the masked lanes are columns below width <= out.len().
        unsafe { _mm512_mask_storeu_ps(out.as_mut_ptr().add(col), tail, best) };
        col += 16;
    }
}
