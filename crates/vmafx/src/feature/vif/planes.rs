//! Row buffers with mirrored borders, laid out as libvmaf lays them out.
//!
//! A [`PaddedPlane`] holds one picture (a scale of the reference or distorted luma) with
//! [`MAX_HALF`] spare rows above and below; a [`PaddedRow`] holds one filtered row with
//! spare columns on both sides. Borders are mirrored without repeating the edge sample, in
//! libvmaf's order, so that for pictures smaller than a filter the values read beyond the
//! picture are the same ones libvmaf reads.

use super::tables::MAX_HALF;

/// A picture with [`MAX_HALF`] mirrored rows above and below.
#[derive(Debug, Clone, Default)]
pub(super) struct PaddedPlane<T> {
    data: Vec<T>,
    pitch: usize,
    rows: usize,
}

impl<T: Copy + Default> PaddedPlane<T> {
    /// A zeroed plane of `width` x `height` samples plus its border rows.
    pub(super) fn new(width: usize, height: usize) -> Self {
        PaddedPlane {
            data: vec![T::default(); width * (height + 2 * MAX_HALF)],
            pitch: width,
            rows: height,
        }
    }
}

impl<T: Copy> PaddedPlane<T> {
    /// The plane read through a [`Rows`] view (its border rows as stored).
    pub(super) fn rows(&self) -> Rows<'_, T> {
        Rows {
            data: &self.data,
            stride: self.pitch,
            origin: MAX_HALF * self.pitch,
            width: self.pitch,
            height: self.rows,
            reflect: false,
        }
    }

    /// Index of the first sample of row `y` (`-MAX_HALF <= y < rows + MAX_HALF`).
    #[inline]
    fn start(&self, y: isize) -> usize {
        debug_assert!(y >= -(MAX_HALF as isize) && y < (self.rows + MAX_HALF) as isize);
        (y + MAX_HALF as isize) as usize * self.pitch
    }

    /// Row `y` of the picture, writable.
    #[inline]
    pub(super) fn row_mut(&mut self, y: usize) -> &mut [T] {
        let s = self.start(y as isize);
        &mut self.data[s..s + self.pitch]
    }

    /// Copies rows `rows` (of the picture or its lower border) from `other`, of the same
    /// pitch.
    pub(super) fn copy_rows(&mut self, other: &Self, rows: std::ops::Range<usize>) {
        assert_eq!(self.pitch, other.pitch);
        let (a, b) = (
            self.start(rows.start as isize),
            self.start(rows.end as isize),
        );
        self.data[a..b].copy_from_slice(&other.data[a..b]);
    }

    /// Mirrors `half` rows above row 0 and below row `height - 1` (`1 <= height <= rows`,
    /// `half <= MAX_HALF`): row `-i` takes row `i`, then row `height-1+i` takes row
    /// `height-1-i`, for `i` = 1, 2, ... in turn.
    pub(super) fn mirror_rows(&mut self, height: usize, half: usize) {
        let (h, pitch) = (height as isize, self.pitch);
        for i in 1..=half as isize {
            let (src, dst) = (self.start(i), self.start(-i));
            self.data.copy_within(src..src + pitch, dst);
            let (src, dst) = (self.start(h - 1 - i), self.start(h - 1 + i));
            self.data.copy_within(src..src + pitch, dst);
        }
    }
}

/// Read access to the rows of a picture for the filter kernels: a [`PaddedPlane`] with its
/// stored border rows, or a picture held elsewhere (a frame's luma) whose border rows are
/// found by mirroring the row index, so that the picture need not be copied.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rows<'a, T> {
    data: &'a [T],
    stride: usize,
    /// Index of the first sample of row 0.
    origin: usize,
    /// Samples in each row handed out.
    width: usize,
    height: usize,
    /// Rows outside `0..height` are found by mirroring (true) or stored (false).
    reflect: bool,
}

impl<'a, T: Copy> Rows<'a, T> {
    /// The `width` x `height` picture whose row `y` starts at `data[y * stride]`, read with
    /// its borders mirrored as [`PaddedPlane::mirror_rows`] mirrors them, to any depth
    /// below `height`. Needs `height >= 2`, `width <= stride` and every row in `data`.
    pub(super) fn mirrored(data: &'a [T], stride: usize, width: usize, height: usize) -> Self {
        assert!(height >= 2 && width <= stride);
        assert!(data.len() >= (height - 1) * stride + width);
        Rows {
            data,
            stride,
            origin: 0,
            width,
            height,
            reflect: true,
        }
    }

    /// Rows of the picture, borders not counted.
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn height(&self) -> usize {
        self.height
    }

    /// Row `y`, which may lie in the borders.
    #[inline]
    pub(super) fn row(&self, y: isize) -> &'a [T] {
        let y = if self.reflect {
            mirror_index(y, self.height as isize)
        } else {
            y
        };
        let s = (self.origin as isize + y * self.stride as isize) as usize;
        &self.data[s..s + self.width]
    }

    /// The first samples of the `N` rows around row `y` (rows `y - N / 2 ..= y + N / 2`,
    /// found as [`Rows::row`] finds them), each row checked to hold `width` samples: the
    /// window a SIMD vertical pass walks with raw loads.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn window<const N: usize>(&self, y: usize, width: usize) -> [*const T; N] {
        let top = y as isize - (N / 2) as isize;
        std::array::from_fn(|k| self.row(top + k as isize)[..width].as_ptr())
    }
}

/// The row of a `height`-row picture (`height >= 2`) that [`PaddedPlane::mirror_rows`]
/// copies into row `y`: row `-i` takes row `i` and row `height - 1 + i` takes row
/// `height - 1 - i`, for `i` = 1, 2, ... in turn, so a row mirrored from another border
/// row holds what that one was given first.
#[inline]
fn mirror_index(mut y: isize, height: isize) -> isize {
    loop {
        if y < 0 {
            y = -y;
        } else if y >= height {
            y = 2 * (height - 1) - y;
        } else {
            return y;
        }
    }
}

/// One row of 32-bit intermediates with [`MAX_HALF`] spare columns on each side.
#[derive(Debug, Clone, Default)]
pub(super) struct PaddedRow {
    data: Vec<u32>,
}

impl PaddedRow {
    /// A zeroed row for pictures up to `width` samples wide.
    pub(super) fn new(width: usize) -> Self {
        PaddedRow {
            data: vec![0; width.max(MAX_HALF + 1) + 2 * MAX_HALF],
        }
    }

    /// The row from column `-MAX_HALF` on.
    #[inline]
    pub(super) fn padded(&self) -> &[u32] {
        &self.data
    }

    /// Columns 0.. of the row, writable.
    #[inline]
    pub(super) fn body_mut(&mut self) -> &mut [u32] {
        &mut self.data[MAX_HALF..]
    }

    /// Mirrors `half` columns left of column 0 and right of column `width - 1`, in
    /// libvmaf's order (left then right for each distance).
    pub(super) fn mirror(&mut self, width: usize, half: usize) {
        let c = |x: isize| (x + MAX_HALF as isize) as usize;
        let w = width as isize;
        for f in 1..=half as isize {
            self.data[c(-f)] = self.data[c(f)];
            self.data[c(w - 1 + f)] = self.data[c(w - 1 - f)];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_mirror_without_repeating_the_edge() {
        let mut p = PaddedPlane::<u16>::new(1, 12);
        for y in 0..12 {
            p.row_mut(y)[0] = y as u16;
        }
        p.mirror_rows(12, 3);
        let col: Vec<u16> = (-3..15).map(|y| p.rows().row(y)[0]).collect();
        assert_eq!(
            col,
            [3, 2, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 10, 9, 8]
        );
    }

    #[test]
    fn mirrored_views_read_what_stored_mirrors_hold() {
        for h in 2..20usize {
            let mut p = PaddedPlane::<u16>::new(1, h);
            for y in 0..h {
                p.row_mut(y)[0] = y as u16;
            }
            let half = MAX_HALF;
            p.mirror_rows(h, half);
            let data: Vec<u16> = (0..h as u16).collect();
            let view = Rows::mirrored(&data, 1, 1, h);
            let stored = p.rows();
            for y in -(half as isize)..(h + half) as isize {
                assert_eq!(view.row(y), stored.row(y), "height {h}, row {y}");
            }
        }
    }

    #[test]
    fn columns_mirror_without_repeating_the_edge() {
        let mut r = PaddedRow::new(10);
        for (i, v) in r.body_mut()[..10].iter_mut().enumerate() {
            *v = i as u32;
        }
        r.mirror(10, 2);
        let s = &r.padded()[MAX_HALF - 2..MAX_HALF + 12];
        assert_eq!(s, [2, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 8, 7]);
    }
}
