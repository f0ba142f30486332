//! Xiph's (Daala's) lifting-based integer 8-point DCT, the transform PSNR-HVS measures in.

/// Halves with rounding toward zero (adds the sign bit before the shift).
#[inline]
fn half_toward_zero(a: i32, b: u32) -> i32 {
    ((((a as u32) >> (32 - b)) as i32).wrapping_add(a)) >> b
}

/// `(a * m + r) >> s` in wrapping 32-bit arithmetic, as the C does.
#[inline]
fn mul_shift(a: i32, m: i32, r: i32, s: u32) -> i32 {
    a.wrapping_mul(m).wrapping_add(r) >> s
}

/// Transforms eight samples read at `x[i * stride]` into `y[0..8]`.
fn fdct8(y: &mut [i32], x: &[i32], stride: usize) {
    let mut t0 = x[0];
    let mut t4 = x[stride];
    let mut t2 = x[2 * stride];
    let mut t6 = x[3 * stride];
    let mut t7 = x[4 * stride];
    let mut t3 = x[5 * stride];
    let mut t5 = x[6 * stride];
    let mut t1 = x[7 * stride];
    t1 = t0.wrapping_sub(t1);
    let t1h = half_toward_zero(t1, 1);
    t0 = t0.wrapping_sub(t1h);
    t4 = t4.wrapping_add(t5);
    let t4h = half_toward_zero(t4, 1);
    t5 = t5.wrapping_sub(t4h);
    t3 = t2.wrapping_sub(t3);
    t2 = t2.wrapping_sub(half_toward_zero(t3, 1));
    t6 = t6.wrapping_add(t7);
    let t6h = half_toward_zero(t6, 1);
    t7 = t6h.wrapping_sub(t7);
    t0 = t0.wrapping_add(t6h);
    t6 = t0.wrapping_sub(t6);
    t2 = t4h.wrapping_sub(t2);
    t4 = t2.wrapping_sub(t4);
    t0 = t0.wrapping_sub(mul_shift(t4, 13573, 16384, 15));
    t4 = t4.wrapping_add(mul_shift(t0, 11585, 8192, 14));
    t0 = t0.wrapping_sub(mul_shift(t4, 13573, 16384, 15));
    t6 = t6.wrapping_sub(mul_shift(t2, 21895, 16384, 15));
    t2 = t2.wrapping_add(mul_shift(t6, 15137, 8192, 14));
    t6 = t6.wrapping_sub(mul_shift(t2, 21895, 16384, 15));
    t3 = t3.wrapping_add(mul_shift(t5, 19195, 16384, 15));
    t5 = t5.wrapping_add(mul_shift(t3, 11585, 8192, 14));
    t3 = t3.wrapping_sub(mul_shift(t5, 7489, 4096, 13));
    t7 = half_toward_zero(t5, 1).wrapping_sub(t7);
    t5 = t5.wrapping_sub(t7);
    t3 = t1h.wrapping_sub(t3);
    t1 = t1.wrapping_sub(t3);
    t7 = t7.wrapping_add(mul_shift(t1, 3227, 16384, 15));
    t1 = t1.wrapping_sub(mul_shift(t7, 6393, 16384, 15));
    t7 = t7.wrapping_add(mul_shift(t1, 3227, 16384, 15));
    t5 = t5.wrapping_add(mul_shift(t3, 2485, 4096, 13));
    t3 = t3.wrapping_sub(mul_shift(t5, 18205, 16384, 15));
    t5 = t5.wrapping_add(mul_shift(t3, 2485, 4096, 13));
    y[..8].copy_from_slice(&[t0, t1, t2, t3, t4, t5, t6, t7]);
}

/// 2-D transform of an 8x8 block (row-major), in place: columns first, then rows.
pub(super) fn fdct8x8(b: &mut [i32; 64]) {
    let mut z = [0i32; 64];
    for i in 0..8 {
        fdct8(&mut z[8 * i..], &b[i..], 8);
    }
    for i in 0..8 {
        let mut row = [0i32; 8];
        fdct8(&mut row, &z[i..], 8);
        b[8 * i..8 * i + 8].copy_from_slice(&row);
    }
}
