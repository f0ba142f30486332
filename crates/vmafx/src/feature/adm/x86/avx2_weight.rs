//! AVX2 kernels of ADM's per-position stages (CSF weighting), eight positions a step
//! (scale 0: sixteen, then eight) with the scalar twin's arithmetic (32-bit lanes at
//! scale 0, 64-bit products at scales 1..3); the scalar code finishes each row.

use std::arch::x86_64::*;

use super::super::border::Region;
use super::super::weight::{self, Weighted, ONE_BY_30_Q32};
use super::avx2_cm::{scaled_abs_q32, weighted123, Weight};

/// Whether every band holds the region's rows at `stride` (else the scalar twin runs).
pub(super) fn region_fits<T>(bands: &[&[T]], stride: usize, r: Region) -> bool {
    let ok = r.top <= r.bottom && r.left <= r.right && r.right <= stride;
    let need = r.bottom.checked_mul(stride);
    ok && need.is_some_and(|n| r.bottom == r.top || bands.iter().all(|b| b.len() >= n))
}

/// Scale-0 CSF weighting (see [`weight::scale0`]) with AVX2.
pub(super) fn weight0(
    src: &[Vec<i16>; 3],
    out: Weighted<'_, i16>,
    stride: usize,
    region: Region,
    rf: [u16; 3],
) {
    let all: Vec<&[i16]> = src
        .iter()
        .chain(out.csf.iter())
        .chain(out.activity.iter())
        .map(|v| v.as_slice())
        .collect();
    if !region_fits(&all, stride, region) {
        return weight::scale0(src, out, stride, region, rf);
    }
    weight::each_row(src, out, stride, region, |t, s, c, a| {
        // SAFETY: AVX2 was detected before this kernel was listed; the three slices hold
        // the row's values each.
        let done = unsafe {
            if t < 2 {
                weight0_row::<false>(s, c, a, rf[t])
            } else {
                weight0_row::<true>(s, c, a, rf[t])
            }
        };
        // The scalar twin finishes the row.
        weight::scale0_row(&s[done..], &mut c[done..], &mut a[done..], t, rf[t]);
    });
}

/// The constants of a scale-0 weighting row in 16-bit lanes, for weight `rf`.
#[derive(Clone, Copy)]
struct Row0Consts {
    /// `rf` less 2^15 where it is 2^15 or more, else `rf` (bands 0 and 1); `rf` read as
    /// an `i16` (band 2).
    factor: __m256i,
    /// All ones where `rf` is 2^15 or more (then the sample is added back), else 0.
    add_x: __m256i,
}

/// The 16-bit factor of weight `rf` and whether the sample is added back (see
/// [`weigh16`]): bands 0 and 1 take `rf - 2^15` and add `x` where `rf >= 2^15`; band 2
/// (`band2`) reads `rf` as an `i16` and adds `x` where that reading is negative.
pub(super) fn row0_factor(rf: u16, band2: bool) -> (i16, bool) {
    let high = rf >= 1 << 15;
    let factor = if high && !band2 { rf - (1 << 15) } else { rf };
    (factor as i16, high)
}

impl Row0Consts {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new<const BAND2: bool>(rf: u16) -> Self {
        let (factor, high) = row0_factor(rf, BAND2);
        Row0Consts {
            factor: _mm256_set1_epi16(factor),
            add_x: _mm256_set1_epi16(if high { -1 } else { 0 }),
        }
    }
}

/// The weighted values and their activities of sixteen `i16` lanes `x`, all in 16-bit
/// lanes (the scalar twin's 32-bit arithmetic, whose results it keeps as `i16`):
///
/// - bands 0 and 1, `(rf x + 2^14) >> 15`: with `rf = 2^15 e + r` (`e` 0 or 1, `r <
///   2^15`) that is `e x + (r x + 2^14) >> 15`, the second term `vpmulhrsw` exactly;
///   the sum wraps as the scalar `as i16` does.
/// - band 2 (`BAND2`), `(rf x + 65535) >> 17`: the ceiling of `rf x / 2^16`, halved
///   (floor). The floor of `rf x / 2^16` is `vpmulhw` of `x` and `rf` read as an `i16`,
///   plus `x` where that reading is `rf - 2^16`; the ceiling adds 1 where the product's
///   low half (`vpmullw`) is not 0.
/// - activity, `(4369 |c| + 2048) >> 12 = (34952 u + 2^14) >> 15` with `u = |c|` as an
///   unsigned word: `u + (2184 u + 2^14) >> 15`. `vpmulhrsw` reads `u = 2^15` (from `c =
///   -2^15`) as `-2^15` and gives `-2184` for `2184`: exact, so its absolute value is
///   right for every `u`.
#[inline]
#[target_feature(enable = "avx2")]
fn weigh16<const BAND2: bool>(x: __m256i, k: Row0Consts) -> (__m256i, __m256i) {
    let added = _mm256_and_si256(x, k.add_x);
    let c = if BAND2 {
        let floor = _mm256_add_epi16(_mm256_mulhi_epi16(x, k.factor), added);
        let exact = _mm256_cmpeq_epi16(_mm256_mullo_epi16(x, k.factor), _mm256_setzero_si256());
        let ceil = _mm256_add_epi16(_mm256_add_epi16(floor, _mm256_set1_epi16(1)), exact);
        _mm256_srai_epi16::<1>(ceil)
    } else {
        _mm256_add_epi16(added, _mm256_mulhrs_epi16(x, k.factor))
    };
    let u = _mm256_abs_epi16(c);
    let frac = _mm256_abs_epi16(_mm256_mulhrs_epi16(u, _mm256_set1_epi16(2184)));
    (c, _mm256_add_epi16(u, frac))
}

/// One row of the scale-0 weighting of band 0 or 1 (band 2 with `BAND2`), sixteen at a
/// time, the last sixteen again where the row is not a multiple (each output depends on
/// its own sample only); returns how many were done (all, unless the row is shorter than
/// sixteen).
#[target_feature(enable = "avx2")]
unsafe fn weight0_row<const BAND2: bool>(
    src: &[i16],
    csf: &mut [i16],
    activity: &mut [i16],
    rf: u16,
) -> usize {
    let n = src.len().min(csf.len()).min(activity.len());
    if n < 16 {
        return 0;
    }
    let k = Row0Consts::new::<BAND2>(rf);
    let mut step = |j: usize| {
        // SAFETY: the three slices hold n >= j + 16 values (unaligned loads and stores).
        unsafe {
            let x = _mm256_loadu_si256(src.as_ptr().add(j) as *const __m256i);
            let (c, a) = weigh16::<BAND2>(x, k);
            _mm256_storeu_si256(csf.as_mut_ptr().add(j) as *mut __m256i, c);
            _mm256_storeu_si256(activity.as_mut_ptr().add(j) as *mut __m256i, a);
        }
    };
    let mut j = 0;
    while j + 16 <= n {
        step(j);
        j += 16;
    }
    if j < n {
        step(n - 16);
    }
    n
}

/// Scale-1..3 CSF weighting (see [`weight::scale123`]) with AVX2.
pub(super) fn weight123(
    src: &[Vec<i32>; 3],
    out: Weighted<'_, i32>,
    stride: usize,
    region: Region,
    rf: [u32; 3],
) {
    let all: Vec<&[i32]> = src
        .iter()
        .chain(out.csf.iter())
        .chain(out.activity.iter())
        .map(|v| v.as_slice())
        .collect();
    if !region_fits(&all, stride, region) {
        return weight::scale123(src, out, stride, region, rf);
    }
    weight::each_row(src, out, stride, region, |t, s, c, a| {
        // SAFETY: AVX2 was detected before this kernel was listed; the three slices hold
        // the row's values each.
        let done = unsafe { weight123_row(s, c, a, rf[t]) };
        weight::scale123_row(&s[done..], &mut c[done..], &mut a[done..], rf[t]);
    });
}

/// One row of the scale-1..3 weighting, eight at a time; returns how many were done.
#[target_feature(enable = "avx2")]
unsafe fn weight123_row(src: &[i32], csf: &mut [i32], activity: &mut [i32], rf: u32) -> usize {
    let n = src.len().min(csf.len()).min(activity.len());
    let rf = Weight::new(rf);
    let one_by_30 = _mm256_set1_epi64x(ONE_BY_30_Q32);
    let mut j = 0;
    while j + 8 <= n {
        // SAFETY: src holds n >= j + 8 values.
        let x = unsafe { _mm256_loadu_si256(src.as_ptr().add(j) as *const __m256i) };
        let c = weighted123(x, rf);
        let act = scaled_abs_q32(c, one_by_30);
        // SAFETY: csf and activity hold n >= j + 8 values.
        unsafe {
            _mm256_storeu_si256(csf.as_mut_ptr().add(j) as *mut __m256i, c);
            _mm256_storeu_si256(activity.as_mut_ptr().add(j) as *mut __m256i, act);
        }
        j += 8;
    }
    j
}
