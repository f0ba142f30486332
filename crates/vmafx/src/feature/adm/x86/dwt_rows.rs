//! What the x86 DWT kernels of every level share: the checks that the buffers hold
//! everything a level reads and writes (else the scalar twin runs, and fails exactly as
//! the reference would), and the interior output columns.
//! (Both of ADM's tables run the AVX2 DWT kernels.)

use super::super::bands::Bands;
use super::super::dwt::Taps;

/// Whether the buffers hold everything level 0 reads and writes (else the scalar twin
/// runs, and fails exactly as the reference would).
pub(super) fn fits<S>(
    src: &[S],
    stride: usize,
    t: &Taps,
    tmp: &[i32],
    out: &Bands<i16>,
    os: usize,
) -> bool {
    let w = t.w;
    let n = t.cols.len();
    let last_row = t.rows.iter().flatten().copied().max().unwrap_or(0);
    let out_len = t.rows.len().saturating_sub(1) * os + n;
    t.rows.iter().flatten().all(|&r| r < usize::MAX / 2)
        && last_row
            .checked_mul(stride)
            .is_some_and(|o| o + w <= src.len())
        && tmp.len() >= 2 * w
        && n == w.div_ceil(2)
        && t.cols.iter().flatten().all(|&c| c < w)
        && std::iter::once(&out.a)
            .chain(&out.hvd)
            .all(|b| b.len() >= out_len)
}

/// Whether the buffers hold everything a level 1..3 reads and writes.
pub(super) fn fits_n<S>(
    src: &[S],
    stride: usize,
    t: &Taps,
    tmp: &[i64],
    out: &Bands<i32>,
    out_stride: usize,
) -> bool {
    let w = t.w;
    let n = t.cols.len();
    let last_row = t.rows.iter().flatten().copied().max().unwrap_or(0);
    let out_len = t.rows.len().saturating_sub(1) * out_stride + n;
    out_stride >= n
        && last_row
            .checked_mul(stride)
            .is_some_and(|o| o + w <= src.len())
        && tmp.len() >= 2 * w
        && n == w.div_ceil(2)
        && t.cols.iter().flatten().all(|&c| c < w)
        && std::iter::once(&out.a)
            .chain(&out.hvd)
            .all(|b| b.len() >= out_len)
}

/// One past the last interior output column of a pass over `w` inputs: columns
/// `1..end` read no mirrored tap (`2j + 2 <= w - 1`).
pub(super) fn interior_end(w: usize) -> usize {
    if w >= 3 {
        (w - 3) / 2 + 1
    } else {
        1
    }
}
