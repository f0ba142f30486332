//! The integer Daubechies-2 DWT of ADM: one level splits a plane into four half-size bands.
//!
//! Each level filters columns first (four taps, into two rows of temporaries) and then rows,
//! keeping every second output. Taps beyond the picture are mirrored (index -1 reads 1,
//! index n reads n-1, n+1 reads n-2). Level 0 reads 8- or 16-bit samples and writes `i16`;
//! levels 1..3 read the previous level's `i32` low band and write `i32`, each with its own
//! rounding shifts.

use super::bands::Bands;

/// Low-pass and high-pass taps in Q15.
pub(super) const LO: [i32; 4] = [15826, 27411, 7345, -4240];
pub(super) const HI: [i32; 4] = [-4240, -7345, 27411, -15826];
/// Sum of the low-pass taps: removes the DC offset of unsigned input.
pub(super) const LO_SUM: i32 = 46342;

/// The mirrored source index of tap `k` (-1..=n+1) over `n` samples.
fn mirror(k: isize, n: usize) -> usize {
    let n = n as isize;
    let m = if k < 0 {
        -k
    } else if k >= n {
        2 * n - k - 1
    } else {
        k
    };
    m as usize
}

/// For each output position of a level over `n` inputs, its four source indices.
pub(super) fn taps(n: usize) -> Vec<[usize; 4]> {
    (0..n.div_ceil(2))
        .map(|i| {
            let c = 2 * i as isize;
            [
                mirror(c - 1, n),
                mirror(c, n),
                mirror(c + 1, n),
                mirror(c + 2, n),
            ]
        })
        .collect()
}

/// The source indices of one level: per output row, per output column.
#[derive(Debug, Clone, Default)]
pub(super) struct Taps {
    /// Input width.
    pub w: usize,
    /// Four source rows per output row.
    pub rows: Vec<[usize; 4]>,
    /// Four source columns per output column.
    pub cols: Vec<[usize; 4]>,
}

impl Taps {
    /// The taps of a level over a `w` x `h` input.
    pub(super) fn new(w: usize, h: usize) -> Self {
        Taps {
            w,
            rows: taps(h),
            cols: taps(w),
        }
    }
}

/// Level 0 of a plane of samples (`u8` or `u16` with `bpc` bits) with row stride `stride`,
/// over the input size `t` was made for, into `out` (row stride `out_stride`). `tmp` holds
/// 2·w values.
#[allow(clippy::too_many_arguments)]
pub(super) fn level0<S: Copy + Into<i32>>(
    src: &[S],
    stride: usize,
    t: &Taps,
    bpc: u32,
    tmp: &mut [i32],
    out: &mut Bands<i16>,
    out_stride: usize,
) {
    let w = t.w;
    let (lo, hi) = tmp[..2 * w].split_at_mut(w);
    each_output_row(t, out, out_stride, |rows, _, bands| {
        level0_vertical(src, stride, rows, bpc, lo, hi, 0);
        level0_horizontal(lo, hi, &t.cols, bands, 0..t.cols.len());
    });
}

/// The row walk of a level, which the scalar code and every vector kernel share: for each
/// output row, `row` gets its four source rows, the next output row's (its own for the
/// last: kernels that prefetch read them) and its four band rows (a, v, h, d), one value
/// an output column each.
pub(super) fn each_output_row<B>(
    t: &Taps,
    out: &mut Bands<B>,
    out_stride: usize,
    mut row: impl FnMut(&[usize; 4], &[usize; 4], [&mut [B]; 4]),
) {
    let n = t.cols.len();
    for (i, rows) in t.rows.iter().enumerate() {
        let next = t.rows.get(i + 1).unwrap_or(rows);
        row(rows, next, out.rows_mut(i * out_stride, n));
    }
}

/// The vertical pass of level 0 over columns `from..lo.len()`: `lo` and `hi` get the
/// low- and high-pass of the four source rows, shifted by the sample depth (which brings
/// any depth to the same range) and kept to 16 bits (so a vector kernel may keep the
/// rows as `i16`).
pub(super) fn level0_vertical<S: Copy + Into<i32>, T: From<i16>>(
    src: &[S],
    stride: usize,
    rows: &[usize; 4],
    bpc: u32,
    lo: &mut [T],
    hi: &mut [T],
    from: usize,
) {
    let shift_v = bpc;
    let round_v = 1i32 << (shift_v - 1);
    let offset = LO_SUM.wrapping_mul(round_v);
    for j in from..lo.len() {
        let s = rows.map(|r| src[r * stride + j].into());
        let mut l = 0i32;
        let mut g = 0i32;
        for k in 0..4 {
            l = l.wrapping_add(LO[k].wrapping_mul(s[k]));
            g = g.wrapping_add(HI[k].wrapping_mul(s[k]));
        }
        lo[j] = T::from((l.wrapping_sub(offset).wrapping_add(round_v) >> shift_v) as i16);
        hi[j] = T::from((g.wrapping_add(round_v) >> shift_v) as i16);
    }
}

/// The horizontal pass of level 0 for output columns `range`: bands (a, v, h, d) get
/// the low and high pass of `lo` and of `hi`, read at the taps `cols`. The vertical
/// pass's values fit 16 bits, so a vector kernel may hold them as `i16`.
pub(super) fn level0_horizontal<T: Copy + Into<i32>>(
    lo: &[T],
    hi: &[T],
    cols: &[[usize; 4]],
    bands: [&mut [i16]; 4],
    range: std::ops::Range<usize>,
) {
    let [a, v, h, d] = bands;
    for j in range {
        let c = &cols[j];
        let horizontal = |t: &[T], f: &[i32; 4]| {
            let mut acc = 0i32;
            for k in 0..4 {
                acc = acc.wrapping_add(f[k].wrapping_mul(t[c[k]].into()));
            }
            (acc.wrapping_add(32768) >> 16) as i16
        };
        a[j] = horizontal(lo, &LO);
        v[j] = horizontal(lo, &HI);
        h[j] = horizontal(hi, &LO);
        d[j] = horizontal(hi, &HI);
    }
}

/// The columns of level 0's horizontal pass that a vector pass over the interior outputs
/// `1..end` leaves: the first (its left taps mirrored) and `end..` (the right edge and any
/// the vector steps did not reach).
pub(super) fn level0_edges<T: Copy + Into<i32>>(
    lo: &[T],
    hi: &[T],
    cols: &[[usize; 4]],
    [a, v, h, d]: [&mut [i16]; 4],
    end: usize,
) {
    level0_horizontal(lo, hi, cols, [&mut *a, &mut *v, &mut *h, &mut *d], 0..1);
    level0_horizontal(lo, hi, cols, [a, v, h, d], end.max(1)..cols.len());
}

/// Rounding (add, shift) of the vertical and horizontal passes of levels 1..3.
pub(super) const VERTICAL: [(i64, u32); 3] = [(0, 0), (32768, 16), (32768, 16)];
pub(super) const HORIZONTAL: [(i64, u32); 3] = [(16384, 15), (32768, 16), (16384, 15)];

/// Level `scale` (1..=3) of the low band `src` (row stride `stride`, of the size `t` was
/// made for; `i16` for the scale-0 band, `i32` for later ones) into `out` (row stride
/// `out_stride`). `tmp` holds 2·w values.
pub(super) fn level<S: Copy + Into<i64>>(
    src: &[S],
    stride: usize,
    t: &Taps,
    scale: usize,
    tmp: &mut [i64],
    out: &mut Bands<i32>,
    out_stride: usize,
) {
    let w = t.w;
    let (lo, hi) = tmp[..2 * w].split_at_mut(w);
    each_output_row(t, out, out_stride, |rows, _, bands| {
        level_vertical(src, stride, rows, scale, lo, hi, 0);
        level_horizontal(lo, hi, &t.cols, scale, bands, 0..t.cols.len());
    });
}

/// The vertical pass of level `scale` over columns `from..lo.len()`. Its values are
/// truncated to 32 bits, so a vector kernel may keep the rows as `i32`.
pub(super) fn level_vertical<S: Copy + Into<i64>, T: From<i32>>(
    src: &[S],
    stride: usize,
    rows: &[usize; 4],
    scale: usize,
    lo: &mut [T],
    hi: &mut [T],
    from: usize,
) {
    let (add_v, shift_v) = VERTICAL[scale - 1];
    for j in from..lo.len() {
        let s = rows.map(|r| src[r * stride + j].into());
        let mut l = 0i64;
        let mut g = 0i64;
        for k in 0..4 {
            l += LO[k] as i64 * s[k];
            g += HI[k] as i64 * s[k];
        }
        lo[j] = T::from(((l + add_v) >> shift_v) as i32);
        hi[j] = T::from(((g + add_v) >> shift_v) as i32);
    }
}

/// The horizontal pass of level `scale` for output columns `range` into bands
/// (a, v, h, d). The vertical pass's values fit 32 bits, so a vector kernel may hold
/// them as `i32`.
pub(super) fn level_horizontal<T: Copy + Into<i64>>(
    lo: &[T],
    hi: &[T],
    cols: &[[usize; 4]],
    scale: usize,
    bands: [&mut [i32]; 4],
    range: std::ops::Range<usize>,
) {
    let (add_h, shift_h) = HORIZONTAL[scale - 1];
    let [a, v, h, d] = bands;
    for j in range {
        let c = &cols[j];
        let horizontal = |t: &[T], f: &[i32; 4]| {
            let mut acc = 0i64;
            for k in 0..4 {
                acc += f[k] as i64 * t[c[k]].into();
            }
            ((acc + add_h) >> shift_h) as i32
        };
        a[j] = horizontal(lo, &LO);
        v[j] = horizontal(lo, &HI);
        h[j] = horizontal(hi, &LO);
        d[j] = horizontal(hi, &HI);
    }
}

/// The columns of level `scale`'s horizontal pass that a vector pass over the interior
/// outputs `1..end` leaves (as [`level0_edges`]).
pub(super) fn level_edges<T: Copy + Into<i64>>(
    lo: &[T],
    hi: &[T],
    cols: &[[usize; 4]],
    scale: usize,
    [a, v, h, d]: [&mut [i32]; 4],
    end: usize,
) {
    level_horizontal(
        lo,
        hi,
        cols,
        scale,
        [&mut *a, &mut *v, &mut *h, &mut *d],
        0..1,
    );
    level_horizontal(lo, hi, cols, scale, [a, v, h, d], end.max(1)..cols.len());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taps_mirror_at_both_ends() {
        assert_eq!(
            taps(7),
            vec![[1, 0, 1, 2], [1, 2, 3, 4], [3, 4, 5, 6], [5, 6, 6, 5]]
        );
        assert_eq!(taps(6)[2], [3, 4, 5, 5]);
    }

    #[test]
    fn flat_picture_has_no_detail() {
        let (w, h) = (9, 7);
        let src = vec![128u8; w * h];
        let mut out = Bands::<i16>::zeroed(5 * 4);
        let mut tmp = vec![0; 2 * w];
        level0(&src, w, &Taps::new(w, h), 8, &mut tmp, &mut out, 5);
        assert!(out.hvd.iter().all(|b| b.iter().all(|&x| x == 0)));
    }
}
