//! The blurred SAD of a whole plane by one kernel table: per output row, the table's
//! vertical pass then its horizontal absolute sum (the scalar passes are in
//! [`super::kernel`]).

use super::kernel::{mirror, LumaView, MotionSample, MIN_DIMENSION};
use super::kernels::Kernels;
use super::words::{Words, WORD_LIMIT};

/// The buffers a plane's SAD works in, for one width.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    /// One output row of the `i32` passes.
    row: Vec<i32>,
    /// Five rows of differences for the 16-bit pipeline, row `r` in slot `r % 5`.
    ring: Vec<i16>,
    /// One output row of the 16-bit vertical pass.
    words: Vec<i16>,
}

impl Scratch {
    /// Buffers for planes `width` samples wide.
    pub(super) fn new(width: usize) -> Self {
        Scratch {
            row: vec![0; width],
            ring: vec![0; 5 * width],
            words: vec![0; width],
        }
    }
}

/// The SAD of the blurred `prev - cur` over the whole plane by table `k`: by its 16-bit
/// pipeline where it has one and the depth allows it (below 16 bits, samples below 2^14),
/// else by its `i32` row passes (identical results either way). `scratch` was made for
/// the planes' width; the views are as [`blurred_sad_with`] takes them.
pub(super) fn plane_sad<T: MotionSample>(
    k: &Kernels,
    prev: LumaView<'_, T>,
    cur: LumaView<'_, T>,
    bpc: u32,
    scratch: &mut Scratch,
) -> u64 {
    if let Some(words) = k.words.filter(|_| bpc <= 15) {
        if let Some(sad) = sad_by_words(k, &words, prev, cur, bpc, scratch) {
            return sad;
        }
    }
    blurred_sad_with(k, prev, cur, bpc, &mut scratch.row)
}

/// [`plane_sad`] by the 16-bit pipeline `words` (rows whose vertical output does not fit
/// 16 bits by the `i32` passes of `k`); `None` if a sample is 2^14 or more.
fn sad_by_words<T: MotionSample>(
    k: &Kernels,
    words: &Words,
    prev: LumaView<'_, T>,
    cur: LumaView<'_, T>,
    bpc: u32,
    scratch: &mut Scratch,
) -> Option<u64> {
    let (w, h) = (cur.width, cur.height);
    debug_assert!(w >= MIN_DIMENSION as usize && h >= MIN_DIMENSION as usize);
    debug_assert_eq!((prev.width, prev.height), (w, h));
    let diff = T::pick_diff(words.diff_u8, words.diff_u16);
    let Scratch {
        row,
        ring,
        words: out,
    } = scratch;
    let (row, ring, out) = (&mut row[..w], &mut ring[..5 * w], &mut out[..w]);
    // Rows 0..made have their differences in the ring; output row i reads rows within
    // two of it, which are five consecutive rows at most, each in its own slot.
    let mut made = 0;
    let mut sad = 0u64;
    for i in 0..h {
        while made < h.min(i + 3) {
            if !diff(
                prev.row(made),
                cur.row(made),
                &mut ring[made % 5 * w..][..w],
            ) {
                return None;
            }
            made += 1;
        }
        let rows: [usize; 5] = std::array::from_fn(|t| mirror(i, t, h));
        let top = (words.vertical)(rows.map(|r| &ring[r % 5 * w..][..w]), bpc, out);
        sad += match top {
            0 => continue,
            1..=WORD_LIMIT => (words.abs_sum)(out) as u64,
            // A value beyond 16 bits: this row by the i32 passes.
            _ => {
                let vertical = T::pick(k.vertical_u8, k.vertical_u16);
                vertical(
                    rows.map(|r| prev.row(r)),
                    rows.map(|r| cur.row(r)),
                    bpc,
                    row,
                );
                (k.abs_sum)(row) as u64
            }
        };
    }
    Some(sad)
}

/// The SAD of the blurred `prev - cur` over the whole plane, by the scalar kernels.
/// `row_buf` holds at least `width` values; both views share a size of at least
/// [`MIN_DIMENSION`] each way, and `bpc` is 8..=16. (The tests' reference; the extractor
/// runs [`blurred_sad_with`] on its level's kernels.)
#[cfg(test)]
pub(super) fn blurred_sad<T: MotionSample>(
    prev: LumaView<'_, T>,
    cur: LumaView<'_, T>,
    bpc: u32,
    row_buf: &mut [i32],
) -> u64 {
    blurred_sad_with(&Kernels::SCALAR, prev, cur, bpc, row_buf)
}

/// [`blurred_sad`] by the kernels of table `k` (identical results at every level).
pub(super) fn blurred_sad_with<T: MotionSample>(
    k: &Kernels,
    prev: LumaView<'_, T>,
    cur: LumaView<'_, T>,
    bpc: u32,
    row_buf: &mut [i32],
) -> u64 {
    let (w, h) = (cur.width, cur.height);
    debug_assert!(w >= MIN_DIMENSION as usize && h >= MIN_DIMENSION as usize);
    debug_assert_eq!((prev.width, prev.height), (w, h));
    let vertical = T::pick(k.vertical_u8, k.vertical_u16);
    let row_buf = &mut row_buf[..w];
    let mut sad = 0u64;
    for i in 0..h {
        let rows: [usize; 5] = std::array::from_fn(|k| mirror(i, k, h));
        let p = rows.map(|r| prev.row(r));
        let c = rows.map(|r| cur.row(r));
        if !vertical(p, c, bpc, row_buf) {
            continue;
        }
        sad += (k.abs_sum)(row_buf) as u64;
    }
    sad
}
