//! Turning an input luma plane into CAMBI's working picture: checked against its bit depth,
//! resized by nearest neighbour to the encoding (or source) size, brought to 10 bits, and
//! for encodes below 10 bits smoothed by a 2x2 anti-dithering average.

use super::Picture;
use crate::error::{Error, Result};
use crate::frame::{Plane, Samples};

/// Refuses samples above the largest value of `bpc` bits (libvmaf's `validate_image`).
fn validate(plane: &Plane, bpc: u32, what: &str) -> Result<()> {
    if bpc == 8 || bpc >= 16 {
        return Ok(());
    }
    let max = (1u32 << bpc) - 1;
    for y in 0..plane.height {
        for x in 0..plane.width {
            let v = plane.get(x, y) as u32;
            if v > max {
                return Err(Error::invalid(
                    what.to_string(),
                    format!(
                        "luma sample {v} at ({x}, {y}) exceeds {max}, the maximum of {bpc}-bit input"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The 10-bit value of an input sample of `bpc` bits.
#[inline]
fn to_10_bits(v: u16, bpc: u32) -> u16 {
    if bpc >= 10 {
        let shift = bpc - 10;
        let round = if shift == 0 { 0 } else { 1u32 << (shift - 1) };
        ((v as u32 + round) >> shift) as u16
    } else {
        v << (10 - bpc)
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

/// The 10-bit working picture of `width` x `height` made from `plane` (`bpc` bits), with the
/// anti-dithering filter when `enc_bitdepth` is below 10. `what` names the input in errors.
pub fn preprocess(
    plane: &Plane,
    bpc: u32,
    width: u32,
    height: u32,
    enc_bitdepth: u32,
    what: &str,
) -> Result<Picture> {
    validate(plane, bpc, what)?;
    let mut pic = Picture::new(width as usize, height as usize);
    if plane.width == width && plane.height == height {
        for y in 0..height {
            let row = pic.row_mut(y as usize);
            match plane.samples() {
                Samples::U8(_) => {
                    for (out, &v) in row.iter_mut().zip(plane.row_u8(y)) {
                        *out = to_10_bits(v as u16, bpc);
                    }
                }
                Samples::U16(_) => {
                    for (out, &v) in row.iter_mut().zip(plane.row_u16(y)) {
                        *out = to_10_bits(v, bpc);
                    }
                }
            }
        }
    } else {
        let xs = nearest_positions(plane.width, width);
        let ys = nearest_positions(plane.height, height);
        for (y, &sy) in ys.iter().enumerate() {
            let row = pic.row_mut(y);
            for (out, &sx) in row.iter_mut().zip(&xs) {
                *out = to_10_bits(plane.get(sx as u32, sy as u32), bpc);
            }
        }
    }
    if enc_bitdepth < 10 {
        anti_dither(&mut pic);
    }
    Ok(pic)
}

/// Averages each sample with its right, lower and lower-right neighbours (the pairs along
/// the last row and column; the last sample is kept), truncating.
fn anti_dither(pic: &mut Picture) {
    let (w, h) = (pic.width, pic.height);
    let d = &mut pic.data;
    for i in 0..h - 1 {
        let (top, bottom) = d[i * w..(i + 2) * w].split_at_mut(w);
        for j in 0..w - 1 {
            let s = top[j] as u32 + top[j + 1] as u32 + bottom[j] as u32 + bottom[j + 1] as u32;
            top[j] = (s >> 2) as u16;
        }
        top[w - 1] = ((top[w - 1] as u32 + bottom[w - 1] as u32) >> 1) as u16;
    }
    let last = &mut d[(h - 1) * w..h * w];
    for j in 0..w - 1 {
        last[j] = ((last[j] as u32 + last[j + 1] as u32) >> 1) as u16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn anti_dither_averages_2x2() {
        let mut p = Picture::new(2, 2);
        p.data = vec![4, 8, 12, 16];
        anti_dither(&mut p);
        assert_eq!(p.data, vec![10, 12, 14, 16]);
    }
}
