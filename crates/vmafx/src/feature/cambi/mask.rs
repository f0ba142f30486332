//! The picture-level steps between scales: the spatial mask of flat areas, 2:1 decimation
//! and the 3x3 separable mode filter.

use super::picture::Picture;

/// Side of the square over which flat samples are counted for the mask.
pub(super) const MASK_FILTER_SIZE: usize = 7;

fn ceil_log2(n: u32) -> i32 {
    if n == 0 {
        0
    } else {
        32 - (n - 1).leading_zeros() as i32
    }
}

/// How many flat samples a window must exceed to count as flat; grows with picture area.
pub(super) fn mask_threshold(width: usize, height: usize, filter_size: usize) -> u32 {
    let blocks = ((width >> 6) * (height >> 6)) as u32;
    let fs = filter_size as i32;
    ((fs * fs + 3 * (ceil_log2(blocks) - 11) - 1) >> 1) as u32
}

/// Buffers the spatial mask keeps from one call to the next.
#[derive(Debug, Default)]
pub(super) struct MaskScratch {
    /// The flat indicators of the last `FLAT_RING` rows, one row of `width` each.
    flat: Vec<u8>,
    /// Flat samples per column over the window's rows, with `MASK_FILTER_SIZE / 2` zero
    /// columns either side.
    columns: Vec<u8>,
    /// One output row's box counts (`width`).
    boxes: Vec<u8>,
}

/// Rows of flat indicators kept: those in the window, those made before they enter it and
/// those waiting to leave it (at most `MASK_FILTER_SIZE + 1 + step`).
const FLAT_RING: usize = 16;

/// Row `row`'s flat indicators into `out`: equal to the right and lower (`below`)
/// neighbours (a missing neighbour counts as equal: the last row is its own `below`).
fn flat_row(row: &[u16], below: &[u16], out: &mut [u8]) {
    let w = out.len();
    let (r0, r1, b) = (&row[..w - 1], &row[1..w], &below[..w - 1]);
    let o = &mut out[..w - 1];
    for j in 0..w - 1 {
        o[j] = u8::from(r0[j] == r1[j]) & u8::from(r0[j] == b[j]);
    }
    out[w - 1] = u8::from(row[w - 1] == below[w - 1]);
}

/// The spatial mask of a `width` x `height` picture made as its rows arrive
/// ([`MaskRows::push`]): the mask of samples whose
/// `MASK_FILTER_SIZE`-square neighbourhood (clipped to the picture) holds more than
/// [`mask_threshold`] samples equal to their right and lower neighbours (a missing
/// neighbour counts as equal), written into `mask`: every sample when `step` is 1, or
/// only every other sample of every other row (the mask decimated 2:1, `(w + 1) / 2` by
/// `(h + 1) / 2`) when it is 2.
///
/// The counts are kept per column over the window's rows (at most seven, in bytes): each
/// output row adds the flat indicators of the rows entering the window and subtracts
/// those leaving it (a ring of indicator rows), then sums seven neighbouring column
/// counts (at most 49). Every step is a straight loop over bytes that the compiler
/// vectorises. [`spatial_mask_reference`] is its scalar twin.
pub(super) struct MaskRows<'a> {
    s: &'a mut MaskScratch,
    mask: &'a mut Picture,
    width: usize,
    height: usize,
    step: usize,
    threshold: u8,
    /// Rows `lo..hi` are in the column counts; flat rows `..made` are in the ring.
    lo: usize,
    hi: usize,
    made: usize,
    /// The next output row, in picture rows.
    next: usize,
    /// Picture rows given so far.
    given: usize,
}

impl<'a> MaskRows<'a> {
    /// Starts the mask of a `width` x `height` picture into `mask`.
    pub(super) fn new(
        width: usize,
        height: usize,
        step: usize,
        mask: &'a mut Picture,
        s: &'a mut MaskScratch,
    ) -> Self {
        let pad = MASK_FILTER_SIZE / 2;
        mask.resize(width.div_ceil(step), height.div_ceil(step));
        s.flat.resize(FLAT_RING * width, 0);
        s.columns.clear();
        s.columns.resize(width + 2 * pad, 0);
        s.boxes.resize(width, 0);
        MaskRows {
            s,
            mask,
            width,
            height,
            step,
            threshold: mask_threshold(width, height, MASK_FILTER_SIZE) as u8,
            lo: 0,
            hi: 0,
            made: 0,
            next: 0,
            given: 0,
        }
    }

    /// Takes the next picture row (`width` samples) and the one before it (`None` for
    /// the first).
    pub(super) fn push(&mut self, above: Option<&[u16]>, row: &[u16]) {
        let w = self.width;
        let r = self.given;
        if let Some(above) = above {
            let slot = (r - 1) % FLAT_RING;
            flat_row(above, row, &mut self.s.flat[slot * w..(slot + 1) * w]);
        }
        if r + 1 == self.height {
            // The last row is its own lower neighbour.
            let slot = r % FLAT_RING;
            flat_row(row, row, &mut self.s.flat[slot * w..(slot + 1) * w]);
            self.made = r + 1;
        } else {
            self.made = r;
        }
        self.given += 1;
        self.emit();
    }

    /// Writes every output row whose window's flat rows are all made.
    fn emit(&mut self) {
        let (w, h) = (self.width, self.height);
        let pad = MASK_FILTER_SIZE / 2;
        while self.next < h && (self.next + pad + 1).min(h) <= self.made {
            let i = self.next;
            let (top, bottom) = (i.saturating_sub(pad), (i + pad + 1).min(h));
            let s = &mut *self.s;
            while self.lo < top {
                let slot = self.lo % FLAT_RING;
                let flat = &s.flat[slot * w..(slot + 1) * w];
                for (c, f) in s.columns[pad..pad + w].iter_mut().zip(flat) {
                    *c -= f;
                }
                self.lo += 1;
            }
            while self.hi < bottom {
                let slot = self.hi % FLAT_RING;
                let flat = &s.flat[slot * w..(slot + 1) * w];
                for (c, f) in s.columns[pad..pad + w].iter_mut().zip(flat) {
                    *c += f;
                }
                self.hi += 1;
            }
            // Seven neighbouring columns (the zero columns stand for those outside).
            let c = &s.columns;
            let (c0, c1, c2, c3) = (&c[..w], &c[1..w + 1], &c[2..w + 2], &c[3..w + 3]);
            let (c4, c5, c6) = (&c[4..w + 4], &c[5..w + 5], &c[6..w + 6]);
            let boxes = &mut s.boxes[..w];
            for j in 0..w {
                boxes[j] = c0[j] + c1[j] + c2[j] + c3[j] + c4[j] + c5[j] + c6[j];
            }
            let threshold = self.threshold;
            let out = self.mask.row_mut(i / self.step);
            if self.step == 1 {
                for (o, &b) in out.iter_mut().zip(boxes.iter()) {
                    *o = u16::from(b > threshold);
                }
            } else {
                let pairs = boxes.chunks_exact(2);
                let last = pairs.remainder().first().copied();
                let n = pairs.len();
                for (o, p) in out[..n].iter_mut().zip(pairs) {
                    *o = u16::from(p[0] > threshold);
                }
                if let Some(b) = last {
                    out[n] = u16::from(b > threshold);
                }
            }
            self.next += self.step;
        }
    }
}

/// The mask of `image` ([`MaskRows`]) at every `step`-th sample of every `step`-th row.
#[cfg(test)]
pub(super) fn spatial_mask_into(
    image: &Picture,
    mask: &mut Picture,
    step: usize,
    s: &mut MaskScratch,
) {
    let mut rows = MaskRows::new(image.width, image.height, step, mask, s);
    for i in 0..image.height {
        rows.push(i.checked_sub(1).map(|a| image.row(a)), image.row(i));
    }
}

/// [`spatial_mask_into`] at every sample, into a new picture.
#[cfg(test)]
pub(super) fn spatial_mask(image: &Picture) -> Picture {
    let mut mask = Picture::new(0, 0);
    spatial_mask_into(image, &mut mask, 1, &mut MaskScratch::default());
    mask
}

/// The scalar twin of [`spatial_mask`] (another method): a summed-area table of the flat
/// indicators, each sample's box read from its four corners.
#[cfg(test)]
pub(super) fn spatial_mask_reference(image: &Picture) -> Picture {
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
/// `(h + 1) / 2`, in place.
pub(super) fn decimate(pic: &mut Picture) {
    let (w, h) = (pic.width, pic.height);
    let (dw, dh) = (w.div_ceil(2), h.div_ceil(2));
    let d = &mut pic.data;
    // Row 0 onto itself: each sample moves down to an index already read.
    for j in 1..dw {
        d[j] = d[2 * j];
    }
    // Row i >= 1 lands wholly before its source row 2i (as (i + 1) dw <= 2 i w).
    for i in 1..dh {
        let (front, back) = d.split_at_mut(2 * i * w);
        take_even(&back[..w], &mut front[i * dw..(i + 1) * dw]);
    }
    pic.resize(dw, dh);
}

/// The even-indexed samples of `src` into `out` (`(src.len() + 1) / 2`), by pairs so that
/// the compiler vectorises it.
#[inline]
pub(super) fn take_even(src: &[u16], out: &mut [u16]) {
    let pairs = src.chunks_exact(2);
    let last = pairs.remainder().first().copied();
    let n = pairs.len();
    for (o, p) in out[..n].iter_mut().zip(pairs) {
        *o = p[0];
    }
    if let Some(v) = last {
        out[n] = v;
    }
}

/// The scalar twin of [`decimate`]: a new picture.
#[cfg(test)]
pub(super) fn decimate_reference(pic: &Picture) -> Picture {
    let (w, h) = (pic.width.div_ceil(2), pic.height.div_ceil(2));
    let mut out = Picture::new(w, h);
    for i in 0..h {
        for j in 0..w {
            out.data[i * w + j] = pic.data[2 * i * pic.width + 2 * j];
        }
    }
    out
}

/// The value two of three share, else the smallest.
#[cfg(test)]
fn mode3(a: u16, b: u16, c: u16) -> u16 {
    if a == b || a == c {
        a
    } else if b == c {
        b
    } else {
        a.min(b).min(c)
    }
}

/// [`mode3`] without branches, on lanes of 10-bit samples (below `2^15`, so a signed
/// minimum orders them as an unsigned one would).
#[inline(always)]
fn mode3_lanes(a: u16, b: u16, c: u16) -> u16 {
    let (sa, sb, sc) = (a as i16, b as i16, c as i16);
    let smallest = sa.min(sb).min(sc) as u16;
    let second = if b == c { b } else { smallest };
    if a == b || a == c {
        a
    } else {
        second
    }
}

/// The horizontal 3-tap mode of `row` into `out`, its first and last samples copied.
fn horizontal_mode(row: &[u16], out: &mut [u16]) {
    let w = row.len();
    out[0] = row[0];
    if w > 2 {
        let (l, m, r) = (&row[..w - 2], &row[1..w - 1], &row[2..]);
        let o = &mut out[1..w - 1];
        for j in 0..w - 2 {
            o[j] = mode3_lanes(l[j], m[j], r[j]);
        }
    }
    out[w - 1] = row[w - 1];
}

/// Buffers the mode filter keeps: three rows of horizontal modes and one input row.
#[derive(Debug, Default)]
pub(super) struct ModeScratch {
    lines: Vec<u16>,
    row: Vec<u16>,
}

/// The 3-tap mode along rows, then along columns, of a `width` x `height` picture given
/// row by row ([`ModeRows::push`]), written into a picture of that size as each row
/// becomes final. As libvmaf's, it leaves the first and last rows untouched and keeps the
/// first and last columns out of the horizontal pass. The samples must be below `2^15`
/// (10-bit pictures are).
///
/// The horizontal modes of the last three rows given are kept; when row `r` comes, row
/// `r - 1`, the vertical mode of those three, is written. So the output may be the
/// picture the rows are read from, each row read before the one above it is written.
pub(super) struct ModeRows<'a> {
    lines: &'a mut Vec<u16>,
    width: usize,
    height: usize,
    given: usize,
}

impl ModeScratch {
    /// Starts the mode filter of a `width` x `height` picture, and lends the input row
    /// buffer (`width` samples) beside it.
    pub(super) fn start(&mut self, width: usize, height: usize) -> (ModeRows<'_>, &mut [u16]) {
        self.lines.resize(3 * width, 0);
        self.row.resize(width, 0);
        let rows = ModeRows {
            lines: &mut self.lines,
            width,
            height,
            given: 0,
        };
        (rows, &mut self.row[..width])
    }
}

impl ModeRows<'_> {
    /// Takes the next unfiltered row (`width` samples) and writes the rows of `out` (rows
    /// of `width` packed from its start) that are now final.
    pub(super) fn push(&mut self, row: &[u16], out: &mut [u16]) {
        let (w, h, r) = (self.width, self.height, self.given);
        self.given += 1;
        if h < 3 || r == 0 || r == h - 1 {
            out[r * w..(r + 1) * w].copy_from_slice(&row[..w]);
        }
        if h < 3 {
            return;
        }
        let slot = r % 3;
        horizontal_mode(row, &mut self.lines[slot * w..(slot + 1) * w]);
        if r >= 2 {
            let (sa, sb) = ((r - 2) % 3, (r - 1) % 3);
            let lines = &self.lines[..3 * w];
            let (a, b, c) = (
                &lines[sa * w..(sa + 1) * w],
                &lines[sb * w..(sb + 1) * w],
                &lines[slot * w..(slot + 1) * w],
            );
            let o = &mut out[(r - 1) * w..r * w];
            for j in 0..w {
                o[j] = mode3_lanes(a[j], b[j], c[j]);
            }
        }
    }
}

/// The mode filter ([`ModeRows`]) in place.
#[cfg(test)]
pub(super) fn mode_filter(pic: &mut Picture, s: &mut ModeScratch) {
    let (w, h) = (pic.width, pic.height);
    let (mut rows, row) = s.start(w, h);
    for i in 0..h {
        row.copy_from_slice(pic.row(i));
        rows.push(row, &mut pic.data);
    }
}

/// [`decimate`], then the mode filter, in one pass and in place: each kept row is
/// decimated into a buffer before the mode filter writes any row from it.
pub(super) fn decimate_and_mode_filter(pic: &mut Picture, s: &mut ModeScratch) {
    let (w, h) = (pic.width, pic.height);
    let (dw, dh) = (w.div_ceil(2), h.div_ceil(2));
    let (mut rows, row) = s.start(dw, dh);
    for i in 0..dh {
        // Pushing row i writes decimated rows up to i, which end at (i + 1) dw: at or
        // before source row 2i (for i >= 1; row 0 is read before it is written), so every
        // source row is read before it is overwritten.
        take_even(&pic.data[2 * i * w..(2 * i + 1) * w], row);
        rows.push(row, &mut pic.data);
    }
    pic.resize(dw, dh);
}

/// The scalar twin of [`mode_filter`]: libvmaf's passes with branches, fresh buffers.
#[cfg(test)]
pub(super) fn mode_filter_reference(pic: &mut Picture) {
    let (w, h) = (pic.width, pic.height);
    if h < 3 {
        return;
    }
    let src = pic.data.clone();
    let mut horiz = src.clone();
    for i in 0..h {
        for j in 1..w.saturating_sub(1) {
            horiz[i * w + j] = mode3(src[i * w + j - 1], src[i * w + j], src[i * w + j + 1]);
        }
    }
    for i in 1..h - 1 {
        for j in 0..w {
            pic.data[i * w + j] = mode3(
                horiz[(i - 1) * w + j],
                horiz[i * w + j],
                horiz[(i + 1) * w + j],
            );
        }
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
        let mut m = spatial_mask(&p);
        assert!(m.pixels().iter().all(|&v| v == 1));
        decimate(&mut m);
        assert_eq!((m.width, m.height), (10, 6));
    }

    /// A picture of few levels in blocks with some noise, so that flat samples and boxes
    /// on both sides of the threshold are common.
    fn blocky(rng: &mut crate::testutil::twin_rng::TwinRng, w: usize, h: usize) -> Picture {
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
        p
    }

    #[test]
    fn spatial_mask_matches_its_scalar_twin_on_random_pictures() {
        let mut rng = crate::testutil::twin_rng::TwinRng::new(0xca3b1);
        let mut mixed = 0;
        // One output and scratch for every case: what other sizes left must not matter.
        let (mut got, mut scratch) = (Picture::new(0, 0), MaskScratch::default());
        for case in 0..400 {
            let (w, h) = (rng.size(1, 140), rng.size(1, 40));
            let p = blocky(&mut rng, w, h);
            let want = spatial_mask_reference(&p);
            spatial_mask_into(&p, &mut got, 1, &mut scratch);
            assert_eq!(got.pixels(), want.pixels(), "case {case}: {w}x{h}");
            // Decimated as it is made, as the mask of the full picture decimated.
            spatial_mask_into(&p, &mut got, 2, &mut scratch);
            let half = decimate_reference(&want);
            assert_eq!((got.width, got.height), (half.width, half.height));
            assert_eq!(got.pixels(), half.pixels(), "case {case}: {w}x{h} step 2");
            mixed += usize::from(want.pixels().contains(&0) && want.pixels().contains(&1));
        }
        // Most pictures have samples on both sides of the threshold.
        assert!(mixed > 100, "only {mixed} masks mixed");
    }

    #[test]
    fn decimate_and_mode_filter_match_their_scalar_twins() {
        let mut rng = crate::testutil::twin_rng::TwinRng::new(0xdec1);
        let mut scratch = ModeScratch::default();
        let mut changed = 0;
        for case in 0..400 {
            let (w, h) = (rng.size(1, 100), rng.size(1, 30));
            let mut p = blocky(&mut rng, w, h);
            // Sometimes 10-bit samples of any value.
            if case % 3 == 0 {
                p.data
                    .iter_mut()
                    .for_each(|v| *v = rng.range(0, 1024) as u16);
            }
            let want = decimate_reference(&p);
            let mut got = p.clone();
            // A longer buffer than the picture, as a reused one is.
            got.data.extend_from_slice(&[7; 9]);
            decimate(&mut got);
            assert_eq!((got.width, got.height), (want.width, want.height));
            assert_eq!(got.pixels(), want.pixels(), "case {case}: decimate {w}x{h}");
            let mut half = want.clone();
            mode_filter_reference(&mut half);
            let mut want = p.clone();
            mode_filter_reference(&mut want);
            let mut got = p.clone();
            mode_filter(&mut got, &mut scratch);
            assert_eq!(got.pixels(), want.pixels(), "case {case}: mode {w}x{h}");
            changed += usize::from(want.pixels() != p.pixels());
            // Both in one pass, in place.
            let mut got = p.clone();
            decimate_and_mode_filter(&mut got, &mut scratch);
            assert_eq!((got.width, got.height), (half.width, half.height));
            assert_eq!(got.pixels(), half.pixels(), "case {case}: both {w}x{h}");
        }
        assert!(
            changed > 200,
            "only {changed} pictures changed by the mode filter"
        );
    }

    #[test]
    fn mode_filter_keeps_edges_and_removes_isolated_samples() {
        let mut p = Picture::new(5, 4);
        p.data[2 * 5 + 2] = 9;
        p.data[0] = 7;
        mode_filter(&mut p, &mut ModeScratch::default());
        assert_eq!(p.data[2 * 5 + 2], 0);
        assert_eq!(p.data[0], 7);
    }
}
