//! NEON row of ADM's scale-0 denominator: cube sums eight values a step. `|x|` of an
//! `i16` fits 16 bits unsigned, its square 32 bits (`mul` on 32-bit lanes) and its cube
//! 48 (`umlal` into 64-bit lanes); the sums wrap modulo 2^64 as the scalar twin's do, so
//! their order does not matter.

use std::arch::aarch64::*;

use super::super::den;

/// Scale-0 row (see [`den::cubes0_row`]) with NEON.
pub(crate) fn cubes0_row(row: &[i16]) -> u64 {
    // SAFETY: NEON was detected before this kernel was listed.
    let (sum, done) = unsafe { cubes0(row) };
    sum.wrapping_add(den::cubes0_row(&row[done..]))
}

#[target_feature(enable = "neon")]
unsafe fn cubes0(row: &[i16]) -> (u64, usize) {
    let mut acc = vdupq_n_u64(0);
    let mut j = 0;
    while j + 8 <= row.len() {
        // SAFETY: the row holds `j + 8` values.
        let x = unsafe { vld1q_s16(row.as_ptr().add(j)) };
        for a in [vmovl_s16(vget_low_s16(x)), vmovl_high_s16(x)] {
            let a = vreinterpretq_u32_s32(vabsq_s32(a));
            let sq = vmulq_u32(a, a);
            acc = vmlal_u32(acc, vget_low_u32(sq), vget_low_u32(a));
            acc = vmlal_high_u32(acc, sq, a);
        }
        j += 8;
    }
    let sum = vgetq_lane_u64::<0>(acc).wrapping_add(vgetq_lane_u64::<1>(acc));
    (sum, j)
}
