//! AVX2 row kernel of scale-0 contrast masking: eight interior columns a step.
//!
//! The threshold and `|source · rf| - threshold` are 32-bit lane sums, as in the scalar
//! twin. The square and cube need 64 bits: even and odd lanes are widened apart
//! (`mul_epu32` for the square of the non-negative difference, `mul_epi32` for the
//! signed truncated square times it) and summed in 64-bit lanes. AVX2 has no 64-bit
//! arithmetic shift, so it is a logical shift with the sign bits put back.

use std::arch::x86_64::*;

use super::super::cm::{scale0_row, Masking, Row0, ONE_BY_15_Q12, SHIFT_SQ0, SHIFT_SUB0};
use super::super::cnum::half_of_shift;

/// Whether every band holds the rows and columns a row kernel reads.
fn fits(m: &Masking<'_, i16>, r: &Row0) -> bool {
    let (up, i, down) = r.rows;
    let last = up.max(i).max(down);
    let need = last.checked_mul(r.stride).and_then(|o| o.checked_add(r.w));
    r.stride >= r.w
        && r.right <= r.w
        && need.is_some_and(|n| {
            m.source
                .iter()
                .chain(m.masker)
                .chain(m.activity)
                .all(|b| b.len() >= n)
        })
}

/// The scale-0 row kernel (see [`scale0_row`]) with AVX2.
pub fn scale0_row_avx2(m: &Masking<'_, i16>, r: &Row0) -> [i64; 3] {
    if !fits(m, r) || r.left >= r.right {
        return scale0_row(m, r);
    }
    // Vector columns need both neighbours inside the row.
    let start = r.left.max(1);
    let stop = r.right.min(r.w - 1);
    if start + 8 > stop {
        return scale0_row(m, r);
    }
    // SAFETY: AVX2 was detected before this kernel was listed; `fits` checked that the
    // three rows hold `w` values, and columns start-1 ..= stop lie within them.
    let (mut inner, end) = unsafe { columns(m, r, start, stop) };
    // The scalar twin takes the columns the vector loop left.
    for (left, right) in [(r.left, start), (end, r.right)] {
        if left < right {
            let part = scale0_row(m, &Row0 { left, right, ..*r });
            for t in 0..3 {
                inner[t] = inner[t].wrapping_add(part[t]);
            }
        }
    }
    inner
}

/// Eight `i16` from `p` as `i32` lanes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load8(p: *const i16) -> __m256i {
    // SAFETY: the caller guarantees eight readable values.
    _mm256_cvtepi16_epi32(unsafe { _mm_loadu_si128(p as *const __m128i) })
}

/// 64-bit arithmetic right shift by `s` (0..=63) from a logical one.
#[inline]
#[target_feature(enable = "avx2")]
fn sra64(v: __m256i, s: u32) -> __m256i {
    let sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), v);
    let logical = _mm256_srl_epi64(v, _mm_cvtsi32_si128(s as i32));
    // A shift of 64 (s == 0) gives zero, leaving `v` as it was.
    let fill = _mm256_sll_epi64(sign, _mm_cvtsi32_si128(64 - s as i32));
    _mm256_or_si256(logical, fill)
}

/// Cubes of the four non-negative values in the low dwords of `x`'s 64-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn cubes(
    x: __m256i,
    sq_round: __m256i,
    sq_shift: __m128i,
    cub_round: __m256i,
    cub: u32,
) -> __m256i {
    let sq = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(x, x), sq_round), sq_shift);
    // mul_epi32 reads the square's low dword as signed: the scalar `as i32`.
    sra64(_mm256_add_epi64(_mm256_mul_epi32(sq, x), cub_round), cub)
}

/// Columns `start..end` (steps of eight below `stop`): the sums, and `end`.
#[target_feature(enable = "avx2")]
unsafe fn columns(m: &Masking<'_, i16>, r: &Row0, start: usize, stop: usize) -> ([i64; 3], usize) {
    let (up, i, down) = r.rows;
    let s = r.stride;
    let one_by_15 = _mm256_set1_epi32(ONE_BY_15_Q12);
    let half = _mm256_set1_epi32(2048);
    let mut acc = [_mm256_setzero_si256(); 3];
    let sq_round: [__m256i; 3] = SHIFT_SQ0.map(|q| _mm256_set1_epi64x(1i64 << (q - 1)));
    let sq_shift: [__m128i; 3] = SHIFT_SQ0.map(|q| _mm_cvtsi32_si128(q as i32));
    let cub_round: [__m256i; 3] = r
        .shift_cub
        .map(|c| _mm256_set1_epi64x(half_of_shift(c) as i64));
    let cub: [u32; 3] = r.shift_cub.map(|c| c & 63);
    let rf = r.rf.map(|f| _mm256_set1_epi32(f as i32));
    let mut j = start;
    while j + 8 <= stop {
        let mut thr = _mm256_setzero_si256();
        for t in 0..3 {
            let a = m.activity[t].as_ptr();
            // SAFETY: rows up, i, down hold columns j-1 ..= j+8 (< w) by `fits` and
            // 1 <= start <= j, j + 8 <= stop <= w - 1.
            let (sum, v) = unsafe {
                let mut sum = _mm256_setzero_si256();
                for y in [up, down] {
                    for dx in 0..3 {
                        sum = _mm256_add_epi32(sum, load8(a.add(y * s + j + dx - 1)));
                    }
                }
                sum = _mm256_add_epi32(sum, load8(a.add(i * s + j - 1)));
                sum = _mm256_add_epi32(sum, load8(a.add(i * s + j + 1)));
                (sum, load8(m.masker[t].as_ptr().add(i * s + j)))
            };
            let c = _mm256_srai_epi32::<12>(_mm256_add_epi32(
                _mm256_mullo_epi32(one_by_15, _mm256_abs_epi32(v)),
                half,
            ));
            let c = _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(c));
            thr = _mm256_add_epi32(thr, _mm256_add_epi32(sum, c));
        }
        for t in 0..3 {
            // SAFETY: as above, for the source band.
            let src = unsafe { load8(m.source[t].as_ptr().add(i * s + j)) };
            let x = _mm256_abs_epi32(_mm256_mullo_epi32(src, rf[t]));
            let shifted = _mm256_sll_epi32(thr, _mm_cvtsi32_si128(SHIFT_SUB0[t] as i32));
            let x = _mm256_max_epi32(_mm256_sub_epi32(x, shifted), _mm256_setzero_si256());
            let even = cubes(x, sq_round[t], sq_shift[t], cub_round[t], cub[t]);
            let odd = cubes(
                _mm256_srli_epi64::<32>(x),
                sq_round[t],
                sq_shift[t],
                cub_round[t],
                cub[t],
            );
            acc[t] = _mm256_add_epi64(acc[t], _mm256_add_epi64(even, odd));
        }
        j += 8;
    }
    let sums = acc.map(|a| {
        let mut lanes = [0i64; 4];
        // SAFETY: lanes has room for four values.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, a) };
        lanes.iter().fold(0i64, |x, &y| x.wrapping_add(y))
    });
    (sums, j)
}
