//! AVX2 twin of the covariance sum in libvmaf's AVX-512 order: each of the AVX-512
//! kernel's eight-lane chains is held as two four-lane halves, so every lane sees the same
//! fused multiply-adds in the same order and the sum has the scalar reference's bits.
//!
//! AVX2 does not imply FMA, so the entry checks for it once and otherwise runs the scalar
//! reference (which fuses in software).

use std::arch::x86_64::*;

use crate::feature::speed::estimate::{check_cov_bounds, cov_sum_avx512_order, CovInput};

/// The covariance sum (see [`crate::feature::speed::estimate::cov_sum_avx512_order`]).
pub(crate) fn cov_sum(c: &CovInput<'_>) -> f64 {
    if !std::arch::is_x86_feature_detected!("fma") {
        return cov_sum_avx512_order(c);
    }
    check_cov_bounds(c);
    // SAFETY: this function is only in a table made after AVX2 was detected, FMA was
    // detected just above, and `check_cov_bounds` has checked that every row the kernel
    // reads is inside `data`.
    unsafe { cov_sum_avx2(c) }
}

/// An eight-lane chain as two four-lane halves (lanes 0..4 and 4..8).
#[derive(Clone, Copy)]
struct Chain(__m256d, __m256d);

/// # Safety
/// AVX2 and FMA, and the bounds of [`check_cov_bounds`].
#[target_feature(enable = "avx2,fma")]
unsafe fn cov_sum_avx2(c: &CovInput<'_>) -> f64 {
    let (mx, my) = (_mm256_set1_pd(c.mx), _mm256_set1_pd(c.my));
    let zero = _mm256_setzero_pd();
    let (mut acc0, mut acc1) = (Chain(zero, zero), Chain(zero, zero));
    let mut tail = 0f64;
    let p = c.data.as_ptr();
    for i in 0..c.h {
        let (rx, ry) = (c.ox + i * c.stride, c.oy + i * c.stride);
        let mut j = 0;
        while j + 15 < c.w {
            // SAFETY: columns j..j + 16, j + 15 < w, of rows starting at rx and ry, which
            // `check_cov_bounds` has checked are within `data`.
            unsafe {
                acc0 = step(acc0, p, rx + j, ry + j, mx, my);
                acc1 = step(acc1, p, rx + j + 8, ry + j + 8, mx, my);
            }
            j += 16;
        }
        while j + 7 < c.w {
            // SAFETY: columns j..j + 8, j + 7 < w, as above.
            unsafe { acc0 = step(acc0, p, rx + j, ry + j, mx, my) };
            j += 8;
        }
        while j < c.w {
            let a = c.data[rx + j] as f64 - c.mx;
            let b = c.data[ry + j] as f64 - c.my;
            tail += a * b;
            j += 1;
        }
    }
    let (mut l0, mut l1) = ([0f64; 8], [0f64; 8]);
    // SAFETY: four 4-double stores, two into each 8-double array.
    unsafe {
        _mm256_storeu_pd(l0.as_mut_ptr(), acc0.0);
        _mm256_storeu_pd(l0.as_mut_ptr().add(4), acc0.1);
        _mm256_storeu_pd(l1.as_mut_ptr(), acc1.0);
        _mm256_storeu_pd(l1.as_mut_ptr().add(4), acc1.1);
    }
    let a: [f64; 8] = std::array::from_fn(|l| l0[l] + l1[l]);
    let q: [f64; 4] = std::array::from_fn(|l| a[l + 4] + a[l]);
    let (p0, p1) = (q[2] + q[0], q[3] + q[1]);
    p0 + p1 + tail
}

/// One fused step of an eight-lane chain over samples `ox..ox + 8` and `oy..oy + 8`.
///
/// # Safety
/// AVX2 and FMA, and both ranges readable from `p`.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn step(acc: Chain, p: *const f32, ox: usize, oy: usize, mx: __m256d, my: __m256d) -> Chain {
    // SAFETY: the caller's promise covers all four loads.
    let (x0, y0, x1, y1) = unsafe {
        (
            load4(p, ox),
            load4(p, oy),
            load4(p, ox + 4),
            load4(p, oy + 4),
        )
    };
    Chain(
        _mm256_fmadd_pd(_mm256_sub_pd(x0, mx), _mm256_sub_pd(y0, my), acc.0),
        _mm256_fmadd_pd(_mm256_sub_pd(x1, mx), _mm256_sub_pd(y1, my), acc.1),
    )
}

/// Four single-precision samples at `p + o`, widened to double precision.
///
/// # Safety
/// AVX2, and `p + o .. p + o + 4` readable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load4(p: *const f32, o: usize) -> __m256d {
    // SAFETY: the caller's promise.
    unsafe { _mm256_cvtps_pd(_mm_loadu_ps(p.add(o))) }
}
