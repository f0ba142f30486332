//! The one reference row reader of semi-planar imports (ADR-1929 item 6).
//!
//! NV12, P010 and P016 keep luma in one plane and Cb/Cr interleaved in a second. These
//! functions read one producer row (raw little-endian bytes, any alignment) into planar
//! rows: 8-bit pairs for NV12, 16-bit pairs for P010 and P016, and for P010 each sample
//! shifted down by 6 so its ten significant bits become the value (ADR-1679). Every device
//! conversion is held to these results.

use super::PixelFormat;

/// Right shift that turns a producer sample of `format` into the planar value: 6 for P010
/// (ten bits held in the most significant bits of a 16-bit word), 0 otherwise.
pub fn sample_shift(format: PixelFormat) -> u32 {
    match format {
        PixelFormat::P010 => 6,
        _ => 0,
    }
}

/// Bytes per sample of a producer plane of `format` at `bpc` bits.
pub fn sample_bytes(format: PixelFormat, bpc: u32) -> usize {
    match format {
        PixelFormat::Nv12 => 1,
        PixelFormat::P010 | PixelFormat::P016 => 2,
        _ if bpc > 8 => 2,
        _ => 1,
    }
}

/// Little-endian 16-bit sample `i` of `row`.
#[inline]
fn le16(row: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([row[2 * i], row[2 * i + 1]])
}

/// De-interleaves an 8-bit Cb/Cr row: `cb.len()` pairs are read from `src`.
pub fn split_chroma_u8(src: &[u8], cb: &mut [u8], cr: &mut [u8]) {
    for (i, (b, r)) in cb.iter_mut().zip(cr.iter_mut()).enumerate() {
        *b = src[2 * i];
        *r = src[2 * i + 1];
    }
}

/// De-interleaves a 16-bit little-endian Cb/Cr row, shifting each sample down by `shift`.
pub fn split_chroma_u16(src: &[u8], shift: u32, cb: &mut [u16], cr: &mut [u16]) {
    for (i, (b, r)) in cb.iter_mut().zip(cr.iter_mut()).enumerate() {
        *b = le16(src, 2 * i) >> shift;
        *r = le16(src, 2 * i + 1) >> shift;
    }
}

/// Reads a 16-bit little-endian row into `dst`, shifting each sample down by `shift`.
pub fn read_row_u16(src: &[u8], shift: u32, dst: &mut [u16]) {
    for (i, d) in dst.iter_mut().enumerate() {
        *d = le16(src, i) >> shift;
    }
}

/// Copies an 8-bit row into `dst`.
pub fn read_row_u8(src: &[u8], dst: &mut [u8]) {
    dst.copy_from_slice(&src[..dst.len()]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nv12_chroma_splits_in_pairs() {
        let src = [1u8, 2, 3, 4, 5, 6, 99];
        let (mut cb, mut cr) = ([0u8; 3], [0u8; 3]);
        split_chroma_u8(&src, &mut cb, &mut cr);
        assert_eq!((cb, cr), ([1, 3, 5], [2, 4, 6]));
    }

    #[test]
    fn p010_is_shifted_down_by_6_and_p016_is_not() {
        let v: [u16; 4] = [1023 << 6, 5 << 6, 512 << 6, 7 << 6];
        let src: Vec<u8> = v.iter().flat_map(|s| s.to_le_bytes()).collect();
        let (mut cb, mut cr) = ([0u16; 2], [0u16; 2]);
        split_chroma_u16(&src, sample_shift(PixelFormat::P010), &mut cb, &mut cr);
        assert_eq!((cb, cr), ([1023, 512], [5, 7]));
        let mut luma = [0u16; 4];
        read_row_u16(&src, sample_shift(PixelFormat::P016), &mut luma);
        assert_eq!(luma, v);
    }

    #[test]
    fn unaligned_rows_read_alike() {
        let v: [u16; 2] = [0x1234, 0xfedc];
        let mut bytes = vec![0u8];
        bytes.extend(v.iter().flat_map(|s| s.to_le_bytes()));
        let mut out = [0u16; 2];
        read_row_u16(&bytes[1..], 0, &mut out);
        assert_eq!(out, v);
        assert_eq!(sample_bytes(PixelFormat::Nv12, 8), 1);
        assert_eq!(sample_bytes(PixelFormat::Yuv420p, 10), 2);
    }
}
