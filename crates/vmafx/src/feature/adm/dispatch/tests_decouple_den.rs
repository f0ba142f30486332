//! Twin tests of the scale-1..3 decoupling and of the denominator rows: each SIMD level
//! against the scalar kernels on random sizes (odd widths, widths below one vector) and
//! value ranges of several bit depths, bit for bit.

use super::super::den::Cube;
use super::tests::{decouple_twins_agree, region};
use super::Kernels;
use crate::testutil::twin_rng::TwinRng;

/// A magnitude bound for band values: what scale-1..3 bands of `bpc`-bit pictures reach
/// (about `2^(bpc + 8)`), or the full `i32` range that sends steps to the scalar twin.
fn limit(rng: &mut TwinRng, bpc: u32) -> i64 {
    match rng.next_u64() % 4 {
        0 => 1 << 31,
        1 => 1 << (bpc + 8),
        2 => 1 << 24,
        _ => 300,
    }
}

/// `n` random values in `-lim..lim`, a seventh of them zero.
fn band(rng: &mut TwinRng, n: usize, lim: i64) -> Vec<i32> {
    (0..n)
        .map(|_| {
            if rng.next_u64().is_multiple_of(7) {
                0
            } else {
                rng.range(-lim, lim - 1) as i32
            }
        })
        .collect()
}

#[test]
fn decouple_scales_1_to_3_match_scalar() {
    let mut rng = TwinRng::new(0xdec123);
    for k in Kernels::simd_levels() {
        for case in 0..400 {
            let bpc = [8u32, 10, 12, 16][case % 4];
            let (w, h) = (rng.size(1, 100), rng.size(1, 8));
            let stride = w + rng.range(0, 5) as usize;
            let n = stride * h;
            let lim = limit(&mut rng, bpc);
            let reference: [Vec<i32>; 3] = std::array::from_fn(|_| band(&mut rng, n, lim));
            // Distorted: independent, or near the reference (small angles, gains about one).
            let mut distorted: [Vec<i32>; 3] = std::array::from_fn(|_| band(&mut rng, n, lim));
            if rng.next_u64().is_multiple_of(2) {
                for t in 0..3 {
                    for (d, &o) in distorted[t].iter_mut().zip(&reference[t]) {
                        let g = rng.range(50, 150);
                        let v = o as i64 * g / 100 + rng.range(-2, 2);
                        *d = v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
                    }
                }
            }
            let egl = [1.0, 100.0, rng.range(100, 10000) as f64 / 100.0][case % 3];
            let r = region(&mut rng, w, h);
            let pair = (k.decouple123, Kernels::SCALAR.decouple123);
            assert!(
                decouple_twins_agree(pair, (&reference, &distorted), stride, r, egl),
                "case {case}: {:?} scale-1..3 decoupling differs at {w}x{h}, region {r:?}, \
                 values below {lim}, egl {egl}",
                k.level
            );
        }
    }
}

#[test]
fn denominator_row_scale0_matches_scalar() {
    let mut rng = TwinRng::new(0xde0);
    for k in Kernels::simd_levels() {
        for case in 0..400 {
            let n = rng.size(0, 200);
            // Scale-0 bands of 8..16-bit pictures span up to the whole i16 range.
            let bpc = [8u32, 10, 12, 16][case % 4];
            let lim = (1i64 << (bpc - 1)).min(32768);
            let row: Vec<i16> = (0..n)
                .map(|_| match rng.next_u64() % 8 {
                    0 => i16::MIN,
                    1 => i16::MAX,
                    _ => rng.range(-lim, lim - 1) as i16,
                })
                .collect();
            let (got, want) = ((k.den0_row)(&row), (Kernels::SCALAR.den0_row)(&row));
            assert_eq!(
                got, want,
                "case {case}: {:?} scale-0 denominator row of {n}, {bpc} bits",
                k.level
            );
        }
    }
}

#[test]
fn denominator_row_scales_1_to_3_match_scalar() {
    let mut rng = TwinRng::new(0xde123);
    for k in Kernels::simd_levels() {
        for case in 0..600 {
            let bpc = [8u32, 10, 12, 16][case % 4];
            let n = rng.size(0, 200);
            let lim = limit(&mut rng, bpc);
            let row = band(&mut rng, n, lim);
            // libvmaf's shifts (square 30 or 31, cube from the width), or arbitrary ones
            // that the vector step must decline.
            let c = if rng.next_u64().is_multiple_of(3) {
                let shift_sq = rng.range(0, 70) as u32;
                Cube {
                    shift_sq: shift_sq.min(63),
                    round_sq: rng.next_u64() >> rng.range(0, 63),
                    shift_cub: rng.range(0, 70) as u32,
                    round_cub: rng.next_u64() >> rng.range(0, 63),
                }
            } else {
                let shift_sq = [31, 30, 31][case % 3];
                let shift_cub = super::super::cnum::ceil_u32((rng.size(1, 4000) as f64).log2());
                Cube {
                    shift_sq,
                    round_sq: 1 << shift_sq,
                    shift_cub,
                    round_cub: super::super::cnum::half_of_shift(shift_cub) as u64,
                }
            };
            let (got, want) = (
                (k.den123_row)(&row, c),
                (Kernels::SCALAR.den123_row)(&row, c),
            );
            assert_eq!(
                got, want,
                "case {case}: {:?} scale-1..3 denominator row of {n}, values below {lim}, {c:?}",
                k.level
            );
        }
    }
}
