//! Twin test of the scale-0 decoupling at every row width up to three AVX-512 steps: each
//! SIMD level against the scalar kernel, bit for bit, with band magnitudes of the bit
//! depths 8..16 and regions that start and end off a vector boundary.

use super::tests::{decouple_twins_agree, row_span_region};
use super::Kernels;
use crate::cpu::{self, CpuLevel};
use crate::testutil::twin_rng::TwinRng;

/// `n` values in `-lim..lim` (a seventh zero), or, with `near`, a gain of 0.5..1.5 of it
/// plus noise (small angles and gains around one); with `lim` 0, the extremes of `i16`
/// (whose dot products and squared norms reach 2^31).
fn band(rng: &mut TwinRng, n: usize, lim: i64, near: Option<&[i16]>) -> Vec<i16> {
    (0..n)
        .map(|i| {
            let v = match near {
                Some(o) => o[i] as i64 * rng.range(50, 150) / 100 + rng.range(-2, 2),
                None if lim == 0 => [-32768, -32767, 32767][rng.range(0, 2) as usize],
                None => rng.range(-lim, lim - 1),
            };
            if rng.next_u64().is_multiple_of(7) {
                0
            } else {
                v.clamp(-32768, 32767) as i16
            }
        })
        .collect()
}

#[test]
fn decouple_scale0_matches_scalar_at_every_width_and_depth() {
    let mut rng = TwinRng::new(0xdec0_0512);
    let levels = cpu::supported()
        .into_iter()
        .filter(|&l| l != CpuLevel::Scalar);
    for k in levels.map(Kernels::for_level) {
        for w in 1..=48usize {
            for bpc in 8u32..=16 {
                let lim = if rng.next_u64().is_multiple_of(6) {
                    0
                } else {
                    1i64 << (bpc - 1)
                };
                let h = 3;
                let stride = w + rng.range(0, 3) as usize;
                let n = stride * h;
                let reference: [Vec<i16>; 3] =
                    std::array::from_fn(|_| band(&mut rng, n, lim, None));
                let near = rng.next_u64().is_multiple_of(2);
                let distorted: [Vec<i16>; 3] = std::array::from_fn(|t| {
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
                let pair = (k.decouple0, Kernels::SCALAR.decouple0);
                assert!(
                    decouple_twins_agree(pair, (&reference, &distorted), stride, r, egl),
                    "{:?} scale-0 decoupling differs at width {w}, {bpc} bits, region {r:?}",
                    k.level
                );
            }
        }
    }
}
