use super::*;

fn words16(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|s| s.to_le_bytes()).collect()
}

fn words32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|s| s.to_le_bytes()).collect()
}

fn groups(format: PixelFormat) -> Group {
    match family(format) {
        Family::Packed(Packed::Groups(g)) => g,
        other => panic!("{format} is {other:?}"),
    }
}

#[test]
fn nv12_chroma_splits_in_pairs() {
    let src = [1u8, 2, 3, 4, 5, 6, 99];
    let (mut cb, mut cr) = ([0u8; 3], [0u8; 3]);
    split_chroma_u8(&src, &mut cb, &mut cr);
    assert_eq!((cb, cr), ([1, 3, 5], [2, 4, 6]));
}

#[test]
fn high_bit_formats_are_shifted_down_and_p016_is_not() {
    let v: [u16; 4] = [1023 << 6, 5 << 6, 512 << 6, 7 << 6];
    let src = words16(&v);
    let (mut cb, mut cr) = ([0u16; 2], [0u16; 2]);
    split_chroma_u16(&src, sample_shift(PixelFormat::P010, 10), &mut cb, &mut cr);
    assert_eq!((cb, cr), ([1023, 512], [5, 7]));
    let mut luma = [0u16; 4];
    read_row_u16(&src, sample_shift(PixelFormat::P016, 16), &mut luma);
    assert_eq!(luma, v);
    for (f, bpc, shift) in [
        (PixelFormat::P210, 10, 6),
        (PixelFormat::P410, 10, 6),
        (PixelFormat::Y210, 10, 6),
        (PixelFormat::Y212, 12, 4),
        (PixelFormat::Xv36, 12, 4),
        (PixelFormat::Yuv444pMsb, 12, 4),
        (PixelFormat::Yuv444pMsb, 16, 0),
        (PixelFormat::P216, 16, 0),
        (PixelFormat::Y410, 10, 0),
        (PixelFormat::V210, 10, 0),
    ] {
        assert_eq!(sample_shift(f, bpc), shift, "{f}");
    }
}

#[test]
fn unaligned_rows_read_alike() {
    let v: [u16; 2] = [0x1234, 0xfedc];
    let mut bytes = vec![0u8];
    bytes.extend(words16(&v));
    let mut out = [0u16; 2];
    read_row_u16(&bytes[1..], 0, &mut out);
    assert_eq!(out, v);
    assert_eq!(sample_bytes(PixelFormat::Nv12, 8), 1);
    assert_eq!(sample_bytes(PixelFormat::Yuv420p, 10), 2);
}

#[test]
fn yuyv_and_uyvy_gather_their_orders() {
    // Two macropixels and a half one (odd width 5): Y0 Cb Y1 Cr.
    let src = [10u8, 20, 11, 30, 12, 21, 13, 31, 14, 22, 15, 32];
    let (mut y, mut cb, mut cr) = ([0u8; 5], [0u8; 2], [0u8; 2]);
    unpack_groups_u8(
        &groups(PixelFormat::Yuyv422),
        &src,
        &mut y,
        &mut cb,
        &mut cr,
    );
    assert_eq!((y, cb, cr), ([10, 11, 12, 13, 14], [20, 21], [30, 31]));
    let src = [20u8, 10, 30, 11, 21, 12, 31, 13];
    let (mut y, mut cb, mut cr) = ([0u8; 4], [0u8; 2], [0u8; 2]);
    unpack_groups_u8(
        &groups(PixelFormat::Uyvy422),
        &src,
        &mut y,
        &mut cb,
        &mut cr,
    );
    assert_eq!((y, cb, cr), ([10, 11, 12, 13], [20, 21], [30, 31]));
    assert_eq!(
        packed_row_bytes(Packed::Groups(groups(PixelFormat::Yuyv422)), 5),
        12
    );
}

#[test]
fn packed_444_bytes_and_words_gather_their_orders() {
    // VUYX: Cr Cb Y X; AYUV: A Y Cb Cr.
    let src = [30u8, 20, 10, 255, 31, 21, 11, 255];
    let (mut y, mut cb, mut cr) = ([0u8; 2], [0u8; 2], [0u8; 2]);
    unpack_groups_u8(&groups(PixelFormat::Vuyx), &src, &mut y, &mut cb, &mut cr);
    assert_eq!((y, cb, cr), ([10, 11], [20, 21], [30, 31]));
    let src = [255u8, 10, 20, 30, 0, 11, 21, 31];
    unpack_groups_u8(&groups(PixelFormat::Ayuv), &src, &mut y, &mut cb, &mut cr);
    assert_eq!((y, cb, cr), ([10, 11], [20, 21], [30, 31]));
    // XV36: Cb Y Cr X words, 12 bits high; Y212: Y0 Cb Y1 Cr.
    let src = words16(&[200 << 4, 100 << 4, 300 << 4, 0xffff]);
    let (mut y, mut cb, mut cr) = ([0u16; 1], [0u16; 1], [0u16; 1]);
    let g = groups(PixelFormat::Xv36);
    unpack_groups_u16(&g, &src, 4, &mut y, &mut cb, &mut cr);
    assert_eq!((y, cb, cr), ([100], [200], [300]));
    let src = words16(&[4095 << 4, 1 << 4, 7 << 4, 2 << 4]);
    let (mut y, mut cb, mut cr) = ([0u16; 2], [0u16; 1], [0u16; 1]);
    let g = groups(PixelFormat::Y212);
    unpack_groups_u16(&g, &src, 4, &mut y, &mut cb, &mut cr);
    assert_eq!((y, cb, cr), ([4095, 7], [1], [2]));
}

#[test]
fn y410_reads_its_bit_fields_and_ignores_alpha() {
    let word = |cb: u32, y: u32, cr: u32| cb | (y << 10) | (cr << 20) | (3 << 30);
    let src = words32(&[word(1, 1023, 512), word(0, 64, 940)]);
    let (mut y, mut cb, mut cr) = ([0u16; 2], [0u16; 2], [0u16; 2]);
    unpack_y410(&src, &mut y, &mut cb, &mut cr);
    assert_eq!((y, cb, cr), ([1023, 64], [1, 0], [512, 940]));
}

#[test]
fn v210_reads_six_pixels_from_four_words() {
    // Samples 1..=12 in V210 order: Cb0 Y0 Cr0 | Y1 Cb1 Y2 | Cr1 Y3 Cb2 | Y4 Cr2 Y5.
    let w = |a: u32, b: u32, c: u32| a | (b << 10) | (c << 20) | (3 << 30);
    let src = words32(&[w(1, 2, 3), w(4, 5, 6), w(7, 8, 9), w(10, 11, 12)]);
    let (mut y, mut cb, mut cr) = ([0u16; 6], [0u16; 3], [0u16; 3]);
    unpack_v210(&src, &mut y, &mut cb, &mut cr);
    assert_eq!(y, [2, 4, 6, 8, 10, 12]);
    assert_eq!((cb, cr), ([1, 5, 9], [3, 7, 11]));
    assert_eq!(packed_row_bytes(Packed::V210, 7), 32);
}
