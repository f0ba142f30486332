//! The picture-level steps between scales: the spatial mask of flat areas, 2:1 decimation
//! and the 3x3 separable mode filter.

use super::Picture;

/// Side of the square over which flat samples are counted for the mask.
pub const MASK_FILTER_SIZE: usize = 7;

fn ceil_log2(n: u32) -> i32 {
    if n == 0 {
        0
    } else {
        32 - (n - 1).leading_zeros() as i32
    }
}

/// How many flat samples a window must exceed to count as flat; grows with picture area.
pub fn mask_threshold(width: usize, height: usize, filter_size: usize) -> u32 {
    let blocks = ((width >> 6) * (height >> 6)) as u32;
    let fs = filter_size as i32;
    ((fs * fs + 3 * (ceil_log2(blocks) - 11) - 1) >> 1) as u32
}

/// The mask of samples whose `MASK_FILTER_SIZE`-square neighbourhood (clipped to the
/// picture) holds more than [`mask_threshold`] samples equal to their right and lower
/// neighbours (a missing neighbour counts as equal).
///
/// Counted with a summed-area table of the flat indicator; each output row takes the
/// difference of two table rows (flat counts per column prefix over the window's rows)
/// once, so the interior columns are one subtraction each, in straight loops the compiler
/// vectorises. [`spatial_mask_reference`] is its scalar twin.
pub fn spatial_mask(image: &Picture) -> Picture {
    let (w, h) = (image.width, image.height);
    let threshold = mask_threshold(w, h, MASK_FILTER_SIZE);
    let pad = MASK_FILTER_SIZE / 2;
    let d = &image.data;
    // Summed-area table of the flat indicator, one row and column of zeros in front.
    let sw = w + 1;
    let mut sat = vec![0u32; sw * (h + 1)];
    let mut flat = vec![0u32; w];
    for i in 0..h {
        let row = &d[i * w..(i + 1) * w];
        // A missing right or lower neighbour counts as equal.
        let below = if i + 1 < h {
            &d[(i + 1) * w..(i + 2) * w]
        } else {
            row
        };
        for (f, ((v, r), b)) in flat.iter_mut().zip(row.iter().zip(&row[1..]).zip(below)) {
            *f = u32::from(v == r && v == b);
        }
        flat[w - 1] = u32::from(row[w - 1] == below[w - 1]);
        let (above, rest) = sat.split_at_mut((i + 1) * sw);
        let (prev, cur) = (&above[i * sw..], &mut rest[..sw]);
        let mut row_sum = 0u32;
        for ((c, p), f) in cur[1..].iter_mut().zip(&prev[1..]).zip(&flat) {
            row_sum += f;
            *c = p + row_sum;
        }
    }
    let mut mask = Picture::new(w, h);
    let mut cols = vec![0u32; sw];
    for i in 0..h {
        let (top, bottom) = (i.saturating_sub(pad), (i + pad + 1).min(h));
        let (st, sb) = (
            &sat[top * sw..(top + 1) * sw],
            &sat[bottom * sw..(bottom + 1) * sw],
        );
        for ((c, b), t) in cols.iter_mut().zip(sb).zip(st) {
            *c = b - t;
        }
        let out = &mut mask.data[i * w..(i + 1) * w];
        let count = |j: usize| cols[(j + pad + 1).min(w)] - cols[j.saturating_sub(pad)];
        let edge = pad.min(w);
        for (j, o) in out.iter_mut().enumerate().take(edge) {
            *o = u16::from(count(j) > threshold);
        }
        if w > 2 * pad {
            let span = w - 2 * pad;
            let (right, left) = (&cols[2 * pad + 1..], &cols[..span]);
            for ((o, r), l) in out[pad..w - pad].iter_mut().zip(right).zip(left) {
                *o = u16::from(r - l > threshold);
            }
        }
        for (j, o) in out
            .iter_mut()
            .enumerate()
            .skip(w.saturating_sub(pad).max(edge))
        {
            *o = u16::from(count(j) > threshold);
        }
    }
    mask
}

/// The scalar twin of [`spatial_mask`]: the same summed-area table, each sample's box read
/// from its four corners.
#[cfg(test)]
pub fn spatial_mask_reference(image: &Picture) -> Picture {
    let (w, h) = (image.width, image.height);
    let threshold = mask_threshold(w, h, MASK_FILTER_SIZE);
    let pad = MASK_FILTER_SIZE / 2;
    let d = &image.data;
    let sw = w + 1;
    let mut sat = vec![0u32; sw * (h + 1)];
    for i in 0..h {
        let mut row_sum = 0u32;
        for j in 0..w {
            let v = d[i * w + j];
            let flat_h = j == w - 1 || v == d[i * w + j + 1];
            let flat_v = i == h - 1 || v == d[(i + 1) * w + j];
            row_sum += u32::from(flat_h && flat_v);
            sat[(i + 1) * sw + j + 1] = sat[i * sw + j + 1] + row_sum;
        }
    }
    let mut mask = Picture::new(w, h);
    for i in 0..h {
        let (top, bottom) = (i.saturating_sub(pad), (i + pad + 1).min(h));
        for j in 0..w {
            let (left, right) = (j.saturating_sub(pad), (j + pad + 1).min(w));
            let count = sat[bottom * sw + right] + sat[top * sw + left]
                - sat[bottom * sw + left]
                - sat[top * sw + right];
            mask.data[i * w + j] = u16::from(count > threshold);
        }
    }
    mask
}

/// Every other sample of every other row, starting at the first: `(w + 1) / 2` by
/// `(h + 1) / 2`.
pub fn decimate(pic: &Picture) -> Picture {
    let (w, h) = (pic.width.div_ceil(2), pic.height.div_ceil(2));
    let mut out = Picture::new(w, h);
    for i in 0..h {
        let src = &pic.data[2 * i * pic.width..];
        for (j, o) in out.row_mut(i).iter_mut().enumerate() {
            *o = src[2 * j];
        }
    }
    out
}

/// The value two of three share, else the smallest.
#[inline]
fn mode3(a: u16, b: u16, c: u16) -> u16 {
    if a == b || a == c {
        a
    } else if b == c {
        b
    } else {
        a.min(b).min(c)
    }
}

/// The 3-tap mode along rows, then along columns, in place. As libvmaf's, it leaves the
/// first and last rows untouched and keeps the first and last columns out of the
/// horizontal pass.
pub fn mode_filter(pic: &mut Picture) {
    let (w, h) = (pic.width, pic.height);
    if h < 3 {
        return;
    }
    let horizontal = |row: &[u16], out: &mut [u16]| {
        out[0] = row[0];
        for j in 1..w.saturating_sub(1) {
            out[j] = mode3(row[j - 1], row[j], row[j + 1]);
        }
        out[w - 1] = row[w - 1];
    };
    // Horizontal modes of the original rows i-1, i, i+1 as the filter moves down.
    let mut lines = vec![0u16; 3 * w];
    let (first, rest) = lines.split_at_mut(w);
    horizontal(pic.row(0), first);
    horizontal(pic.row(1), &mut rest[..w]);
    let mut slot = [0usize, 1, 2];
    for i in 1..h - 1 {
        let next = slot[2];
        horizontal(pic.row(i + 1), &mut lines[next * w..(next + 1) * w]);
        let row = &mut pic.data[i * w..(i + 1) * w];
        for (j, o) in row.iter_mut().enumerate() {
            *o = mode3(
                lines[slot[0] * w + j],
                lines[slot[1] * w + j],
                lines[slot[2] * w + j],
            );
        }
        slot = [slot[1], slot[2], slot[0]];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mode_and_thresholds() {
        assert_eq!(mode3(1, 2, 1), 1);
        assert_eq!(mode3(3, 2, 1), 1);
        assert_eq!(mode3(5, 2, 2), 2);
        assert_eq!(ceil_log2(1), 0);
        assert_eq!(ceil_log2(10), 4);
        assert_eq!(ceil_log2(16), 4);
        assert_eq!(mask_threshold(320, 180, 7), 13);
        assert_eq!(mask_threshold(3840, 2160, 7), 24);
    }

    #[test]
    fn flat_picture_is_all_mask() {
        let p = Picture::new(20, 12);
        let m = spatial_mask(&p);
        assert!(m.data.iter().all(|&v| v == 1));
        let d = decimate(&m);
        assert_eq!((d.width, d.height), (10, 6));
    }

    #[test]
    fn spatial_mask_matches_its_scalar_twin_on_random_pictures() {
        let mut rng = crate::testutil::twin_rng::TwinRng::new(0xca3b1);
        let mut mixed = 0;
        for case in 0..400 {
            let (w, h) = (rng.size(1, 140), rng.size(1, 40));
            // Few levels, so that flat samples and boxes on both sides of the threshold
            // are common; sometimes large blocks of one level.
            let levels = rng.range(1, 4);
            let block = rng.range(1, 9) as usize;
            let mut p = Picture::new(w, h);
            let base: Vec<u16> = (0..w.div_ceil(block) * h.div_ceil(block))
                .map(|_| rng.range(0, levels) as u16)
                .collect();
            for i in 0..h {
                for j in 0..w {
                    let noise = rng.next_u64().is_multiple_of(9);
                    let v = base[(i / block) * w.div_ceil(block) + j / block];
                    p.data[i * w + j] = if noise { v + 1 } else { v };
                }
            }
            let (got, want) = (spatial_mask(&p), spatial_mask_reference(&p));
            assert_eq!(got.data, want.data, "case {case}: {w}x{h}");
            mixed += usize::from(want.data.contains(&0) && want.data.contains(&1));
        }
        // Most pictures have samples on both sides of the threshold.
        assert!(mixed > 100, "only {mixed} masks mixed");
    }

    #[test]
    fn mode_filter_keeps_edges_and_removes_isolated_samples() {
        let mut p = Picture::new(5, 4);
        p.data[2 * 5 + 2] = 9;
        p.data[0] = 7;
        mode_filter(&mut p);
        assert_eq!(p.data[2 * 5 + 2], 0);
        assert_eq!(p.data[0], 7);
    }
}
