//! psnr's row kernels, written once over the vector width ([`SseLanes`]): the sum of
//! squared differences of two rows, a vector a step, the last bytes by the level's masked
//! loads where it has them (AVX-512) or by the scalar formula (AVX2). Each gives the
//! scalar row sum exactly: 8-bit rows in wrapping 32-bit lanes (addition modulo 2^32 does
//! not depend on the order), deeper ones in 64-bit lanes (no wrap at all).

use super::lanes::SseLanes;
use super::prefetch_ahead;

/// The wrapping 32-bit sum of squared differences of two 8-bit rows (their common length).
///
/// # Safety
/// The level's instructions (`L`).
#[inline(always)]
pub(super) unsafe fn row_u8<L: SseLanes>(a: &[u8], b: &[u8]) -> u32 {
    let n = a.len().min(b.len());
    // SAFETY: the level's instructions are on (the caller's), and each load below reads
    // bytes i .. i + k of both rows, k at most the n - i they hold from i.
    unsafe {
        let mut acc = L::zero();
        let mut i = 0;
        while i < n {
            if i % 64 == 0 {
                prefetch_ahead(a, b, i);
            }
            let k = (n - i).min(L::BYTES);
            let part = |p: &[u8]| L::load_part(p.as_ptr().add(i), k);
            let (Some(x), Some(z)) = (part(a), part(b)) else {
                break;
            };
            acc = L::add_sq_u8(acc, x, z);
            i += k;
        }
        let mut sum = L::sum32(acc);
        for (&x, &z) in a[i..n].iter().zip(&b[i..n]) {
            let e = x as i32 - z as i32;
            sum = sum.wrapping_add((e * e) as u32);
        }
        sum
    }
}

/// The sum of squared differences of two 9..16-bit rows (their common length).
///
/// # Safety
/// The level's instructions (`L`).
#[inline(always)]
pub(super) unsafe fn row_u16<L: SseLanes>(a: &[u16], b: &[u16]) -> u64 {
    let n = a.len().min(b.len());
    let step = L::BYTES / 2;
    // SAFETY: as in `row_u8`, each load reading samples i .. i + k, two bytes each.
    unsafe {
        let mut acc = L::zero();
        let mut i = 0;
        while i < n {
            if (2 * i) % 64 == 0 {
                prefetch_ahead(a, b, 2 * i);
            }
            let k = (n - i).min(step);
            let part = |p: &[u16]| L::load_part(p.as_ptr().add(i).cast(), 2 * k);
            let (Some(x), Some(z)) = (part(a), part(b)) else {
                break;
            };
            acc = L::add_sq_u16(acc, x, z);
            i += k;
        }
        let mut sum = L::sum64(acc);
        for (&x, &z) in a[i..n].iter().zip(&b[i..n]) {
            let e = x.abs_diff(z) as u64;
            sum += e * e;
        }
        sum
    }
}

/// Defines `KERNELS`, the psnr table of level `$level`, whose instructions are `$feature`
/// and whose [`SseLanes`] are `$lanes`: the plane sums of [`super::super::sse::plane`]
/// over this module's rows. The dispatch hands the table out only where the processor has
/// `$feature`, which is what makes the calls sound.
macro_rules! sse_table {
    ($feature:literal, $lanes:ty, $level:expr) => {
        use crate::feature::psnr::kernels::Kernels;
        use crate::feature::psnr::sse::plane;
        use crate::feature::psnr::x86::sse_by as by;

        /// This level's kernels. The dispatch hands them out only where the processor has
        /// the level's instructions.
        pub(in crate::feature::psnr) const KERNELS: Kernels = Kernels {
            level: $level,
            sse_u8,
            sse_u16,
        };

        /// SSE of two 8-bit planes; each row wraps at 32 bits as the scalar kernel's does.
        fn sse_u8(
            a: &[u8],
            a_stride: usize,
            b: &[u8],
            b_stride: usize,
            width: usize,
            height: usize,
        ) -> u64 {
            #[target_feature(enable = $feature)]
            unsafe fn row(a: &[u8], b: &[u8]) -> u32 {
                // SAFETY: the level's instructions are on.
                unsafe { by::row_u8::<$lanes>(a, b) }
            }
            // SAFETY: this table is handed out only where the level was detected.
            let row = |ra: &[u8], rb: &[u8]| unsafe { row(ra, rb) };
            plane(row, a, a_stride, b, b_stride, width, height)
        }

        /// SSE of two 9..16-bit planes in 64 bits.
        fn sse_u16(
            a: &[u16],
            a_stride: usize,
            b: &[u16],
            b_stride: usize,
            width: usize,
            height: usize,
        ) -> u64 {
            #[target_feature(enable = $feature)]
            unsafe fn row(a: &[u16], b: &[u16]) -> u64 {
                // SAFETY: the level's instructions are on.
                unsafe { by::row_u16::<$lanes>(a, b) }
            }
            // SAFETY: as in `sse_u8`.
            let row = |ra: &[u16], rb: &[u16]| unsafe { row(ra, rb) };
            plane(row, a, a_stride, b, b_stride, width, height)
        }
    };
}
pub(super) use sse_table;
