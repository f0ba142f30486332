//! The down-sampler between scales: the next scale's filter, then every second row and
//! column kept as the 16-bit picture of the next scale.
//!
//! libvmaf filters every position and then decimates; only the kept positions are computed
//! here, which gives the same values.

use super::planes::{PaddedPlane, PaddedRow, Rows};
use super::stats::{vertical, DeferredFn, HorizontalFn, NumDen, StatScratch, Sums};
use super::stats::{VerticalFn, VerticalShift};
use super::tables::{MAX_HALF, TAPS};

/// Work rows of the down-sampler, sized in `new` for the widest scale.
#[derive(Debug, Clone, Default)]
pub(super) struct DownScratch {
    pub(super) convol: PaddedRow,
    /// The distorted plane's row, where a fused kernel ([`VerticalDownFn`]) filters both
    /// planes at once (`convol` then holds the reference's).
    pub(super) convol_dis: PaddedRow,
    sums: Vec<u32>,
}

impl DownScratch {
    /// Rows for pictures up to `width` samples wide.
    pub(super) fn new(width: usize) -> Self {
        DownScratch {
            convol: PaddedRow::new(width),
            convol_dis: PaddedRow::new(width),
            sums: vec![0; width],
        }
    }
}

/// A vertical down-sampling kernel: [`down_vertical`] or one of its SIMD twins.
pub(super) type DownVerticalFn<T> = fn(&Rows<'_, T>, isize, usize, usize, u32, &mut DownScratch);

/// The vertical statistic pass around row `y` at a scale (as [`VerticalFn`]), fused with
/// the down-sampler's vertical filter of the next scale around the same row of both
/// planes (as [`DownVerticalFn`], with the shift of the statistic's means: the bit depth
/// at scale 0, 16 later): the reference's row into `convol`, the distorted one's into
/// `convol_dis`. The rows the second reads are among those the first reads.
pub(super) type VerticalDownFn<T> = fn(
    &Rows<'_, T>,
    &Rows<'_, T>,
    usize,
    usize,
    usize,
    VerticalShift,
    &mut StatScratch,
    &mut DownScratch,
);

/// A [`VerticalDownFn`] made of a vertical statistic kernel and a vertical down-sampling
/// kernel, one after the other.
#[allow(clippy::too_many_arguments)]
pub(super) fn vertical_down_with<T>(
    (stat, down): (VerticalFn<T>, DownVerticalFn<T>),
    reference: &Rows<'_, T>,
    distorted: &Rows<'_, T>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    d: &mut DownScratch,
) {
    stat(reference, distorted, y, width, scale, shift, s);
    down(reference, y as isize, width, scale + 1, shift.mean, d);
    // The down kernels write `convol`: the distorted row goes there, then swaps places.
    std::mem::swap(&mut d.convol, &mut d.convol_dis);
    down(distorted, y as isize, width, scale + 1, shift.mean, d);
    std::mem::swap(&mut d.convol, &mut d.convol_dis);
}

/// The scalar [`VerticalDownFn`].
#[allow(clippy::too_many_arguments)]
pub(super) fn vertical_down<T: Copy + Into<u32>>(
    reference: &Rows<'_, T>,
    distorted: &Rows<'_, T>,
    y: usize,
    width: usize,
    scale: usize,
    shift: VerticalShift,
    s: &mut StatScratch,
    d: &mut DownScratch,
) {
    let k = (
        vertical::<T> as VerticalFn<T>,
        down_vertical::<T> as DownVerticalFn<T>,
    );
    vertical_down_with(k, reference, distorted, y, width, scale, shift, s, d);
}

/// A horizontal down-sampling kernel: [`down_horizontal`] or one of its SIMD twins.
pub(super) type DownHorizontalFn = fn(&[u32], usize, &mut [u16]);

/// Filters `src` (`width` x `height`, borders mirrored) with the filter of `next_scale`
/// and writes the kept samples, `width / 2` x `height / 2`, into the rows of `out`.
/// `vertical_shift` brings the vertical sums back to 16 bits: the bit depth when `src` is
/// the picture itself, 16 when it is already a scale's means.
#[allow(clippy::too_many_arguments)]
pub(super) fn filter_and_decimate<T: Copy + Into<u32>>(
    src: &Rows<'_, T>,
    width: usize,
    height: usize,
    next_scale: usize,
    vertical_shift: u32,
    s: &mut DownScratch,
    out: &mut PaddedPlane<u16>,
    (vertical, horizontal): (DownVerticalFn<T>, DownHorizontalFn),
) {
    let half = TAPS[next_scale].len() / 2;
    let (out_w, out_h) = (width / 2, height / 2);
    for oy in 0..out_h {
        vertical(src, 2 * oy as isize, width, next_scale, vertical_shift, s);
        s.convol.mirror(width, half);
        let out_row = &mut out.row_mut(oy)[..out_w];
        horizontal(s.convol.padded(), next_scale, out_row);
    }
}

/// The statistic of `scale` over `width` x `height` pictures (borders mirrored), making
/// the next scale of both into the rows of `next` on the way: each even row's vertical
/// pass is the fused one, whose down-sampler rows are then filtered across and kept.
/// The same values as [`super::stats::scale_statistic`] then [`filter_and_decimate`] of
/// each plane. `ref·dis` plans are on (see `xy_plan`): each row's horizontal pass is
/// followed by the table's deferred pass.
#[allow(clippy::too_many_arguments)]
pub(super) fn statistic_and_decimate_planned<T>(
    planes: (&Rows<'_, T>, &Rows<'_, T>),
    (width, height, gain_limit): (usize, usize, f64),
    (scale, shift): (usize, VerticalShift),
    (scratch, down): (&mut StatScratch, &mut DownScratch),
    next: (&mut PaddedPlane<u16>, &mut PaddedPlane<u16>),
    (vertical, fused, down_horizontal): (VerticalFn<T>, VerticalDownFn<T>, DownHorizontalFn),
    (horizontal, deferred): (HorizontalFn, DeferredFn<T>),
) -> NumDen {
    let (reference, distorted) = planes;
    let rows = |s: &mut StatScratch, y: usize, sums: &mut Sums| {
        horizontal(s, width, scale, gain_limit, sums);
        deferred(
            reference,
            distorted,
            (y, width, scale),
            shift,
            gain_limit,
            s,
            sums,
        );
    };
    scratch.xy.enable(true);
    let fns = (vertical, fused, rows, down_horizontal);
    let sums = statistic_and_decimate_by(
        planes,
        width,
        height,
        scale,
        shift,
        (scratch, down),
        next,
        fns,
    );
    scratch.xy.enable(false);
    sums.finish()
}

/// [`statistic_and_decimate_planned`] with the horizontal pass of each row `y` done by
/// `horizontal(scratch, y, sums)` (and no plans unless that turns them on), giving the
/// sums.
#[allow(clippy::too_many_arguments)]
pub(super) fn statistic_and_decimate_by<T>(
    (reference, distorted): (&Rows<'_, T>, &Rows<'_, T>),
    width: usize,
    height: usize,
    scale: usize,
    shift: VerticalShift,
    (scratch, down): (&mut StatScratch, &mut DownScratch),
    (next_ref, next_dis): (&mut PaddedPlane<u16>, &mut PaddedPlane<u16>),
    (vertical, fused, mut horizontal, down_horizontal): (
        VerticalFn<T>,
        VerticalDownFn<T>,
        impl FnMut(&mut StatScratch, usize, &mut Sums),
        DownHorizontalFn,
    ),
) -> Sums {
    let mut sums = Sums::default();
    let (out_w, out_h) = (width / 2, height / 2);
    let next = scale + 1;
    let half = TAPS[next].len() / 2;
    for y in 0..height {
        if y % 2 == 0 && y / 2 < out_h {
            fused(reference, distorted, y, width, scale, shift, scratch, down);
            down.convol.mirror(width, half);
            let out = &mut next_ref.row_mut(y / 2)[..out_w];
            down_horizontal(down.convol.padded(), next, out);
            down.convol_dis.mirror(width, half);
            let out = &mut next_dis.row_mut(y / 2)[..out_w];
            down_horizontal(down.convol_dis.padded(), next, out);
        } else {
            vertical(reference, distorted, y, width, scale, shift, scratch);
        }
        horizontal(scratch, y, &mut sums);
    }
    sums
}

/// The vertical filter of `next_scale` around row `y` of `src`, columns `0..width`, brought
/// back to 16 bits by `shift`, written to the body of `s.convol` (borders not mirrored).
pub(super) fn down_vertical<T: Copy + Into<u32>>(
    src: &Rows<'_, T>,
    y: isize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) {
    down_vertical_columns(src, y, 0, width, next_scale, shift, s);
}

/// [`down_vertical`] for columns `from..width` only.
pub(super) fn down_vertical_columns<T: Copy + Into<u32>>(
    src: &Rows<'_, T>,
    y: isize,
    from: usize,
    width: usize,
    next_scale: usize,
    shift: u32,
    s: &mut DownScratch,
) {
    let taps = TAPS[next_scale];
    let half = taps.len() / 2;
    let round = 1u32 << (shift - 1);
    let sums = &mut s.sums[from..width];
    sums.fill(0);
    for (k, &c) in taps.iter().enumerate() {
        let row = &src.row(y - half as isize + k as isize)[from..width];
        let c = c as u32;
        for (acc, &px) in sums.iter_mut().zip(row) {
            *acc = acc.wrapping_add(c * px.into());
        }
    }
    let body = &mut s.convol.body_mut()[from..width];
    for (dst, &acc) in body.iter_mut().zip(sums.iter()) {
        *dst = (acc.wrapping_add(round) >> shift) as u16 as u32;
    }
}

/// The horizontal filter of `next_scale` over a padded row (from column `-MAX_HALF`),
/// kept at every second column: writes `out.len()` samples.
pub(super) fn down_horizontal(conv: &[u32], next_scale: usize, out: &mut [u16]) {
    down_horizontal_columns(conv, next_scale, 0, out);
}

/// [`down_horizontal`] for output columns `from..out.len()` only.
pub(super) fn down_horizontal_columns(
    conv: &[u32],
    next_scale: usize,
    from: usize,
    out: &mut [u16],
) {
    let taps = TAPS[next_scale];
    let first = MAX_HALF - taps.len() / 2;
    for (ox, dst) in out.iter_mut().enumerate().skip(from) {
        let at = first + 2 * ox;
        let acc = taps
            .iter()
            .enumerate()
            .fold(0u32, |a, (k, &c)| a.wrapping_add(c as u32 * conv[at + k]));
        *dst = (acc.wrapping_add(32768) >> 16) as u16;
    }
}

/// Mirrors `half` rows above and below the `height` rows of a scale just written into
/// `next`, whose previous scale `prev` (same pitch) then gives way to it. A one-row
/// picture mirrors rows that are not written yet: as in one buffer written over in
/// place (libvmaf's), those hold the previous scale's rows, copied over first.
pub(super) fn finish_scale(
    next: &mut PaddedPlane<u16>,
    prev: &PaddedPlane<u16>,
    height: usize,
    half: usize,
) {
    if height == 0 {
        return;
    }
    if height == 1 {
        next.copy_rows(prev, 1..half + 1);
    }
    next.mirror_rows(height, half);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scale written into its own buffer and finished reads as one written over the
    /// previous scale in place, one-row scales (whose mirrors read unwritten rows) too.
    #[test]
    fn finished_scales_read_as_scales_written_in_place() {
        let (pitch, rows) = (5, 6);
        for height in 1..=3 {
            let mut prev = PaddedPlane::<u16>::new(pitch, rows);
            for y in 0..rows {
                for (x, v) in prev.row_mut(y).iter_mut().enumerate() {
                    *v = (100 * y + x) as u16;
                }
            }
            prev.mirror_rows(rows, 4);
            let mut in_place = prev.clone();
            let mut next = PaddedPlane::<u16>::new(pitch, rows);
            for y in 0..height {
                for (x, v) in in_place.row_mut(y).iter_mut().enumerate() {
                    *v = (1000 + 10 * y + x) as u16;
                }
                next.row_mut(y).copy_from_slice(in_place.row_mut(y));
            }
            in_place.mirror_rows(height, 2);
            finish_scale(&mut next, &prev, height, 2);
            let (a, b) = (next.rows(), in_place.rows());
            for y in -2..(height + 2) as isize {
                assert_eq!(a.row(y), b.row(y), "height {height}, row {y}");
            }
        }
    }
}
