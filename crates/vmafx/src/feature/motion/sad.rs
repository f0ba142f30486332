//! The blurred SAD of a whole plane by one kernel table: per output row, the table's
//! vertical pass then its horizontal absolute sum (the scalar passes are in
//! [`super::kernel`]).

use super::kernel::{mirror, LumaView, MotionSample, MIN_DIMENSION};
use super::kernels::Kernels;

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
