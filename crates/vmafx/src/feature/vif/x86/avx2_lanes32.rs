//! What vif's AVX2 kernels in 32-bit lanes share: samples widened to eight lanes
//! ([`Pixel`]), eight-lane loads and stores, the taps of a scale as an array, and
//! `by_taps!`, which gives each filter length its own unrolled loop.

use std::arch::x86_64::*;

use crate::feature::vif::tables::TAPS;

/// Samples the kernels read: widened to eight 32-bit lanes.
pub(super) trait Pixel: Copy + Into<u32> {
    /// The eight samples from `p` as 32-bit lanes.
    ///
    /// # Safety
    /// The processor must support AVX2 and eight samples from `p` must be readable.
    unsafe fn widen8(p: *const Self) -> __m256i;
}

impl Pixel for u8 {
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn widen8(p: *const u8) -> __m256i {
        // SAFETY: the caller makes the eight bytes read (unaligned) readable.
        unsafe { _mm256_cvtepu8_epi32(_mm_loadl_epi64(p as *const __m128i)) }
    }
}

impl Pixel for u16 {
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn widen8(p: *const u16) -> __m256i {
        // SAFETY: the caller makes the sixteen bytes read (unaligned) readable.
        unsafe { _mm256_cvtepu16_epi32(_mm_loadu_si128(p as *const __m128i)) }
    }
}

/// Eight 32-bit words from `p`.
///
/// # Safety
/// AVX2, and eight words from `p` readable.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn load8_at(p: *const u32) -> __m256i {
    // SAFETY: the caller makes the 32 bytes read (unaligned) readable.
    unsafe { _mm256_loadu_si256(p as *const __m256i) }
}

/// Runs `$f::<N>` for the filter length `N` of `$scale`, so that each length gets its own
/// unrolled loop.
macro_rules! by_taps {
    ($scale:expr, $f:ident $(::<$t:ty>)?, ($($arg:expr),*)) => {
        match $crate::feature::vif::tables::TAPS[$scale].len() {
            17 => $f::<$($t,)? 17>($($arg),*),
            9 => $f::<$($t,)? 9>($($arg),*),
            5 => $f::<$($t,)? 5>($($arg),*),
            _ => $f::<$($t,)? 3>($($arg),*),
        }
    };
}
pub(super) use by_taps;

/// The taps of `scale` as an array of `N`.
#[inline]
pub(super) fn taps_of<const N: usize>(scale: usize) -> &'static [u16; N] {
    TAPS[scale]
        .try_into()
        .expect("filter length matches the scale")
}

/// Stores eight 32-bit lanes at `at` in `d` (bounds-checked).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn store8(d: &mut [u32], at: usize, v: __m256i) {
    let d = &mut d[at..at + 8];
    // SAFETY: `d` holds the 32 bytes written (unaligned store).
    unsafe { _mm256_storeu_si256(d.as_mut_ptr() as *mut __m256i, v) }
}
