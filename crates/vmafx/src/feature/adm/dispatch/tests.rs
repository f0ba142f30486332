//! Every ADM kernel level against its scalar twin on random inputs, bit for bit.

use super::super::bands::Bands;
use super::super::border::Region;
use super::super::decouple::Decouple;
use super::super::dwt::Taps;
use super::super::weight::Weighted;
use super::Kernels;
use crate::testutil::twin_rng::TwinRng;

/// Random samples below `2^bpc`: uniform, extremes only, or a smooth ramp with noise.
fn samples(rng: &mut TwinRng, n: usize, bpc: u32) -> Vec<u16> {
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

#[test]
fn dwt_level0_matches_scalar_at_every_level_and_depth() {
    let mut rng = TwinRng::new(0xad3d);
    for k in Kernels::simd_levels() {
        for case in 0..200 {
            let bpc = [8u32, 10, 12, 16][case % 4];
            let (w, h) = (rng.size(2, 140), rng.size(2, 24));
            let stride = w + rng.range(0, 11) as usize;
            let px = samples(&mut rng, stride * h, bpc);
            let t = Taps::new(w, h);
            let os = w.div_ceil(2) + rng.range(0, 3) as usize;
            if let Some(band) = dwt0_differs(&k, (&px, stride, bpc), &t, os) {
                panic!(
                    "case {case}: {:?} DWT level 0 band {band} differs at {w}x{h}, {bpc} bits",
                    k.level
                );
            }
        }
    }
}

/// A random region inside a `w` x `h` band.
pub(super) fn region(rng: &mut TwinRng, w: usize, h: usize) -> Region {
    let (top, left) = (
        rng.range(0, h as i64 / 3) as usize,
        rng.range(0, w as i64 / 3) as usize,
    );
    Region {
        top,
        bottom: rng.range(top as i64, h as i64) as usize,
        left,
        right: rng.range(left as i64, w as i64) as usize,
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

/// A region of whole rows `0..h` whose columns start within the first few and end
/// anywhere after, so that its edges fall on and off vector boundaries.
pub(super) fn row_span_region(rng: &mut TwinRng, w: usize, h: usize) -> Region {
    let left = rng.range(0, (w as i64 - 1).min(3)) as usize;
    Region {
        top: 0,
        bottom: h,
        left,
        right: rng.range(left as i64 + 1, w as i64) as usize,
    }
}

#[test]
fn weight_scale0_matches_scalar() {
    let mut rng = TwinRng::new(7);
    for k in Kernels::simd_levels() {
        for case in 0..200 {
            let (w, h) = (rng.size(1, 120), rng.size(1, 20));
            let stride = w + rng.range(0, 5) as usize;
            let src: [Vec<i16>; 3] = std::array::from_fn(|_| {
                (0..stride * h)
                    .map(|_| rng.range(-32768, 32767) as i16)
                    .collect()
            });
            let rf = [0; 3].map(|_: u16| rng.range(0, 65535) as u16);
            let r = region(&mut rng, w, h);
            let pair = (k.weight0, Kernels::SCALAR.weight0);
            assert!(
                weight_twins_agree(pair, &src, stride, r, rf),
                "case {case}: {:?} scale-0 weighting differs at {w}x{h}, region {r:?}, rf {rf:?}",
                k.level
            );
        }
    }
}

/// Random `i16` bands: full range, or the small values real activity takes.
fn bands16(rng: &mut TwinRng, n: usize) -> [Vec<i16>; 3] {
    std::array::from_fn(|_| {
        let lim = if rng.next_u64().is_multiple_of(2) {
            32767
        } else {
            300
        };
        (0..n).map(|_| rng.range(-lim - 1, lim) as i16).collect()
    })
}

#[test]
fn masking_row_scale0_matches_scalar() {
    use super::super::cm::{around, Masking, Row0};
    let mut rng = TwinRng::new(0xc0ffee);
    for k in Kernels::simd_levels() {
        for case in 0..400 {
            let (w, h) = (rng.size(2, 130), rng.size(2, 6));
            let stride = w + rng.range(0, 5) as usize;
            let n = stride * h;
            let (source, masker, activity) = (
                bands16(&mut rng, n),
                bands16(&mut rng, n),
                bands16(&mut rng, n),
            );
            let i = rng.range(0, h as i64 - 1) as usize;
            let (up, down) = around(i, h);
            let left = rng.range(0, w as i64 / 2) as usize;
            let right = rng.range(left as i64, w as i64) as usize;
            let shift_cub = if rng.next_u64().is_multiple_of(2) {
                [0; 3].map(|_: u32| rng.range(0, 40) as u32)
            } else {
                let lw = (w as f64).log2();
                let c = |d: f64| super::super::cnum::ceil_u32(lw - d);
                [c(4.0), c(4.0), c(3.0)]
            };
            let row = Row0 {
                stride,
                w,
                rows: (up, i, down),
                left,
                right,
                rf: [0; 3].map(|_: u16| rng.range(0, 65535) as u16),
                shift_cub,
            };
            let m = Masking {
                source: &source,
                masker: &masker,
                activity: &activity,
            };
            let (got, want) = ((k.cm0_row)(&m, &row), (Kernels::SCALAR.cm0_row)(&m, &row));
            assert_eq!(
                got, want,
                "case {case}: {:?} scale-0 masking row {row:?}",
                k.level
            );
        }
    }
}

#[test]
fn decouple_scale0_matches_scalar() {
    let mut rng = TwinRng::new(0xdec0);
    for k in Kernels::simd_levels() {
        for case in 0..300 {
            let (w, h) = (rng.size(1, 100), rng.size(1, 8));
            let stride = w + rng.range(0, 5) as usize;
            let n = stride * h;
            let reference = bands16(&mut rng, n);
            // Distorted bands: independent, or near the reference (small angles, gains
            // around one), with zeros sprinkled in both.
            let mut distorted = bands16(&mut rng, n);
            let mut reference = reference;
            if rng.next_u64().is_multiple_of(2) {
                for t in 0..3 {
                    for (d, &o) in distorted[t].iter_mut().zip(&reference[t]) {
                        let g = rng.range(50, 150);
                        *d = (o as i64 * g / 100 + rng.range(-2, 2)).clamp(-32768, 32767) as i16;
                    }
                }
            }
            for b in reference.iter_mut().chain(distorted.iter_mut()) {
                for v in b.iter_mut() {
                    if rng.next_u64().is_multiple_of(7) {
                        *v = 0;
                    }
                }
            }
            let egl = [1.0, 100.0, rng.range(100, 10000) as f64 / 100.0][case % 3];
            let r = region(&mut rng, w, h);
            let pair = (k.decouple0, Kernels::SCALAR.decouple0);
            assert!(
                decouple_twins_agree(pair, (&reference, &distorted), stride, r, egl),
                "case {case}: {:?} scale-0 decoupling differs at {w}x{h}, region {r:?}, egl {egl}",
                k.level
            );
        }
    }
}

#[test]
fn dwt_levels_1_to_3_match_scalar() {
    let mut rng = TwinRng::new(0x1e7e1);
    for k in Kernels::simd_levels() {
        for case in 0..240 {
            let scale = 1 + case % 3;
            let (w, h) = (rng.size(2, 90), rng.size(2, 16));
            let stride = w + rng.range(0, 7) as usize;
            // Full-range values wrap in the scalar code too; small ones are realistic.
            let lim = [1i64 << 31, 1 << 20, 300][rng.range(0, 2) as usize];
            let src: Vec<i32> = (0..stride * h)
                .map(|_| rng.range(-lim, lim - 1) as i32)
                .collect();
            let t = Taps::new(w, h);
            // The output's stride: as compact as the half width, or wider.
            let os = w.div_ceil(2) + rng.range(0, 3) as usize;
            let len = os * h.div_ceil(2);
            let (mut got, mut want) = (Bands::<i32>::zeroed(len), Bands::<i32>::zeroed(len));
            let (mut tg, mut tw) = (vec![0; 2 * w], vec![0; 2 * w]);
            (k.dwt)(&src, stride, &t, scale, &mut tg, &mut got, os);
            (Kernels::SCALAR.dwt)(&src, stride, &t, scale, &mut tw, &mut want, os);
            assert!(
                got.a == want.a && got.hvd == want.hvd,
                "case {case}: {:?} DWT level {scale} differs at {w}x{h}, values below {lim}",
                k.level
            );
        }
    }
}

#[test]
fn masking_row_scales_1_to_3_match_scalar() {
    use super::super::cm::{around, Masking, Row123};
    let mut rng = TwinRng::new(0x123c);
    for k in Kernels::simd_levels() {
        for case in 0..400 {
            let (w, h) = (rng.size(2, 130), rng.size(2, 6));
            let stride = w + rng.range(0, 5) as usize;
            let n = stride * h;
            let band = |rng: &mut TwinRng| -> [Vec<i32>; 3] {
                std::array::from_fn(|_| {
                    let lim = [1i64 << 31, 1 << 20, 1 << 12][rng.range(0, 2) as usize];
                    (0..n).map(|_| rng.range(-lim, lim - 1) as i32).collect()
                })
            };
            let (source, masker, activity) = (band(&mut rng), band(&mut rng), band(&mut rng));
            let i = rng.range(0, h as i64 - 1) as usize;
            let (up, down) = around(i, h);
            let left = rng.range(0, w as i64 / 2) as usize;
            let right = rng.range(left as i64, w as i64) as usize;
            let shift_cub = if rng.next_u64().is_multiple_of(2) {
                rng.range(0, 40) as u32
            } else {
                super::super::cnum::ceil_u32((w as f64).log2())
            };
            let row = Row123 {
                stride,
                w,
                rows: (up, i, down),
                left,
                right,
                rf: [0; 3].map(|_: u32| rng.range(0, u32::MAX as i64) as u32),
                shift_cub,
            };
            let m = Masking {
                source: &source,
                masker: &masker,
                activity: &activity,
            };
            let (got, want) = (
                (k.cm123_row)(&m, &row),
                (Kernels::SCALAR.cm123_row)(&m, &row),
            );
            assert_eq!(got, want, "case {case}: {:?} masking row {row:?}", k.level);
        }
    }
}

#[test]
fn weight_scales_1_to_3_match_scalar() {
    let mut rng = TwinRng::new(0x3e16);
    for k in Kernels::simd_levels() {
        for case in 0..200 {
            let (w, h) = (rng.size(1, 120), rng.size(1, 20));
            let stride = w + rng.range(0, 5) as usize;
            let lim = [1i64 << 31, 1 << 24, 1 << 12][case % 3];
            let src: [Vec<i32>; 3] = std::array::from_fn(|_| {
                (0..stride * h)
                    .map(|_| rng.range(-lim, lim - 1) as i32)
                    .collect()
            });
            let rf = [0; 3].map(|_: u32| rng.range(0, u32::MAX as i64) as u32);
            let r = region(&mut rng, w, h);
            let pair = (k.weight123, Kernels::SCALAR.weight123);
            assert!(
                weight_twins_agree(pair, &src, stride, r, rf),
                "case {case}: {:?} scale-1..3 weighting differs at {w}x{h}, region {r:?}, rf {rf:?}",
                k.level
            );
        }
    }
}
