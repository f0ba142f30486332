//! Twin tests of the CSF weighting at every row width up to three AVX-512 steps: each SIMD
//! level against the scalar twin, bit for bit, with band values of the bit depths 8..16
//! (and the full `i32` range at scales 1..3), weights on both sides of 2^15 and 2^31, and
//! regions that start and end off a vector boundary.

use super::super::border::Region;
use super::tests::weight_twins_agree;
use super::Kernels;
use crate::testutil::twin_rng::TwinRng;

/// A region of `h` rows whose columns start in `0..3` and end at `w` or before.
fn columns(rng: &mut TwinRng, w: usize, h: usize) -> Region {
    let left = rng.range(0, (w as i64 - 1).min(3)) as usize;
    let right = if rng.next_u64().is_multiple_of(2) {
        w
    } else {
        rng.range(left as i64, w as i64) as usize
    };
    Region {
        top: 0,
        bottom: h,
        left,
        right,
    }
}

#[test]
fn weight_scale0_matches_scalar_at_every_width_and_depth() {
    let mut rng = TwinRng::new(0x3e_0512);
    for k in Kernels::simd_levels() {
        for w in 1..=50usize {
            for bpc in 8u32..=16 {
                let h = 2;
                let stride = w + rng.range(0, 3) as usize;
                let lim = 1i64 << (bpc - 1);
                // Now and then the extremes of i16, whose products reach -2^30.
                let src: [Vec<i16>; 3] = std::array::from_fn(|_| {
                    (0..stride * h)
                        .map(|_| match rng.next_u64() % 8 {
                            0 => i16::MIN,
                            1 => i16::MAX,
                            _ => rng.range(-lim, lim - 1) as i16,
                        })
                        .collect()
                });
                // Any weight, or one at the edges of the 16-bit lanes.
                let rf = [0; 3].map(|_: u16| match rng.next_u64() % 3 {
                    0 => [0, 1, 32767, 32768, 65535][rng.range(0, 4) as usize],
                    _ => rng.range(0, 65535) as u16,
                });
                let r = columns(&mut rng, w, h);
                let pair = (k.weight0, Kernels::SCALAR.weight0);
                assert!(
                    weight_twins_agree(pair, &src, stride, r, rf),
                    "{:?} scale-0 weighting differs at width {w}, {bpc} bits, {r:?}, rf {rf:?}",
                    k.level
                );
            }
        }
    }
}

#[test]
fn weight_scales_1_to_3_match_scalar_at_every_width() {
    let mut rng = TwinRng::new(0x3e_1512);
    for k in Kernels::simd_levels() {
        for w in 1..=50usize {
            for bits in [8u32, 12, 16, 24, 32] {
                let h = 2;
                let stride = w + rng.range(0, 3) as usize;
                let lim = 1i64 << (bits - 1);
                let src: [Vec<i32>; 3] = std::array::from_fn(|_| {
                    (0..stride * h)
                        .map(|_| rng.range(-lim, lim - 1) as i32)
                        .collect()
                });
                // Weights below and above 2^31 (the two products of the kernel).
                let rf = [0; 3].map(|_: u32| rng.range(0, u32::MAX as i64) as u32);
                let r = columns(&mut rng, w, h);
                let pair = (k.weight123, Kernels::SCALAR.weight123);
                assert!(
                    weight_twins_agree(pair, &src, stride, r, rf),
                    "{:?} scale-1..3 weighting differs at width {w}, {bits}-bit values, {r:?}, \
                     rf {rf:?}",
                    k.level
                );
            }
        }
    }
}
