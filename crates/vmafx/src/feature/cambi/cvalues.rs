//! Per-sample banding confidence ("c-values"): for each masked sample, a sliding-window
//! histogram of the masked samples around it, and the strongest weighted contrast between
//! its own level and a level `d` code values away, `d` up to the largest contrast.

use std::sync::OnceLock;

use super::Picture;

/// Entries of libvmaf's reciprocal table (it refuses windows of this many samples or more).
pub const RECIPROCAL_LUT_SIZE: usize = 4226;

/// Spare counts after the histograms: a 32-bit gather of the last count, and a whole
/// vector of 16-bit counts read and written back (with nothing added) past a window's end,
/// stay inside the buffer.
pub const COUNTS_PAD: usize = 32;

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

/// Buffers of the c-value pass kept from one call to the next, so that each scale of each
/// frame reuses them: the column histograms, all zero between calls (every row entered is
/// taken out again before the pass ends).
#[derive(Debug, Default)]
pub struct Scratch {
    counts: Vec<u16>,
}

/// One step of the sliding window: the row entering the column histograms and the row
/// leaving them, each as its samples and mask (either may be absent).
///
/// A sample counts where its mask is nonzero and its level (`value - base`, wrapping) is
/// below `size`; it adds one to (or, leaving, takes one from) its level's histogram row
/// at every column within `pad` of its own, clipped to the picture. A column whose
/// entering and leaving samples count at the same level changes nothing, and a run of
/// neighbouring samples at one level adds the sum of their windows at once: column `c`
/// gains the number of the run's columns within `pad` of it.
#[derive(Debug, Clone, Copy)]
pub struct RowPair<'a> {
    /// The entering row's samples and mask (`width` each).
    pub enter: Option<(&'a [u16], &'a [u16])>,
    /// The leaving row's samples and mask (`width` each).
    pub leave: Option<(&'a [u16], &'a [u16])>,
    /// Columns of the picture.
    pub width: usize,
    /// Levels the histograms hold.
    pub size: usize,
    /// Level of the first histogram row.
    pub base: u16,
    /// Half the window side.
    pub pad: usize,
}

/// A histogram-update kernel: applies one [`RowPair`] to the column histograms (`size`
/// rows of `width` counts, then [`COUNTS_PAD`] spare entries, which it may read and write
/// back unchanged), all counts wrapping in 16 bits.
pub type UpdateRowsFn = fn(&RowPair<'_>, &mut [u16]);

/// No level: the mark of a column with no counted sample.
const NO_LEVEL: usize = usize::MAX;

impl RowPair<'_> {
    /// Panics unless the rows hold `width` samples and mask entries, the histograms their
    /// `size` rows and the padding, and a count index fits 32 bits.
    pub fn check_bounds(&self, counts: &[u16]) {
        let w = self.width;
        for (img, msk) in self.enter.iter().chain(self.leave.iter()) {
            assert!(
                img.len() >= w && msk.len() >= w,
                "row shorter than the width"
            );
        }
        assert!(
            counts.len() >= self.size * w + COUNTS_PAD,
            "histograms without padding"
        );
        assert!(self.size * w + COUNTS_PAD < i32::MAX as usize);
        assert!(
            self.size <= u16::MAX as usize,
            "more levels than 16 bits hold"
        );
    }

    /// The histogram row of the sample at `col` of `row`, or [`NO_LEVEL`].
    #[inline]
    fn level(&self, row: Option<(&[u16], &[u16])>, col: usize) -> usize {
        match row {
            Some((img, msk)) if msk[col] != 0 => {
                let level = img[col].wrapping_sub(self.base) as usize;
                if level < self.size {
                    level
                } else {
                    NO_LEVEL
                }
            }
            _ => NO_LEVEL,
        }
    }

    /// Adds (`up`) or takes out the windows of the samples of columns `j0..j1`, all at
    /// histogram row `level`: column `c` changes by the number of those columns within
    /// `pad` of it.
    pub fn add_run(&self, counts: &mut [u16], level: usize, (j0, j1): (usize, usize), up: bool) {
        let (w, pad) = (self.width, self.pad);
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

/// A run of neighbouring counted samples at one level being followed along a row.
#[derive(Debug, Clone, Copy)]
struct OpenRun {
    level: usize,
    start: usize,
}

/// The scalar histogram-update kernel: one pass over the columns, runs of one level
/// followed in the entering and the leaving row and applied when they end.
pub fn update_rows(p: &RowPair<'_>, counts: &mut [u16]) {
    p.check_bounds(counts);
    let mut runs = [None::<OpenRun>; 2];
    let mut step = |which: usize, level: usize, col: usize, counts: &mut [u16]| {
        let open = &mut runs[which];
        if let Some(r) = *open {
            if r.level == level {
                return;
            }
            p.add_run(counts, r.level, (r.start, col), which == 0);
        }
        *open = (level != NO_LEVEL).then_some(OpenRun { level, start: col });
    };
    for col in 0..p.width {
        let (a, b) = (p.level(p.enter, col), p.level(p.leave, col));
        // The same level entering and leaving: the column's counts stay.
        let (a, b) = if a == b { (NO_LEVEL, NO_LEVEL) } else { (a, b) };
        step(0, a, col, counts);
        step(1, b, col, counts);
    }
    step(0, NO_LEVEL, p.width, counts);
    step(1, NO_LEVEL, p.width, counts);
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
/// after row (by the c-value and histogram-update kernels given) into `out` (`width *
/// height`; zero where the mask is off).
pub fn c_values(
    image: &Picture,
    mask: &Picture,
    window: usize,
    c: &Contrast,
    (row_kernel, update): (CValueRowFn, UpdateRowsFn),
    scratch: &mut Scratch,
    out: &mut Vec<f32>,
) {
    let (w, h) = (image.width, image.height);
    let pad = window / 2;
    let recip = reciprocal_lut();
    let (size, base) = (c.band_size(), c.band_base());
    // Zero wherever it reaches (at any earlier length too), so only ever lengthened.
    let counts = &mut scratch.counts;
    if counts.len() < size * w + COUNTS_PAD {
        counts.resize(size * w + COUNTS_PAD, 0);
    }
    let row = |y: usize| (image.row(y), mask.row(y));
    let step = |enter: Option<usize>, leave: Option<usize>, counts: &mut [u16]| {
        let pair = RowPair {
            enter: enter.map(row),
            leave: leave.map(row),
            width: w,
            size,
            base,
            pad,
        };
        update(&pair, counts);
    };
    // Grown a row at a time just before the row kernel writes it whole: the zeros land in
    // the cache, not in memory (a buffer shorter after a smaller scale would otherwise be
    // zeroed again in full).
    out.clear();
    for y in 0..(pad + 1).min(h) {
        step(Some(y), None, counts);
    }
    for i in 0..h {
        if i > 0 && (i + pad < h || i > pad) {
            step(
                (i + pad < h).then_some(i + pad),
                (i > pad).then(|| i - pad - 1),
                counts,
            );
        }
        let input = RowInput {
            counts,
            width: w,
            size,
            base,
            image: image.row(i),
            mask: mask.row(i),
            contrast: c,
            recip,
        };
        out.resize((i + 1) * w, 0.0);
        row_kernel(&input, &mut out[i * w..]);
    }
    // Take out the rows still in the window: the histograms are zero again.
    for y in h.saturating_sub(pad + 1)..h {
        step(None, Some(y), counts);
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
            let kernels = (c_value_row as CValueRowFn, update_rows as UpdateRowsFn);
            c_values(&img, &mask, window, &c, kernels, &mut scratch, &mut out);
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
            (c_value_row, update_rows),
            &mut Scratch::default(),
            &mut out,
        );
        // Column 3 of the middle row: 6 samples at 100, 3 at 101; weight 1.
        let want = (6 * 3) as f32 * reciprocal_lut()[9];
        assert_eq!(out[w + 3], want);
        assert_eq!(out[w], 0.0);
    }
}
