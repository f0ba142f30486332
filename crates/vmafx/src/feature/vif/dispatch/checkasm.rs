//! vif's table for the kernel checker (`crate::testutil::checkasm`): each entry on a
//! random picture pair of random size (one column up, odd, around vector multiples) at
//! every depth and scale it serves. A horizontal kernel reads what its own table's
//! vertical kernel left in the scratch (16-bit words at AVX-512), so the `horizontal`
//! entry runs the SIMD table's vertical pass before it; the vertical entries run the
//! scalar horizontal pass after the SIMD vertical one, on rows where the columns the
//! vertical kernel left only as words are written back (`settle_words`).

use super::super::kernels::Kernels;
use super::tests::{decimate_with, pair, plane, rows_of, statistic_trace, Rng};
use super::KERNELS;
use crate::feature::vif::split::{DisFn, KeepFn};
use crate::feature::vif::stats::{DeferredFn, HorizontalFn, Sums, VerticalFn};
use crate::feature::vif::stats::{StatScratch, VerticalShift};
use crate::feature::vif::subsample::DownScratch;
use crate::feature::vif::subsample::{DownVerticalFn, VerticalDownFn};
use crate::feature::vif::tables::{half_width, MAX_HALF};
use crate::testutil::checkasm::{same, Checkable, Entry, Suite, Verdict};
use crate::testutil::twin_rng::TwinRng;

/// vif's entries.
pub(in crate::feature::vif) static SUITE: Suite<Kernels> = Suite {
    feature: "vif",
    dispatch: &KERNELS,
    entries: &[
        Entry {
            name: "vertical_u8",
            check: |s, k, rng| statistic::<u8>(rng, 8, 0, (k.vertical_u8, s.horizontal), s, true),
        },
        Entry {
            name: "vertical_u16",
            check: |s, k, rng| {
                let (bpc, scale) = deep(rng);
                statistic::<u16>(rng, bpc, scale, (k.vertical_u16, s.horizontal), s, true)
            },
        },
        Entry {
            name: "horizontal",
            check: |s, k, rng| {
                if rng.range(0, 1) == 0 {
                    statistic::<u8>(rng, 8, 0, (k.vertical_u8, k.horizontal), s, false)
                } else {
                    let (bpc, scale) = deep(rng);
                    statistic::<u16>(rng, bpc, scale, (k.vertical_u16, k.horizontal), s, false)
                }
            },
        },
        Entry {
            name: "deferred_u8",
            check: |s, k, rng| deferred::<u8>(rng, (8, 0), k, s),
        },
        Entry {
            name: "deferred_u16",
            check: |s, k, rng| {
                // Scale 0 of deeper pictures, or scale 1 (the means of any depth's scale 0).
                if rng.range(0, 1) == 0 {
                    let bpc = [10, 12][rng.range(0, 1) as usize];
                    deferred::<u16>(rng, (bpc, 0), k, s)
                } else {
                    let bpc = [8, 10, 12][rng.range(0, 2) as usize];
                    deferred::<u16>(rng, (bpc, 1), k, s)
                }
            },
        },
        Entry {
            name: "horizontal_keep",
            check: |s, k, rng| split(rng, k, s, true),
        },
        Entry {
            name: "horizontal_dis",
            check: |s, k, rng| split(rng, k, s, false),
        },
        Entry {
            name: "down_vertical_u8",
            check: |s, k, rng| decimate::<u8>(rng, 8, 1, (k.down_vertical_u8, s), s),
        },
        Entry {
            name: "down_vertical_u16",
            check: |s, k, rng| {
                let (bpc, _) = deep(rng);
                let next = rng.range(1, 3) as usize;
                decimate::<u16>(rng, bpc, next, (k.down_vertical_u16, s), s)
            },
        },
        Entry {
            name: "down_horizontal",
            check: |s, k, rng| {
                let (bpc, _) = deep(rng);
                let next = rng.range(1, 3) as usize;
                decimate::<u16>(rng, bpc, next, (k.down_vertical_u16, k), s)
            },
        },
        Entry {
            name: "vertical_down_u8",
            check: |s, k, rng| fused::<u8>(rng, 8, 0, k.vertical_down_u8, s),
        },
        Entry {
            name: "vertical_down_u16",
            check: |s, k, rng| {
                let (bpc, _) = deep(rng);
                let scale = rng.range(0, 2) as usize;
                fused::<u16>(rng, bpc, scale, k.vertical_down_u16, s)
            },
        },
    ],
};

/// The fused statistic of `scale` and vertical filter of the next scale on a random pair
/// through `f`, against the scalar table's: every row's scratch and both filtered rows.
fn fused<T: Copy + Default + Into<u32> + TryFrom<u32>>(
    rng: &mut TwinRng,
    bpc: u32,
    scale: usize,
    f: VerticalDownFn<T>,
    scalar: &Kernels,
) -> Verdict
where
    Kernels: Pick<T>,
{
    let (w, h) = size(rng);
    let mut pics = Rng(rng.next_u64() | 1);
    let depth = if scale == 0 { bpc } else { 16 };
    let (r, d) = pair(&mut pics, depth, w, h);
    let (r, d) = (
        malformed(&mut pics, depth, r),
        malformed(&mut pics, depth, d),
    );
    let half = half_width(scale);
    let (pr, pd) = (plane::<T>(&r, w, h, half), plane::<T>(&d, w, h, half));
    let (pr, pd) = (pr.rows(), pd.rows());
    let shift = VerticalShift::at(scale, bpc);
    let run = |f: VerticalDownFn<T>| {
        let (mut s, mut down) = (StatScratch::new(w), DownScratch::new(w));
        let body = |row: &[u32]| row[MAX_HALF..MAX_HALF + w].to_vec();
        (0..h)
            .map(|y| {
                f(&pr, &pd, y, w, scale, shift, &mut s, &mut down);
                let filtered = [body(down.convol.padded()), body(down.convol_dis.padded())];
                (rows_of(&s, scale), filtered)
            })
            .collect::<Vec<_>>()
    };
    let (got, want) = (run(f), run(scalar.vertical_down()));
    let what = format!("{bpc}-bit {w}x{h} scale {scale}");
    same(&format!("{what}: rows and filtered rows"), &got, &want)
}

/// A third of the time, `depth`-bit `samples` with a few samples at or past 2^depth, as a
/// malformed file could hold (some of them at or past 2^15, which the AVX2 16-bit
/// vertical pairs leave to the 64-bit kernel); else `samples` as they are. 8-bit and 16-bit
/// samples have no such values in their types.
fn malformed(rng: &mut Rng, depth: u32, mut samples: Vec<u32>) -> Vec<u32> {
    if depth == 8 || depth >= 16 || samples.is_empty() || rng.below(3) != 0 {
        return samples;
    }
    let n = samples.len() as u64;
    for _ in 0..1 + rng.below(n / 24 + 1) {
        let at = rng.below(n) as usize;
        let low = if rng.below(2) == 0 {
            1 << depth
        } else {
            1 << 15
        };
        samples[at] = (low + rng.below((1 << 16) - low as u64) as u32).min(0xFFFF);
    }
    samples
}

/// A `w` x `h` pair of `depth`-bit samples: at 8 bits a quarter of the time
/// [`rounding_spikes`], a quarter of the time [`faint_noise`], else a random [`pair`].
fn pictures(
    rng: &mut TwinRng,
    pics: &mut Rng,
    bpc: u32,
    depth: u32,
    (w, h): (usize, usize),
) -> (Vec<u32>, Vec<u32>) {
    match (bpc, rng.range(0, 3)) {
        (8, 0) => rounding_spikes(pics, w, h),
        (8, 1) => faint_noise(pics, w, h),
        _ => pair(pics, depth, w, h),
    }
}

/// An 8-bit pair whose reference is a level plus noise of 0 to 3..=5, a variance near
/// `SIGMA_NSQ` (2.0): many steps of sixteen pixels then hold pixels just past it beside
/// ones just below, where the horizontal pass's early flat test (on the moment's high
/// half) must leave the decision to the exact `sigma1_sq`. The distorted picture is the
/// reference with sparse noise.
fn faint_noise(rng: &mut Rng, w: usize, h: usize) -> (Vec<u32>, Vec<u32>) {
    let (level, k) = (rng.below(250) as u32, 4 + rng.below(3));
    let r: Vec<u32> = (0..w * h).map(|_| level + rng.below(k) as u32).collect();
    let d = r
        .iter()
        .map(|&v| (v + (rng.below(8) == 0) as u32 * rng.below(4) as u32).min(255))
        .collect();
    (r, d)
}

/// An 8-bit pair that puts the horizontal pass's moment rounding on its boundary: a black
/// (flat) reference, and a black distorted picture but for spikes of 16 times an odd value,
/// 18 apart (one spike per filter window). At scale 0 a pixel whose taps to a spike are
/// 2640 one way and 1640, 3896 or 7784 the other gets a `dis²` sum of 2^15 times an odd
/// number, exactly half way in the moment's rounded 16-bit shift, so a rounding term off by
/// one changes that pixel's `sigma2_sq` and, the reference being flat, the numerator's flat
/// sum. Random pairs reach that boundary too rarely to catch it.
fn rounding_spikes(rng: &mut Rng, w: usize, h: usize) -> (Vec<u32>, Vec<u32>) {
    let (x0, y0) = (rng.below(18) as usize, rng.below(18) as usize);
    let mut d = vec![0; w * h];
    for y in (y0..h).step_by(18) {
        for x in (x0..w).step_by(18) {
            d[y * w + x] = 16 * (2 * rng.below(8) as u32 + 1);
        }
    }
    (vec![0; w * h], d)
}

/// A deep depth and a scale for 16-bit planes.
fn deep(rng: &mut TwinRng) -> (u32, usize) {
    (
        [10, 12, 16][rng.range(0, 2) as usize],
        rng.range(0, 3) as usize,
    )
}

/// A random size: one column up to a few vectors (the width, drawn first, so that the
/// checker's trials sweep it: every width below, at and past a vector boundary), and a
/// quarter of the time one of the edge heights (a single row, a few, one past a filter's
/// reach), else up to 24 rows.
fn size(rng: &mut TwinRng) -> (usize, usize) {
    const EDGE_HEIGHTS: [usize; 6] = [1, 2, 3, 5, 9, 17];
    let w = rng.size(1, 90);
    let h = if rng.range(0, 3) == 0 {
        EDGE_HEIGHTS[rng.range(0, 5) as usize]
    } else {
        rng.size(1, 24)
    };
    (w, h)
}

/// The statistic of `scale` on a random pair through `fns`, against the scalar table.
fn statistic<T: Copy + Default + Into<u32> + TryFrom<u32>>(
    rng: &mut TwinRng,
    bpc: u32,
    scale: usize,
    fns: (VerticalFn<T>, HorizontalFn),
    scalar: &Kernels,
    settle: bool,
) -> Verdict
where
    Kernels: Pick<T>,
{
    let (w, h) = size(rng);
    let mut pics = Rng(rng.next_u64() | 1);
    let depth = if scale == 0 { bpc } else { 16 };
    let (r, d) = pictures(rng, &mut pics, bpc, depth, (w, h));
    let (r, d) = (
        malformed(&mut pics, depth, r),
        malformed(&mut pics, depth, d),
    );
    let half = half_width(scale);
    let (pr, pd) = (plane::<T>(&r, w, h, half), plane::<T>(&d, w, h, half));
    let shift = VerticalShift::at(scale, bpc);
    let gain = [1.0, 1.5, 100.0][rng.range(0, 2) as usize];
    let run = |f, settle| statistic_trace((&pr, &pd), (w, h), scale, shift, gain, f, settle);
    let (got, want) = (
        run(fns, settle),
        run((scalar.vertical(), scalar.horizontal), false),
    );
    let what = format!("{bpc}-bit {w}x{h} scale {scale}");
    same(&format!("{what}: rows"), &got.0, &want.0)?;
    same(&format!("{what}: sums after each row"), &got.1, &want.1)
}

/// The row loop of `scale` (0 or 1) of `bpc`-bit pictures with plans on (`xy_plan`):
/// every row's vertical, horizontal and deferred pass through `table` against the scalar
/// table's, on [`patches`] half the time: the sums after each row.
fn deferred<T: Copy + Default + TryFrom<u32>>(
    rng: &mut TwinRng,
    (bpc, scale): (u32, usize),
    table: &Kernels,
    scalar: &Kernels,
) -> Verdict
where
    Kernels: Pick<T>,
{
    let (w, h) = if rng.range(0, 3) == 0 {
        size(rng)
    } else {
        (rng.size(40, 160), rng.size(1, 40))
    };
    let mut pics = Rng(rng.next_u64() | 1);
    // Scale 1 reads the means of scale 0: 16-bit samples.
    let depth = if scale == 0 { bpc } else { 16 };
    let (r, d) = if rng.range(0, 1) == 0 {
        pictures(rng, &mut pics, bpc, depth, (w, h))
    } else {
        patches(&mut pics, depth, w, h)
    };
    let half = half_width(scale);
    let (pr, pd) = (plane::<T>(&r, w, h, half), plane::<T>(&d, w, h, half));
    let (pr, pd) = (pr.rows(), pd.rows());
    let shift = VerticalShift::at(scale, bpc);
    let gain = [1.0, 1.5, 100.0][rng.range(0, 2) as usize];
    let run = |k: &Kernels| {
        let (vertical, deferred) = (k.vertical(), k.deferred());
        let (mut s, mut sums) = (StatScratch::new(w), Sums::default());
        s.xy.enable(true);
        (0..h)
            .map(|y| {
                vertical(&pr, &pd, y, w, scale, shift, &mut s);
                (k.horizontal)(&mut s, w, scale, gain, &mut sums);
                deferred(&pr, &pd, (y, w, scale), shift, gain, &mut s, &mut sums);
                sums
            })
            .collect::<Vec<_>>()
    };
    let what = format!("{bpc}-bit {w}x{h} scale {scale} with plans");
    same(
        &format!("{what}: sums after each row"),
        &run(table),
        &run(scalar),
    )
}

/// A `depth`-bit pair of flat ground and noisy patches that start at random rows and widen
/// as they go down, so that a plan made from the row above (`xy_plan`) both skips blocks
/// and misses steps that need them; the distorted picture is the reference with sparse
/// noise.
pub(super) fn patches(rng: &mut Rng, depth: u32, w: usize, h: usize) -> (Vec<u32>, Vec<u32>) {
    let top = 1u64 << depth;
    let ground = rng.below(top) as u32;
    let mut r = vec![ground; w * h];
    for _ in 0..1 + rng.below(4) {
        let (x0, y0) = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        let (start, slope) = (1 + rng.below(24) as usize, rng.below(4) as usize);
        for y in y0..h {
            let span = start + slope * (y - y0);
            for v in &mut r[y * w + x0..y * w + (x0 + span).min(w)] {
                *v = rng.below(top) as u32;
            }
        }
    }
    let d = r
        .iter()
        .map(|&v| match rng.below(6) {
            0 => (v + rng.below(9) as u32).min(top as u32 - 1),
            _ => v,
        })
        .collect();
    (r, d)
}

/// The split horizontal pass (`split.rs`) of a random pair through `table` against the
/// scalar table, both after their own vertical pass: with `keep`, the kept `mu1` and
/// `sigma1_sq` and the sums after each row of `horizontal_keep`; else the sums after
/// each row of `horizontal_dis`, scoring against the scalar kernels' kept values. 8-bit
/// pictures at scale 0, deeper ones at any scale.
fn split(rng: &mut TwinRng, table: &Kernels, scalar: &Kernels, keep: bool) -> Verdict {
    if rng.range(0, 1) == 0 {
        split_of::<u8>(rng, 8, 0, table, scalar, keep)
    } else {
        let (bpc, scale) = deep(rng);
        split_of::<u16>(rng, bpc, scale, table, scalar, keep)
    }
}

/// [`split`] on `bpc`-bit samples at `scale`.
fn split_of<T: Copy + Default + Into<u32> + TryFrom<u32>>(
    rng: &mut TwinRng,
    bpc: u32,
    scale: usize,
    table: &Kernels,
    scalar: &Kernels,
    keep: bool,
) -> Verdict
where
    Kernels: Pick<T>,
{
    let (w, h) = size(rng);
    let mut pics = Rng(rng.next_u64() | 1);
    let depth = if scale == 0 { bpc } else { 16 };
    let (r, d) = pictures(rng, &mut pics, bpc, depth, (w, h));
    let half = half_width(scale);
    let (pr, pd) = (plane::<T>(&r, w, h, half), plane::<T>(&d, w, h, half));
    let (pr, pd) = (pr.rows(), pd.rows());
    let shift = VerticalShift::at(scale, bpc);
    let gain = [1.0, 1.5, 100.0][rng.range(0, 2) as usize];
    let what = format!("{bpc}-bit {w}x{h} scale {scale}");
    // Every row's vertical pass, then `row(scratch, y, sums)`: the sums after each row.
    let trace = |vertical: VerticalFn<T>,
                 row: &mut dyn FnMut(&mut StatScratch, usize, &mut Sums)| {
        let (mut s, mut sums) = (StatScratch::new(w), Sums::default());
        (0..h)
            .map(|y| {
                vertical(&pr, &pd, y, w, scale, shift, &mut s);
                row(&mut s, y, &mut sums);
                sums
            })
            .collect::<Vec<_>>()
    };
    let kept = |k: &Kernels| {
        let f: KeepFn = k.horizontal_keep;
        let (mut mu1, mut sigma1) = (vec![0u32; w * h], vec![0i32; w * h]);
        let sums = trace(k.vertical(), &mut |s, y, sums| {
            let at = y * w..(y + 1) * w;
            f(
                s,
                w,
                scale,
                gain,
                sums,
                &mut mu1[at.clone()],
                &mut sigma1[at],
            )
        });
        (mu1, sigma1, sums)
    };
    let want = kept(scalar);
    if keep {
        let got = kept(table);
        same(&format!("{what}: kept mu1"), &got.0, &want.0)?;
        same(&format!("{what}: kept sigma1_sq"), &got.1, &want.1)?;
        return same(&format!("{what}: sums after each row"), &got.2, &want.2);
    }
    let (mu1, sigma1) = (&want.0, &want.1);
    let distorted = |k: &Kernels| {
        let f: DisFn = k.horizontal_dis;
        trace(k.vertical(), &mut |s, y, sums| {
            let at = y * w..(y + 1) * w;
            f(s, w, scale, gain, sums, &mu1[at.clone()], &sigma1[at])
        })
    };
    let (got, want) = (distorted(table), distorted(scalar));
    same(
        &format!("{what}: numerator sums after each row"),
        &got,
        &want,
    )
}

/// Down-sampling to `next` on a random picture through `fns`, against the scalar table.
fn decimate<T: Copy + Default + Into<u32> + TryFrom<u32>>(
    rng: &mut TwinRng,
    bpc: u32,
    next: usize,
    (vertical, table): (DownVerticalFn<T>, &Kernels),
    scalar: &Kernels,
) -> Verdict
where
    Kernels: Pick<T>,
{
    let (w, h) = size(rng);
    let mut pics = Rng(rng.next_u64() | 1);
    let depth = if next == 1 { bpc } else { 16 };
    let (r, _) = pair(&mut pics, depth, w, h);
    let src = plane::<T>(&r, w, h, half_width(next - 1));
    let run = |f| decimate_with(&src, (w, h), next, depth, f);
    let got = run((vertical, table.down_horizontal));
    let want = run((scalar.down_vertical(), scalar.down_horizontal));
    same(&format!("{bpc}-bit {w}x{h} to scale {next}"), &got, &want)
}

/// The entries of a table for one sample type.
trait Pick<T> {
    fn vertical(&self) -> VerticalFn<T>;
    fn deferred(&self) -> DeferredFn<T>;
    fn down_vertical(&self) -> DownVerticalFn<T>;
    fn vertical_down(&self) -> VerticalDownFn<T>;
}

impl Pick<u8> for Kernels {
    fn vertical(&self) -> VerticalFn<u8> {
        self.vertical_u8
    }
    fn deferred(&self) -> DeferredFn<u8> {
        self.deferred_u8
    }
    fn down_vertical(&self) -> DownVerticalFn<u8> {
        self.down_vertical_u8
    }
    fn vertical_down(&self) -> VerticalDownFn<u8> {
        self.vertical_down_u8
    }
}

impl Pick<u16> for Kernels {
    fn vertical(&self) -> VerticalFn<u16> {
        self.vertical_u16
    }
    fn deferred(&self) -> DeferredFn<u16> {
        self.deferred_u16
    }
    fn down_vertical(&self) -> DownVerticalFn<u16> {
        self.down_vertical_u16
    }
    fn vertical_down(&self) -> VerticalDownFn<u16> {
        self.vertical_down_u16
    }
}

/// vif's suite as the checker lists it.
pub(crate) static CHECKASM: &dyn Checkable = &SUITE;
