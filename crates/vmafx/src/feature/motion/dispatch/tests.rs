//! Every motion kernel level against its scalar twin on whole planes, bit for bit (the
//! kernels one by one, at every width and on edge rows, are the kernel checker's: see
//! `super::checkasm`).

use super::super::kernel::{LumaView, MotionSample};
use super::super::kernels::Kernels;
use super::super::sad::{blurred_sad_with, plane_sad, Scratch};
use super::KERNELS;
use crate::cpu::CpuLevel;
use crate::testutil::twin_rng::TwinRng;

/// The kernel tables to compare with the scalar twin: every table above scalar this CPU
/// runs (by level, for the messages).
fn simd_tables() -> Vec<(String, Kernels)> {
    KERNELS
        .runnable()
        .filter(|k| k.level != CpuLevel::Scalar)
        .map(|k| (format!("{:?}", k.level), k))
        .collect()
}

/// A random plane of `w` x `h` samples below `2^bpc`, with a random stride. Half the
/// planes are near `base` (small differences), the rest uniform (the extremes).
fn plane(rng: &mut TwinRng, w: usize, h: usize, bpc: u32, base: Option<&[i64]>) -> Vec<i64> {
    let max = (1i64 << bpc) - 1;
    let n = w * h;
    match base {
        Some(b) if rng.next_u64().is_multiple_of(2) => {
            let d = rng.range(1, 8);
            b.iter()
                .map(|&v| (v + rng.range(-d, d)).clamp(0, max))
                .collect()
        }
        _ => match rng.next_u64() % 3 {
            0 => (0..n)
                .map(|_| {
                    if rng.next_u64().is_multiple_of(2) {
                        0
                    } else {
                        max
                    }
                })
                .collect(),
            _ => (0..n).map(|_| rng.range(0, max)).collect(),
        },
    }
}

/// Lays `v` out with `stride` (extra columns hold garbage the kernel must not read).
fn strided<T: Copy>(v: &[i64], w: usize, stride: usize, cast: impl Fn(i64) -> T, pad: T) -> Vec<T> {
    let h = v.len() / w;
    let mut out = vec![pad; stride * h];
    for y in 0..h {
        for x in 0..w {
            out[y * stride + x] = cast(v[y * w + x]);
        }
    }
    out
}

fn compare<T: MotionSample>(
    (level, k): (&str, &Kernels),
    prev: &[T],
    cur: &[T],
    (w, h, stride, bpc): (usize, usize, usize, u32),
    case: usize,
) {
    let view = |s| LumaView {
        samples: s,
        width: w,
        height: h,
        stride,
    };
    let mut buf = vec![0; w];
    let want = blurred_sad_with(&Kernels::SCALAR, view(prev), view(cur), bpc, &mut buf);
    let got = blurred_sad_with(k, view(prev), view(cur), bpc, &mut buf);
    assert_eq!(
        got, want,
        "case {case}: {level} SAD {got} != scalar {want} at {w}x{h} stride {stride}, {bpc} bits"
    );
    // The whole plane as the extractor takes it (the 16-bit pipeline where the table has
    // one, rows beyond 16 bits and deep samples by the passes above).
    let got = plane_sad(k, view(prev), view(cur), bpc, &mut Scratch::new(w));
    assert_eq!(
        got, want,
        "case {case}: {level} plane SAD {got} != scalar {want} at {w}x{h} stride {stride}, {bpc} bits"
    );
}

#[test]
fn blurred_sad_matches_scalar_at_every_level_and_depth() {
    let mut rng = TwinRng::new(0x6d6f74696f6e);
    for (level, k) in simd_tables() {
        for case in 0..240 {
            let bpc = [8, 10, 12, 14, 15, 16][case % 6];
            let w = rng.size(3, 150);
            let h = rng.size(3, 40);
            let stride = w + rng.range(0, 9) as usize;
            let a = plane(&mut rng, w, h, bpc, None);
            let b = plane(&mut rng, w, h, bpc, Some(&a));
            let dims = (w, h, stride, bpc);
            if bpc == 8 {
                let (p, c) = (
                    strided(&a, w, stride, |v| v as u8, 77),
                    strided(&b, w, stride, |v| v as u8, 3),
                );
                compare((&level, &k), &p, &c, dims, case);
            } else {
                let (p, c) = (
                    strided(&a, w, stride, |v| v as u16, 0xffff),
                    strided(&b, w, stride, |v| v as u16, 0),
                );
                compare((&level, &k), &p, &c, dims, case);
            }
        }
    }
}

#[test]
fn plane_sad_matches_scalar_with_wide_rows_and_a_late_deep_sample() {
    // The 16-bit pipeline's two ways out: rows whose blurred differences pass 16 bits
    // (bands of extreme rows among small differences) go to the i32 passes one by one, and
    // a sample of 2^14 or more in the last row (at 10 and 12 bits: a malformed plane) sends
    // the whole plane there after its other rows were done. The sample is 65535, whose
    // difference wraps to a small word: the row would not look wide, only the flag sees it.
    let mut rng = TwinRng::new(0x3a9e);
    for (level, k) in simd_tables() {
        for case in 0..24 {
            let bpc = [8, 10, 12][case % 3];
            let max = (1i64 << bpc) - 1;
            let (w, h) = (rng.size(3, 90), rng.size(3, 30));
            let a: Vec<i64> = (0..w * h).map(|_| rng.range(0, max)).collect();
            let mut b: Vec<i64> = a
                .iter()
                .enumerate()
                .map(|(i, &v)| match (i / w) % 6 {
                    // A band of rows at the far end of the range from the previous ones.
                    2 | 3 => max - v,
                    _ => (v + rng.range(-3, 3)).clamp(0, max),
                })
                .collect();
            if bpc > 8 && case % 2 == 1 {
                b[w * h - 1 - rng.range(0, w as i64 - 1) as usize] = 65535;
            }
            let dims = (w, h, w, bpc);
            if bpc == 8 {
                let (p, c) = (
                    strided(&a, w, w, |v| v as u8, 0),
                    strided(&b, w, w, |v| v as u8, 0),
                );
                compare((&level, &k), &p, &c, dims, case);
            } else {
                let (p, c) = (
                    strided(&a, w, w, |v| v as u16, 0),
                    strided(&b, w, w, |v| v as u16, 0),
                );
                compare((&level, &k), &p, &c, dims, case);
            }
        }
    }
}
