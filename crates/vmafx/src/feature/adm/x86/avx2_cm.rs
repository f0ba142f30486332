//! AVX2 row kernels of contrast masking (scale 0, scales 1..3): eight interior columns a
//! step, in the AVX-512 kernels' design (see `avx512_cm`).
//!
//! The threshold and `|source · rf| - threshold` are 32-bit lane sums, as in the scalar
//! twin; the neighbour sums come from 3-row column sums loaded once a step and rotated a
//! lane left and right. The square and cube need 64 bits: even and odd lanes are widened
//! apart (`mul_epu32` for the square of the non-negative difference, `mul_epi32` for the
//! signed truncated square times it) and summed in 64-bit lanes. AVX2 has no 64-bit
//! arithmetic shift: the cube is shifted logically with 2^63 added, and the sums give the
//! added 2^63 >> shift back once at the end.

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

/// An unsigned 32-bit weight for [`weighted123`]: the weight in every dword, and whether
/// it is 2^31 or more (then `vpmuldq` reads it as `rf - 2^32`).
#[derive(Clone, Copy)]
pub(super) struct Weight {
    rf: __m256i,
    wide: bool,
}

impl Weight {
    /// The weight `rf` in every lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn new(rf: u32) -> Self {
        Weight {
            rf: _mm256_set1_epi32(rf as i32),
            wide: rf >= 1 << 31,
        }
    }
}

/// `(x · rf) as i64` in the 64-bit lanes of `x`'s low dwords, given `x_high` (`x` times
/// 2^32 modulo 2^64): the signed `vpmuldq`, plus `x · 2^32` where the weight read negative
/// (the true product fits 64 bits, so the sum modulo 2^64 is exact).
#[inline]
#[target_feature(enable = "avx2")]
fn times_unsigned(x: __m256i, x_high: __m256i, rf: Weight) -> __m256i {
    let p = _mm256_mul_epi32(x, rf.rf);
    if rf.wide {
        _mm256_add_epi64(p, x_high)
    } else {
        p
    }
}

/// `((src · rf + 2^27) >> 28) as i32` of eight lanes, `rf` unsigned: bits 28..59 of the
/// rounded 64-bit products, the low dword of a logical shift.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn weighted123(src: __m256i, rf: Weight) -> __m256i {
    let round = _mm256_set1_epi64x(1 << 27);
    let high = _mm256_set1_epi64x(!0xffff_ffff);
    let even = times_unsigned(src, _mm256_slli_epi64::<32>(src), rf);
    let odd = times_unsigned(
        _mm256_srli_epi64::<32>(src),
        _mm256_and_si256(src, high),
        rf,
    );
    let even = _mm256_srli_epi64::<28>(_mm256_add_epi64(even, round));
    let odd = _mm256_srli_epi64::<28>(_mm256_add_epi64(odd, round));
    join_low(even, odd)
}

/// Eight values at `p` as `i32` lanes.
type Load<T> = unsafe fn(*const T) -> __m256i;

/// Eight `i32` at `p`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load8x32(p: *const i32) -> __m256i {
    // SAFETY: the caller guarantees eight readable values.
    unsafe { _mm256_loadu_si256(p as *const __m256i) }
}

/// Eight `i16` from `p` as `i32` lanes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load8(p: *const i16) -> __m256i {
    // SAFETY: the caller guarantees eight readable values.
    _mm256_cvtepi16_epi32(unsafe { _mm_loadu_si128(p as *const __m128i) })
}

/// The 3-row column sums (rows `up + i + down`) of columns `j..j + 8` of `a`, and row
/// `i`'s values there.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn column_sums<T>(
    a: *const T,
    (up, i, down): RowsAt,
    s: usize,
    j: usize,
    load: Load<T>,
) -> (__m256i, __m256i) {
    // SAFETY: the caller guarantees the three rows hold columns j..j + 8.
    unsafe {
        let mid = load(a.add(i * s + j));
        let sum = _mm256_add_epi32(load(a.add(up * s + j)), mid);
        (_mm256_add_epi32(sum, load(a.add(down * s + j))), mid)
    }
}

/// The sums of the eight neighbours of a row's columns, eight a step from `start`: each
/// step loads the 3-row column sums of the next eight columns once, and a lane's sum is
/// its 3x3 box (its column sum and its neighbours', by lane rotation across the previous,
/// current and next vectors) less its own value. The sums wrap in `i32` lanes, so the
/// order of the adds does not change them. The last step (no next vector to load) takes
/// its right neighbours' column sums by loads one column on.
struct Neighbours<T> {
    a: *const T,
    rows: RowsAt,
    s: usize,
    load: Load<T>,
    /// The column sums left of the step's columns (columns j-1 ..= j+6).
    left: __m256i,
    /// Column sums and row-`i` values of the step's columns.
    cur: (__m256i, __m256i),
}

impl<T> Neighbours<T> {
    /// Ready for the step at `start` (`1 <= start`, the rows hold columns
    /// `start - 1 ..= start + 7`).
    ///
    /// # Safety
    /// AVX2 must be present, and the three rows of `a` must hold those columns.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn new(a: *const T, rows: RowsAt, s: usize, start: usize, load: Load<T>) -> Self {
        // SAFETY: columns start - 1 ..= start + 7 are in the rows (the caller).
        let (left, cur) = unsafe {
            (
                column_sums(a, rows, s, start - 1, load).0,
                column_sums(a, rows, s, start, load),
            )
        };
        Neighbours {
            a,
            rows,
            s,
            load,
            left,
            cur,
        }
    }

    /// The neighbour sums of the step at `j` (the one after the last, or `start`), and
    /// moves on to `j + 8`. `LAST`: no step follows, so the right neighbours' column
    /// sums are loaded one column on; else the next step's columns are loaded.
    ///
    /// # Safety
    /// AVX2 must be present, and the three rows must hold columns `j + 1 ..= j + 8`, and
    /// `j + 8 .. j + 16` unless `LAST`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn next<const LAST: bool>(&mut self, j: usize) -> __m256i {
        let (cur, mid) = self.cur;
        let left = self.left;
        let right = if LAST {
            // SAFETY: columns j + 1 ..= j + 8 are in the rows (the caller).
            unsafe { column_sums(self.a, self.rows, self.s, j + 1, self.load).0 }
        } else {
            // SAFETY: columns j + 8 .. j + 16 are in the rows (the caller).
            let next = unsafe { column_sums(self.a, self.rows, self.s, j + 8, self.load) };
            // [cur 4..8, next 0..4]: the lanes both rotations take across the halves.
            let across = _mm256_permute2x128_si256::<0x21>(cur, next.0);
            self.left = _mm256_alignr_epi8::<12>(next.0, across);
            self.cur = next;
            _mm256_alignr_epi8::<4>(across, cur)
        };
        let boxed = _mm256_add_epi32(_mm256_add_epi32(left, cur), right);
        _mm256_sub_epi32(boxed, mid)
    }
}

/// A cube's rounding and shift (`shift_cub`): the scalar arithmetic shift is a logical
/// one of the value plus 2^63 (AVX2 has no 64-bit arithmetic shift), which leaves
/// `bias` = 2^63 >> shift too much in each cube, taken off the sums at the end.
#[derive(Clone, Copy)]
struct CubeShift {
    /// The rounding term plus 2^63 in every 64-bit lane.
    round: __m256i,
    count: __m128i,
    bias: i64,
}

impl CubeShift {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(shift_cub: u32) -> Self {
        let s = shift_cub & 63;
        CubeShift {
            round: _mm256_set1_epi64x((half_of_shift(shift_cub) as i64).wrapping_add(i64::MIN)),
            count: _mm_cvtsi32_si128(s as i32),
            bias: ((1u64 << 63) >> s) as i64,
        }
    }

    /// `sum` (of `n` cubes) less the cubes' biases.
    fn unbiased(&self, sum: i64, n: usize) -> i64 {
        sum.wrapping_sub(self.bias.wrapping_mul(n as i64))
    }
}

/// Cubes of the four non-negative values in the low dwords of `x`'s 64-bit lanes, each
/// plus the shift's `bias`.
#[inline]
#[target_feature(enable = "avx2")]
fn cubes(x: __m256i, sq: (__m256i, __m128i), cub: CubeShift) -> __m256i {
    let s = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(x, x), sq.0), sq.1);
    // mul_epi32 reads the square's low dword as signed: the scalar `as i32`.
    _mm256_srl_epi64(
        _mm256_add_epi64(_mm256_mul_epi32(s, x), cub.round),
        cub.count,
    )
}

/// Adds the (biased) cubes of the eight lanes of `x` to `acc`.
#[inline]
#[target_feature(enable = "avx2")]
fn add_cubes(acc: __m256i, x: __m256i, sq: (__m256i, __m128i), cub: CubeShift) -> __m256i {
    let even = cubes(x, sq, cub);
    let odd = cubes(_mm256_srli_epi64::<32>(x), sq, cub);
    _mm256_add_epi64(acc, _mm256_add_epi64(even, odd))
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

/// The constants of a scale-0 row.
#[derive(Clone, Copy)]
struct Consts0 {
    one_by_15: __m256i,
    half: __m256i,
    sq: [(__m256i, __m128i); 3],
    cub: [CubeShift; 3],
    rf: [__m256i; 3],
}

/// The scale-0 step at column `j` of the row at offset `at`: adds its cubes to `acc`.
///
/// # Safety
/// AVX2; the steps come in order from `start` (see `columns`), `LAST` only on the last,
/// and the bands hold columns `j - 1 ..= j + 8` of the three rows.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn step0<const LAST: bool>(
    m: &Masking<'_, i16>,
    (at, j): (usize, usize),
    k: &Consts0,
    around: &mut [Neighbours<i16>; 3],
    acc: &mut [__m256i; 3],
) {
    let mut thr = _mm256_setzero_si256();
    for (t, around) in around.iter_mut().enumerate() {
        // SAFETY: the caller's.
        let (sum, v) = unsafe {
            (
                around.next::<LAST>(j),
                load8(m.masker[t].as_ptr().add(at + j)),
            )
        };
        // The masker is an `i16` in each lane and the factor's high half is zero, so
        // `vpmaddwd` gives the exact product; |8738 v| = 8738 |v| < 2^31.
        let c = _mm256_srai_epi32::<12>(_mm256_add_epi32(
            _mm256_abs_epi32(_mm256_madd_epi16(v, k.one_by_15)),
            k.half,
        ));
        let c = _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(c));
        thr = _mm256_add_epi32(thr, _mm256_add_epi32(sum, c));
    }
    for t in 0..3 {
        // SAFETY: the caller's, for the source band.
        let src = unsafe { load8(m.source[t].as_ptr().add(at + j)) };
        let x = _mm256_abs_epi32(_mm256_mullo_epi32(src, k.rf[t]));
        let shifted = _mm256_sll_epi32(thr, _mm_cvtsi32_si128(SHIFT_SUB0[t] as i32));
        let x = _mm256_max_epi32(_mm256_sub_epi32(x, shifted), _mm256_setzero_si256());
        acc[t] = add_cubes(acc[t], x, k.sq[t], k.cub[t]);
    }
}

/// Columns `start..end` of a scale-0 row (steps of eight below `stop`, `start + 8 <=
/// stop`): the sums, and `end`.
#[target_feature(enable = "avx2")]
unsafe fn columns(m: &Masking<'_, i16>, r: &Row0, start: usize, stop: usize) -> ([i64; 3], usize) {
    let (_, i, _) = r.rows;
    let s = r.stride;
    let k = Consts0 {
        one_by_15: _mm256_set1_epi32(ONE_BY_15_Q12),
        half: _mm256_set1_epi32(2048),
        sq: SHIFT_SQ0.map(|q| {
            (
                _mm256_set1_epi64x(1i64 << (q - 1)),
                _mm_cvtsi32_si128(q as i32),
            )
        }),
        cub: r.shift_cub.map(|c| CubeShift::new(c)),
        rf: r.rf.map(|f| _mm256_set1_epi32(f as i32)),
    };
    let mut acc = [_mm256_setzero_si256(); 3];
    // SAFETY: rows up, i, down hold columns start-1 ..= stop (< w) by `fits`, and
    // 1 <= start, start + 8 <= stop.
    let mut around: [Neighbours<i16>; 3] = std::array::from_fn(|t| unsafe {
        Neighbours::new(m.activity[t].as_ptr(), r.rows, s, start, load8)
    });
    let mut j = start;
    // SAFETY (both steps): rows up, i, down hold columns j-1 ..= j+8 (<= stop < w) by
    // `fits` and 1 <= start <= j; the steps come in order from `start`, the last one
    // at the last `j` with `j + 8 <= stop`.
    while j + 16 <= stop {
        // SAFETY: see above.
        unsafe { step0::<false>(m, (i * s, j), &k, &mut around, &mut acc) };
        j += 8;
    }
    // SAFETY: see above.
    unsafe { step0::<true>(m, (i * s, j), &k, &mut around, &mut acc) };
    j += 8;
    let n = j - start;
    (
        std::array::from_fn(|t| k.cub[t].unbiased(lane_sum(acc[t]), n)),
        j,
    )
}

/// The constants of a scale-1..3 row.
#[derive(Clone, Copy)]
struct Consts123 {
    one_by_15: __m256i,
    sq: (__m256i, __m128i),
    cub: CubeShift,
    rf: [Weight; 3],
}

/// The scale-1..3 step at column `j` of the row at offset `at` (see [`step0`]).
///
/// # Safety
/// As for [`step0`].
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn step123<const LAST: bool>(
    m: &Masking<'_, i32>,
    (at, j): (usize, usize),
    k: &Consts123,
    around: &mut [Neighbours<i32>; 3],
    acc: &mut [__m256i; 3],
) {
    let mut thr = _mm256_setzero_si256();
    for (t, around) in around.iter_mut().enumerate() {
        // SAFETY: the caller's.
        let (sum, v) = unsafe {
            (
                around.next::<LAST>(j),
                load8x32(m.masker[t].as_ptr().add(at + j)),
            )
        };
        thr = _mm256_add_epi32(thr, _mm256_add_epi32(sum, scaled_abs_q32(v, k.one_by_15)));
    }
    for (t, acc) in acc.iter_mut().enumerate() {
        // SAFETY: the caller's, for the source band.
        let src = unsafe { load8x32(m.source[t].as_ptr().add(at + j)) };
        let x = _mm256_abs_epi32(weighted123(src, k.rf[t]));
        let x = _mm256_max_epi32(_mm256_sub_epi32(x, thr), _mm256_setzero_si256());
        *acc = add_cubes(*acc, x, k.sq, k.cub);
    }
}

/// Columns `start..end` of a scale-1..3 row (as [`columns`]).
#[target_feature(enable = "avx2")]
unsafe fn columns123(
    m: &Masking<'_, i32>,
    r: &Row123,
    start: usize,
    stop: usize,
) -> ([i64; 3], usize) {
    let (_, i, _) = r.rows;
    let s = r.stride;
    let k = Consts123 {
        one_by_15: _mm256_set1_epi64x(ONE_BY_15_Q32),
        sq: (_mm256_set1_epi64x(1 << 29), _mm_cvtsi32_si128(30)),
        cub: CubeShift::new(r.shift_cub),
        rf: r.rf.map(|f| Weight::new(f)),
    };
    let mut acc = [_mm256_setzero_si256(); 3];
    // SAFETY: as in `columns`.
    let mut around: [Neighbours<i32>; 3] = std::array::from_fn(|t| unsafe {
        Neighbours::new(m.activity[t].as_ptr(), r.rows, s, start, load8x32)
    });
    let mut j = start;
    // SAFETY (both steps): as in `columns`.
    while j + 16 <= stop {
        // SAFETY: see above.
        unsafe { step123::<false>(m, (i * s, j), &k, &mut around, &mut acc) };
        j += 8;
    }
    // SAFETY: see above.
    unsafe { step123::<true>(m, (i * s, j), &k, &mut around, &mut acc) };
    j += 8;
    let n = j - start;
    (acc.map(|a| k.cub.unbiased(lane_sum(a), n)), j)
}
