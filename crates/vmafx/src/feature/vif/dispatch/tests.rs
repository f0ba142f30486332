//! Every SIMD kernel of `vif` against its scalar twin on random pictures of random sizes,
//! at 8, 10, 12 and 16 bits and every level this processor runs, asserting identical bits;
//! plus a 1080p timing of each level (`cargo test -p vmafx vif_timing -- --ignored
//! --nocapture`).

use super::super::kernels::Kernels;
use crate::cpu::{self, CpuLevel};
use crate::feature::vif::planes::PaddedPlane;
use crate::feature::vif::stats::{HorizontalFn, StatScratch, Sums, VerticalFn, VerticalShift};
use crate::feature::vif::subsample::{
    filter_and_decimate, DownHorizontalFn, DownScratch, DownVerticalFn,
};
use crate::feature::vif::tables::{half_width, MAX_HALF};
use crate::feature::vif::{State, Vif, PROVIDED};
use crate::feature::{ExtractInput, Extractor, FrameScores, Geometry};
use crate::frame::{Frame, FrameBuilder, PixelFormat, SamplesMut};

/// A xorshift generator: reproducible pictures without a dependency.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The SIMD levels to check: every distinct kernel table above scalar that this
/// processor runs (a level without kernels of its own, such as AVX-512 today, shares the
/// table of the level below).
fn simd_levels() -> Vec<CpuLevel> {
    let mut levels: Vec<CpuLevel> = cpu::supported()
        .into_iter()
        .map(|l| Kernels::for_level(l).level)
        .filter(|&l| l > CpuLevel::Scalar)
        .collect();
    levels.dedup();
    if levels.is_empty() {
        eprintln!("vif simd: no SIMD level on this processor; only scalar is checked");
    }
    levels
}

/// A reference and distorted pair of `bpc`-bit samples: flat blocks, texture, and a
/// distorted copy that is noisy, scaled or unrelated, so every branch of the statistic
/// is taken.
pub(super) fn pair(rng: &mut Rng, bpc: u32, w: usize, h: usize) -> (Vec<u32>, Vec<u32>) {
    let max = (1u64 << bpc) - 1;
    let mode = rng.below(4);
    let (mut r, mut d) = (Vec::with_capacity(w * h), Vec::with_capacity(w * h));
    let base = rng.below(max + 1);
    for y in 0..h {
        for x in 0..w {
            let flat = ((x / 6) + (y / 4)) % 3 == 0;
            let a = if flat {
                base
            } else {
                match mode {
                    0 => rng.below(max + 1),
                    _ => (base + rng.below(max / 8 + 1) + (x as u64 * max / 97)) % (max + 1),
                }
            };
            let noise = rng.below(max / 16 + 2);
            let b = match (mode + (x / 11) as u64) % 4 {
                0 => a,
                1 => (a + noise).min(max),
                2 => a / 2 + noise / 2,
                _ => rng.below(max + 1),
            };
            r.push(a as u32);
            d.push(b as u32);
        }
    }
    (r, d)
}

/// A padded plane holding `values` (`w` x `h`), borders mirrored for `half`.
pub(super) fn plane<T: Copy + Default + TryFrom<u32>>(
    values: &[u32],
    w: usize,
    h: usize,
    half: usize,
) -> PaddedPlane<T> {
    let mut p = PaddedPlane::new(w, h);
    for y in 0..h {
        for (dst, &v) in p.row_mut(y).iter_mut().zip(&values[y * w..]) {
            *dst = T::try_from(v).ok().expect("sample fits its type");
        }
    }
    p.mirror_rows(h, half);
    p
}

/// The five scratch rows of `scale`, whole (borders included), with the columns a
/// vertical kernel wrote as words (`words_done`) read back from those words.
pub(super) fn rows_of(s: &StatScratch, scale: usize) -> Vec<Vec<u32>> {
    let mut rows: Vec<Vec<u32>> = [&s.mu1, &s.mu2, &s.ref_sq, &s.dis_sq, &s.ref_dis]
        .iter()
        .map(|r| r.padded().to_vec())
        .collect();
    let word = |w: usize, i: usize| (s.words[w][i] as u16 ^ 0x8000) as u32;
    let half = half_width(scale);
    for x in 0..s.words_done {
        let (i, at) = (MAX_HALF + x, half + x);
        rows[0][i] = word(0, at);
        rows[1][i] = word(1, at);
        for m in 0..3 {
            rows[2 + m][i] = word(2 + 2 * m, at) << 16 | word(3 + 2 * m, at);
        }
    }
    rows
}

/// Writes the columns a vertical kernel left only as words (`words_done`) into the five
/// 32-bit rows as well, for a horizontal pass of another table (the scalar one), which
/// reads the rows; `words_done` stays, so a pass that takes the words still takes them.
pub(super) fn settle_words(s: &mut StatScratch, scale: usize) {
    let rows = rows_of(s, scale);
    let done = s.words_done;
    for (d, r) in s.bodies_mut().into_iter().zip(&rows) {
        d[..done].copy_from_slice(&r[MAX_HALF..MAX_HALF + done]);
    }
}

/// Runs the statistic of `scale` row by row with `k`, returning every row's scratch and
/// the sums after each row; with `settle`, the vertical kernel's words are settled into
/// the rows first (see [`settle_words`]: a horizontal pass of another table).
pub(super) fn statistic_trace<T: Copy + Into<u32>>(
    planes: (&PaddedPlane<T>, &PaddedPlane<T>),
    (w, h): (usize, usize),
    scale: usize,
    shift: VerticalShift,
    gain_limit: f64,
    (vertical, horizontal): (VerticalFn<T>, HorizontalFn),
    settle: bool,
) -> (Vec<Vec<Vec<u32>>>, Vec<Sums>) {
    let mut s = StatScratch::new(w);
    let mut sums = Sums::default();
    let (mut rows, mut trace) = (Vec::new(), Vec::new());
    let (r, d) = (planes.0.rows(), planes.1.rows());
    for y in 0..h {
        vertical(&r, &d, y, w, scale, shift, &mut s);
        rows.push(rows_of(&s, scale));
        if settle {
            settle_words(&mut s, scale);
        }
        horizontal(&mut s, w, scale, gain_limit, &mut sums);
        trace.push(sums);
    }
    (rows, trace)
}

pub(super) fn decimate_with<T: Copy + Into<u32>>(
    src: &PaddedPlane<T>,
    (w, h): (usize, usize),
    next_scale: usize,
    shift: u32,
    k: (DownVerticalFn<T>, DownHorizontalFn),
) -> Vec<u16> {
    let mut s = DownScratch::new(w);
    let (ow, oh) = (w / 2, h / 2);
    let mut out = PaddedPlane::new(ow, oh);
    filter_and_decimate(&src.rows(), w, h, next_scale, shift, &mut s, &mut out, k);
    let rows = out.rows();
    (0..oh as isize)
        .flat_map(|y| rows.row(y)[..ow].to_vec())
        .collect()
}

/// A luma frame holding `values`.
fn frame(bpc: u32, w: usize, h: usize, values: &[u32]) -> Frame {
    let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, bpc, w as u32, h as u32).unwrap();
    let plane = fb.plane_mut(0);
    let stride = plane.stride;
    match plane.samples_mut().unwrap() {
        SamplesMut::U8(s) => {
            for y in 0..h {
                for x in 0..w {
                    s[y * stride + x] = values[y * w + x] as u8;
                }
            }
        }
        SamplesMut::U16(s) => {
            for y in 0..h {
                for x in 0..w {
                    s[y * stride + x] = values[y * w + x] as u16;
                }
            }
        }
    }
    fb.build()
}

/// A debug-mode `vif` using the kernels of `level`.
fn vif_at(level: CpuLevel, geometry: Geometry) -> Vif {
    Vif {
        debug: true,
        skip_scale0: false,
        gain_limit: 100.0,
        names: PROVIDED.iter().map(|s| s.to_string()).collect(),
        state: Some(State::new(geometry, Kernels::for_level(level))),
    }
}

fn score(ex: &mut Vif, r: &Frame, d: &Frame) -> FrameScores {
    let mut out = FrameScores::default();
    let input = ExtractInput {
        reference: r,
        distorted: d,
        prev_reference: None,
        prev_prev_reference: None,
        index: 0,
    };
    ex.extract(&input, &mut out).unwrap();
    out
}

fn geometry(bpc: u32, w: usize, h: usize) -> Geometry {
    Geometry {
        format: PixelFormat::Yuv420p,
        bpc,
        width: w as u32,
        height: h as u32,
    }
}

#[test]
fn whole_extractor_scores_the_same_at_every_level() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for bpc in [8, 10, 12, 16] {
        for _ in 0..6 {
            let (w, h) = (8 + rng.below(80) as usize, 8 + rng.below(40) as usize);
            let (r, d) = pair(&mut rng, bpc, w, h);
            let (fr, fd) = (frame(bpc, w, h, &r), frame(bpc, w, h, &d));
            let want = score(&mut vif_at(CpuLevel::Scalar, geometry(bpc, w, h)), &fr, &fd);
            for level in simd_levels() {
                let got = score(&mut vif_at(level, geometry(bpc, w, h)), &fr, &fd);
                for (g, e) in got.entries.iter().zip(&want.entries) {
                    assert_eq!(
                        g.2.to_bits(),
                        e.2.to_bits(),
                        "{level:?}, {bpc}-bit {w}x{h}: {} is {}, scalar {}",
                        g.0,
                        g.2,
                        e.2
                    );
                }
                assert_eq!(got.entries.len(), want.entries.len());
            }
        }
    }
}

#[test]
fn kernel_tables_never_exceed_the_processor() {
    for level in CpuLevel::ALL {
        let k = Kernels::for_level(level);
        assert!(k.level <= level && k.level <= cpu::detected());
    }
    assert_eq!(Kernels::for_level(CpuLevel::Scalar).level, CpuLevel::Scalar);
}

/// Nanoseconds this thread has run on a CPU (Linux `schedstat`), if known.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Per-frame time of `vif` on the 1080p bench pair at each level, with speed-ups over
/// scalar. Needs `/work/bench/1080_{ref,dis}.y4m` (or `VMAFX_BENCH_DIR`).
#[test]
#[ignore]
fn vif_timing_1080p() {
    let Some((refs, diss)) = crate::testutil::bench_pair(8) else {
        eprintln!("vif timing: no 1080p bench pair; skipped");
        return;
    };
    let f = &refs[0];
    let g = geometry(f.bpc(), f.width() as usize, f.height() as usize);
    // The best of a few rounds, levels interleaved, timed in this thread's CPU time where
    // Linux gives it, so that other load on the machine skews the ratios less.
    let mut levels: Vec<CpuLevel> = cpu::supported()
        .into_iter()
        .map(|l| Kernels::for_level(l).level)
        .collect();
    levels.dedup();
    let mut best = vec![f64::INFINITY; levels.len()];
    for _round in 0..3 {
        for (i, &level) in levels.iter().enumerate() {
            let mut ex = vif_at(level, g);
            let (start, cpu_start) = (std::time::Instant::now(), thread_cpu_ns());
            for (r, d) in refs.iter().zip(&diss) {
                std::hint::black_box(score(&mut ex, r, d));
            }
            let secs = match (cpu_start, thread_cpu_ns()) {
                (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
                _ => start.elapsed().as_secs_f64(),
            };
            let per_frame = secs * 1000.0 / refs.len() as f64;
            best[i] = best[i].min(per_frame);
        }
    }
    for (level, ms) in levels.iter().zip(&best) {
        println!(
            "vif {}x{} {:?}: {ms:.2} ms/frame, {:.2}x scalar",
            g.width,
            g.height,
            level,
            best[0] / ms
        );
    }
}

#[test]
fn filters_are_symmetric_as_the_kernels_assume() {
    for taps in crate::feature::vif::tables::TAPS {
        let reversed: Vec<u16> = taps.iter().rev().copied().collect();
        assert_eq!(taps, &reversed[..]);
    }
}

/// Per-frame time of each statistic kernel (vertical, horizontal) of this processor's
/// best level at scale 0, on the first frame of the 1080p bench pair (8-bit; 10-bit with
/// `VMAFX_BENCH_BITS=10`, samples shifted up): the best of many rounds, so that other load
/// on the machine skews the figures less. Needs `/work/bench/1080_{ref,dis}.y4m` (or
/// `VMAFX_BENCH_DIR`).
#[test]
#[ignore]
fn vif_kernel_timing_1080p() {
    use std::time::{Duration, Instant};
    let bits: u32 = std::env::var("VMAFX_BENCH_BITS").map_or(8, |b| b.parse().unwrap());
    let Some((refs, diss)) = crate::testutil::bench_pair(1) else {
        eprintln!("vif kernel timing: no 1080p bench pair; skipped");
        return;
    };
    let (fr, fd) = (&refs[0], &diss[0]);
    let (w, h) = (fr.width() as usize, fr.height() as usize);
    let luma = |f: &Frame| -> Vec<u32> {
        (0..h as u32)
            .flat_map(|y| f.plane(0).row_u8(y)[..w].to_vec())
            .map(|v| (v as u32) << (bits - 8))
            .collect()
    };
    let (r, d) = (luma(fr), luma(fd));
    let k = Kernels::current();
    let shift = VerticalShift::at(0, bits);
    let half = half_width(0);
    let mut s = StatScratch::new(w);
    let mut best = [Duration::MAX; 2];
    let mut round = |vertical: &mut dyn FnMut(usize, &mut StatScratch)| {
        let mut t = [Duration::ZERO; 2];
        let mut sums = Sums::default();
        for y in 0..h {
            let a = Instant::now();
            vertical(y, &mut s);
            let b = Instant::now();
            (k.horizontal)(&mut s, w, 0, 100.0, &mut sums);
            t[0] += b - a;
            t[1] += b.elapsed();
        }
        std::hint::black_box(sums);
        for i in 0..2 {
            best[i] = best[i].min(t[i]);
        }
    };
    if bits == 8 {
        let (pr, pd) = (plane::<u8>(&r, w, h, half), plane::<u8>(&d, w, h, half));
        let (pr, pd) = (pr.rows(), pd.rows());
        for _ in 0..15 {
            round(&mut |y, s| (k.vertical_u8)(&pr, &pd, y, w, 0, shift, s));
        }
    } else {
        let (pr, pd) = (plane::<u16>(&r, w, h, half), plane::<u16>(&d, w, h, half));
        let (pr, pd) = (pr.rows(), pd.rows());
        for _ in 0..15 {
            round(&mut |y, s| (k.vertical_u16)(&pr, &pd, y, w, 0, shift, s));
        }
    }
    println!(
        "vif {w}x{h} {bits}-bit scale 0 at {:?}: vertical {:.3} ms, horizontal {:.3} ms",
        k.level,
        best[0].as_secs_f64() * 1e3,
        best[1].as_secs_f64() * 1e3
    );
}

/// The split passes (`split.rs`) of the table at `level` on a reference and two
/// distorted pictures at scale 0: the first rendition's keeping pass gives its fused
/// sums, and the second's distorted pass with the kept denominator gives its own.
fn split_adds_up<T: Copy + Default + Into<u32> + TryFrom<u32>>(
    k: &Kernels,
    vertical: VerticalFn<T>,
    bpc: u32,
    (w, h): (usize, usize),
    rng: &mut Rng,
) {
    let (r, d1) = pair(rng, bpc, w, h);
    let d2: Vec<u32> = d1.iter().rev().copied().collect();
    let half = half_width(0);
    let pr = plane::<T>(&r, w, h, half);
    let (p1, p2) = (plane::<T>(&d1, w, h, half), plane::<T>(&d2, w, h, half));
    let shift = VerticalShift::at(0, bpc);
    let gain = 100.0;
    let fused = |d: &PaddedPlane<T>| {
        let trace = statistic_trace(
            (&pr, d),
            (w, h),
            0,
            shift,
            gain,
            (vertical, k.horizontal),
            false,
        );
        *trace.1.last().expect("a row")
    };
    let (mut mu1, mut sigma1) = (vec![0u32; w * h], vec![0i32; w * h]);
    let (mut s, mut kept) = (StatScratch::new(w), Sums::default());
    let (rr, r1, r2) = (pr.rows(), p1.rows(), p2.rows());
    for y in 0..h {
        vertical(&rr, &r1, y, w, 0, shift, &mut s);
        let at = y * w..(y + 1) * w;
        let (m, v) = (&mut mu1[at.clone()], &mut sigma1[at]);
        (k.horizontal_keep)(&mut s, w, 0, gain, &mut kept, m, v);
    }
    let what = format!("{:?} {bpc}-bit {w}x{h}", k.level);
    assert_eq!(kept, fused(&p1), "{what}: keeping pass");
    let mut sums = Sums::default();
    for y in 0..h {
        vertical(&rr, &r2, y, w, 0, shift, &mut s);
        let at = y * w..(y + 1) * w;
        (k.horizontal_dis)(&mut s, w, 0, gain, &mut sums, &mu1[at.clone()], &sigma1[at]);
    }
    let (den_log, den_flat) = kept.den();
    sums.add_totals(0, den_log, 0, den_flat);
    assert_eq!(sums, fused(&p2), "{what}: distorted pass");
}

#[test]
fn split_passes_add_up_to_the_fused_pass_at_every_level() {
    let mut rng = Rng(0x5eed_0017_9e37_79b9);
    let mut levels = simd_levels();
    levels.insert(0, CpuLevel::Scalar);
    for level in levels {
        let k = Kernels::for_level(level);
        for size in [(1, 1), (8, 2), (37, 9), (70, 20), (129, 5)] {
            split_adds_up::<u8>(&k, k.vertical_u8, 8, size, &mut rng);
            split_adds_up::<u16>(&k, k.vertical_u16, 10, size, &mut rng);
        }
    }
}
