//! psnr's table for the kernel checker (`crate::testutil::checkasm`): both SSE kernels on
//! random plane sizes (widths below a vector, odd, a few vectors), strides wider than the
//! width and every depth, edge values included.

use super::super::kernels::SseFn;
use super::{Kernels, KERNELS};
use crate::testutil::checkasm::{equal, samples, Checkable, Entry, Suite, Verdict};
use crate::testutil::twin_rng::TwinRng;

/// psnr's entries.
pub(in crate::feature::psnr) static SUITE: Suite<Kernels> = Suite {
    feature: "psnr",
    dispatch: &KERNELS,
    entries: &[
        Entry {
            name: "sse_u8",
            check: |s, k, rng| sse(s.sse_u8, k.sse_u8, rng, 8, |v| v as u8),
        },
        Entry {
            name: "sse_u16",
            check: |s, k, rng| {
                let bpc = [9, 10, 12, 16][rng.range(0, 3) as usize];
                sse(s.sse_u16, k.sse_u16, rng, bpc, |v| v)
            },
        },
    ],
};

/// Two random planes of the same size (each with its own stride) through both kernels.
fn sse<T: Copy>(
    scalar: SseFn<T>,
    simd: SseFn<T>,
    rng: &mut TwinRng,
    bpc: u32,
    cast: fn(u16) -> T,
) -> Verdict {
    let (w, h) = (rng.size(1, 200), rng.size(1, 6));
    let strides = [w + rng.size(0, 40), w + rng.size(0, 40)];
    let [a, b] = strides.map(|s| -> Vec<T> {
        (0..h)
            .flat_map(|_| samples(rng, s, bpc))
            .map(cast)
            .collect()
    });
    let got = simd(&a, strides[0], &b, strides[1], w, h);
    let want = scalar(&a, strides[0], &b, strides[1], w, h);
    equal(&format!("{w}x{h}, {bpc} bits"), got, want)
}

/// psnr's suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;
