//! AVX2 row kernels of contrast masking (scale 0, scales 1..3): eight interior columns a
//! step.
//!
//! The threshold and `|source · rf| - threshold` are 32-bit lane sums, as in the scalar
//! twin. The square and cube need 64 bits: even and odd lanes are widened apart
//! (`mul_epu32` for the square of the non-negative difference, `mul_epi32` for the
//! signed truncated square times it) and summed in 64-bit lanes. AVX2 has no 64-bit
//! arithmetic shift, so it is a logical shift with the sign bits put back.

use std::arch::x86_64::*;

use super::super::cm::{
    scale0_row, scale123_row, Masking, Row0, Row123, ONE_BY_15_Q12, ONE_BY_15_Q32, ROUND_CENTER,
    SHIFT_SQ0, SHIFT_SUB0,
};
use super::super::cnum::half_of_shift;

/// Whether every band holds the rows (`rows`) and columns (`w`, at `stride`) a row
/// kernel reads, and the columns end inside the row.
fn fits<T>(m: &Masking<'_, T>, (rows, stride, w, right): (RowsAt, usize, usize, usize)) -> bool {
    let (up, i, down) = rows;
    let last = up.max(i).max(down);
    let need = last.checked_mul(stride).and_then(|o| o.checked_add(w));
    stride >= w
        && right <= w
        && need.is_some_and(|n| {
            m.source
                .iter()
                .chain(m.masker)
                .chain(m.activity)
                .all(|b| b.len() >= n)
        })
}

/// The scale-0 row kernel (see [`scale0_row`]) with AVX2.
pub(super) fn scale0_row_avx2(m: &Masking<'_, i16>, r: &Row0) -> [i64; 3] {
    if !fits(m, (r.rows, r.stride, r.w, r.right)) || r.left >= r.right {
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

/// A row and the rows above and below it.
type RowsAt = (usize, usize, usize);

/// The scale-1..3 row kernel (see [`scale123_row`]) with AVX2.
pub(super) fn scale123_row_avx2(m: &Masking<'_, i32>, r: &Row123) -> [i64; 3] {
    if !fits(m, (r.rows, r.stride, r.w, r.right)) || r.left >= r.right {
        return scale123_row(m, r);
    }
    let start = r.left.max(1);
    let stop = r.right.min(r.w - 1);
    if start + 8 > stop {
        return scale123_row(m, r);
    }
    // SAFETY: as in `scale0_row_avx2`.
    let (mut inner, end) = unsafe { columns123(m, r, start, stop) };
    for (left, right) in [(r.left, start), (end, r.right)] {
        if left < right {
            let part = scale123_row(m, &Row123 { left, right, ..*r });
            for t in 0..3 {
                inner[t] = inner[t].wrapping_add(part[t]);
            }
        }
    }
    inner
}

/// The low dwords of the 64-bit lanes of `even` (lanes 0, 2, ..) and `odd` (1, 3, ..).
#[inline]
#[target_feature(enable = "avx2")]
fn join_low(even: __m256i, odd: __m256i) -> __m256i {
    _mm256_blend_epi32::<0b1010_1010>(even, _mm256_slli_epi64::<32>(odd))
}

/// The high dwords of the 64-bit lanes of `even` and `odd`, as [`join_low`] places them.
#[inline]
#[target_feature(enable = "avx2")]
fn join_high(even: __m256i, odd: __m256i) -> __m256i {
    _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(even), odd)
}

/// `((c · |v| - 2^31) >> 32) as i32` of eight lanes (`c` in every 64-bit lane): |v| fits
/// 32 unsigned bits, and the low dword of the shifted sum is its high dword.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn scaled_abs_q32(v: __m256i, c: __m256i) -> __m256i {
    let round = _mm256_set1_epi64x(ROUND_CENTER);
    let a = _mm256_abs_epi32(v);
    let even = _mm256_add_epi64(_mm256_mul_epu32(a, c), round);
    let odd = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64::<32>(a), c), round);
    join_high(even, odd)
}

/// `((src · rf + 2^27) >> 28) as i32` of eight lanes, `rf` unsigned: the magnitude's
/// product, negated where `src` is negative, in 64-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn weighted123(src: __m256i, rf: __m256i) -> __m256i {
    let round = _mm256_set1_epi64x(1 << 27);
    let a = _mm256_abs_epi32(src);
    let neg = _mm256_cmpgt_epi32(_mm256_setzero_si256(), src);
    let even = signed(
        _mm256_mul_epu32(a, rf),
        _mm256_shuffle_epi32::<0b10_10_00_00>(neg),
    );
    let odd = signed(
        _mm256_mul_epu32(_mm256_srli_epi64::<32>(a), rf),
        _mm256_shuffle_epi32::<0b11_11_01_01>(neg),
    );
    let even = _mm256_srli_epi64::<28>(_mm256_add_epi64(even, round));
    let odd = _mm256_srli_epi64::<28>(_mm256_add_epi64(odd, round));
    join_low(even, odd)
}

/// `p` negated in the 64-bit lanes where `m` is all ones.
#[inline]
#[target_feature(enable = "avx2")]
fn signed(p: __m256i, m: __m256i) -> __m256i {
    _mm256_sub_epi64(_mm256_xor_si256(p, m), m)
}

/// Eight `i32` at `p`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load8x32(p: *const i32) -> __m256i {
    // SAFETY: the caller guarantees eight readable values.
    unsafe { _mm256_loadu_si256(p as *const __m256i) }
}

/// Columns `start..end` of a scale-1..3 row (steps of eight below `stop`).
#[target_feature(enable = "avx2")]
unsafe fn columns123(
    m: &Masking<'_, i32>,
    r: &Row123,
    start: usize,
    stop: usize,
) -> ([i64; 3], usize) {
    let (up, i, down) = r.rows;
    let s = r.stride;
    let mut acc = [_mm256_setzero_si256(); 3];
    let sq_round = _mm256_set1_epi64x(1 << 29);
    let sq_shift = _mm_cvtsi32_si128(30);
    let cub_round = _mm256_set1_epi64x(half_of_shift(r.shift_cub) as i64);
    let cub = r.shift_cub & 63;
    let rf = r.rf.map(|f| _mm256_set1_epi64x(f as i64));
    let one_by_15 = _mm256_set1_epi64x(ONE_BY_15_Q32);
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
                        sum = _mm256_add_epi32(sum, load8x32(a.add(y * s + j + dx - 1)));
                    }
                }
                sum = _mm256_add_epi32(sum, load8x32(a.add(i * s + j - 1)));
                sum = _mm256_add_epi32(sum, load8x32(a.add(i * s + j + 1)));
                (sum, load8x32(m.masker[t].as_ptr().add(i * s + j)))
            };
            thr = _mm256_add_epi32(thr, _mm256_add_epi32(sum, scaled_abs_q32(v, one_by_15)));
        }
        for t in 0..3 {
            // SAFETY: as above, for the source band.
            let src = unsafe { load8x32(m.source[t].as_ptr().add(i * s + j)) };
            let x = _mm256_abs_epi32(weighted123(src, rf[t]));
            let x = _mm256_max_epi32(_mm256_sub_epi32(x, thr), _mm256_setzero_si256());
            let even = cubes(x, sq_round, sq_shift, cub_round, cub);
            let odd = cubes(
                _mm256_srli_epi64::<32>(x),
                sq_round,
                sq_shift,
                cub_round,
                cub,
            );
            acc[t] = _mm256_add_epi64(acc[t], _mm256_add_epi64(even, odd));
        }
        j += 8;
    }
    (acc.map(|a| lane_sum(a)), j)
}

/// The wrapping sum of four 64-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn lane_sum(a: __m256i) -> i64 {
    let mut lanes = [0i64; 4];
    // SAFETY: lanes has room for four values.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, a) };
    lanes.iter().fold(0i64, |x, &y| x.wrapping_add(y))
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
