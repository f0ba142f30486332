//! Per-sample banding confidence ("c-values"): for each masked sample, a sliding-window
//! histogram of the masked samples around it, and the strongest weighted contrast between
//! its own level and a level `d` code values away, `d` up to the largest contrast.

use std::sync::OnceLock;

use super::picture::Picture;

/// Entries of libvmaf's reciprocal table (it refuses windows of this many samples or more).
pub(super) const RECIPROCAL_LUT_SIZE: usize = 4226;

/// Spare counts after the histograms: a 32-bit gather of the last count, and a whole
/// vector of 16-bit counts read and written back (with nothing added) past a window's end,
/// stay inside the buffer.
pub(super) const COUNTS_PAD: usize = 32;

/// Suprathreshold contrast response: the weight of a step of `d + 1` code values.
pub(super) const CONTRAST_WEIGHTS: [i32; 32] = [
    1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
];

/// libvmaf's table of reciprocals in single precision. Its entries are `1/i` written with
/// nine significant digits and read back as `float`, which differs from `1.0f / i` in the
/// last bit for some `i` (82 for one), so the table is rebuilt the same way: the nine
/// digits as an integer `m` and a power of ten (exact in double precision), `m / 10^k`
/// rounded to double and then to single precision. The test
/// `reciprocal_table_reads_like_libvmafs` checks every entry against writing `1/i` out
/// in decimal and reading it back.
pub(super) fn reciprocal_lut() -> &'static [f32] {
    static LUT: OnceLock<Vec<f32>> = OnceLock::new();
    LUT.get_or_init(|| {
        let mut v = vec![0f32; RECIPROCAL_LUT_SIZE];
        for (i, r) in v.iter_mut().enumerate().skip(1) {
            *r = nine_digit_reciprocal(i);
        }
        v
    })
}

/// `1/i` rounded to nine significant digits, read as single precision.
fn nine_digit_reciprocal(i: usize) -> f32 {
    let d = 1.0f64 / i as f64;
    // Digits after the point that leave nine significant ones: 1/i is in (10^-e, 10^(1-e)].
    let mut k = 8;
    while d * 10f64.powi(k - 8) < 1.0 {
        k += 1;
    }
    let scale = 10f64.powi(k);
    let m = (d * scale).round();
    (m / scale) as f32
}

/// The contrast tables of one run: steps `1..=num_diffs`, their weights and, per step, the
/// largest level (offset by `num_diffs`) at which the step is visible.
#[derive(Debug, Clone)]
pub(super) struct Contrast {
    /// Number of contrast steps (`2^max_log_contrast`).
    pub num_diffs: usize,
    /// Visibility limit per step, in levels offset by `num_diffs`.
    pub tvi_for_diff: Vec<u16>,
    /// Darkest visible level (0 when every level is).
    pub vlt_luma: u16,
}

impl Contrast {
    /// First level whose samples can matter to any c-value.
    fn band_base(&self) -> u16 {
        let lo = self.vlt_luma as i32 - 3 * self.num_diffs as i32 + 1;
        lo.max(0) as u16
    }

    /// Number of levels, from [`Self::band_base`], that can matter to any c-value.
    fn band_size(&self) -> usize {
        (self.tvi_for_diff[self.num_diffs - 1] as usize + 1)
            .saturating_sub(self.band_base() as usize)
    }
}

/// Buffers of the c-value pass kept from one call to the next, so that each scale of each
/// frame reuses them: the column histograms, all zero between calls (every row entered is
/// taken out again before the pass ends), and the runs of the rows in the window.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    counts: Vec<u16>,
    runs: Vec<Vec<Run>>,
}

/// The shape of the column histograms: `size` rows of `width` counts (level `base + l` in
/// row `l`), then [`COUNTS_PAD`] spare entries, each sample counted in the columns within
/// `pad` of its own.
///
/// A sample counts where its mask is nonzero and its level (`value - base`, wrapping) is
/// below `size`; entering the window it adds one to its level's histogram row at every
/// column within `pad` of its own, clipped to the picture (leaving, takes one). A row's
/// counted samples are taken as runs of neighbours at one level, and a run adds the sum
/// of its samples' windows at once: column `c` gains the number of the run's columns
/// within `pad` of it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Band {
    /// Columns of the picture.
    pub width: usize,
    /// Levels the histograms hold.
    pub size: usize,
    /// Level of the first histogram row.
    pub base: u16,
    /// Half the window side.
    pub pad: usize,
}

/// Neighbouring counted samples of one row at one level: their histogram row and their
/// columns `start..end`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Run {
    /// Histogram row (level less the band's base).
    pub level: u32,
    /// First column.
    pub start: u32,
    /// One past the last column.
    pub end: u32,
}

/// A run-finding kernel: appends to `runs` the runs of the row with samples `image` and
/// mask `mask` (`width` each), left to right.
pub(super) type ScanRunsFn = fn(&Band, &[u16], &[u16], &mut Vec<Run>);

/// A run-adding kernel: adds (`up`) or takes out the windows of every run of `runs` to
/// the histograms `counts` (which it may read and write back unchanged in the spare
/// entries), all counts wrapping in 16 bits.
pub(super) type AddRunsFn = fn(&Band, &[Run], &mut [u16], bool);

impl Band {
    /// Panics unless a row holds `width` samples and mask entries.
    pub(super) fn check_row(&self, image: &[u16], mask: &[u16]) {
        assert!(
            image.len() >= self.width && mask.len() >= self.width,
            "row shorter than the width"
        );
        assert!(self.width < u32::MAX as usize && self.size <= u16::MAX as usize);
    }

    /// Panics unless `counts` holds the histograms and their padding, and a count index
    /// fits 32 bits.
    pub(super) fn check_counts(&self, counts: &[u16]) {
        assert!(
            counts.len() >= self.size * self.width + COUNTS_PAD,
            "histograms without padding"
        );
        assert!(self.size * self.width + COUNTS_PAD < i32::MAX as usize);
    }

    /// Panics unless `run` lies inside the histograms.
    #[inline]
    pub(super) fn check_run(&self, run: &Run) {
        assert!(
            (run.level as usize) < self.size
                && run.start < run.end
                && run.end as usize <= self.width,
            "run outside the histograms"
        );
    }

    /// The histogram row of a sample of value `v` with mask `m`, if it counts.
    #[inline]
    fn level(&self, v: u16, m: u16) -> Option<u32> {
        let level = v.wrapping_sub(self.base) as usize;
        (m != 0 && level < self.size).then_some(level as u32)
    }

    /// Adds (`up`) or takes out the windows of `run`: column `c` of its histogram row
    /// changes by the number of the run's columns within `pad` of it.
    pub(super) fn add_run(&self, counts: &mut [u16], run: &Run, up: bool) {
        self.check_run(run);
        let (w, pad) = (self.width, self.pad);
        let (level, j0, j1) = (run.level as usize, run.start as usize, run.end as usize);
        let row = &mut counts[level * w..(level + 1) * w];
        let (start, end) = (j0.saturating_sub(pad), (j1 + pad).min(w));
        for (c, count) in row.iter_mut().enumerate().take(end).skip(start) {
            // Offset from the first column any of the windows reaches.
            let y = c + pad - j0;
            let n = ((y + 1).min(j1 - j0) - y.saturating_sub(2 * pad)) as u16;
            *count = if up {
                count.wrapping_add(n)
            } else {
                count.wrapping_sub(n)
            };
        }
    }
}

/// The scalar run-finding kernel.
pub(super) fn scan_runs(b: &Band, image: &[u16], mask: &[u16], runs: &mut Vec<Run>) {
    b.check_row(image, mask);
    let mut open: Option<Run> = None;
    for (col, (&v, &m)) in image[..b.width].iter().zip(&mask[..b.width]).enumerate() {
        let level = b.level(v, m);
        if let Some(r) = open {
            if Some(r.level) == level {
                continue;
            }
            runs.push(Run {
                end: col as u32,
                ..r
            });
        }
        open = level.map(|level| Run {
            level,
            start: col as u32,
            end: 0,
        });
    }
    if let Some(r) = open {
        runs.push(Run {
            end: b.width as u32,
            ..r
        });
    }
}

/// The scalar run-adding kernel.
pub(super) fn add_runs(b: &Band, runs: &[Run], counts: &mut [u16], up: bool) {
    b.check_counts(counts);
    for run in runs {
        b.add_run(counts, run, up);
    }
}

/// One row's inputs to a c-value kernel.
#[derive(Debug, Clone, Copy)]
pub(super) struct RowInput<'a> {
    /// Column histograms: `size` rows of `width` counts (level `base + l` in row `l`), then
    /// at least [`COUNTS_PAD`] spare entries.
    pub counts: &'a [u16],
    /// Columns of the picture.
    pub width: usize,
    /// Levels the histograms hold.
    pub size: usize,
    /// Level of the first histogram row.
    pub base: u16,
    /// The row's samples (`width`).
    pub image: &'a [u16],
    /// The row's mask (`width`; nonzero where the sample is scored).
    pub mask: &'a [u16],
    /// Contrast steps, thresholds and the darkest visible level.
    pub contrast: &'a Contrast,
    /// Reciprocals, indexed by the sum of two counts of one window.
    pub recip: &'a [f32],
    /// The row's runs of scored samples, left to right (as [`scan_runs`] finds them with
    /// this `width`, `size` and `base`): a kernel may score their columns only.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub runs: &'a [Run],
}

/// A c-value kernel: the c-value of every column of a row into `out` (`width`, all zero on
/// entry; 0 where the mask is off, which a kernel scoring only the runs leaves as it is).
pub(super) type CValueRowFn = fn(&RowInput<'_>, &mut [f32]);

impl RowInput<'_> {
    /// The count of histogram row `level` at `col`; levels outside the band hold none.
    #[inline]
    fn get(&self, level: usize, col: usize) -> u16 {
        if level < self.size {
            self.counts[level * self.width + col]
        } else {
            0
        }
    }

    /// The c-value of the sample of level `value` at column `col`.
    #[inline]
    pub(super) fn c_value(&self, value: u16, col: usize) -> f32 {
        let c = self.contrast;
        let level = value.wrapping_sub(self.base) as usize;
        if level >= self.size {
            return 0.0;
        }
        // libvmaf compares the level offset by num_diffs with the thresholds.
        let offset_value = value as i32 + c.num_diffs as i32;
        let p0 = self.get(level, col) as i32;
        let mut best = 0f32;
        let steps = c.tvi_for_diff.iter().zip(CONTRAST_WEIGHTS).enumerate();
        for (d, (&tvi, weight)) in steps {
            let step = d as i32 + 1;
            if offset_value <= tvi as i32 && offset_value + step > c.vlt_luma as i32 {
                let up = level + d + 1;
                let p1 = self.get(up, col) as i32;
                let p2 = if level > d {
                    self.get(level - d - 1, col) as i32
                } else {
                    0
                };
                let p = p1.max(p2);
                let val = (weight.wrapping_mul(p0).wrapping_mul(p)) as f32
                    * self.recip[(p + p0) as usize];
                if val > best {
                    best = val;
                }
            }
        }
        best
    }
}

/// The scalar c-value kernel.
pub(super) fn c_value_row(r: &RowInput<'_>, out: &mut [f32]) {
    let w = r.width;
    for ((o, &m), (col, &v)) in out[..w]
        .iter_mut()
        .zip(&r.mask[..w])
        .zip(r.image[..w].iter().enumerate())
    {
        *o = if m != 0 { r.c_value(v, col) } else { 0.0 };
    }
}

/// The histogram kernels of a c-value pass.
#[derive(Debug, Clone, Copy)]
pub(super) struct HistogramKernels {
    /// Finds a row's runs.
    pub scan_runs: ScanRunsFn,
    /// Adds or takes out a row's runs.
    pub add_runs: AddRunsFn,
}

/// The c-values of `image` (masked by `mask`) with a `window`-sample square window, row
/// after row (by the c-value and histogram kernels given) into `row` (`width`; zero where
/// the mask is off), each row handed to `sink` as it is finished. Each row's runs are
/// found once, as it enters the window, and kept until it leaves.
#[allow(clippy::too_many_arguments)]
pub(super) fn c_values(
    image: &Picture,
    mask: &Picture,
    window: usize,
    c: &Contrast,
    (row_kernel, hk): (CValueRowFn, HistogramKernels),
    scratch: &mut Scratch,
    row: &mut Vec<f32>,
    mut sink: impl FnMut(&[f32]),
) {
    let (w, h) = (image.width, image.height);
    let pad = window / 2;
    let recip = reciprocal_lut();
    let band = Band {
        width: w,
        size: c.band_size(),
        base: c.band_base(),
        pad,
    };
    let Scratch { counts, runs } = scratch;
    // Zero wherever it reaches (at any earlier length too), so only ever lengthened.
    if counts.len() < band.size * w + COUNTS_PAD {
        counts.resize(band.size * w + COUNTS_PAD, 0);
    }
    // Row y's runs in slot y % slots: a row leaves as the row 2 pad + 1 below it enters.
    let slots = 2 * pad + 2;
    if runs.len() < slots {
        runs.resize_with(slots, Vec::new);
    }
    let enter = |y: usize, counts: &mut [u16], runs: &mut [Vec<Run>]| {
        let slot = &mut runs[y % slots];
        slot.clear();
        (hk.scan_runs)(&band, image.row(y), mask.row(y), slot);
        (hk.add_runs)(&band, slot, counts, true);
    };
    let leave = |y: usize, counts: &mut [u16], runs: &[Vec<Run>]| {
        (hk.add_runs)(&band, &runs[y % slots], counts, false);
    };
    // One row, rewritten whole for each row of the picture.
    row.resize(w, 0.0);
    for y in 0..(pad + 1).min(h) {
        enter(y, counts, runs);
    }
    for i in 0..h {
        if i > 0 {
            if i + pad < h {
                enter(i + pad, counts, runs);
            }
            if i > pad {
                leave(i - pad - 1, counts, runs);
            }
        }
        let input = RowInput {
            counts,
            width: w,
            size: band.size,
            base: band.base,
            image: image.row(i),
            mask: mask.row(i),
            contrast: c,
            recip,
            runs: &runs[i % slots],
        };
        // Zeroed first: a kernel may leave the columns it does not score as they are.
        row[..w].fill(0.0);
        row_kernel(&input, &mut row[..w]);
        sink(&row[..w]);
    }
    // Take out the rows still in the window: the histograms are zero again.
    for y in h.saturating_sub(pad + 1)..h {
        leave(y, counts, runs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::excessive_precision)] // libvmaf's literals, digit for digit
    fn reciprocal_table_reads_like_libvmafs() {
        let r = reciprocal_lut();
        assert_eq!(r[0], 0.0);
        assert_eq!(r[1], 1.0);
        assert_eq!(r[3], 0.333333333f32);
        // Entries written with nine digits that do not round back to 1.0f / i.
        assert_eq!(r[82], 0.012195122f32);
        assert_ne!(r[82], 1.0f32 / 82.0);
        assert_eq!(r[4225], 0.000236686391f32);
        // Every entry as writing 1/i with nine significant digits and reading it back.
        for (i, &v) in r.iter().enumerate().skip(1) {
            let text = format!("{:.8e}", 1.0f64 / i as f64);
            assert_eq!(v, text.parse::<f32>().unwrap(), "1/{i} ({text})");
        }
    }

    /// The c-values of `img` by counting every window's samples afresh.
    fn brute_force(img: &Picture, mask: &Picture, window: usize, c: &Contrast) -> Vec<f32> {
        let (w, h, pad) = (img.width, img.height, window / 2);
        let (size, base) = (c.band_size(), c.band_base());
        let mut out = vec![0f32; w * h];
        let mut counts = vec![0u16; size * w + COUNTS_PAD];
        for i in 0..h {
            counts.fill(0);
            for y in i.saturating_sub(pad)..(i + pad + 1).min(h) {
                for x in 0..w {
                    let level = img.data[y * w + x].wrapping_sub(base) as usize;
                    if mask.data[y * w + x] == 0 || level >= size {
                        continue;
                    }
                    for col in x.saturating_sub(pad)..(x + pad + 1).min(w) {
                        counts[level * w + col] += 1;
                    }
                }
            }
            let input = RowInput {
                counts: &counts,
                width: w,
                size,
                base,
                image: img.row(i),
                mask: mask.row(i),
                contrast: c,
                recip: reciprocal_lut(),
                runs: &[],
            };
            c_value_row(&input, &mut out[i * w..(i + 1) * w]);
        }
        out
    }

    #[test]
    fn sliding_histograms_give_the_c_values_of_counting_afresh() {
        let mut rng = crate::testutil::twin_rng::TwinRng::new(0xc4a1);
        let mut nonzero = 0;
        // One scratch for every case: buffers left by other sizes must not matter.
        let mut scratch = Scratch::default();
        for case in 0..150 {
            let (w, h) = (rng.size(1, 90), rng.size(1, 30));
            let levels = rng.range(1, 40);
            let base = rng.range(0, 200) as u16;
            let mut img = Picture::new(w, h);
            let mut mask = Picture::new(w, h);
            // Runs of one level along the rows, and rows that repeat the one above.
            let repeat = rng.range(0, 3) as u64;
            for y in 0..h {
                let mut v = base + rng.range(0, levels) as u16;
                for x in 0..w {
                    if rng.range(0, 3) == 0 {
                        v = base + rng.range(0, levels) as u16;
                    }
                    let above =
                        (y > 0 && rng.next_u64() % 4 < repeat).then(|| img.data[(y - 1) * w + x]);
                    img.data[y * w + x] = above.unwrap_or(v);
                    mask.data[y * w + x] = u16::from(!rng.next_u64().is_multiple_of(5));
                }
            }
            let num_diffs = [1usize, 2, 4, 8][rng.range(0, 3) as usize];
            let c = Contrast {
                num_diffs,
                tvi_for_diff: (0..num_diffs)
                    .map(|d| 150 + 10 * d as u16 + rng.range(0, 60) as u16)
                    .collect(),
                vlt_luma: rng.range(0, 120) as u16,
            };
            let window = 1 + 2 * rng.range(0, 40) as usize;
            let want = brute_force(&img, &mask, window, &c);
            let mut out = Vec::new();
            let hk = HistogramKernels {
                scan_runs,
                add_runs,
            };
            let kernels = (c_value_row as CValueRowFn, hk);
            let row = &mut Vec::new();
            c_values(&img, &mask, window, &c, kernels, &mut scratch, row, |r| {
                out.extend_from_slice(r)
            });
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&out),
                bits(&want),
                "case {case}: {w}x{h} window {window}"
            );
            assert!(
                scratch.counts.iter().all(|&n| n == 0),
                "case {case}: histograms left nonzero"
            );
            nonzero += want.iter().filter(|&&v| v != 0.0).count();
        }
        assert!(nonzero > 1000, "only {nonzero} nonzero c-values");
    }

    #[test]
    fn two_level_step_gives_weighted_contrast() {
        // Left half level 100, right half 101, all masked: at the boundary both levels
        // are present in the window.
        let (w, h) = (8, 3);
        let mut img = Picture::new(w, h);
        for i in 0..h {
            for j in 4..w {
                img.data[i * w + j] = 101;
            }
        }
        for v in img.data.iter_mut().filter(|v| **v == 0) {
            *v = 100;
        }
        let mut mask = Picture::new(w, h);
        mask.data.fill(1);
        let c = Contrast {
            num_diffs: 4,
            tvi_for_diff: vec![900, 900, 900, 900],
            vlt_luma: 0,
        };
        let mut out = Vec::new();
        c_values(
            &img,
            &mask,
            3,
            &c,
            (
                c_value_row,
                HistogramKernels {
                    scan_runs,
                    add_runs,
                },
            ),
            &mut Scratch::default(),
            &mut Vec::new(),
            |r| out.extend_from_slice(r),
        );
        // Column 3 of the middle row: 6 samples at 100, 3 at 101; weight 1.
        let want = (6 * 3) as f32 * reciprocal_lut()[9];
        assert_eq!(out[w + 3], want);
        assert_eq!(out[w], 0.0);
    }
}
