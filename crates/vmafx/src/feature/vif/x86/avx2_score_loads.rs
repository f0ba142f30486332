//! The AVX2 scoring of the madd horizontal pass's pixels (scales 0..2) with the log2 table
//! read by scalar loads instead of gathers: on AMD's Zen cores a four-lane `vpgatherqd`
//! costs more than the four loads it stands for, and the gathers were most of the pass.
//!
//! Everything but the table look-ups stays in vectors, exactly as `avx2_score::score4` computes
//! it: the look-up indices, the masks, the `2048 k` parts of the logarithms. The looked-up
//! values are summed in scalar `i64`s beside the lanes' sums; a lane whose term is not
//! taken reads entry 0 of the table, which is 0. Every sum is an integer sum, so the
//! split changes no bit of the totals.

use std::arch::x86_64::*;

use super::avx2_score::top16_shift;
use crate::feature::vif::tables::{log2_table, SIGMA_NSQ};

/// The four sums of the statistic: the lanes' parts in 64-bit lanes, the table parts in
/// scalars (added up at the end of a row).
pub(super) struct ScoreSums {
    table: &'static [u16; 65536],
    num_log: __m256i,
    den_log: __m256i,
    num_flat: __m256i,
    den_flat: __m256i,
    num_table: i64,
    den_table: i64,
}

impl ScoreSums {
    #[target_feature(enable = "avx2")]
    pub(super) fn new() -> Self {
        let z = _mm256_setzero_si256();
        ScoreSums {
            table: log2_table()
                .try_into()
                .expect("the log2 table has 65536 entries"),
            num_log: z,
            den_log: z,
            num_flat: z,
            den_flat: z,
            num_table: 0,
            den_table: 0,
        }
    }

    /// (num_log, den_log, num_flat, den_flat), each summed over its lanes.
    #[target_feature(enable = "avx2")]
    pub(super) fn totals(&self) -> [i64; 4] {
        let lanes = |v: __m256i| {
            let mut a = [0i64; 4];
            // SAFETY: `a` holds the 32 bytes stored (unaligned store).
            unsafe { _mm256_storeu_si256(a.as_mut_ptr() as *mut __m256i, v) };
            a.iter().sum::<i64>()
        };
        [
            lanes(self.num_log) + self.num_table,
            lanes(self.den_log) + self.den_table,
            lanes(self.num_flat),
            lanes(self.den_flat),
        ]
    }

    /// The sum of the table's entries at the four 64-bit lanes of `index` (each below
    /// 2^16).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn table_sum(&self, index: __m256i) -> i64 {
        let mut at = [0u64; 4];
        // SAFETY: `at` holds the 32 bytes stored (unaligned store).
        unsafe { _mm256_storeu_si256(at.as_mut_ptr() as *mut __m256i, index) };
        at.iter()
            .map(|&i| self.table[(i & 0xFFFF) as usize] as i64)
            .sum()
    }
}

/// `log2(x) * 2048` of the 64-bit lanes `x` (`2^17 <= x < 2^52`) where `keep` is set, as
/// the scalar `log2_u32` / `log2_u64` give it, split as (`2048 k` in lanes, 0 where not
/// kept; the table index, 0 where not kept).
#[inline]
#[target_feature(enable = "avx2")]
fn log2_parts(x: __m256i, keep: __m256i) -> (__m256i, __m256i) {
    // SAFETY: AVX2 is enabled in this function, all `top16_shift` needs.
    let k = unsafe { top16_shift(x) };
    let index = _mm256_and_si256(_mm256_srlv_epi64(x, k), _mm256_set1_epi64x(0xFFFF));
    (
        _mm256_and_si256(_mm256_slli_epi64::<11>(k), keep),
        _mm256_and_si256(index, keep),
    )
}

/// Scores four pixels from their `sigma1_sq`, `sigma2_sq` (clamped at 0) and `sigma12`
/// lanes into `acc`, as `Sums::add_sigmas` scores each. Lanes whose branch is not taken
/// get a harmless stand-in before any look-up, and their terms are masked out.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn score4(s1: __m128i, s2: __m128i, s12: __m128i, gain: __m256d, acc: &mut ScoreSums) {
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

    let x = _mm256_cvtepu32_epi64(_mm_add_epi32(s1, nsq));
    let x = _mm256_blendv_epi8(x, stand_in, flat);
    let not_flat = _mm256_xor_si256(flat, _mm256_set1_epi64x(-1));
    let (k, index) = log2_parts(x, not_flat);
    let den = _mm256_sub_epi64(k, _mm256_and_si256(not_flat, _mm256_set1_epi64x(2048 * 17)));
    acc.den_log = _mm256_add_epi64(acc.den_log, den);
    acc.den_table += acc.table_sum(index);

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
    let (k_with, i_with) = log2_parts(with_signal, active);
    let (k_numer, i_numer) = log2_parts(numer, active);
    acc.num_log = _mm256_add_epi64(acc.num_log, _mm256_sub_epi64(k_with, k_numer));
    acc.num_table += acc.table_sum(i_with) - acc.table_sum(i_numer);
}
