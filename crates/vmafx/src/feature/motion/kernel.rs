//! The motion kernel: the sum of absolute values of the blurred difference of two luma
//! planes (libvmaf's scalar pipeline, the reference for any SIMD twin).
//!
//! The blur is libvmaf's separable 5-tap integer filter with mirrored borders, applied to
//! `prev - cur`. Each output row is made in two steps: a vertical pass over the difference
//! (rounded and shifted by the bit depth, so 8-bit and deeper input land on the same
//! scale) into a row buffer, then a horizontal pass over that buffer (rounded, shifted by
//! 16) whose absolute values are summed.

/// A vertical pass over five rows of previous and current samples (see
/// [`MotionSample::vertical`]); returns whether any output is nonzero.
pub(super) type VerticalFn<T> = fn([&[T]; 5], [&[T]; 5], u32, &mut [i32]) -> bool;

/// Makes one row of differences `prev - cur` as `i16` (wrapping) for the 16-bit pipeline
/// (`super::words`); returns whether every sample of both rows is below 2^14, its range
/// (`u8` rows always are).
pub(super) type DiffFn<T> = fn(&[T], &[T], &mut [i16]) -> bool;

/// The blur taps (they sum to 65536).
pub(super) const FILTER: [i32; 5] = [3571, 16004, 26386, 16004, 3571];

/// Distance from the centre tap to the outer ones.
const RADIUS: usize = FILTER.len() / 2;

/// The smallest width and height the mirrored 5-tap filter can read.
pub(super) const MIN_DIMENSION: u32 = 3;

/// Index `i - RADIUS + k` reflected into `0..n` (the edge sample itself is not repeated).
/// Needs `n >= MIN_DIMENSION`.
#[inline]
pub(super) fn mirror(i: usize, k: usize, n: usize) -> usize {
    let t = i + k;
    if t < RADIUS {
        RADIUS - t
    } else if t - RADIUS >= n {
        2 * n + RADIUS - t - 2
    } else {
        t - RADIUS
    }
}

/// A sample type the kernel reads.
pub(super) trait MotionSample: Copy + Send + Sync + 'static {
    /// One vertical pass: `out[j]` gets the filtered `prev - cur` of column `j` over the
    /// five rows given, rounded and shifted right by `shift`. Returns whether any output
    /// is nonzero (an all-zero row adds nothing, and its horizontal pass is skipped).
    fn vertical(prev: [&[Self]; 5], cur: [&[Self]; 5], shift: u32, out: &mut [i32]) -> bool;

    /// This type's pass of a table's two (one per sample width).
    fn pick(u8_pass: VerticalFn<u8>, u16_pass: VerticalFn<u16>) -> VerticalFn<Self>;

    /// This type's difference kernel of a 16-bit pipeline's two.
    fn pick_diff(u8_diff: DiffFn<u8>, u16_diff: DiffFn<u16>) -> DiffFn<Self>;
}

impl MotionSample for u8 {
    #[inline]
    fn vertical(prev: [&[u8]; 5], cur: [&[u8]; 5], shift: u32, out: &mut [i32]) -> bool {
        // 8-bit differences times the taps stay within i32, as in libvmaf's 8-bit path.
        let round = 1i32 << (shift - 1);
        let mut any = 0;
        for (j, o) in out.iter_mut().enumerate() {
            let mut acc = 0i32;
            for k in 0..5 {
                acc += FILTER[k] * (prev[k][j] as i32 - cur[k][j] as i32);
            }
            *o = (acc + round) >> shift;
            any |= *o;
        }
        any != 0
    }

    fn pick(u8_pass: VerticalFn<u8>, _: VerticalFn<u16>) -> VerticalFn<u8> {
        u8_pass
    }

    fn pick_diff(u8_diff: DiffFn<u8>, _: DiffFn<u16>) -> DiffFn<u8> {
        u8_diff
    }
}

impl MotionSample for u16 {
    #[inline]
    fn vertical(prev: [&[u16]; 5], cur: [&[u16]; 5], shift: u32, out: &mut [i32]) -> bool {
        let round = 1i64 << (shift - 1);
        let mut any = 0;
        for (j, o) in out.iter_mut().enumerate() {
            let mut acc = 0i64;
            for k in 0..5 {
                acc += FILTER[k] as i64 * (prev[k][j] as i64 - cur[k][j] as i64);
            }
            *o = ((acc + round) >> shift) as i32;
            any |= *o;
        }
        any != 0
    }

    fn pick(_: VerticalFn<u8>, u16_pass: VerticalFn<u16>) -> VerticalFn<u16> {
        u16_pass
    }

    fn pick_diff(_: DiffFn<u8>, u16_diff: DiffFn<u16>) -> DiffFn<u16> {
        u16_diff
    }
}

/// One luma plane as the kernel reads it: samples, width, height, stride in samples.
#[derive(Debug, Clone, Copy)]
pub(super) struct LumaView<'a, T> {
    /// The samples, row after row `stride` apart.
    pub samples: &'a [T],
    /// Width in samples.
    pub width: usize,
    /// Height in rows.
    pub height: usize,
    /// Row distance in samples.
    pub stride: usize,
}

impl<T> LumaView<'_, T> {
    #[inline]
    pub(super) fn row(&self, y: usize) -> &[T] {
        &self.samples[y * self.stride..y * self.stride + self.width]
    }
}

/// `|(acc + 2^15) >> 16|` of one horizontal tap sum.
#[inline]
fn abs_rounded(acc: i64) -> u32 {
    (((acc + (1 << 15)) >> 16) as i32).unsigned_abs()
}

/// The horizontal output at column `j` whose taps leave the row (mirrored), as `|value|`.
#[inline]
pub(super) fn edge_abs<V: Copy + Into<i64>>(row: &[V], j: usize) -> u32 {
    let w = row.len();
    let acc: i64 = (0..FILTER.len())
        .map(|k| FILTER[k] as i64 * row[mirror(j, k, w)].into())
        .sum();
    abs_rounded(acc)
}

/// The horizontal output of one in-row window of five values, as `|value|`.
#[inline]
pub(super) fn window_abs<V: Copy + Into<i64>>(win: &[V]) -> u32 {
    let acc: i64 = (0..FILTER.len())
        .map(|k| FILTER[k] as i64 * win[k].into())
        .sum();
    abs_rounded(acc)
}

/// The sum of `|value|` over the columns whose taps leave the row (both edges).
#[inline]
pub(super) fn edges_abs_sum<V: Copy + Into<i64>>(row: &[V]) -> u32 {
    let w = row.len();
    let right = w.saturating_sub(RADIUS).max(RADIUS);
    (0..RADIUS)
        .chain(right..w)
        .fold(0u32, |s, j| s.wrapping_add(edge_abs(row, j)))
}

/// The horizontal pass over one row buffer: the sum of `|filtered|`, wrapping at 32 bits
/// as libvmaf's per-row accumulator does. Needs `row.len() >= MIN_DIMENSION`. (The 16-bit
/// pipeline's rows of `i16` take the same arithmetic.)
#[inline]
pub(super) fn horizontal_abs_sum<V: Copy + Into<i64>>(row: &[V]) -> u32 {
    // Columns whose taps leave the row, then the interior, one window per column.
    let mut sum = edges_abs_sum(row);
    for win in row.windows(FILTER.len()) {
        sum = sum.wrapping_add(window_abs(win));
    }
    sum
}
