//! NEON rows of ADM's denominator. Scale 0: cube sums eight values a step; `|x|` of an
//! `i16` fits 16 bits unsigned, its square 32 bits (`mul` on 32-bit lanes) and its cube
//! 48 (`umlal` into 64-bit lanes). Scales 1..3: four values a step where every `|x|` is
//! below 2^30. The sums wrap modulo 2^64 as the scalar twin's do, so their order does
//! not matter.

use std::arch::aarch64::*;

use super::super::den::{self, Cube};

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

/// Scale-1..3 row (see [`den::cubes123_row`]) with NEON.
pub(crate) fn cubes123_row(row: &[i32], c: Cube) -> u64 {
    // The vector step needs squares below 2^31 after their shift (libvmaf shifts 30 or 31).
    if !(30..64).contains(&c.shift_sq) || c.round_sq > 1 << 32 {
        return den::cubes123_row(row, c);
    }
    // SAFETY: NEON was detected before this kernel was listed.
    let (sum, done) = unsafe { cubes123(row, c) };
    sum.wrapping_add(den::cubes123_row(&row[done..], c))
}

/// Four values a step where every `|x|` is below 2^30 (then the shifted square is below
/// 2^31 and the cube an exact `umull`); the scalar twin takes the other steps.
#[target_feature(enable = "neon")]
unsafe fn cubes123(row: &[i32], c: Cube) -> (u64, usize) {
    let round_sq = vdupq_n_u64(c.round_sq);
    let round_cub = vdupq_n_u64(c.round_cub);
    let shift_sq = vdupq_n_s64(-(c.shift_sq as i64));
    // A 64-bit shift by `shift_cub` takes it modulo 64, as `wrapping_shr`.
    let shift_cub = vdupq_n_s64(-((c.shift_cub & 63) as i64));
    let mut acc = vdupq_n_u64(0);
    let mut tail = 0u64;
    let mut j = 0;
    while j + 4 <= row.len() {
        // SAFETY: the row holds `j + 4` values.
        let x = unsafe { vld1q_s32(row.as_ptr().add(j)) };
        // |i32::MIN| reads as 2^31 here, which the bound also sends to the scalar code.
        let a = vreinterpretq_u32_s32(vabsq_s32(x));
        if vmaxvq_u32(a) >= 1 << 30 {
            for &v in &row[j..j + 4] {
                tail = tail.wrapping_add(den::cube123(v, c));
            }
            j += 4;
            continue;
        }
        for (a, sq) in [
            (vget_low_u32(a), vmull_u32(vget_low_u32(a), vget_low_u32(a))),
            (vget_high_u32(a), vmull_high_u32(a, a)),
        ] {
            let sq = vmovn_u64(vshlq_u64(vaddq_u64(sq, round_sq), shift_sq));
            let cube = vaddq_u64(vmull_u32(sq, a), round_cub);
            acc = vaddq_u64(acc, vshlq_u64(cube, shift_cub));
        }
        j += 4;
    }
    let sum = vgetq_lane_u64::<0>(acc).wrapping_add(vgetq_lane_u64::<1>(acc));
    (sum.wrapping_add(tail), j)
}
