//! The down-sampler between scales: the next scale's filter, then every second row and
//! column kept as the 16-bit picture of the next scale.
//!
//! libvmaf filters every position and then decimates; only the kept positions are computed
//! here, which gives the same values.

use super::planes::{PaddedPlane, PaddedRow};
use super::tables::{MAX_HALF, TAPS};

/// Work rows of the down-sampler, sized in `new` for the widest scale.
#[derive(Debug, Clone, Default)]
pub(super) struct DownScratch {
    convol: PaddedRow,
    sums: Vec<u32>,
}

impl DownScratch {
    /// Rows for pictures up to `width` samples wide.
    pub(super) fn new(width: usize) -> Self {
        DownScratch {
            convol: PaddedRow::new(width),
            sums: vec![0; width],
        }
    }
}

/// Filters `src` (`width` x `height`, borders mirrored) with the filter of `next_scale`
/// and writes the kept samples, `width / 2` x `height / 2` row after row, into `out`.
/// `vertical_shift` brings the vertical sums back to 16 bits: the bit depth when `src` is
/// the picture itself, 16 when it is already a scale's means.
pub(super) fn filter_and_decimate<T: Copy + Into<u32>>(
    src: &PaddedPlane<T>,
    width: usize,
    height: usize,
    next_scale: usize,
    vertical_shift: u32,
    s: &mut DownScratch,
    out: &mut [u16],
) {
    let taps = TAPS[next_scale];
    let half = taps.len() / 2;
    let first = MAX_HALF - half;
    let (out_w, out_h) = (width / 2, height / 2);
    let round = 1u32 << (vertical_shift - 1);
    for oy in 0..out_h {
        let y = 2 * oy as isize;
        let sums = &mut s.sums[..width];
        sums.fill(0);
        for (k, &c) in taps.iter().enumerate() {
            let row = &src.row(y - half as isize + k as isize)[..width];
            let c = c as u32;
            for (acc, &px) in sums.iter_mut().zip(row) {
                *acc = acc.wrapping_add(c * px.into());
            }
        }
        for (dst, &acc) in s.convol.body_mut().iter_mut().zip(sums.iter()) {
            *dst = (acc.wrapping_add(round) >> vertical_shift) as u16 as u32;
        }
        s.convol.mirror(width, half);
        let conv = s.convol.padded();
        let out_row = &mut out[oy * out_w..(oy + 1) * out_w];
        for (ox, dst) in out_row.iter_mut().enumerate() {
            let at = first + 2 * ox;
            let acc = taps
                .iter()
                .enumerate()
                .fold(0u32, |a, (k, &c)| a.wrapping_add(c as u32 * conv[at + k]));
            *dst = (acc.wrapping_add(32768) >> 16) as u16;
        }
    }
}

/// Copies the decimated `width` x `height` samples into `dst` and mirrors `half` rows
/// above and below them.
pub(super) fn store_scale(
    dst: &mut PaddedPlane<u16>,
    samples: &[u16],
    width: usize,
    height: usize,
    half: usize,
) {
    if width == 0 {
        return;
    }
    for (y, src) in samples.chunks_exact(width).take(height).enumerate() {
        dst.row_mut(y)[..width].copy_from_slice(src);
    }
    dst.mirror_rows(height, half);
}
