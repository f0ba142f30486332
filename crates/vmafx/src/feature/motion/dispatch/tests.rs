//! Every motion kernel level against its scalar twin on random inputs, bit for bit.

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

/// The nonzero flags a vector and the scalar vertical pass returned, against the output.
fn assert_flags((got, scalar): (bool, bool), out: &[i32], what: &str) {
    let want = out.iter().any(|&v| v != 0);
    assert_eq!(
        (got, scalar),
        (want, want),
        "{what}: nonzero flags (vector, scalar)"
    );
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
fn vector_kernels_match_scalar_at_every_width_below_three_vectors_and_every_depth() {
    // Widths 1..=50 cover rows shorter than one 8- or 16-lane step and every partial last
    // step; the output sits inside a longer buffer whose sentinels must survive.
    let mut rng = TwinRng::new(0x7a11);
    for (level, k) in simd_tables() {
        for n in 1..=50usize {
            for bpc in 8u32..=16 {
                let max = (1i64 << bpc) - 1;
                let skew = rng.size(0, 3);
                let rows: Vec<Vec<i64>> = (0..10)
                    .map(|_| (0..n + skew).map(|_| rng.range(0, max)).collect())
                    .collect();
                let mut got = vec![i32::MIN; n + 2];
                let mut want = vec![0; n];
                let flags = if bpc == 8 {
                    let r: Vec<Vec<u8>> = rows
                        .iter()
                        .map(|r| r.iter().map(|&v| v as u8).collect())
                        .collect();
                    let p: [&[u8]; 5] = std::array::from_fn(|i| &r[i][skew..]);
                    let c: [&[u8]; 5] = std::array::from_fn(|i| &r[i + 5][skew..]);
                    (
                        (k.vertical_u8)(p, c, bpc, &mut got[1..n + 1]),
                        (Kernels::SCALAR.vertical_u8)(p, c, bpc, &mut want),
                    )
                } else {
                    let r: Vec<Vec<u16>> = rows
                        .iter()
                        .map(|r| r.iter().map(|&v| v as u16).collect())
                        .collect();
                    let p: [&[u16]; 5] = std::array::from_fn(|i| &r[i][skew..]);
                    let c: [&[u16]; 5] = std::array::from_fn(|i| &r[i + 5][skew..]);
                    (
                        (k.vertical_u16)(p, c, bpc, &mut got[1..n + 1]),
                        (Kernels::SCALAR.vertical_u16)(p, c, bpc, &mut want),
                    )
                };
                assert_eq!(
                    (got[0], got[n + 1]),
                    (i32::MIN, i32::MIN),
                    "{level} vertical wrote outside {n} columns, {bpc} bits"
                );
                assert_eq!(
                    &got[1..n + 1],
                    &want[..],
                    "{level} vertical, {n} columns, {bpc} bits"
                );
                assert_flags(flags, &want, &level);
                if n >= 3 {
                    let (g, s) = ((k.abs_sum)(&want), (Kernels::SCALAR.abs_sum)(&want));
                    assert_eq!(g, s, "{level} horizontal sum, {n} columns, {bpc} bits");
                }
            }
        }
    }
}

/// Rows of `n` samples of the pattern `kind` at `max`: all `max`, alternating columns, or
/// alternating runs of three.
fn extreme_row(kind: usize, n: usize, max: u16, flip: bool) -> Vec<u16> {
    (0..n)
        .map(|j| {
            let on = match kind {
                0 => true,
                1 => j % 2 == 0,
                _ => (j / 3) % 2 == 0,
            };
            if on != flip {
                max
            } else {
                0
            }
        })
        .collect()
}

#[test]
fn kernels_match_scalar_on_all_zero_against_all_max_at_every_width() {
    // The largest differences of either sign, and row buffers at the vertical pass's
    // extremes, for every width below four 16-lane steps.
    for (level, k) in simd_tables() {
        for n in 1..=50usize {
            for bpc in [8u32, 10, 12, 14, 15, 16] {
                let max = ((1u32 << bpc) - 1) as u16;
                for kind in 0..3 {
                    for (up, same) in [(false, false), (true, false), (false, true)] {
                        // Previous rows at `max` where the current ones are 0 (or the
                        // reverse), with the centre row's pattern flipped; or equal rows,
                        // whose output is all zero.
                        let p16: Vec<Vec<u16>> = (0..5)
                            .map(|r| extreme_row(kind, n, max, (r == 2) != up))
                            .collect();
                        let c16: Vec<Vec<u16>> = if same {
                            p16.clone()
                        } else {
                            (0..5)
                                .map(|r| extreme_row(kind, n, max, (r == 2) == up))
                                .collect()
                        };
                        let mut got = vec![0; n];
                        let mut want = vec![0; n];
                        let flags = if bpc == 8 {
                            let cast = |v: &Vec<Vec<u16>>| -> Vec<Vec<u8>> {
                                v.iter()
                                    .map(|r| r.iter().map(|&x| x as u8).collect())
                                    .collect()
                            };
                            let (p8, c8) = (cast(&p16), cast(&c16));
                            let p: [&[u8]; 5] = std::array::from_fn(|i| p8[i].as_slice());
                            let c: [&[u8]; 5] = std::array::from_fn(|i| c8[i].as_slice());
                            (
                                (k.vertical_u8)(p, c, bpc, &mut got),
                                (Kernels::SCALAR.vertical_u8)(p, c, bpc, &mut want),
                            )
                        } else {
                            let p: [&[u16]; 5] = std::array::from_fn(|i| p16[i].as_slice());
                            let c: [&[u16]; 5] = std::array::from_fn(|i| c16[i].as_slice());
                            (
                                (k.vertical_u16)(p, c, bpc, &mut got),
                                (Kernels::SCALAR.vertical_u16)(p, c, bpc, &mut want),
                            )
                        };
                        let what = format!("{level}, {n} columns, {bpc} bits, pattern {kind}");
                        assert_eq!(got, want, "vertical: {what}, up {up}");
                        assert_flags(flags, &want, &what);
                        if n >= 3 {
                            let (g, s) = ((k.abs_sum)(&want), (Kernels::SCALAR.abs_sum)(&want));
                            assert_eq!(g, s, "horizontal: {what}, up {up}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn nonzero_flag_sees_a_single_differing_column_anywhere() {
    // Equal rows but for one sample: the flag must see that one column at every position
    // of every step, and the outputs must still agree.
    for (level, k) in simd_tables() {
        for n in 1..=70usize {
            for j in 0..n {
                for bpc in [8u32, 10, 16] {
                    let prev = vec![0u16; n];
                    let mut cur = vec![0u16; n];
                    cur[j] = 1;
                    let (mut got, mut want) = (vec![0; n], vec![0; n]);
                    let flags = if bpc == 8 {
                        let (p8, c8): (Vec<u8>, Vec<u8>) = (
                            prev.iter().map(|&v| v as u8).collect(),
                            cur.iter().map(|&v| v as u8).collect(),
                        );
                        let p = [p8.as_slice(); 5];
                        let c = [p8.as_slice(), p8.as_slice(), &c8, p8.as_slice(), &p8];
                        (
                            (k.vertical_u8)(p, c, bpc, &mut got),
                            (Kernels::SCALAR.vertical_u8)(p, c, bpc, &mut want),
                        )
                    } else {
                        let p = [prev.as_slice(); 5];
                        let c = [&prev[..], &prev[..], &cur[..], &prev[..], &prev[..]];
                        (
                            (k.vertical_u16)(p, c, bpc, &mut got),
                            (Kernels::SCALAR.vertical_u16)(p, c, bpc, &mut want),
                        )
                    };
                    let what = format!("{level}, column {j} of {n}, {bpc} bits");
                    assert_eq!(got, want, "vertical: {what}");
                    assert_flags(flags, &want, &what);
                }
            }
        }
    }
}

#[test]
fn horizontal_sum_matches_scalar_with_one_out_of_range_value_anywhere() {
    // In-range rows with one value at or just past the bounds of the vector split, at every
    // position: the kernels must notice it wherever it is (the last four values too).
    let mut rng = TwinRng::new(0x5e7);
    for (level, k) in simd_tables() {
        for n in 3..=50usize {
            for j in 0..n {
                for bad in [1 << 16, -(1 << 16) - 1, i32::MAX, i32::MIN, (1 << 16) - 1] {
                    let mut row: Vec<i32> =
                        (0..n).map(|_| rng.range(-65535, 65535) as i32).collect();
                    row[j] = bad;
                    let (g, s) = ((k.abs_sum)(&row), (Kernels::SCALAR.abs_sum)(&row));
                    assert_eq!(g, s, "{level} horizontal sum, {bad} at {j} of {n}");
                }
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
