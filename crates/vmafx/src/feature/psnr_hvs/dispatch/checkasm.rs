//! psnr_hvs's table for the kernel checker (`crate::testutil::checkasm`): the DCT on random
//! blocks of samples of every depth psnr_hvs takes, and on any `i32` (where the lifting
//! steps wrap).

use super::{Kernels, KERNELS};
use crate::testutil::checkasm::{equal, samples, Checkable, Entry, Suite, Verdict};
use crate::testutil::twin_rng::TwinRng;

/// psnr_hvs's entries.
pub(in crate::feature::psnr_hvs) static SUITE: Suite<Kernels> = Suite {
    feature: "psnr_hvs",
    dispatch: &KERNELS,
    entries: &[Entry {
        name: "fdct8x8",
        check: fdct,
    }],
};

/// One random block through both transforms.
fn fdct(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let mut block = [0i32; 64];
    let what = match rng.range(0, 3) {
        0 => {
            for v in &mut block {
                *v = rng.range(i32::MIN as i64, i32::MAX as i64) as i32;
            }
            "any i32".to_string()
        }
        _ => {
            let bpc = [8, 10, 12][rng.range(0, 2) as usize];
            for (v, x) in block.iter_mut().zip(samples(rng, 64, bpc)) {
                *v = x as i32;
            }
            format!("{bpc}-bit samples")
        }
    };
    let (mut got, mut want) = (block, block);
    (k.fdct8x8)(&mut got);
    (s.fdct8x8)(&mut want);
    equal(&what, got.to_vec(), want.to_vec())
}

/// psnr_hvs's suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;
