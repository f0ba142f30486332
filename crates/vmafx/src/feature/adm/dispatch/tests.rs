//! Helpers of ADM's twin checks (the random cases of every entry are in `checkasm`, run by
//! the crate's kernel checker).

use super::super::bands::Bands;
use super::super::border::Region;
use super::super::decouple::Decouple;
use super::super::dwt::Taps;
use super::super::weight::Weighted;
use super::Kernels;
use crate::testutil::twin_rng::TwinRng;

/// Random samples below `2^bpc`: uniform, extremes only, or a smooth ramp with noise.
pub(super) fn samples(rng: &mut TwinRng, n: usize, bpc: u32) -> Vec<u16> {
    let max = (1i64 << bpc) - 1;
    match rng.next_u64() % 3 {
        0 => (0..n).map(|_| rng.range(0, max) as u16).collect(),
        1 => (0..n)
            .map(|_| {
                if rng.next_u64().is_multiple_of(2) {
                    0
                } else {
                    max as u16
                }
            })
            .collect(),
        _ => (0..n)
            .map(|i| ((i as i64 * 7 % (max + 1)) + rng.range(-3, 3)).clamp(0, max) as u16)
            .collect(),
    }
}

/// Where two sets of bands differ first, by band name.
pub(super) fn band_differs<T: PartialEq>(got: &Bands<T>, want: &Bands<T>) -> Option<&'static str> {
    let names = ["a", "h", "v", "d"];
    let got = std::iter::once(&got.a).chain(&got.hvd);
    let want = std::iter::once(&want.a).chain(&want.hvd);
    names
        .into_iter()
        .zip(got.zip(want))
        .find(|(_, (g, w))| g != w)
        .map(|(n, _)| n)
}

/// Runs the level-0 DWT of table `k` and of the scalar table on `px` (`bpc`-bit samples of
/// row stride `stride`, as u8 where `bpc` is 8) into bands of row stride `os`; the first
/// band where they differ.
pub(super) fn dwt0_differs(
    k: &Kernels,
    (px, stride, bpc): (&[u16], usize, u32),
    t: &Taps,
    os: usize,
) -> Option<&'static str> {
    let len = os * t.rows.len();
    let run = |k: &Kernels| {
        let mut bands = Bands::<i16>::zeroed(len);
        let mut tmp = vec![0; 2 * t.w];
        if bpc == 8 {
            let px: Vec<u8> = px.iter().map(|&v| v as u8).collect();
            (k.dwt0_u8)(&px, stride, t, bpc, &mut tmp, &mut bands, os);
        } else {
            (k.dwt0_u16)(px, stride, t, bpc, &mut tmp, &mut bands, os);
        }
        bands
    };
    band_differs(&run(k), &run(&Kernels::SCALAR))
}

/// A random region inside a `w` x `h` band, its columns starting anywhere in the first
/// third and ending at the row's end half the time, else anywhere after (so that both
/// edges fall on and off vector boundaries).
pub(super) fn region(rng: &mut TwinRng, w: usize, h: usize) -> Region {
    let (top, left) = (
        rng.range(0, h as i64 / 3) as usize,
        rng.range(0, w as i64 / 3) as usize,
    );
    let right = if rng.next_u64().is_multiple_of(2) {
        w
    } else {
        rng.range(left as i64, w as i64) as usize
    };
    Region {
        top,
        bottom: rng.range(top as i64, h as i64) as usize,
        left,
        right,
    }
}

/// A CSF weighting kernel of either band type, with its weights' type.
pub(super) type WeightFn<T, W> = fn(&[Vec<T>; 3], Weighted<'_, T>, usize, Region, [W; 3]);

/// Runs weighting kernel `f` and its scalar twin `twin` on `src`, each into fresh buffers
/// (prefilled with 5 so that a skipped position shows); true where both wrote the same
/// CSF and activity bands.
pub(super) fn weight_twins_agree<T: Copy + PartialEq + From<i8>, W: Copy>(
    (f, twin): (WeightFn<T, W>, WeightFn<T, W>),
    src: &[Vec<T>; 3],
    stride: usize,
    r: Region,
    rf: [W; 3],
) -> bool {
    let n = src[0].len();
    let run = |k: WeightFn<T, W>| {
        let fresh = || -> [Vec<T>; 3] { std::array::from_fn(|_| vec![T::from(5); n]) };
        let (mut csf, mut activity) = (fresh(), fresh());
        let out = Weighted {
            csf: &mut csf,
            activity: &mut activity,
        };
        k(src, out, stride, r, rf);
        (csf, activity)
    };
    run(f) == run(twin)
}

/// Runs decoupling kernel `f` and its scalar twin `twin` on the same bands, each into
/// fresh buffers (prefilled with 9 so that a skipped position shows); true where both
/// wrote the same restored and additive bands.
pub(super) fn decouple_twins_agree<T: Copy + PartialEq + From<i8>>(
    (f, twin): (DecoupleFn<T>, DecoupleFn<T>),
    (reference, distorted): (&[Vec<T>; 3], &[Vec<T>; 3]),
    stride: usize,
    r: Region,
    egl: f64,
) -> bool {
    let n = reference[0].len();
    let fresh = || -> [Vec<T>; 3] { std::array::from_fn(|_| vec![T::from(9); n]) };
    let run = |k: DecoupleFn<T>| {
        let (mut restored, mut additive) = (fresh(), fresh());
        k(
            Decouple::of(reference, distorted, &mut restored, &mut additive),
            stride,
            r,
            egl,
        );
        (restored, additive)
    };
    run(f) == run(twin)
}

/// A decoupling kernel of either band type.
pub(super) type DecoupleFn<T> = fn(Decouple<'_, T>, usize, Region, f64);

/// Random `i16` bands: full range, or the small values real activity takes.
pub(super) fn bands16(rng: &mut TwinRng, n: usize) -> [Vec<i16>; 3] {
    std::array::from_fn(|_| {
        let lim = if rng.next_u64().is_multiple_of(2) {
            32767
        } else {
            300
        };
        (0..n).map(|_| rng.range(-lim - 1, lim) as i16).collect()
    })
}
