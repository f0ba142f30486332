//! The AVX2 scoring of `vif`'s statistic, shared by the horizontal passes of `avx2` and
//! `avx2_madd`: four pixels' scores from their sigmas (as `Sums::add_sigmas` scores each),
//! the table logarithm of 64-bit lanes, and the rounded product of 32-bit lanes.

use std::arch::x86_64::*;

use crate::feature::vif::tables::SIGMA_NSQ;

/// Joins the low 32 bits of the 64-bit lanes of `even` (columns 0, 2, ..) and `odd`
/// (columns 1, 3, ..) back into eight 32-bit lanes in column order.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn interleave(even: __m256i, odd: __m256i) -> __m256i {
    _mm256_blend_epi32::<0b1010_1010>(even, _mm256_slli_epi64::<32>(odd))
}

/// `(a * b + 2^31) >> 32` per 32-bit lane, wrapping as the scalar code does.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn square(a: __m256i, b: __m256i) -> __m256i {
    let round = _mm256_set1_epi64x(1 << 31);
    let e = _mm256_add_epi64(_mm256_mul_epu32(a, b), round);
    let o = _mm256_mul_epu32(_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b));
    let o = _mm256_add_epi64(o, round);
    // SAFETY: AVX2 is enabled here.
    unsafe { interleave(_mm256_srli_epi64::<32>(e), _mm256_srli_epi64::<32>(o)) }
}

/// The four sums of the statistic, in 64-bit lanes (added up at the end of a row).
pub(super) struct ScoreSums {
    num_log: __m256i,
    den_log: __m256i,
    num_flat: __m256i,
    den_flat: __m256i,
}

impl ScoreSums {
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn new() -> Self {
        let z = _mm256_setzero_si256();
        ScoreSums {
            num_log: z,
            den_log: z,
            num_flat: z,
            den_flat: z,
        }
    }

    /// (num_log, den_log, num_flat, den_flat), each summed over its lanes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn totals(&self) -> [i64; 4] {
        let lanes = |v: __m256i| {
            let mut a = [0i64; 4];
            // SAFETY: `a` holds the 32 bytes stored (unaligned store).
            unsafe { _mm256_storeu_si256(a.as_mut_ptr() as *mut __m256i, v) };
            a.iter().sum::<i64>()
        };
        [
            lanes(self.num_log),
            lanes(self.den_log),
            lanes(self.num_flat),
            lanes(self.den_flat),
        ]
    }
}

/// `floor(log2 x) - 15` of 64-bit lanes `x` (`2^17 <= x < 2^52`): the shift that leaves
/// the top 16 significant bits, found from the exponent of `x` as a double.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn top16_shift(x: __m256i) -> __m256i {
    let magic = _mm256_set1_epi64x(0x4330_0000_0000_0000); // the bits of 2^52
    let exact = _mm256_sub_pd(
        _mm256_castsi256_pd(_mm256_or_si256(x, magic)),
        _mm256_castsi256_pd(magic),
    );
    let biased = _mm256_srli_epi64::<52>(_mm256_castpd_si256(exact));
    _mm256_sub_epi64(biased, _mm256_set1_epi64x(1023 + 15))
}

/// `log2(x) * 2048` of 64-bit lanes `x` (`2^17 <= x < 2^52`) from the table, as the
/// scalar `log2_u32` / `log2_u64` give it.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn log2_lanes(table: &[i32; 65536], x: __m256i) -> __m256i {
    // SAFETY: AVX2 is enabled here.
    let k = unsafe { top16_shift(x) };
    // Masking to 16 bits keeps every gathered index inside the table.
    let index = _mm256_and_si256(_mm256_srlv_epi64(x, k), _mm256_set1_epi64x(0xFFFF));
    // SAFETY: every index is below 65536, the table's length; AVX2 is enabled here.
    let t = unsafe { _mm256_i64gather_epi32::<4>(table.as_ptr(), index) };
    _mm256_add_epi64(_mm256_cvtepi32_epi64(t), _mm256_slli_epi64::<11>(k))
}

/// Scores four pixels from their `sigma1_sq`, `sigma2_sq` (clamped at 0) and `sigma12`
/// lanes into `acc`, as `Sums::add_sigmas` scores each. Lanes whose branch is not taken
/// get a harmless stand-in before any table look-up.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn score4(
    s1: __m128i,
    s2: __m128i,
    s12: __m128i,
    gain: __m256d,
    table: &[i32; 65536],
    acc: &mut ScoreSums,
) {
    const EPS: f64 = 65536.0 * 1.0e-10;
    let nsq = _mm_set1_epi32(SIGMA_NSQ);
    let zero = _mm_setzero_si128();
    let stand_in = _mm256_set1_epi64x(1 << 18);
    let flat32 = _mm_cmpgt_epi32(nsq, s1);
    let flat = _mm256_cvtepi32_epi64(flat32);
    acc.num_flat = _mm256_add_epi64(
        acc.num_flat,
        _mm256_and_si256(flat, _mm256_cvtepi32_epi64(s2)),
    );
    acc.den_flat = _mm256_sub_epi64(acc.den_flat, flat);
    // All four flat: no logarithm to take.
    if _mm_movemask_epi8(flat32) == 0xFFFF {
        return;
    }

    // SAFETY: AVX2 is enabled here.
    unsafe {
        let x = _mm256_cvtepu32_epi64(_mm_add_epi32(s1, nsq));
        let x = _mm256_blendv_epi8(x, stand_in, flat);
        let den = _mm256_sub_epi64(log2_lanes(table, x), _mm256_set1_epi64x(2048 * 17));
        acc.den_log = _mm256_add_epi64(acc.den_log, _mm256_andnot_si256(flat, den));
    }

    let positive = _mm_and_si128(_mm_cmpgt_epi32(s12, zero), _mm_cmpgt_epi32(s2, zero));
    let active32 = _mm_andnot_si128(flat32, positive);
    if _mm_movemask_epi8(active32) == 0 {
        return;
    }
    let active = _mm256_cvtepi32_epi64(active32);
    let (s1d, s2d, s12d) = (
        _mm256_cvtepi32_pd(s1),
        _mm256_cvtepi32_pd(s2),
        _mm256_cvtepi32_pd(s12),
    );
    let g = _mm256_div_pd(s12d, _mm256_add_pd(s1d, _mm256_set1_pd(EPS)));
    // Truncation toward zero; out of range gives i32::MIN, which the clamp makes 0 as the
    // scalar saturating cast does.
    let sv = _mm256_cvttpd_epi32(_mm256_sub_pd(s2d, _mm256_mul_pd(g, s12d)));
    let sv = _mm_max_epi32(sv, zero);
    let g = _mm256_min_pd(g, gain);
    let numer = _mm256_cvtepu32_epi64(_mm_add_epi32(sv, nsq));
    let signal = _mm256_mul_pd(_mm256_mul_pd(g, g), s1d);
    let signal = _mm256_round_pd::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(signal);
    // An integral double below 2^52 plus 2^52 holds the integer in its mantissa bits.
    let magic = _mm256_set1_pd(4_503_599_627_370_496.0);
    let signal = _mm256_sub_epi64(
        _mm256_castpd_si256(_mm256_add_pd(signal, magic)),
        _mm256_castpd_si256(magic),
    );
    let with_signal = _mm256_blendv_epi8(stand_in, _mm256_add_epi64(signal, numer), active);
    let numer = _mm256_blendv_epi8(stand_in, numer, active);
    // SAFETY: AVX2 is enabled here.
    let num = unsafe { _mm256_sub_epi64(log2_lanes(table, with_signal), log2_lanes(table, numer)) };
    acc.num_log = _mm256_add_epi64(acc.num_log, _mm256_and_si256(active, num));
}
