//! ADM's table for the kernel checker (`crate::testutil::checkasm`): every entry on one
//! random case per call against the scalar entry: every width up to a few vectors (swept,
//! then random), strides wider than the band, every depth's band magnitudes, full-range
//! and realistic values, extremes, regions and column ranges that start and end off a
//! vector boundary or at the row's end, and each kernel's own edges (samples past the
//! depth, values next to powers of two, gain limits and weights at their lanes' edges).

use super::super::bands::Bands;
use super::super::cm::{around, Masking, Row0, Row123};
use super::super::cnum::{ceil_u32, half_of_shift};
use super::super::den::Cube;
use super::super::dwt::Taps;
use super::tests::{
    band_differs, bands16, decouple_twins_agree, dwt0_differs, region, samples, weight_twins_agree,
};
use super::{Kernels, KERNELS};
use crate::testutil::checkasm::{equal, Checkable, Entry, Suite, Verdict};
use crate::testutil::twin_rng::TwinRng;

/// ADM's entries.
pub(in crate::feature::adm) static SUITE: Suite<Kernels> = Suite {
    feature: "adm",
    dispatch: &KERNELS,
    entries: &[
        Entry {
            name: "dwt0_u8",
            check: |_, k, rng| dwt0(k, rng, 8),
        },
        Entry {
            name: "dwt0_u16",
            check: |_, k, rng| {
                let bpc = [10, 12, 16][rng.range(0, 2) as usize];
                dwt0(k, rng, bpc)
            },
        },
        Entry {
            name: "dwt1",
            check: dwt1,
        },
        Entry {
            name: "dwt",
            check: dwt,
        },
        Entry {
            name: "decouple0",
            check: decouple0,
        },
        Entry {
            name: "decouple123",
            check: decouple123,
        },
        Entry {
            name: "den0_row",
            check: den0_row,
        },
        Entry {
            name: "den123_row",
            check: den123_row,
        },
        Entry {
            name: "weight0",
            check: weight0,
        },
        Entry {
            name: "weight123",
            check: weight123,
        },
        Entry {
            name: "cm0_row",
            check: cm0_row,
        },
        Entry {
            name: "cm123_row",
            check: cm123_row,
        },
    ],
};

/// `Ok` when `agree`, else `what`.
fn agree(agree: bool, what: impl FnOnce() -> String) -> Verdict {
    if agree {
        Ok(())
    } else {
        Err(what())
    }
}

fn dwt0(k: &Kernels, rng: &mut TwinRng, bpc: u32) -> Verdict {
    let (w, h) = (rng.size(2, 140), rng.size(2, 24));
    let stride = w + rng.range(0, 11) as usize;
    let mut px = samples(rng, stride * h, bpc);
    // Now and then samples past the depth (a malformed file), a few or a ninth of them,
    // which the kernels must take as the scalar twin does (the row-pair kernels by their
    // 32-bit fallback).
    let past = match rng.range(0, 7) {
        0 | 1 => rng.range(1, 4) as usize,
        2 => px.len() / 9,
        _ => 0,
    };
    for _ in 0..past {
        let i = rng.range(0, px.len() as i64 - 1) as usize;
        px[i] = rng.range(0, 65535) as u16;
    }
    let t = Taps::new(w, h);
    let os = w.div_ceil(2) + rng.range(0, 3) as usize;
    match dwt0_differs(k, (&px, stride, bpc), &t, os) {
        None => Ok(()),
        Some(band) => Err(format!("band {band} differs at {w}x{h}, {bpc} bits")),
    }
}

fn dwt1(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let (w, h) = (rng.size(2, 90), rng.size(2, 16));
    let stride = w + rng.range(0, 3) as usize;
    let extremes = rng.next_u64().is_multiple_of(2);
    let src: Vec<i16> = (0..stride * h)
        .map(|_| match (extremes, rng.next_u64() % 2) {
            (true, 0) => i16::MIN,
            (true, _) => i16::MAX,
            _ => rng.range(-32768, 32767) as i16,
        })
        .collect();
    let scale = [1, 1, 2, 3][rng.range(0, 3) as usize];
    let t = Taps::new(w, h);
    let os = w.div_ceil(2) + rng.range(0, 2) as usize;
    let len = os * h.div_ceil(2);
    let (mut got, mut want) = (Bands::<i32>::zeroed(len), Bands::<i32>::zeroed(len));
    let (mut tg, mut tw) = (vec![0; 2 * w], vec![0; 2 * w]);
    (k.dwt1)(&src, stride, &t, scale, &mut tg, &mut got, os);
    (s.dwt1)(&src, stride, &t, scale, &mut tw, &mut want, os);
    match band_differs(&got, &want) {
        None => Ok(()),
        Some(b) => Err(format!("level {scale} band {b} differs at {w}x{h}")),
    }
}

fn dwt(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let scale = rng.range(1, 3) as usize;
    let (w, h) = (rng.size(2, 90), rng.size(2, 16));
    let stride = w + rng.range(0, 7) as usize;
    // Full-range values wrap in the scalar code too; small ones are realistic (2^15: the
    // level-0 band's).
    let lim = [1i64 << 31, 1 << 20, 1 << 15, 300][rng.range(0, 3) as usize];
    let src: Vec<i32> = (0..stride * h)
        .map(|_| rng.range(-lim, lim - 1) as i32)
        .collect();
    let t = Taps::new(w, h);
    let os = w.div_ceil(2) + rng.range(0, 3) as usize;
    let len = os * h.div_ceil(2);
    let (mut got, mut want) = (Bands::<i32>::zeroed(len), Bands::<i32>::zeroed(len));
    let (mut tg, mut tw) = (vec![0; 2 * w], vec![0; 2 * w]);
    (k.dwt)(&src, stride, &t, scale, &mut tg, &mut got, os);
    (s.dwt)(&src, stride, &t, scale, &mut tw, &mut want, os);
    agree(got.a == want.a && got.hvd == want.hvd, || {
        format!("level {scale} differs at {w}x{h}, values below {lim}")
    })
}

/// Sprinkles zeros over a seventh of the values, one time in three zeroes runs of the
/// reference's three bands at the same positions (a flat picture's bands, which the
/// scale-0 decoupling passes over in steps), and with even odds pulls `distorted` near
/// `reference` (gains about one, small offsets).
fn near_and_zeros<T: Copy + Into<i64> + TryFrom<i64> + Default>(
    rng: &mut TwinRng,
    reference: &mut [Vec<T>; 3],
    distorted: &mut [Vec<T>; 3],
    (lo, hi): (i64, i64),
) {
    if rng.next_u64().is_multiple_of(2) {
        for t in 0..3 {
            for (d, &o) in distorted[t].iter_mut().zip(&reference[t]) {
                let v = o.into() * rng.range(50, 150) / 100 + rng.range(-2, 2);
                *d = T::try_from(v.clamp(lo, hi)).ok().unwrap_or_default();
            }
        }
    }
    for b in reference.iter_mut().chain(distorted.iter_mut()) {
        for v in b.iter_mut() {
            if rng.next_u64().is_multiple_of(7) {
                *v = T::default();
            }
        }
    }
    let n = reference[0].len();
    if n > 0 && rng.range(0, 2) == 0 {
        for _ in 0..1 + rng.range(0, 3) {
            let at = rng.range(0, n as i64 - 1) as usize;
            let run = at..(at + rng.range(8, 40) as usize).min(n);
            for b in reference.iter_mut() {
                b[run.clone()].fill(T::default());
            }
        }
    }
}

/// An enhancement gain limit: none, libvmaf's default, random, or the integral ones at
/// the ends of the kernels' integer path (0 and its largest, 65535).
fn egl(rng: &mut TwinRng) -> f64 {
    [
        1.0,
        100.0,
        rng.range(100, 10000) as f64 / 100.0,
        0.0,
        65535.0,
    ][rng.range(0, 4) as usize]
}

/// Three scale-0 bands of `n` values: each full-range or small ([`bands16`]), all of one
/// depth's magnitudes (`2^(bpc - 1)`, 8..16 bits), or `i16`'s extremes only (whose
/// products and their pair sums reach 2^30 and 2^31).
fn bands0(rng: &mut TwinRng, n: usize) -> [Vec<i16>; 3] {
    match rng.range(0, 3) {
        0 => {
            let lim = 1i64 << (rng.range(8, 16) - 1);
            std::array::from_fn(|_| (0..n).map(|_| rng.range(-lim, lim - 1) as i16).collect())
        }
        1 => std::array::from_fn(|_| {
            (0..n)
                .map(|_| [i16::MIN, -32767, i16::MAX][rng.range(0, 2) as usize])
                .collect()
        }),
        _ => bands16(rng, n),
    }
}

/// A power of two from 2^14 to 2^top, one less or one more, of either sign (the
/// scale-1..3 divisor's leading bits round across a power of two there).
fn next_to_power_of_two(rng: &mut TwinRng, top: i64) -> i64 {
    let v = (1i64 << rng.range(14, top)) + rng.range(-1, 1);
    if rng.next_u64().is_multiple_of(2) {
        -v
    } else {
        v
    }
}

fn decouple0(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let (w, h) = (rng.size(1, 100), rng.size(1, 8));
    let stride = w + rng.range(0, 5) as usize;
    let n = stride * h;
    let (mut reference, mut distorted) = (bands0(rng, n), bands0(rng, n));
    near_and_zeros(rng, &mut reference, &mut distorted, (-32768, 32767));
    let (e, r) = (egl(rng), region(rng, w, h));
    let pair = (k.decouple0, s.decouple0);
    agree(
        decouple_twins_agree(pair, (&reference, &distorted), stride, r, e),
        || format!("differs at {w}x{h}, region {r:?}, egl {e}"),
    )
}

fn decouple123(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let (w, h) = (rng.size(1, 100), rng.size(1, 8));
    let stride = w + rng.range(0, 5) as usize;
    let n = stride * h;
    // Scale-1..3 bands carry about 8 bits more than the picture; or values about the
    // step's bound (2^26), anywhere in `i32`, small, or next to powers of two (lim 0).
    let bpc = rng.range(8, 16);
    let lim = [
        1i64 << 31,
        1 << 25,
        1 << 24,
        300,
        0,
        0,
        1 << (bpc + 8),
        1 << (bpc + 8),
    ][rng.range(0, 7) as usize];
    // Powers of two up to 2^25 leave every step to the vector code; up to 2^30, most
    // steps hold one past its bound (2^26) and go to the scalar twin.
    let top = [25, 30][rng.range(0, 1) as usize];
    let band = |rng: &mut TwinRng| -> [Vec<i32>; 3] {
        std::array::from_fn(|_| {
            (0..n)
                .map(|_| match lim {
                    0 => next_to_power_of_two(rng, top) as i32,
                    _ => rng.range(-lim, lim - 1) as i32,
                })
                .collect()
        })
    };
    let (mut reference, mut distorted) = (band(rng), band(rng));
    near_and_zeros(
        rng,
        &mut reference,
        &mut distorted,
        (i32::MIN as i64, i32::MAX as i64),
    );
    let (e, r) = (egl(rng), region(rng, w, h));
    if lim == 0 && r.top < r.bottom && r.left < r.right {
        // |i32::MIN| as a divisor, in the band outside the angle test (whose scalar
        // squares would overflow), inside the region (where a step meets it).
        let i = rng.range(r.top as i64, r.bottom as i64 - 1) as usize;
        let j = rng.range(r.left as i64, r.right as i64 - 1) as usize;
        reference[2][i * stride + j] = i32::MIN;
    }
    let pair = (k.decouple123, s.decouple123);
    agree(
        decouple_twins_agree(pair, (&reference, &distorted), stride, r, e),
        || format!("differs at {w}x{h}, region {r:?}, values below {lim} ({bpc} bits), egl {e}"),
    )
}

fn den0_row(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let n = rng.size(0, 200);
    let bpc = rng.range(8, 16) as u32;
    let lim = (1i64 << (bpc - 1)).min(32768);
    let row: Vec<i16> = (0..n)
        .map(|_| match rng.next_u64() % 8 {
            0 => i16::MIN,
            1 => i16::MAX,
            _ => rng.range(-lim, lim - 1) as i16,
        })
        .collect();
    equal(
        &format!("row of {n}, {bpc} bits"),
        (k.den0_row)(&row),
        (s.den0_row)(&row),
    )
}

fn den123_row(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let n = rng.size(0, 200);
    let bpc = rng.range(8, 16) as u32;
    let lim = [1i64 << (bpc + 9), 1 << (bpc + 14), 1 << 31][rng.range(0, 2) as usize];
    let row: Vec<i32> = (0..n).map(|_| rng.range(-lim, lim - 1) as i32).collect();
    let c = if rng.next_u64().is_multiple_of(2) {
        let shift_sq = [31, 30, 31][rng.range(0, 2) as usize];
        let shift_cub = ceil_u32((rng.size(1, 4000) as f64).log2());
        Cube {
            shift_sq,
            round_sq: 1 << shift_sq,
            shift_cub,
            round_cub: half_of_shift(shift_cub) as u64,
        }
    } else {
        Cube {
            shift_sq: rng.range(0, 63) as u32,
            round_sq: rng.next_u64() >> rng.range(0, 63),
            shift_cub: rng.range(0, 70) as u32,
            round_cub: rng.next_u64() >> rng.range(0, 63),
        }
    };
    equal(
        &format!("row of {n}, values below {lim}, {c:?}"),
        (k.den123_row)(&row, c),
        (s.den123_row)(&row, c),
    )
}

fn weight0(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let (w, h) = (rng.size(1, 120), rng.size(1, 20));
    let stride = w + rng.range(0, 5) as usize;
    // A depth's magnitudes, now and then the extremes of i16 (whose products reach -2^30).
    let bpc = rng.range(8, 16);
    let lim = 1i64 << (bpc - 1);
    let src: [Vec<i16>; 3] = std::array::from_fn(|_| {
        (0..stride * h)
            .map(|_| match rng.next_u64() % 8 {
                0 => i16::MIN,
                1 => i16::MAX,
                _ => rng.range(-lim, lim - 1) as i16,
            })
            .collect()
    });
    // Any weight, or one at the edges of the 16-bit lanes.
    let rf = [0; 3].map(|_: u16| match rng.next_u64() % 3 {
        0 => [0, 1, 32767, 32768, 65535][rng.range(0, 4) as usize],
        _ => rng.range(0, 65535) as u16,
    });
    let r = region(rng, w, h);
    agree(
        weight_twins_agree((k.weight0, s.weight0), &src, stride, r, rf),
        || format!("differs at {w}x{h}, {bpc} bits, region {r:?}, rf {rf:?}"),
    )
}

fn weight123(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let (w, h) = (rng.size(1, 120), rng.size(1, 20));
    let stride = w + rng.range(0, 5) as usize;
    // Values of 8 to 32 bits (scale 3 of 16-bit pictures reaches about 2^24).
    let lim = 1i64 << [7, 11, 12, 15, 23, 24, 31][rng.range(0, 6) as usize];
    let src: [Vec<i32>; 3] = std::array::from_fn(|_| {
        (0..stride * h)
            .map(|_| rng.range(-lim, lim - 1) as i32)
            .collect()
    });
    // Weights below and above 2^31 (the two products of the kernel), or at its edges.
    let rf = [0; 3].map(|_: u32| match rng.next_u64() % 3 {
        0 => [0, 1, (1 << 31) - 1, 1 << 31, u32::MAX][rng.range(0, 4) as usize],
        _ => rng.range(0, u32::MAX as i64) as u32,
    });
    let r = region(rng, w, h);
    agree(
        weight_twins_agree((k.weight123, s.weight123), &src, stride, r, rf),
        || format!("differs at {w}x{h}, values below {lim}, region {r:?}, rf {rf:?}"),
    )
}

/// A random band row `i` of a `w` x `h` band and its columns `left..right`: starting
/// anywhere in the first half, ending at the row's end half the time (where the taps
/// mirror), else anywhere after.
fn masking_row(rng: &mut TwinRng, w: usize, h: usize) -> ((usize, usize, usize), usize, usize) {
    let i = rng.range(0, h as i64 - 1) as usize;
    let (up, down) = around(i, h);
    let left = rng.range(0, w as i64 / 2) as usize;
    let right = if rng.next_u64().is_multiple_of(2) {
        w
    } else {
        rng.range(left as i64, w as i64) as usize
    };
    ((up, i, down), left, right)
}

fn cm0_row(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let (w, h) = (rng.size(2, 130), rng.size(2, 6));
    let stride = w + rng.range(0, 5) as usize;
    let n = stride * h;
    let (source, masker, activity) = (bands0(rng, n), bands0(rng, n), bands0(rng, n));
    let (rows, left, right) = masking_row(rng, w, h);
    let shift_cub = if rng.next_u64().is_multiple_of(2) {
        [0; 3].map(|_: u32| rng.range(0, 40) as u32)
    } else {
        let lw = (w as f64).log2();
        [ceil_u32(lw - 4.0), ceil_u32(lw - 4.0), ceil_u32(lw - 3.0)]
    };
    let row = Row0 {
        stride,
        w,
        rows,
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
    equal(
        &format!("{row:?}"),
        (k.cm0_row)(&m, &row),
        (s.cm0_row)(&m, &row),
    )
}

fn cm123_row(s: &Kernels, k: &Kernels, rng: &mut TwinRng) -> Verdict {
    let (w, h) = (rng.size(2, 130), rng.size(2, 6));
    let stride = w + rng.range(0, 5) as usize;
    let n = stride * h;
    // Every band of a depth's magnitudes (about bpc + 8 bits), or each of any size.
    let depth = rng
        .next_u64()
        .is_multiple_of(2)
        .then(|| 1i64 << (rng.range(8, 16) + 8));
    let band = |rng: &mut TwinRng| -> [Vec<i32>; 3] {
        std::array::from_fn(|_| {
            let lim =
                depth.unwrap_or_else(|| [1i64 << 31, 1 << 20, 1 << 12][rng.range(0, 2) as usize]);
            (0..n).map(|_| rng.range(-lim, lim - 1) as i32).collect()
        })
    };
    let (source, masker, activity) = (band(rng), band(rng), band(rng));
    let (rows, left, right) = masking_row(rng, w, h);
    let shift_cub = if rng.next_u64().is_multiple_of(2) {
        rng.range(0, 40) as u32
    } else {
        ceil_u32((w as f64).log2())
    };
    let row = Row123 {
        stride,
        w,
        rows,
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
    equal(
        &format!("{row:?}"),
        (k.cm123_row)(&m, &row),
        (s.cm123_row)(&m, &row),
    )
}

/// adm's suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;
