//! psnr_hvs's AVX2 8x8 DCT: the eight rows of a block as eight vectors, the 1-D transform
//! lane by lane (every column at once) with the scalar twin's wrapping 32-bit operations in
//! the same order, a transpose, the transform again, and a transpose back.

use std::arch::x86_64::*;

use super::super::kernels::Kernels;
use crate::cpu::CpuLevel;

/// The AVX2 kernels. The dispatch hands them out only when the processor has AVX2.
pub(in crate::feature::psnr_hvs) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx2,
    fdct8x8,
};

/// `(a + (a < 0)) >> 1`, the scalar `half_toward_zero(a, 1)`.
#[inline]
#[target_feature(enable = "avx2")]
fn half(a: __m256i) -> __m256i {
    _mm256_srai_epi32::<1>(_mm256_add_epi32(_mm256_srli_epi32::<31>(a), a))
}

/// `(a * M + R) >> S` in wrapping 32-bit lanes, the scalar `mul_shift`.
#[inline]
#[target_feature(enable = "avx2")]
fn mul_shift<const M: i32, const R: i32, const S: i32>(a: __m256i) -> __m256i {
    let p = _mm256_add_epi32(
        _mm256_mullo_epi32(a, _mm256_set1_epi32(M)),
        _mm256_set1_epi32(R),
    );
    _mm256_srai_epi32::<S>(p)
}

/// Wrapping lane sum.
#[inline]
#[target_feature(enable = "avx2")]
fn add(a: __m256i, b: __m256i) -> __m256i {
    _mm256_add_epi32(a, b)
}

/// Wrapping lane difference.
#[inline]
#[target_feature(enable = "avx2")]
fn sub(a: __m256i, b: __m256i) -> __m256i {
    _mm256_sub_epi32(a, b)
}

/// The 1-D lifting DCT of `x[0..8]` in every lane (the scalar `fdct8` step for step).
#[inline]
#[target_feature(enable = "avx2")]
fn fdct8(x: [__m256i; 8]) -> [__m256i; 8] {
    let [mut t0, mut t4, mut t2, mut t6, mut t7, mut t3, mut t5, mut t1] = x;
    t1 = sub(t0, t1);
    let t1h = half(t1);
    t0 = sub(t0, t1h);
    t4 = add(t4, t5);
    let t4h = half(t4);
    t5 = sub(t5, t4h);
    t3 = sub(t2, t3);
    t2 = sub(t2, half(t3));
    t6 = add(t6, t7);
    let t6h = half(t6);
    t7 = sub(t6h, t7);
    t0 = add(t0, t6h);
    t6 = sub(t0, t6);
    t2 = sub(t4h, t2);
    t4 = sub(t2, t4);
    t0 = sub(t0, mul_shift::<13573, 16384, 15>(t4));
    t4 = add(t4, mul_shift::<11585, 8192, 14>(t0));
    t0 = sub(t0, mul_shift::<13573, 16384, 15>(t4));
    t6 = sub(t6, mul_shift::<21895, 16384, 15>(t2));
    t2 = add(t2, mul_shift::<15137, 8192, 14>(t6));
    t6 = sub(t6, mul_shift::<21895, 16384, 15>(t2));
    t3 = add(t3, mul_shift::<19195, 16384, 15>(t5));
    t5 = add(t5, mul_shift::<11585, 8192, 14>(t3));
    t3 = sub(t3, mul_shift::<7489, 4096, 13>(t5));
    t7 = sub(half(t5), t7);
    t5 = sub(t5, t7);
    t3 = sub(t1h, t3);
    t1 = sub(t1, t3);
    t7 = add(t7, mul_shift::<3227, 16384, 15>(t1));
    t1 = sub(t1, mul_shift::<6393, 16384, 15>(t7));
    t7 = add(t7, mul_shift::<3227, 16384, 15>(t1));
    t5 = add(t5, mul_shift::<2485, 4096, 13>(t3));
    t3 = sub(t3, mul_shift::<18205, 16384, 15>(t5));
    t5 = add(t5, mul_shift::<2485, 4096, 13>(t3));
    [t0, t1, t2, t3, t4, t5, t6, t7]
}

/// The transpose of an 8x8 block of `i32` held as eight row vectors.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose(r: [__m256i; 8]) -> [__m256i; 8] {
    // Pairs, then quads of 32-bit lanes inside each 128-bit half, then the halves.
    let a: [__m256i; 8] = [
        _mm256_unpacklo_epi32(r[0], r[1]),
        _mm256_unpackhi_epi32(r[0], r[1]),
        _mm256_unpacklo_epi32(r[2], r[3]),
        _mm256_unpackhi_epi32(r[2], r[3]),
        _mm256_unpacklo_epi32(r[4], r[5]),
        _mm256_unpackhi_epi32(r[4], r[5]),
        _mm256_unpacklo_epi32(r[6], r[7]),
        _mm256_unpackhi_epi32(r[6], r[7]),
    ];
    let b: [__m256i; 8] = [
        _mm256_unpacklo_epi64(a[0], a[2]),
        _mm256_unpackhi_epi64(a[0], a[2]),
        _mm256_unpacklo_epi64(a[1], a[3]),
        _mm256_unpackhi_epi64(a[1], a[3]),
        _mm256_unpacklo_epi64(a[4], a[6]),
        _mm256_unpackhi_epi64(a[4], a[6]),
        _mm256_unpacklo_epi64(a[5], a[7]),
        _mm256_unpackhi_epi64(a[5], a[7]),
    ];
    [
        _mm256_permute2x128_si256::<0x20>(b[0], b[4]),
        _mm256_permute2x128_si256::<0x20>(b[1], b[5]),
        _mm256_permute2x128_si256::<0x20>(b[2], b[6]),
        _mm256_permute2x128_si256::<0x20>(b[3], b[7]),
        _mm256_permute2x128_si256::<0x31>(b[0], b[4]),
        _mm256_permute2x128_si256::<0x31>(b[1], b[5]),
        _mm256_permute2x128_si256::<0x31>(b[2], b[6]),
        _mm256_permute2x128_si256::<0x31>(b[3], b[7]),
    ]
}

/// 2-D transform of an 8x8 block (row-major), in place, as the scalar `fdct8x8`.
pub(crate) fn fdct8x8(b: &mut [i32; 64]) {
    // SAFETY: this function is only in a table made after AVX2 was detected.
    unsafe { fdct8x8_avx2(b) }
}

#[target_feature(enable = "avx2")]
fn fdct8x8_avx2(b: &mut [i32; 64]) {
    let p = b.as_mut_ptr();
    // SAFETY: row i is b[8i..8i + 8], inside the 64-value block; unaligned loads.
    let rows: [__m256i; 8] =
        std::array::from_fn(|i| unsafe { _mm256_loadu_si256(p.add(8 * i) as *const __m256i) });
    // Columns first: lane j of output k is coefficient k of column j (the scalar pass's
    // intermediate, transposed); the transpose gives its rows, the row pass follows.
    let cols = transpose(fdct8(rows));
    let out = transpose(fdct8(cols));
    for (i, v) in out.into_iter().enumerate() {
        // SAFETY: as for the loads.
        unsafe { _mm256_storeu_si256(p.add(8 * i) as *mut __m256i, v) };
    }
}
