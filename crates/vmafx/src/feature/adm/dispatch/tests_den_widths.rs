//! Twin tests of the denominator rows at every row length up to three AVX-512 steps: each
//! SIMD level against the scalar twin, bit for bit, with band values of the bit depths
//! 8..16 (and the full `i32` range at scales 1..3) under libvmaf's shifts and arbitrary
//! ones.

use super::super::cnum::{ceil_u32, half_of_shift};
use super::super::den::Cube;
use super::Kernels;
use crate::testutil::twin_rng::TwinRng;

#[test]
fn denominator_rows_match_scalar_at_every_length_and_depth() {
    let mut rng = TwinRng::new(0xde_0512);
    for k in Kernels::simd_levels() {
        for n in 0..=50usize {
            for bpc in 8u32..=16 {
                let lim = 1i64 << (bpc - 1);
                let row0: Vec<i16> = (0..n).map(|_| rng.range(-lim, lim - 1) as i16).collect();
                assert_eq!(
                    (k.den0_row)(&row0),
                    (Kernels::SCALAR.den0_row)(&row0),
                    "{:?} scale-0 denominator row of {n}, {bpc} bits",
                    k.level
                );
                // Scales 1..3 carry about 2 + 8·scale more bits; all of i32 as well.
                let lim = [1i64 << (bpc + 9), 1 << (bpc + 14), 1 << 31][rng.range(0, 2) as usize];
                let row: Vec<i32> = (0..n).map(|_| rng.range(-lim, lim - 1) as i32).collect();
                let c = if rng.next_u64().is_multiple_of(2) {
                    let shift_sq = [31, 30, 31][rng.range(0, 2) as usize];
                    let shift_cub = ceil_u32((rng.size(1, 4000) as f64).log2());
                    Cube {
                        shift_sq,
                        round_sq: 1 << shift_sq,
                        shift_cub,
                        round_cub: half_of_shift(shift_cub) as u64,
                    }
                } else {
                    Cube {
                        shift_sq: rng.range(0, 63) as u32,
                        round_sq: rng.next_u64() >> rng.range(0, 63),
                        shift_cub: rng.range(0, 70) as u32,
                        round_cub: rng.next_u64() >> rng.range(0, 63),
                    }
                };
                assert_eq!(
                    (k.den123_row)(&row, c),
                    (Kernels::SCALAR.den123_row)(&row, c),
                    "{:?} scale-1..3 denominator row of {n}, values below {lim}, {c:?}",
                    k.level
                );
            }
        }
    }
}
