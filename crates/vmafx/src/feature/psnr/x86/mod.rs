//! psnr's x86-64 kernels: the scalar SSE's row sum written once over the vector width
//! (`sse_by`, over `lanes`), and the AVX2 and AVX-512 tables made of it (`KERNELS` in
//! `avx2` and `avx512`), which `super::dispatch` lists.

use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};

pub(super) mod avx2;
pub(super) mod avx512;
mod lanes;
mod sse_by;

/// How far ahead of its loads a row kernel asks for the two rows' bytes. psnr reads each
/// sample of a frame once, mostly straight from the page cache of a mapped file, whose
/// pages lie anywhere in memory: the processor's own prefetchers stop at each 4 KiB page,
/// so a load a page ahead keeps the next page coming (psnr alone 0.82 of the time without
/// it on an Intel Xeon, AVX2; 1024 bytes ahead was slower, 8192 no faster).
const AHEAD: usize = 4096;

/// Asks for the cache lines `AHEAD` bytes past byte `at` of both rows. A prefetch never
/// faults, so the addresses may lie past the rows' ends.
#[inline]
#[target_feature(enable = "sse")]
fn prefetch_ahead<T>(a: &[T], b: &[T], at: usize) {
    for p in [a.as_ptr().cast::<i8>(), b.as_ptr().cast::<i8>()] {
        _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(at + AHEAD));
    }
}
