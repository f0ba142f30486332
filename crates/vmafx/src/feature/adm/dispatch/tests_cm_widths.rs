//! Twin tests of the contrast-masking rows at every row width up to three AVX-512 steps:
//! each SIMD level against the scalar kernels, bit for bit, with band magnitudes of the
//! bit depths 8..16 and column ranges that start and end off a vector boundary.

use super::super::cm::{around, Masking, Row0, Row123};
use super::super::cnum::ceil_u32;
use super::Kernels;
use crate::testutil::twin_rng::TwinRng;

/// Three bands of `n` values in `-lim..lim`.
fn bands(rng: &mut TwinRng, n: usize, lim: i64) -> [Vec<i64>; 3] {
    std::array::from_fn(|_| (0..n).map(|_| rng.range(-lim, lim - 1)).collect())
}

/// A row, its neighbours and a column range of a `w` x `h` band.
fn place(rng: &mut TwinRng, w: usize, h: usize) -> ((usize, usize, usize), usize, usize) {
    let i = rng.range(0, h as i64 - 1) as usize;
    let (up, down) = around(i, h);
    let left = rng.range(0, (w as i64 - 1).min(3)) as usize;
    let right = if rng.next_u64().is_multiple_of(2) {
        w
    } else {
        rng.range(left as i64, w as i64) as usize
    };
    ((up, i, down), left, right)
}

#[test]
fn masking_rows_match_scalar_at_every_width_and_depth() {
    let mut rng = TwinRng::new(0xc3_0512);
    for k in Kernels::simd_levels() {
        for w in 2..=50usize {
            for bpc in 8u32..=16 {
                let h = 3;
                let stride = w + rng.range(0, 3) as usize;
                let n = stride * h;
                let lw = (w as f64).log2();
                // Scale 0: i16 bands of about bpc - 1 bits.
                let to16 = |b: [Vec<i64>; 3]| -> [Vec<i16>; 3] {
                    b.map(|v| v.iter().map(|&x| x as i16).collect())
                };
                let lim = 1i64 << (bpc - 1);
                let (s0, m0, a0) = (
                    to16(bands(&mut rng, n, lim)),
                    to16(bands(&mut rng, n, lim)),
                    to16(bands(&mut rng, n, lim)),
                );
                let (rows, left, right) = place(&mut rng, w, h);
                let row = Row0 {
                    stride,
                    w,
                    rows,
                    left,
                    right,
                    rf: [0; 3].map(|_: u16| rng.range(0, 65535) as u16),
                    shift_cub: [ceil_u32(lw - 4.0), ceil_u32(lw - 4.0), ceil_u32(lw - 3.0)],
                };
                let m = Masking {
                    source: &s0,
                    masker: &m0,
                    activity: &a0,
                };
                assert_eq!(
                    (k.cm0_row)(&m, &row),
                    (Kernels::SCALAR.cm0_row)(&m, &row),
                    "{:?} scale-0 masking row, {bpc} bits, {row:?}",
                    k.level
                );
                // Scales 1..3: i32 bands of about bpc + 8 bits.
                let to32 = |b: [Vec<i64>; 3]| -> [Vec<i32>; 3] {
                    b.map(|v| v.iter().map(|&x| x as i32).collect())
                };
                let lim = 1i64 << (bpc + 8);
                let (s1, m1, a1) = (
                    to32(bands(&mut rng, n, lim)),
                    to32(bands(&mut rng, n, lim)),
                    to32(bands(&mut rng, n, lim)),
                );
                let (rows, left, right) = place(&mut rng, w, h);
                let row = Row123 {
                    stride,
                    w,
                    rows,
                    left,
                    right,
                    rf: [0; 3].map(|_: u32| rng.range(0, u32::MAX as i64) as u32),
                    shift_cub: ceil_u32(lw),
                };
                let m = Masking {
                    source: &s1,
                    masker: &m1,
                    activity: &a1,
                };
                assert_eq!(
                    (k.cm123_row)(&m, &row),
                    (Kernels::SCALAR.cm123_row)(&m, &row),
                    "{:?} scale-1..3 masking row, {bpc} bits, {row:?}",
                    k.level
                );
            }
        }
    }
}
