//! AVX-512 row kernels of contrast masking (scale 0, scales 1..3): sixteen interior
//! columns a step, the last partial step by masked loads, so only the two edge columns
//! (whose neighbours are mirrored) are left to the scalar twin.
//!
//! The arithmetic is the AVX2 kernels' (see `avx2_cm`): 32-bit lane thresholds, squares
//! and cubes of even and odd lanes in 64-bit lanes, here with the native 64-bit arithmetic
//! shift. Masked-off lanes add nothing: their 64-bit cubes are left out of the sums.

use std::arch::x86_64::*;

use super::super::cm::{
    scale0_row, scale123_row, Masking, Row0, Row123, ONE_BY_15_Q12, ONE_BY_15_Q32, ROUND_CENTER,
    SHIFT_SQ0, SHIFT_SUB0,
};
use super::super::cnum::half_of_shift;
use super::avx512_den::mask16;

/// The columns a vector step may take: `start..stop`, both neighbours inside the row;
/// `None` where the bands are too short for the row (the scalar twin reports it).
fn interior<T>(
    m: &Masking<'_, T>,
    rows: (usize, usize, usize),
    stride: usize,
    w: usize,
    left: usize,
    right: usize,
) -> Option<(usize, usize)> {
    let (up, i, down) = rows;
    let last = up.max(i).max(down);
    let need = last.checked_mul(stride).and_then(|o| o.checked_add(w));
    let fits = stride >= w
        && right <= w
        && need.is_some_and(|n| {
            m.source
                .iter()
                .chain(m.masker)
                .chain(m.activity)
                .all(|b| b.len() >= n)
        });
    let (start, stop) = (left.max(1), right.min(w.saturating_sub(1)));
    (fits && start < stop).then_some((start, stop))
}

/// `inner` plus the scalar sums of the edge columns `left..start` and `stop..right`.
fn with_edges(mut inner: [i64; 3], parts: [[i64; 3]; 2]) -> [i64; 3] {
    for part in parts {
        for t in 0..3 {
            inner[t] = inner[t].wrapping_add(part[t]);
        }
    }
    inner
}

/// The scale-0 row kernel (see [`scale0_row`]) with AVX-512.
pub(super) fn scale0_row_avx512(m: &Masking<'_, i16>, r: &Row0) -> [i64; 3] {
    let Some((start, stop)) = interior(m, r.rows, r.stride, r.w, r.left, r.right) else {
        return scale0_row(m, r);
    };
    // SAFETY: AVX-512 (F, BW, DQ, VL) was detected before this kernel was listed;
    // `interior` checked that the three rows hold `w` values, and columns
    // start-1 ..= stop lie within them.
    let inner = unsafe { columns0(m, r, start, stop) };
    let edge = |left, right| scale0_row(m, &Row0 { left, right, ..*r });
    with_edges(inner, [edge(r.left, start), edge(stop, r.right)])
}

/// The scale-1..3 row kernel (see [`scale123_row`]) with AVX-512.
pub(super) fn scale123_row_avx512(m: &Masking<'_, i32>, r: &Row123) -> [i64; 3] {
    let Some((start, stop)) = interior(m, r.rows, r.stride, r.w, r.left, r.right) else {
        return scale123_row(m, r);
    };
    // SAFETY: as in `scale0_row_avx512`.
    let inner = unsafe { columns123(m, r, start, stop) };
    let edge = |left, right| scale123_row(m, &Row123 { left, right, ..*r });
    with_edges(inner, [edge(r.left, start), edge(stop, r.right)])
}

/// The even and odd 64-bit lane masks of the `i32` lanes in `m`.
#[inline]
#[target_feature(enable = "avx512f")]
fn halves(m: __mmask16) -> (__mmask8, __mmask8) {
    let on = _mm512_maskz_mov_epi32(m, _mm512_set1_epi32(-1));
    (
        _mm512_test_epi64_mask(on, _mm512_set1_epi64(0xffff_ffff)),
        _mm512_test_epi64_mask(on, _mm512_set1_epi64(!0xffff_ffff)),
    )
}

/// The low dwords of the 64-bit lanes of `even` (lanes 0, 2, ..) and `odd` (1, 3, ..).
#[inline]
#[target_feature(enable = "avx512f")]
fn join_low(even: __m512i, odd: __m512i) -> __m512i {
    _mm512_mask_blend_epi32(0xaaaa, even, _mm512_slli_epi64::<32>(odd))
}

/// The high dwords of the 64-bit lanes of `even` and `odd`, as [`join_low`] places them.
#[inline]
#[target_feature(enable = "avx512f")]
fn join_high(even: __m512i, odd: __m512i) -> __m512i {
    _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64::<32>(even), odd)
}

/// Cubes of the non-negative values in the low dwords of `x`'s 64-bit lanes.
#[inline]
#[target_feature(enable = "avx512f")]
fn cubes(x: __m512i, sq: (__m512i, __m128i), cub: (__m512i, __m128i)) -> __m512i {
    let s = _mm512_srl_epi64(_mm512_add_epi64(_mm512_mul_epu32(x, x), sq.0), sq.1);
    // mul_epi32 reads the square's low dword as signed: the scalar `as i32`.
    _mm512_sra_epi64(_mm512_add_epi64(_mm512_mul_epi32(s, x), cub.0), cub.1)
}

/// Adds the cubes of the sixteen lanes of `x` (those in `on`) to `acc`.
#[inline]
#[target_feature(enable = "avx512f")]
fn add_cubes(
    acc: __m512i,
    x: __m512i,
    on: (__mmask8, __mmask8),
    sq: (__m512i, __m128i),
    cub: (__m512i, __m128i),
) -> __m512i {
    let even = cubes(x, sq, cub);
    let odd = cubes(_mm512_srli_epi64::<32>(x), sq, cub);
    let acc = _mm512_mask_add_epi64(acc, on.0, acc, even);
    _mm512_mask_add_epi64(acc, on.1, acc, odd)
}

/// A masked load of sixteen values as `i32` lanes; the masked-off lanes read as zero.
type Load<T> = unsafe fn(__mmask16, *const T) -> __m512i;

/// Sixteen `i16` (those in `mk`) at `p` as `i32` lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn load16(mk: __mmask16, p: *const i16) -> __m512i {
    // SAFETY: the caller guarantees the lanes in `mk` are readable.
    _mm512_cvtepi16_epi32(unsafe { _mm256_maskz_loadu_epi16(mk, p) })
}

/// Sixteen `i32` (those in `mk`) at `p`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn load32(mk: __mmask16, p: *const i32) -> __m512i {
    // SAFETY: the caller guarantees the lanes in `mk` are readable.
    unsafe { _mm512_maskz_loadu_epi32(mk, p) }
}

/// The lanes a step at column `j` loads for the neighbour sums: columns `j..=stop` (at
/// most sixteen), one past the step's own so that the last lane's right neighbour is there.
#[inline]
fn reach(j: usize, stop: usize) -> __mmask16 {
    mask16(stop + 1 - j)
}

/// The 3-row column sums (rows `up + i + down`) of columns `j..j + 16` of `a` and row
/// `i`'s values there, lanes outside `mk` read as zero by `load`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn column_sums<T>(
    a: *const T,
    (up, i, down): (usize, usize, usize),
    s: usize,
    j: usize,
    (mk, load): (__mmask16, Load<T>),
) -> (__m512i, __m512i) {
    // SAFETY: the caller guarantees the three rows hold the columns `load` reads.
    unsafe {
        let mid = load(mk, a.add(i * s + j));
        let sum = _mm512_add_epi32(load(mk, a.add(up * s + j)), mid);
        (_mm512_add_epi32(sum, load(mk, a.add(down * s + j))), mid)
    }
}

/// The sums of the eight neighbours of a row's columns, sixteen a step from `start`: each
/// step loads the 3-row column sums of the next sixteen columns once, and a lane's sum is
/// its 3x3 box (its column sum and its neighbours', by lane rotation across the previous,
/// current and next vectors) less its own value. The sums wrap in `i32` lanes, so the
/// order of the adds does not change them.
struct Neighbours<T> {
    a: *const T,
    rows: (usize, usize, usize),
    s: usize,
    stop: usize,
    load: Load<T>,
    /// Column sums of the previous sixteen columns (lane 15: the column left of the step).
    prev: __m512i,
    /// Column sums and row-`i` values of the step's columns (and column `stop`).
    cur: (__m512i, __m512i),
}

impl<T> Neighbours<T> {
    /// Ready for the step at `start` (`1 <= start < stop`, the rows hold columns
    /// `start - 1 ..= stop`).
    ///
    /// # Safety
    /// AVX-512 F must be present, and the three rows of `a` must hold those columns.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn new(
        a: *const T,
        rows: (usize, usize, usize),
        s: usize,
        (start, stop): (usize, usize),
        load: Load<T>,
    ) -> Self {
        // SAFETY: columns start - 1 and start..=stop are in the rows (the caller).
        let (left, cur) = unsafe {
            (
                column_sums(a, rows, s, start - 1, (1, load)).0,
                column_sums(a, rows, s, start, (reach(start, stop), load)),
            )
        };
        Neighbours {
            a,
            rows,
            s,
            stop,
            load,
            prev: _mm512_alignr_epi32::<1>(left, _mm512_setzero_si512()),
            cur,
        }
    }

    /// The neighbour sums of the step at `j` (the one after the last, or `start`), and
    /// moves on to `j + 16`.
    ///
    /// # Safety
    /// As for [`Neighbours::new`].
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn next(&mut self, j: usize) -> __m512i {
        let next = if j + 16 <= self.stop {
            let mk = reach(j + 16, self.stop);
            // SAFETY: columns j + 16 ..= stop are in the rows (the caller).
            unsafe { column_sums(self.a, self.rows, self.s, j + 16, (mk, self.load)) }
        } else {
            (_mm512_setzero_si512(), _mm512_setzero_si512())
        };
        let (cur, mid) = self.cur;
        let left = _mm512_alignr_epi32::<15>(cur, self.prev);
        let right = _mm512_alignr_epi32::<1>(next.0, cur);
        let boxed = _mm512_add_epi32(_mm512_add_epi32(left, cur), right);
        self.prev = cur;
        self.cur = next;
        _mm512_sub_epi32(boxed, mid)
    }
}

/// Columns `start..stop` of a scale-0 row.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn columns0(m: &Masking<'_, i16>, r: &Row0, start: usize, stop: usize) -> [i64; 3] {
    let (_, i, _) = r.rows;
    let s = r.stride;
    let one_by_15 = _mm512_set1_epi32(ONE_BY_15_Q12);
    let half = _mm512_set1_epi32(2048);
    let mut acc = [_mm512_setzero_si512(); 3];
    let sq: [(__m512i, __m128i); 3] = SHIFT_SQ0.map(|q| {
        (
            _mm512_set1_epi64(1i64 << (q - 1)),
            _mm_cvtsi32_si128(q as i32),
        )
    });
    let cub: [(__m512i, __m128i); 3] = r.shift_cub.map(|c| {
        (
            _mm512_set1_epi64(half_of_shift(c) as i64),
            _mm_cvtsi32_si128((c & 63) as i32),
        )
    });
    let rf = r.rf.map(|f| _mm512_set1_epi32(f as i32));
    // SAFETY: rows up, i, down hold columns start-1 ..= stop (< w) by `interior`, and
    // 1 <= start < stop.
    let mut around: [Neighbours<i16>; 3] = std::array::from_fn(|t| unsafe {
        Neighbours::new(m.activity[t].as_ptr(), r.rows, s, (start, stop), load16)
    });
    let mut j = start;
    while j < stop {
        let mk = mask16(stop - j);
        let on = halves(mk);
        // SAFETY (every load below): rows up, i, down hold columns j-1 ..= stop (< w) by
        // `interior`, 1 <= start <= j, and the mask reads no lane at or past stop - j.
        let mut thr = _mm512_setzero_si512();
        for (t, around) in around.iter_mut().enumerate() {
            // SAFETY: see above; the steps come in order from `start`.
            let (sum, v) = unsafe {
                (
                    around.next(j),
                    load16(mk, m.masker[t].as_ptr().add(i * s + j)),
                )
            };
            // The masker is an `i16` in each lane and the factor's high half is zero, so
            // `vpmaddwd` gives the exact product; |8738 v| = 8738 |v| < 2^31.
            let c = _mm512_srai_epi32::<12>(_mm512_add_epi32(
                _mm512_abs_epi32(_mm512_madd_epi16(v, one_by_15)),
                half,
            ));
            let c = _mm512_srai_epi32::<16>(_mm512_slli_epi32::<16>(c));
            thr = _mm512_add_epi32(thr, _mm512_add_epi32(sum, c));
        }
        for t in 0..3 {
            // SAFETY: see above.
            let src = unsafe { load16(mk, m.source[t].as_ptr().add(i * s + j)) };
            let x = _mm512_abs_epi32(_mm512_mullo_epi32(src, rf[t]));
            let shifted = _mm512_sll_epi32(thr, _mm_cvtsi32_si128(SHIFT_SUB0[t] as i32));
            let x = _mm512_max_epi32(_mm512_sub_epi32(x, shifted), _mm512_setzero_si512());
            acc[t] = add_cubes(acc[t], x, on, sq[t], cub[t]);
        }
        j += 16;
    }
    acc.map(|a| _mm512_reduce_add_epi64(a))
}

/// `((c · |v| - 2^31) >> 32) as i32` of sixteen lanes (`c` in every 64-bit lane).
#[inline]
#[target_feature(enable = "avx512f")]
fn scaled_abs_q32(v: __m512i, c: __m512i) -> __m512i {
    let round = _mm512_set1_epi64(ROUND_CENTER);
    let a = _mm512_abs_epi32(v);
    let even = _mm512_add_epi64(_mm512_mul_epu32(a, c), round);
    let odd = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64::<32>(a), c), round);
    join_high(even, odd)
}

/// `((src · rf + 2^27) >> 28) as i32` of sixteen lanes, `rf` unsigned: the magnitude's
/// product, negated where `src` is negative, in 64-bit lanes.
#[inline]
#[target_feature(enable = "avx512f")]
fn weighted123(src: __m512i, rf: __m512i) -> __m512i {
    let round = _mm512_set1_epi64(1 << 27);
    let zero = _mm512_setzero_si512();
    let a = _mm512_abs_epi32(src);
    let neg_even = _mm512_cmplt_epi64_mask(_mm512_slli_epi64::<32>(src), zero);
    let neg_odd = _mm512_cmplt_epi64_mask(src, zero);
    let even = _mm512_mul_epu32(a, rf);
    let even = _mm512_mask_sub_epi64(even, neg_even, zero, even);
    let odd = _mm512_mul_epu32(_mm512_srli_epi64::<32>(a), rf);
    let odd = _mm512_mask_sub_epi64(odd, neg_odd, zero, odd);
    let even = _mm512_srli_epi64::<28>(_mm512_add_epi64(even, round));
    let odd = _mm512_srli_epi64::<28>(_mm512_add_epi64(odd, round));
    join_low(even, odd)
}

/// Columns `start..stop` of a scale-1..3 row.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
unsafe fn columns123(m: &Masking<'_, i32>, r: &Row123, start: usize, stop: usize) -> [i64; 3] {
    let (_, i, _) = r.rows;
    let s = r.stride;
    let mut acc = [_mm512_setzero_si512(); 3];
    let sq = (_mm512_set1_epi64(1 << 29), _mm_cvtsi32_si128(30));
    let cub = (
        _mm512_set1_epi64(half_of_shift(r.shift_cub) as i64),
        _mm_cvtsi32_si128((r.shift_cub & 63) as i32),
    );
    let rf = r.rf.map(|f| _mm512_set1_epi64(f as i64));
    let one_by_15 = _mm512_set1_epi64(ONE_BY_15_Q32);
    // SAFETY: as in `columns0`.
    let mut around: [Neighbours<i32>; 3] = std::array::from_fn(|t| unsafe {
        Neighbours::new(m.activity[t].as_ptr(), r.rows, s, (start, stop), load32)
    });
    let mut j = start;
    while j < stop {
        let mk = mask16(stop - j);
        let on = halves(mk);
        // SAFETY (every load below): as in `columns0`.
        let mut thr = _mm512_setzero_si512();
        for (t, around) in around.iter_mut().enumerate() {
            // SAFETY: see above; the steps come in order from `start`.
            let (sum, v) = unsafe {
                (
                    around.next(j),
                    load32(mk, m.masker[t].as_ptr().add(i * s + j)),
                )
            };
            thr = _mm512_add_epi32(thr, _mm512_add_epi32(sum, scaled_abs_q32(v, one_by_15)));
        }
        for t in 0..3 {
            // SAFETY: see above.
            let src = unsafe { load32(mk, m.source[t].as_ptr().add(i * s + j)) };
            let x = _mm512_abs_epi32(weighted123(src, rf[t]));
            let x = _mm512_max_epi32(_mm512_sub_epi32(x, thr), _mm512_setzero_si512());
            acc[t] = add_cubes(acc[t], x, on, sq, cub);
        }
        j += 16;
    }
    acc.map(|a| _mm512_reduce_add_epi64(a))
}
