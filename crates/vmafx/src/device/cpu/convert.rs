//! Conversions of producer layouts into planes of the library's own, row by row through
//! the reference row readers of [`crate::frame::layout`].

use crate::frame::layout::{self, Packed};
use crate::frame::{Plane, SamplesMut};

use super::span::PlaneSpan;

/// A plane of the library's own with `w x rows` samples filled row by row by `fill`.
fn owned_plane(w: u32, rows: u32, wide: bool, mut fill: impl FnMut(u32, SamplesMut<'_>)) -> Plane {
    let mut plane = Plane::zeroed(w, rows, wide);
    let stride = plane.stride;
    for y in 0..rows {
        let o = y as usize * stride;
        let row = match plane.samples_mut() {
            Some(SamplesMut::U8(s)) => SamplesMut::U8(&mut s[o..o + w as usize]),
            Some(SamplesMut::U16(s)) => SamplesMut::U16(&mut s[o..o + w as usize]),
            None => unreachable!("a zeroed plane is owned"),
        };
        fill(y, row);
    }
    plane
}

/// A copy of a planar producer plane (the caller counts the import's host copy once).
pub(super) fn copied_plane(src: &[u8], s: &PlaneSpan, w: u32, wide: bool, shift: u32) -> Plane {
    owned_plane(w, s.rows, wide, |y, row| {
        let r = &src[y as usize * s.pitch..y as usize * s.pitch + s.row_bytes];
        match row {
            SamplesMut::U8(d) => layout::read_row_u8(r, d),
            SamplesMut::U16(d) => layout::read_row_u16(r, shift, d),
        }
    })
}

pub(super) fn split_chroma(src: &[u8], s: &PlaneSpan, shift: u32, cb: &mut Plane, cr: &mut Plane) {
    let (w, stride) = (cb.width as usize, cb.stride);
    for y in 0..s.rows as usize {
        let r = &src[y * s.pitch..y * s.pitch + s.row_bytes];
        let o = y * stride;
        match (cb.samples_mut(), cr.samples_mut()) {
            (Some(SamplesMut::U8(b)), Some(SamplesMut::U8(c))) => {
                layout::split_chroma_u8(r, &mut b[o..o + w], &mut c[o..o + w])
            }
            (Some(SamplesMut::U16(b)), Some(SamplesMut::U16(c))) => {
                layout::split_chroma_u16(r, shift, &mut b[o..o + w], &mut c[o..o + w])
            }
            _ => unreachable!("both chroma planes are owned and of one depth"),
        }
    }
}

/// The three planes of a packed producer plane `s` of layout `p` (`sizes`: the frame's
/// plane sizes), gathered row by row; `shift` drops the bits below the significant ones.
pub(super) fn unpacked_planes(
    src: &[u8],
    s: &PlaneSpan,
    p: Packed,
    shift: u32,
    sizes: &[(u32, u32)],
    wide: bool,
) -> Vec<Plane> {
    let mut planes: Vec<Plane> = sizes
        .iter()
        .map(|&(w, h)| Plane::zeroed(w, h, wide))
        .collect();
    let [y, cb, cr] = &mut planes[..] else {
        unreachable!("a packed layout makes a three-plane frame")
    };
    let (w, cw) = (y.width as usize, cb.width as usize);
    let (ys, cs) = (y.stride, cb.stride);
    for row in 0..s.rows as usize {
        let r = &src[row * s.pitch..row * s.pitch + s.row_bytes];
        let (yo, co) = (row * ys, row * cs);
        match (y.samples_mut(), cb.samples_mut(), cr.samples_mut()) {
            (Some(SamplesMut::U8(yd)), Some(SamplesMut::U8(bd)), Some(SamplesMut::U8(rd))) => {
                let Packed::Groups(g) = p else {
                    unreachable!("only grouped layouts have 8-bit samples")
                };
                let (yd, bd, rd) = (
                    &mut yd[yo..yo + w],
                    &mut bd[co..co + cw],
                    &mut rd[co..co + cw],
                );
                layout::unpack_groups_u8(&g, r, yd, bd, rd);
            }
            (Some(SamplesMut::U16(yd)), Some(SamplesMut::U16(bd)), Some(SamplesMut::U16(rd))) => {
                let (yd, bd, rd) = (
                    &mut yd[yo..yo + w],
                    &mut bd[co..co + cw],
                    &mut rd[co..co + cw],
                );
                match p {
                    Packed::Groups(g) => layout::unpack_groups_u16(&g, r, shift, yd, bd, rd),
                    Packed::Y410 => layout::unpack_y410(r, yd, bd, rd),
                    Packed::V210 => layout::unpack_v210(r, yd, bd, rd),
                }
            }
            _ => unreachable!("the planes are owned and of one depth"),
        }
    }
    planes
}
