//! Per-sample banding confidence ("c-values"): for each masked sample, a sliding-window
//! histogram of the masked samples around it, and the strongest weighted contrast between
//! its own level and a level `d` code values away, `d` up to the largest contrast.

use std::sync::OnceLock;

use super::Picture;

/// Entries of libvmaf's reciprocal table (it refuses windows of this many samples or more).
pub const RECIPROCAL_LUT_SIZE: usize = 4226;

/// Spare counts after the histograms, so that a 32-bit gather of the last count stays
/// inside the buffer.
pub const COUNTS_PAD: usize = 2;

/// Suprathreshold contrast response: the weight of a step of `d + 1` code values.
pub const CONTRAST_WEIGHTS: [i32; 32] = [
    1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
];

/// libvmaf's table of reciprocals in single precision. Its entries are `1/i` written with
/// nine significant digits and read back as `float`, which differs from `1.0f / i` in the
/// last bit for some `i` (82 for one), so the table is rebuilt the same way.
pub fn reciprocal_lut() -> &'static [f32] {
    static LUT: OnceLock<Vec<f32>> = OnceLock::new();
    LUT.get_or_init(|| {
        let mut v = vec![0f32; RECIPROCAL_LUT_SIZE];
        for (i, r) in v.iter_mut().enumerate().skip(1) {
            let text = format!("{:.8e}", 1.0f64 / i as f64);
            *r = text.parse().unwrap_or(1.0 / i as f32);
        }
        v
    })
}

/// The contrast tables of one run: steps `1..=num_diffs`, their weights and, per step, the
/// largest level (offset by `num_diffs`) at which the step is visible.
#[derive(Debug, Clone)]
pub struct Contrast {
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

/// The cost of one sample's marks in the difference rows against one count of a direct
/// add (a column of the difference pass costs about one).
const SAMPLE_MARK_COST: usize = 4;

/// How a row of samples enters the column histograms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))] // the runs pick `Cheaper`; the twin test forces each
enum Update {
    /// Each sample adds one to every column its window covers (cost: samples x window).
    Direct,
    /// Each sample marks where its window starts and ends in a per-level difference row,
    /// and each level the row touched is then summed across the columns once (cost:
    /// levels x width). Same counts, wrapping in 16 bits as the direct adds do.
    Difference,
    /// Whichever of the two costs less for the row at hand.
    Cheaper,
}

/// Column histograms of levels over a window, one row of `width` counts per level.
struct Histograms {
    counts: Vec<u16>,
    width: usize,
    pad: usize,
    base: u16,
    size: usize,
    update: Update,
    /// The (level, column) of each masked in-band sample of the row being entered.
    samples: Vec<(u32, u32)>,
    /// Per-level difference rows (`width + 1` each, wrapping like the counts), zero
    /// between updates.
    delta: Vec<u16>,
    /// The kernel summing a difference row into a histogram row.
    running_sum: RunningSumFn,
    /// The levels the row touches, and a flag per level.
    touched: Vec<usize>,
    is_touched: Vec<bool>,
    /// Per touched level, its first and last sample's columns, then its windows' span.
    columns: Vec<(u32, u32)>,
    /// The levels any row has touched (`lo..hi`): the only histogram rows not zero.
    dirty: (usize, usize),
}

/// Buffers of the c-value pass kept from one call to the next, so that each scale of each
/// frame reuses them. Every use leaves them cleared: the histograms (only the rows it
/// touched are zeroed again), the difference rows and the level flags.
#[derive(Debug, Default)]
pub struct Scratch {
    counts: Vec<u16>,
    samples: Vec<(u32, u32)>,
    delta: Vec<u16>,
    touched: Vec<usize>,
    is_touched: Vec<bool>,
    columns: Vec<(u32, u32)>,
}

impl Histograms {
    fn new(
        size: usize,
        width: usize,
        pad: usize,
        base: u16,
        update: Update,
        running_sum: RunningSumFn,
        scratch: &mut Scratch,
    ) -> Self {
        let mut counts = std::mem::take(&mut scratch.counts);
        counts.resize(size * width + COUNTS_PAD, 0);
        let mut is_touched = std::mem::take(&mut scratch.is_touched);
        if is_touched.len() < size {
            is_touched.resize(size, false);
        }
        let mut columns = std::mem::take(&mut scratch.columns);
        if columns.len() < size {
            columns.resize(size, (0, 0));
        }
        Histograms {
            counts,
            width,
            pad,
            base,
            size,
            update,
            samples: std::mem::take(&mut scratch.samples),
            delta: std::mem::take(&mut scratch.delta),
            running_sum,
            touched: std::mem::take(&mut scratch.touched),
            is_touched,
            columns,
            dirty: (usize::MAX, 0),
        }
    }

    /// Hands the buffers back for the next call, the histograms zeroed.
    fn keep(mut self, scratch: &mut Scratch) {
        let (lo, hi) = self.dirty;
        if lo < hi {
            self.counts[lo * self.width..hi * self.width].fill(0);
        }
        scratch.counts = self.counts;
        scratch.samples = self.samples;
        scratch.delta = self.delta;
        scratch.touched = self.touched;
        scratch.is_touched = self.is_touched;
        scratch.columns = self.columns;
    }

    /// Adds (`up`) or removes the masked in-band samples of `row` to the columns their
    /// windows cover.
    fn update_row(&mut self, image: &Picture, mask: &Picture, row: usize, up: bool) {
        let w = self.width;
        let (img, msk) = (
            &image.data[row * w..(row + 1) * w],
            &mask.data[row * w..(row + 1) * w],
        );
        self.samples.clear();
        for (j, (&v, &m)) in img.iter().zip(msk).enumerate() {
            let level = v.wrapping_sub(self.base) as usize;
            if m != 0 && level < self.size {
                self.samples.push((level as u32, j as u32));
                if !self.is_touched[level] {
                    self.is_touched[level] = true;
                    self.touched.push(level);
                    self.columns[level].0 = j as u32;
                }
                self.columns[level].1 = j as u32;
            }
        }
        // Each level's windows cover the columns from its first sample's window start to
        // its last sample's window end; the difference pass runs over that span only.
        let pad = self.pad;
        let mut spans = 0;
        for &level in &self.touched {
            let (first, last) = self.columns[level];
            let lo = (first as usize).saturating_sub(pad);
            let hi = (last as usize + pad + 1).min(w);
            self.columns[level] = (lo as u32, hi as u32);
            spans += hi - lo;
        }
        // A direct add is vectorised (eight or more counts an instruction), and so is the
        // running sum of the difference pass (sixteen columns a step); each sample's two
        // marks are scalar.
        let direct = self.samples.len() * (2 * pad + 1).min(w);
        let difference = spans + SAMPLE_MARK_COST * self.samples.len();
        let by_difference = match self.update {
            Update::Direct => false,
            Update::Difference => true,
            Update::Cheaper => difference < direct,
        };
        if by_difference {
            self.enter_by_difference(up);
        } else {
            self.enter_directly(up);
        }
        for &level in &self.touched {
            self.is_touched[level] = false;
            self.dirty = (self.dirty.0.min(level), self.dirty.1.max(level + 1));
        }
        self.touched.clear();
    }

    fn enter_directly(&mut self, up: bool) {
        let w = self.width;
        for &(level, j) in &self.samples {
            let (level, j) = (level as usize, j as usize);
            let (left, right) = (j.saturating_sub(self.pad), (j + self.pad + 1).min(w));
            let cells = &mut self.counts[level * w + left..level * w + right];
            if up {
                cells.iter_mut().for_each(|c| *c = c.wrapping_add(1));
            } else {
                cells.iter_mut().for_each(|c| *c = c.wrapping_sub(1));
            }
        }
    }

    fn enter_by_difference(&mut self, up: bool) {
        let (w, dw) = (self.width, self.width + 1);
        // Zero wherever it reaches (at any earlier stride too), so only ever lengthened.
        if self.delta.len() < self.size * dw {
            self.delta.resize(self.size * dw, 0);
        }
        for &(level, j) in &self.samples {
            let (level, j) = (level as usize, j as usize);
            let (left, right) = (j.saturating_sub(self.pad), (j + self.pad + 1).min(w));
            let d = &mut self.delta[level * dw..(level + 1) * dw];
            d[left] = d[left].wrapping_add(1);
            d[right] = d[right].wrapping_sub(1);
        }
        for &level in &self.touched {
            // No window starts before `lo` or ends after `hi`.
            let (lo, hi) = (
                self.columns[level].0 as usize,
                self.columns[level].1 as usize,
            );
            let delta = &mut self.delta[level * dw + lo..level * dw + hi + 1];
            let counts = &mut self.counts[level * w + lo..level * w + hi];
            (self.running_sum)(delta, counts, up);
            delta[hi - lo] = 0;
        }
    }
}

/// A running-sum kernel: adds (`up`) or subtracts the running sum of `delta` to `counts`
/// column by column, all in wrapping 16-bit arithmetic, and zeroes the first
/// `counts.len()` entries of `delta` (which holds at least as many).
pub type RunningSumFn = fn(&mut [u16], &mut [u16], bool);

/// The scalar running-sum kernel.
pub fn add_running_sum(delta: &mut [u16], counts: &mut [u16], up: bool) {
    add_running_sum_from(delta, counts, up, 0);
}

/// [`add_running_sum`] with the sum starting at `running` (the vector kernels' tail).
pub fn add_running_sum_from(delta: &mut [u16], counts: &mut [u16], up: bool, running: u16) {
    assert!(delta.len() >= counts.len(), "difference row too short");
    let mut running = running;
    for (c, d) in counts.iter_mut().zip(delta.iter_mut()) {
        running = running.wrapping_add(std::mem::take(d));
        *c = if up {
            c.wrapping_add(running)
        } else {
            c.wrapping_sub(running)
        };
    }
}

/// One row's inputs to a c-value kernel.
#[derive(Debug, Clone, Copy)]
pub struct RowInput<'a> {
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
}

/// A c-value kernel: the c-value of every column of a row into `out` (`width`; 0 where the
/// mask is off).
pub type CValueRowFn = fn(&RowInput<'_>, &mut [f32]);

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
    pub fn c_value(&self, value: u16, col: usize) -> f32 {
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
pub fn c_value_row(r: &RowInput<'_>, out: &mut [f32]) {
    let w = r.width;
    for ((o, &m), (col, &v)) in out[..w]
        .iter_mut()
        .zip(&r.mask[..w])
        .zip(r.image[..w].iter().enumerate())
    {
        *o = if m != 0 { r.c_value(v, col) } else { 0.0 };
    }
}

/// The c-values of `image` (masked by `mask`) with a `window`-sample square window, row
/// after row (by the c-value and running-sum kernels given) into `out` (`width * height`;
/// zero where the mask is off).
pub fn c_values(
    image: &Picture,
    mask: &Picture,
    window: usize,
    c: &Contrast,
    (row_kernel, running_sum): (CValueRowFn, RunningSumFn),
    scratch: &mut Scratch,
    out: &mut Vec<f32>,
) {
    c_values_by(
        image,
        mask,
        window,
        c,
        (row_kernel, running_sum),
        scratch,
        out,
        Update::Cheaper,
    );
}

/// [`c_values`] with the histograms updated as `update` says.
#[allow(clippy::too_many_arguments)]
fn c_values_by(
    image: &Picture,
    mask: &Picture,
    window: usize,
    c: &Contrast,
    (row_kernel, running_sum): (CValueRowFn, RunningSumFn),
    scratch: &mut Scratch,
    out: &mut Vec<f32>,
    update: Update,
) {
    let (w, h) = (image.width, image.height);
    let pad = window / 2;
    let recip = reciprocal_lut();
    let size = c.band_size();
    let mut hist = Histograms::new(size, w, pad, c.band_base(), update, running_sum, scratch);
    // Every row is written whole by the row kernel.
    out.resize(w * h, 0.0);
    for row in 0..(pad + 1).min(h) {
        hist.update_row(image, mask, row, true);
    }
    for i in 0..h {
        if i > 0 {
            if i + pad < h {
                hist.update_row(image, mask, i + pad, true);
            }
            if i > pad {
                hist.update_row(image, mask, i - pad - 1, false);
            }
        }
        let input = RowInput {
            counts: &hist.counts,
            width: w,
            size,
            base: hist.base,
            image: image.row(i),
            mask: mask.row(i),
            contrast: c,
            recip,
        };
        row_kernel(&input, &mut out[i * w..(i + 1) * w]);
    }
    hist.keep(scratch);
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
    }

    #[test]
    fn both_histogram_updates_give_the_same_c_values() {
        let mut rng = crate::testutil::twin_rng::TwinRng::new(0xc4a1);
        let mut nonzero = 0;
        // One scratch for every case: buffers left by other sizes must not matter.
        let mut scratch = Scratch::default();
        for case in 0..120 {
            let (w, h) = (rng.size(1, 90), rng.size(1, 30));
            let levels = rng.range(1, 40);
            let base = rng.range(0, 200) as u16;
            let mut img = Picture::new(w, h);
            let mut mask = Picture::new(w, h);
            for (v, m) in img.data.iter_mut().zip(mask.data.iter_mut()) {
                *v = base + rng.range(0, levels) as u16;
                *m = u16::from(!rng.next_u64().is_multiple_of(5));
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
            let run = |u, scratch: &mut Scratch| {
                let mut out = Vec::new();
                let kernels = (c_value_row as CValueRowFn, add_running_sum as RunningSumFn);
                c_values_by(&img, &mask, window, &c, kernels, scratch, &mut out, u);
                out.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            };
            let want = run(Update::Direct, &mut Scratch::default());
            assert_eq!(
                run(Update::Direct, &mut scratch),
                want,
                "case {case}: reused"
            );
            nonzero += want.iter().filter(|&&b| b != 0).count();
            assert_eq!(
                run(Update::Difference, &mut scratch),
                want,
                "case {case}: {w}x{h} window {window}"
            );
            assert_eq!(run(Update::Cheaper, &mut scratch), want, "case {case}");
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
            (c_value_row, add_running_sum),
            &mut Scratch::default(),
            &mut out,
        );
        // Column 3 of the middle row: 6 samples at 100, 3 at 101; weight 1.
        let want = (6 * 3) as f32 * reciprocal_lut()[9];
        assert_eq!(out[w + 3], want);
        assert_eq!(out[w], 0.0);
    }
}
