//! Twin tests of the DWT kernels at every input width up to three AVX-512 steps: each SIMD
//! level against the scalar twin, bit for bit, at level 0 in every sample depth the
//! kernels take (with samples past the depth too) and at levels 1..3 with full-range and
//! realistic band values. (A plane of one row or column has no mirrored taps: the scalar
//! twin rejects it, as libvmaf does.)

use super::super::bands::Bands;
use super::super::dwt::Taps;
use super::tests::{band_differs, dwt0_differs};
use super::Kernels;
use crate::testutil::twin_rng::TwinRng;

#[test]
fn dwt_level0_matches_scalar_at_every_width_and_depth() {
    let mut rng = TwinRng::new(0xd3_0512);
    for k in Kernels::simd_levels() {
        for w in 2..=50usize {
            for bpc in [8u32, 10, 12, 16] {
                let h = rng.size(2, 7);
                let stride = w + rng.range(0, 3) as usize;
                let max = (1i64 << bpc) - 1;
                // Uniform samples, only the extremes (the largest sums), or now and then
                // a sample past the depth (which the kernels must take as the scalar
                // twin does).
                let mode = rng.next_u64() % 5;
                let px: Vec<u16> = (0..stride * h)
                    .map(|_| match mode {
                        0 | 1 => (max * (rng.next_u64() % 2) as i64) as u16,
                        2 if rng.next_u64().is_multiple_of(9) => rng.range(0, 65535) as u16,
                        _ => rng.range(0, max) as u16,
                    })
                    .collect();
                let t = Taps::new(w, h);
                let os = w.div_ceil(2) + rng.range(0, 2) as usize;
                if let Some(band) = dwt0_differs(&k, (&px, stride, bpc), &t, os) {
                    panic!(
                        "{:?} DWT level 0 band {band} differs at {w}x{h}, {bpc} bits",
                        k.level
                    );
                }
            }
        }
    }
}

#[test]
fn dwt_levels_1_to_3_match_scalar_at_every_width() {
    let mut rng = TwinRng::new(0x1e_0512);
    for k in Kernels::simd_levels() {
        for w in 2..=50usize {
            for scale in 1..=3 {
                // Full-range values (which wrap in the scalar code too), or level-0 ones.
                for lim in [1i64 << 31, 1 << 15] {
                    let h = rng.size(2, 7);
                    let stride = w + rng.range(0, 3) as usize;
                    let src: Vec<i32> = (0..stride * h)
                        .map(|_| rng.range(-lim, lim - 1) as i32)
                        .collect();
                    let t = Taps::new(w, h);
                    let os = w.div_ceil(2) + rng.range(0, 2) as usize;
                    let len = os * h.div_ceil(2);
                    let (mut got, mut want) =
                        (Bands::<i32>::zeroed(len), Bands::<i32>::zeroed(len));
                    let (mut tg, mut tw) = (vec![0; 2 * w], vec![0; 2 * w]);
                    (k.dwt)(&src, stride, &t, scale, &mut tg, &mut got, os);
                    (Kernels::SCALAR.dwt)(&src, stride, &t, scale, &mut tw, &mut want, os);
                    if let Some(band) = band_differs(&got, &want) {
                        panic!(
                            "{:?} DWT level {scale} band {band} differs at {w}x{h}, |x| < {lim}",
                            k.level
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn dwt_levels_of_the_scale0_low_band_match_scalar_at_every_width() {
    let mut rng = TwinRng::new(0x1e_1612);
    for k in Kernels::simd_levels() {
        for w in 2..=70usize {
            // Level 1 is what runs on the scale-0 band; levels 2 and 3 take the fallback.
            for scale in [1, 1, 2, 3] {
                let h = rng.size(2, 7);
                let stride = w + rng.range(0, 3) as usize;
                // Full-range values, or the extremes (the largest sums).
                let extremes = rng.next_u64().is_multiple_of(2);
                let src: Vec<i16> = (0..stride * h)
                    .map(|_| match (extremes, rng.next_u64() % 2) {
                        (true, 0) => i16::MIN,
                        (true, _) => i16::MAX,
                        _ => rng.range(-32768, 32767) as i16,
                    })
                    .collect();
                let t = Taps::new(w, h);
                let os = w.div_ceil(2) + rng.range(0, 2) as usize;
                let len = os * h.div_ceil(2);
                let (mut got, mut want) = (Bands::<i32>::zeroed(len), Bands::<i32>::zeroed(len));
                let (mut tg, mut tw) = (vec![0; 2 * w], vec![0; 2 * w]);
                (k.dwt1)(&src, stride, &t, scale, &mut tg, &mut got, os);
                (Kernels::SCALAR.dwt1)(&src, stride, &t, scale, &mut tw, &mut want, os);
                if let Some(band) = band_differs(&got, &want) {
                    panic!(
                        "{:?} DWT level {scale} of i16 band {band} differs at {w}x{h}",
                        k.level
                    );
                }
            }
        }
    }
}
