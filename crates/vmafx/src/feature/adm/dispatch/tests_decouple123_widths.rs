//! Twin test of the scale-1..3 decoupling at every row width up to three AVX-512 steps:
//! each SIMD level against the scalar kernel, bit for bit, with band magnitudes of the bit
//! depths 8..16, beyond them up to the whole `i32` range, next to powers of two, and
//! regions that start and end off a vector boundary.

use super::tests::{decouple_twins_agree, row_span_region};
use super::Kernels;
use crate::testutil::twin_rng::TwinRng;

/// A power of two at or above 2^14, one less or one more, of either sign (the divisor's
/// leading bits round across a power of two there).
fn edge(rng: &mut TwinRng) -> i64 {
    let v = (1i64 << rng.range(14, 30)) + rng.range(-1, 1);
    if rng.next_u64().is_multiple_of(2) {
        -v
    } else {
        v
    }
}

/// `n` values in `-lim..lim` (a seventh zero), or, with `near`, a gain of 0.5..1.5 of it
/// plus noise (small angles and gains around one); with `lim` 0, values next to powers
/// of two.
fn band(rng: &mut TwinRng, n: usize, lim: i64, near: Option<&[i32]>) -> Vec<i32> {
    (0..n)
        .map(|i| {
            let v = match near {
                Some(o) => o[i] as i64 * rng.range(50, 150) / 100 + rng.range(-2, 2),
                None if lim == 0 => edge(rng),
                None => rng.range(-lim, lim - 1),
            };
            if rng.next_u64().is_multiple_of(7) {
                0
            } else {
                v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
            }
        })
        .collect()
}

#[test]
fn decouple_scales_1_to_3_match_scalar_at_every_width_and_depth() {
    let mut rng = TwinRng::new(0xdec1_0512);
    for k in Kernels::simd_levels() {
        for w in 1..=50usize {
            for bpc in 8u32..=16 {
                // Scale-1..3 bands carry about 8 bits more than the picture; now and then
                // a value past the vector range (2^24) or anywhere in i32.
                let lim = match rng.next_u64() % 8 {
                    0 => 1i64 << 31,
                    1 => 1 << 25,
                    2 => 0,
                    _ => 1 << (bpc + 8),
                };
                let h = 3;
                let stride = w + rng.range(0, 3) as usize;
                let n = stride * h;
                let mut reference: [Vec<i32>; 3] =
                    std::array::from_fn(|_| band(&mut rng, n, lim, None));
                // |i32::MIN| as a divisor, in the band outside the angle test (whose
                // scalar squares would overflow).
                if lim == 0 {
                    reference[2][rng.range(0, n as i64 - 1) as usize] = i32::MIN;
                }
                let near = rng.next_u64().is_multiple_of(2);
                let distorted: [Vec<i32>; 3] = std::array::from_fn(|t| {
                    band(&mut rng, n, lim, near.then_some(reference[t].as_slice()))
                });
                let r = row_span_region(&mut rng, w, h);
                // Integral gain limits (the integer path, up to its largest) and others.
                let egl = [
                    1.0,
                    100.0,
                    rng.range(100, 10000) as f64 / 100.0,
                    0.0,
                    65535.0,
                ][(w + bpc as usize) % 5];
                let pair = (k.decouple123, Kernels::SCALAR.decouple123);
                assert!(
                    decouple_twins_agree(pair, (&reference, &distorted), stride, r, egl),
                    "{:?} scale-1..3 decoupling differs at width {w}, {bpc} bits, values \
                     below {lim}, region {r:?}",
                    k.level
                );
            }
        }
    }
}
