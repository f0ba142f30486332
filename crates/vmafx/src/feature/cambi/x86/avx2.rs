//! cambi's AVX2 table: the run kernels of `runs_by` on eight 32-bit lanes (sixteen
//! 16-bit ones for the histogram update), and the pooling statistics (eight values a
//! step), which the AVX-512 table runs too.

use std::arch::x86_64::*;

use super::super::kernels::Kernels;
use crate::cpu::CpuLevel;
use crate::feature::cambi::pooling::PoolAcc;

/// The AVX2 kernels. The dispatch hands them out only when the processor has AVX2.
pub(in crate::feature::cambi) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx2,
    c_value_row,
    scan_runs,
    add_runs,
    pool_stats,
};

super::runs_by::run_kernels!("avx2", super::lanes::Avx2);

/// The pooling's exactness statistics of whole groups of eight (see
/// [`crate::feature::cambi::pooling::pool_groups`]): eight values a step, the same eight
/// running sums lane for lane.
pub(crate) fn pool_stats(values: &[f32], acc: &mut PoolAcc) {
    // SAFETY: this function is only in a table made after AVX2 was detected; the kernel
    // reads whole groups of eight inside `values`.
    unsafe { pool_stats_avx2(values, acc) }
}

/// Whole groups of eight added to `acc`: nonzero count, largest and smallest nonzero
/// bits, and the eight running sums (continued from those in `acc`).
///
/// # Safety
/// AVX2.
#[target_feature(enable = "avx2")]
unsafe fn pool_stats_avx2(values: &[f32], acc: &mut PoolAcc) {
    let n = values.len() / 8 * 8;
    let zero = _mm256_setzero_si256();
    let (mut zeros, mut top, mut smallest) = (zero, zero, _mm256_set1_epi32(-1));
    // SAFETY: two loads of four from an array of eight.
    let (mut low, mut high) = unsafe {
        (
            _mm256_loadu_pd(acc.sums.as_ptr()),
            _mm256_loadu_pd(acc.sums.as_ptr().add(4)),
        )
    };
    let mut j = 0;
    while j < n {
        // SAFETY: j + 8 <= n <= values.len().
        let v = unsafe { _mm256_loadu_ps(values.as_ptr().add(j)) };
        let bits = _mm256_castps_si256(v);
        let is_zero = _mm256_cmpeq_epi32(bits, zero);
        zeros = _mm256_sub_epi32(zeros, is_zero);
        top = _mm256_max_epu32(top, bits);
        smallest = _mm256_min_epu32(smallest, _mm256_or_si256(bits, is_zero));
        low = _mm256_add_pd(low, _mm256_cvtps_pd(_mm256_castps256_ps128(v)));
        high = _mm256_add_pd(high, _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(v)));
        j += 8;
    }
    let (mut z, mut t, mut s) = ([0u32; 8], [0u32; 8], [0u32; 8]);
    // SAFETY: each store writes eight 32-bit or four 64-bit values into an array of that
    // size (sums: two halves of four).
    unsafe {
        _mm256_storeu_si256(z.as_mut_ptr() as *mut __m256i, zeros);
        _mm256_storeu_si256(t.as_mut_ptr() as *mut __m256i, top);
        _mm256_storeu_si256(s.as_mut_ptr() as *mut __m256i, smallest);
        _mm256_storeu_pd(acc.sums.as_mut_ptr(), low);
        _mm256_storeu_pd(acc.sums.as_mut_ptr().add(4), high);
    }
    let zero_count: usize = z.iter().map(|&c| c as usize).sum();
    acc.positive += n - zero_count;
    acc.top = t.iter().copied().fold(acc.top, u32::max);
    acc.smallest = s.iter().copied().fold(acc.smallest, u32::min);
}
