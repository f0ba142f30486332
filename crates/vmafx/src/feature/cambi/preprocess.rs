//! Turning an input luma plane into CAMBI's working picture: checked against its bit depth,
//! resized by nearest neighbour to the encoding (or source) size, brought to 10 bits, and
//! for encodes below 10 bits smoothed by a 2x2 anti-dithering average.

#[cfg(test)]
use super::picture::Picture;
use crate::error::{Error, Result};
use crate::frame::{Plane, Samples};

/// Refuses samples above the largest value of `bpc` bits (libvmaf's `validate_image`),
/// naming the first in raster order.
fn validate(plane: &Plane, bpc: u32, what: &str) -> Result<()> {
    if bpc == 8 || bpc >= 16 {
        return Ok(());
    }
    let max = ((1u32 << bpc) - 1) as u16;
    for y in 0..plane.height {
        let (x, v) = match plane.samples() {
            Samples::U8(_) => {
                let row = plane.row_u8(y);
                if row.iter().copied().max().unwrap_or(0) as u16 <= max {
                    continue;
                }
                let x = row.iter().position(|&v| v as u16 > max).unwrap_or(0);
                (x, row[x] as u16)
            }
            Samples::U16(_) => {
                let row = plane.row_u16(y);
                if row.iter().copied().max().unwrap_or(0) <= max {
                    continue;
                }
                let x = row.iter().position(|&v| v > max).unwrap_or(0);
                (x, row[x])
            }
        };
        return Err(Error::invalid(
            what.to_string(),
            format!("luma sample {v} at ({x}, {y}) exceeds {max}, the maximum of {bpc}-bit input"),
        ));
    }
    Ok(())
}

/// The 10-bit value of an input sample of `bpc` bits.
#[cfg(test)]
fn to_10_bits(v: u16, bpc: u32) -> u16 {
    if bpc >= 10 {
        let shift = bpc - 10;
        let round = if shift == 0 { 0 } else { 1u32 << (shift - 1) };
        ((v as u32 + round) >> shift) as u16
    } else {
        v << (10 - bpc)
    }
}

/// How a sample of `bpc` bits becomes 10 bits: `((v + round) >> down) << up`.
#[inline]
fn depth_steps(bpc: u32) -> (u32, u32, u32) {
    if bpc >= 10 {
        let shift = bpc - 10;
        let round = if shift == 0 { 0 } else { 1u32 << (shift - 1) };
        (shift, round, 0)
    } else {
        (0, 0, 10 - bpc)
    }
}

/// Nearest-neighbour source positions for `out` samples taken from `inp`, in single
/// precision as libvmaf steps through them.
fn nearest_positions(inp: u32, out: u32) -> Vec<usize> {
    let ratio = inp as f32 / out as f32;
    let mut pos = ((ratio / 2.0) as f64 - 0.5) as f32;
    let mut v = Vec::with_capacity(out as usize);
    for _ in 0..out {
        let p = (pos as f64 + 0.5) as i32;
        v.push(p.clamp(0, inp as i32 - 1) as usize);
        pos += ratio;
    }
    v
}

/// Reads the plane's rows at 10 bits, resized by nearest neighbour.
struct RowSource<'a> {
    plane: &'a Plane,
    steps: (u32, u32, u32),
    /// Source columns and rows when resizing.
    resize: Option<(Vec<usize>, Vec<usize>)>,
}

impl RowSource<'_> {
    /// Writes output row `y` at 10 bits into `out` (the output width).
    fn row(&self, y: usize, out: &mut [u16]) {
        let (down, round, up) = self.steps;
        let convert = |v: u32| (((v + round) >> down) as u16) << up;
        match &self.resize {
            // Depths up to 10 bits only shift up, in 16-bit lanes.
            None => match self.plane.samples() {
                Samples::U8(_) if down == 0 => {
                    for (o, &v) in out.iter_mut().zip(self.plane.row_u8(y as u32)) {
                        *o = (v as u16) << up;
                    }
                }
                Samples::U16(_) if down == 0 => {
                    for (o, &v) in out.iter_mut().zip(self.plane.row_u16(y as u32)) {
                        *o = v << up;
                    }
                }
                Samples::U8(_) => {
                    for (o, &v) in out.iter_mut().zip(self.plane.row_u8(y as u32)) {
                        *o = convert(v as u32);
                    }
                }
                Samples::U16(_) => {
                    for (o, &v) in out.iter_mut().zip(self.plane.row_u16(y as u32)) {
                        *o = convert(v as u32);
                    }
                }
            },
            Some((xs, ys)) => {
                let sy = ys[y] as u32;
                for (o, &sx) in out.iter_mut().zip(xs) {
                    *o = convert(self.plane.get(sx as u32, sy) as u32);
                }
            }
        }
    }
}

/// Buffers preprocessing keeps: two converted rows and an output row.
#[derive(Debug, Default)]
pub(super) struct RowScratch {
    rows: Vec<u16>,
}

/// Makes the 10-bit working picture of `width` x `height` from `plane` (`bpc` bits), with
/// the anti-dithering filter when `enc_bitdepth` is below 10, and hands its rows to
/// `emit` from top to bottom, each with the row before it (none for the first). `what`
/// names the input in errors.
///
/// Each input row is converted once; with anti-dithering, output row `i` is made from the
/// converted rows `i` and `i + 1` held in `scratch`, in one pass.
#[allow(clippy::too_many_arguments)]
pub(super) fn preprocess_rows(
    plane: &Plane,
    bpc: u32,
    width: u32,
    height: u32,
    enc_bitdepth: u32,
    what: &str,
    scratch: &mut RowScratch,
    mut emit: impl FnMut(Option<&[u16]>, &[u16]),
) -> Result<()> {
    validate(plane, bpc, what)?;
    let (w, h) = (width as usize, height as usize);
    let resize = if plane.width == width && plane.height == height {
        None
    } else {
        Some((
            nearest_positions(plane.width, width),
            nearest_positions(plane.height, height),
        ))
    };
    let src = RowSource {
        plane,
        steps: depth_steps(bpc),
        resize,
    };
    scratch.rows.resize(4 * w, 0);
    let (outs, rows) = scratch.rows.split_at_mut(2 * w);
    // Output rows alternate between two buffers, so the one before is handed on too.
    let (mut out, mut above) = outs.split_at_mut(w);
    if enc_bitdepth >= 10 {
        for y in 0..h {
            src.row(y, out);
            emit((y > 0).then_some(&*above), out);
            std::mem::swap(&mut out, &mut above);
        }
        return Ok(());
    }
    // Validated samples convert to at most 1024, whose sums of four fit 16 bits; a wide
    // plane said to hold 8 bits is not validated (as in libvmaf) and sums in 32 bits.
    let wide_sums = matches!(plane.samples(), Samples::U16(_)) && bpc <= 8;
    let (mut cur, mut next) = rows.split_at_mut(w);
    src.row(0, cur);
    for i in 0..h - 1 {
        src.row(i + 1, next);
        if wide_sums {
            anti_dither_row_wide(cur, next, out);
        } else {
            anti_dither_row(cur, next, out);
        }
        emit((i > 0).then_some(&*above), out);
        std::mem::swap(&mut cur, &mut next);
        std::mem::swap(&mut out, &mut above);
    }
    anti_dither_last_row(cur, out);
    emit((h > 1).then_some(&*above), out);
    Ok(())
}

/// [`preprocess_rows`] into a picture.
#[cfg(test)]
#[allow(clippy::too_many_arguments)]
pub(super) fn preprocess_into(
    plane: &Plane,
    bpc: u32,
    width: u32,
    height: u32,
    enc_bitdepth: u32,
    what: &str,
    pic: &mut Picture,
    scratch: &mut RowScratch,
) -> Result<()> {
    pic.resize(width as usize, height as usize);
    let mut y = 0;
    preprocess_rows(
        plane,
        bpc,
        width,
        height,
        enc_bitdepth,
        what,
        scratch,
        |_, row| {
            pic.row_mut(y).copy_from_slice(row);
            y += 1;
        },
    )
}

/// Each sample averaged with its right, lower and lower-right neighbours (the last column
/// with its lower one), truncating. The samples are 10-bit (at most 1024), so the sums
/// fit 16-bit lanes.
fn anti_dither_row(top: &[u16], bottom: &[u16], out: &mut [u16]) {
    let w = out.len();
    let (t0, t1, b0, b1) = (&top[..w - 1], &top[1..w], &bottom[..w - 1], &bottom[1..w]);
    let o = &mut out[..w - 1];
    for j in 0..w - 1 {
        o[j] = (t0[j] + t1[j] + b0[j] + b1[j]) >> 2;
    }
    out[w - 1] = (top[w - 1] + bottom[w - 1]) >> 1;
}

/// [`anti_dither_row`] for samples of any 16-bit value (sums in 32 bits).
fn anti_dither_row_wide(top: &[u16], bottom: &[u16], out: &mut [u16]) {
    let w = out.len();
    for j in 0..w - 1 {
        let s = top[j] as u32 + top[j + 1] as u32 + bottom[j] as u32 + bottom[j + 1] as u32;
        out[j] = (s >> 2) as u16;
    }
    out[w - 1] = ((top[w - 1] as u32 + bottom[w - 1] as u32) >> 1) as u16;
}

/// The last row: each sample averaged with its right neighbour (in 32 bits, so any
/// sample goes), the last kept.
fn anti_dither_last_row(row: &[u16], out: &mut [u16]) {
    let w = out.len();
    let o = &mut out[..w - 1];
    let (r0, r1) = (&row[..w - 1], &row[1..w]);
    for j in 0..w - 1 {
        o[j] = ((r0[j] as u32 + r1[j] as u32) >> 1) as u16;
    }
    out[w - 1] = row[w - 1];
}

/// The scalar twin of [`preprocess_into`]: the plane converted sample by sample into a new
/// picture, then libvmaf's in-place anti-dithering.
#[cfg(test)]
pub(super) fn preprocess_reference(
    plane: &Plane,
    bpc: u32,
    width: u32,
    height: u32,
    enc_bitdepth: u32,
) -> Picture {
    let mut pic = Picture::new(width as usize, height as usize);
    let xs = nearest_positions(plane.width, width);
    let ys = nearest_positions(plane.height, height);
    for (y, &sy) in ys.iter().enumerate() {
        for (x, &sx) in xs.iter().enumerate() {
            pic.data[y * width as usize + x] = to_10_bits(plane.get(sx as u32, sy as u32), bpc);
        }
    }
    if enc_bitdepth < 10 {
        let (w, h) = (pic.width, pic.height);
        let d = &mut pic.data;
        for i in 0..h - 1 {
            for j in 0..w - 1 {
                let s = d[i * w + j] as u32
                    + d[i * w + j + 1] as u32
                    + d[(i + 1) * w + j] as u32
                    + d[(i + 1) * w + j + 1] as u32;
                d[i * w + j] = (s >> 2) as u16;
            }
            d[i * w + w - 1] =
                ((d[i * w + w - 1] as u32 + d[(i + 1) * w + w - 1] as u32) >> 1) as u16;
        }
        for j in 0..w - 1 {
            d[(h - 1) * w + j] =
                ((d[(h - 1) * w + j] as u32 + d[(h - 1) * w + j + 1] as u32) >> 1) as u16;
        }
    }
    pic
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::SamplesMut;
    use crate::testutil::twin_rng::TwinRng;

    #[test]
    fn depths_map_to_10_bits() {
        assert_eq!(to_10_bits(255, 8), 1020);
        assert_eq!(to_10_bits(511, 9), 1022);
        assert_eq!(to_10_bits(1023, 10), 1023);
        assert_eq!(to_10_bits(4095, 12), 1024);
        assert_eq!(to_10_bits(4093, 12), 1023);
        assert_eq!(to_10_bits(65535, 16), 1024);
    }

    #[test]
    fn nearest_positions_halve_and_keep() {
        assert_eq!(nearest_positions(8, 4), vec![1, 3, 5, 7]);
        assert_eq!(nearest_positions(4, 4), vec![0, 1, 2, 3]);
    }

    fn plane(rng: &mut TwinRng, w: u32, h: u32, bpc: u32) -> Plane {
        let mut p = Plane::zeroed(w, h, bpc > 8);
        let max = (1i64 << bpc) - 1;
        // Few levels near a random base, so that the anti-dithering sums vary.
        let base = rng.range(0, max);
        let sample = |rng: &mut TwinRng| (base + rng.range(0, 5)).min(max);
        match p.samples_mut() {
            Some(SamplesMut::U8(s)) => s.iter_mut().for_each(|v| *v = sample(rng) as u8),
            Some(SamplesMut::U16(s)) => s.iter_mut().for_each(|v| *v = sample(rng) as u16),
            None => unreachable!("own planes are writable"),
        }
        p
    }

    #[test]
    fn anti_dither_averages_2x2() {
        let mut p = Plane::zeroed(2, 2, false);
        if let Some(SamplesMut::U8(s)) = p.samples_mut() {
            let stride = s.len() / 2;
            s[..2].copy_from_slice(&[1, 2]);
            s[stride..stride + 2].copy_from_slice(&[3, 4]);
        }
        let mut pic = Picture::new(0, 0);
        preprocess_into(&p, 8, 2, 2, 8, "t", &mut pic, &mut RowScratch::default()).unwrap();
        assert_eq!(pic.pixels(), &[10, 12, 14, 16]);
        assert_eq!(
            preprocess_reference(&p, 8, 2, 2, 8).pixels(),
            &[10, 12, 14, 16]
        );
    }

    #[test]
    fn preprocessing_matches_its_scalar_twin() {
        let mut rng = TwinRng::new(0x9e9e);
        // One output picture and scratch for all cases: stale samples must not matter.
        let (mut pic, mut scratch) = (Picture::new(0, 0), RowScratch::default());
        for case in 0..300 {
            let bpc = [8, 10, 12, 16, 9][case % 5];
            let (w, h) = (rng.size(1, 90) as u32, rng.size(1, 40) as u32);
            let mut p = plane(&mut rng, w, h, bpc);
            if case % 10 == 5 {
                // 16-bit storage said to hold 8 bits: not validated, any value.
                p = plane(&mut rng, w, h, 16);
            }
            let bpc = if case % 10 == 5 { 8 } else { bpc };
            // Output at the plane's size, or resized either way.
            let (ow, oh) = if case % 3 == 0 {
                (w, h)
            } else {
                (rng.size(1, 90) as u32, rng.size(1, 40) as u32)
            };
            let enc_bitdepth = if case % 4 == 0 { 10 } else { 8 };
            preprocess_into(&p, bpc, ow, oh, enc_bitdepth, "t", &mut pic, &mut scratch).unwrap();
            let want = preprocess_reference(&p, bpc, ow, oh, enc_bitdepth);
            assert_eq!(
                pic.pixels(),
                want.pixels(),
                "case {case}: {w}x{h} -> {ow}x{oh}, {bpc} bits"
            );
        }
    }

    #[test]
    fn samples_beyond_the_depth_are_refused_at_their_place() {
        let mut p = Plane::zeroed(5, 3, true);
        if let Some(SamplesMut::U16(s)) = p.samples_mut() {
            let stride = s.len() / 3;
            s[stride + 3] = 1024;
            s[2 * stride] = 2000;
        }
        let e = validate(&p, 10, "frame").unwrap_err().to_string();
        assert!(e.contains("1024 at (3, 1)"), "{e}");
        assert!(validate(&p, 12, "frame").is_ok());
    }
}
