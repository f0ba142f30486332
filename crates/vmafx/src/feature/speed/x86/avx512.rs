//! AVX-512 twin of the covariance sum in libvmaf's AVX-512 order: eight samples of each
//! offset widened to double precision, the means subtracted, and the products fused into
//! two chains of eight lanes; a plain scalar tail per row.

use std::arch::x86_64::*;

use crate::feature::speed::estimate::{check_cov_bounds, CovInput};

/// The covariance sum (see [`crate::feature::speed::estimate::cov_sum_avx512_order`]).
pub(crate) fn cov_sum(c: &CovInput<'_>) -> f64 {
    check_cov_bounds(c);
    // SAFETY: this function is only in a table made after AVX-512 was detected, and
    // `check_cov_bounds` has checked that every row the kernel reads is inside `data`.
    unsafe { cov_sum_avx512(c) }
}

/// # Safety
/// AVX-512F, and the bounds of [`check_cov_bounds`].
#[target_feature(enable = "avx512f")]
unsafe fn cov_sum_avx512(c: &CovInput<'_>) -> f64 {
    let (mx, my) = (_mm512_set1_pd(c.mx), _mm512_set1_pd(c.my));
    let (mut acc0, mut acc1) = (_mm512_setzero_pd(), _mm512_setzero_pd());
    let mut tail = 0f64;
    let p = c.data.as_ptr();
    for i in 0..c.h {
        let (rx, ry) = (c.ox + i * c.stride, c.oy + i * c.stride);
        let load = |o: usize| {
            // SAFETY: every call below reads columns j..j + 8, j + 7 < w, of a row starting
            // at rx or ry, and `check_cov_bounds` has checked rx + w and ry + w are within
            // `data`.
            unsafe { load8(p, o) }
        };
        let mut j = 0;
        while j + 15 < c.w {
            let a = _mm512_sub_pd(load(rx + j), mx);
            let b = _mm512_sub_pd(load(ry + j), my);
            acc0 = _mm512_fmadd_pd(a, b, acc0);
            let a = _mm512_sub_pd(load(rx + j + 8), mx);
            let b = _mm512_sub_pd(load(ry + j + 8), my);
            acc1 = _mm512_fmadd_pd(a, b, acc1);
            j += 16;
        }
        while j + 7 < c.w {
            let a = _mm512_sub_pd(load(rx + j), mx);
            let b = _mm512_sub_pd(load(ry + j), my);
            acc0 = _mm512_fmadd_pd(a, b, acc0);
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
    // SAFETY: two 8-double stores into 8-double arrays.
    unsafe {
        _mm512_storeu_pd(l0.as_mut_ptr(), acc0);
        _mm512_storeu_pd(l1.as_mut_ptr(), acc1);
    }
    let a: [f64; 8] = std::array::from_fn(|l| l0[l] + l1[l]);
    let q: [f64; 4] = std::array::from_fn(|l| a[l + 4] + a[l]);
    let (p0, p1) = (q[2] + q[0], q[3] + q[1]);
    p0 + p1 + tail
}

/// Eight single-precision samples at `p + o`, widened to double precision.
///
/// # Safety
/// AVX-512F, and `p + o .. p + o + 8` readable.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn load8(p: *const f32, o: usize) -> __m512d {
    // SAFETY: the caller's promise.
    unsafe { _mm512_cvtps_pd(_mm256_loadu_ps(p.add(o))) }
}
