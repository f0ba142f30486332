//! AVX-512 twin of the horizontal statistic pass (with VNNI): thirty-two columns a step
//! by 16-bit dot products (`vpdpwssd`, forced as one instruction by `cpu::vnni`), the
//! pixels scored by the AVX2 scoring's buffers (the pieces in `avx512_score`). The
//! vertical passes of scales 0..2 are in `avx512_vertical`, the down-sampling to scales 1
//! and 2 in `avx512_down`; scale 3 (taps past 2^15) uses the AVX2 kernels. The
//! arithmetic is that of `avx2_madd` (see its module note), the scores those of
//! `Sums::add_sigmas`.

use std::arch::x86_64::*;

use super::super::kernels::Kernels;
use super::avx2;
use super::avx2_score_loads::ScoreSums;
use super::avx512_score::{
    mean32, moment32, moment_low32, score32, score32_flat, square, tap_pairs, words_of,
};
use crate::cpu::CpuLevel;
use crate::feature::vif::stats::{horizontal_columns, StatScratch, Sums};
use crate::feature::vif::tables::{SIGMA_NSQ, TAPS};

/// The AVX-512 kernel table, at the VNNI level: the dispatch hands it out only when the
/// processor has AVX-512 (F, CD, BW, DQ, VL) and the Ice Lake extensions (VNNI).
pub(in crate::feature::vif) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx512Vnni,
    vertical_u8: super::avx512_vertical::vertical_u8,
    vertical_u16: super::avx512_vertical::vertical_u16,
    down_vertical_u8: super::avx512_down::down_vertical_u8,
    down_vertical_u16: super::avx512_down::down_vertical_u16,
    down_horizontal: super::avx512_down::down_horizontal,
    horizontal,
    deferred_u8: crate::feature::vif::stats::no_deferred::<u8>,
    deferred_u16: crate::feature::vif::stats::no_deferred::<u16>,
    horizontal_keep: super::avx512_split::horizontal_keep,
    horizontal_dis: super::avx512_split::horizontal_dis,
    vertical_down_u8: super::avx512_vertical::vertical_down_u8,
    vertical_down_u16: super::avx512_vertical::vertical_down_u16,
};

fn horizontal(s: &mut StatScratch, width: usize, scale: usize, gain_limit: f64, sums: &mut Sums) {
    // SAFETY: this table is only handed out when the processor has AVX-512 and VNNI.
    unsafe {
        match TAPS[scale].len() {
            17 => horizontal_avx512::<17, 9>(s, width, scale, gain_limit, sums),
            9 => horizontal_avx512::<9, 5>(s, width, scale, gain_limit, sums),
            5 => horizontal_avx512::<5, 3>(s, width, scale, gain_limit, sums),
            _ => {
                // No vertical kernel of this table writes words at this scale.
                debug_assert_eq!(s.words_done, 0);
                (avx2::KERNELS.horizontal)(s, width, scale, gain_limit, sums)
            }
        }
    }
}

#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512bw,avx512vl,avx512vnni")]
unsafe fn horizontal_avx512<const N: usize, const P: usize>(
    s: &mut StatScratch,
    width: usize,
    scale: usize,
    gain_limit: f64,
    sums: &mut Sums,
) {
    let n32 = words_of::<N>(s, width, false);
    let pairs = tap_pairs::<P>(TAPS[scale]);
    let zero = _mm512_setzero_si512();
    let mut acc = ScoreSums::new(gain_limit);
    let [m1, m2, xh, xl, yh, yl, zh, zl] = &s.words;
    for j in (0..n32).step_by(32) {
        // SAFETY: the features are enabled here; every word array holds the row's padded
        // length plus 32, at least j + 2P + 30 <= n32 + N - 1.
        unsafe {
            let (a1, a2) = (mean32(&pairs, m1, j), mean32(&pairs, m2, j));
            let yy = moment32(&pairs, yh, yl, j);
            let sigma2 = [0, 1]
                .map(|i| _mm512_max_epi32(_mm512_sub_epi32(yy[i], square(a2[i], a2[i])), zero));
            // `sigma1_sq` less the low half's share (0..=2^16) first: below SIGMA_NSQ - 2^16
            // in every lane, every pixel is flat whatever that share is, and the low half's
            // filter is not needed (as in `avx2_madd`'s `step16`).
            // The high half's filter with 2^31 added back, as a mean's is.
            let high = mean32(&pairs, xh, j);
            let part = [0, 1].map(|i| _mm512_sub_epi32(high[i], square(a1[i], a1[i])));
            let bound = _mm512_set1_epi32(SIGMA_NSQ - 65536 - 1);
            if _mm512_cmpgt_epi32_mask(part[0], bound) | _mm512_cmpgt_epi32_mask(part[1], bound)
                == 0
            {
                score32_flat(sigma2, &mut acc);
                continue;
            }
            let low = moment_low32(&pairs, xl, j);
            let sigma1 = [0, 1].map(|i| _mm512_add_epi32(part[i], low[i]));
            let sigma12 = || {
                let xy = moment32(&pairs, zh, zl, j);
                [0, 1].map(|i| _mm512_sub_epi32(xy[i], square(a1[i], a2[i])))
            };
            score32(sigma1, sigma2, sigma12, &mut acc);
        }
    }
    let totals = acc.totals();
    sums.add_totals(totals[0], totals[1], totals[2], totals[3]);
    horizontal_columns(s, n32, width, scale, gain_limit, sums);
}
