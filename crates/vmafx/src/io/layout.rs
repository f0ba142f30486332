//! How a frame lies in a y4m or raw file, and copying it into a [`Frame`].
//!
//! Files hold chroma planes of the rounded-up size (`(w + 1) / 2` for 4:2:0), while a
//! [`Frame`] keeps libvmaf's rounded-down size (`w >> 1`); the top-left region of each file
//! plane is copied and the rest (one column and one row at most) is read and dropped, as
//! libvmaf's whole-frame reader did before direct reads (the corpus's `vmaf-legacyread`).

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::frame::Geometry;
use crate::frame::{
    plane_sizes, ForeignPlane, Frame, FrameBuilder, MemoryKind::Host, Plane, PlaneStorage,
    SamplesMut,
};

use super::recycle::PlaneRecycler;
use super::source::Source;

/// The planes of one frame in a file.
#[derive(Debug, Clone)]
pub(crate) struct FileLayout {
    /// The frame these planes fill.
    pub geometry: Geometry,
    /// Width and height of each stored plane, in samples, in file order.
    pub planes: Vec<(u32, u32)>,
    /// Planes stored after the picture's own and dropped (a y4m alpha plane).
    pub dropped_planes: usize,
    /// Bytes per sample: 1 for 8-bit, 2 (little-endian) for deeper.
    pub sample_bytes: usize,
}

impl FileLayout {
    /// The layout of a planar frame of `geometry`, plus `dropped_planes` full-size planes.
    pub(super) fn new(geometry: Geometry, dropped_planes: usize) -> Self {
        let Geometry {
            format,
            bpc,
            width,
            height,
        } = geometry;
        let (sx, sy) = format.chroma_shift();
        let mut planes = vec![(width, height)];
        if format.plane_count() == 3 {
            let c = (width.div_ceil(1 << sx), height.div_ceil(1 << sy));
            planes.extend([c, c]);
        }
        planes.extend(std::iter::repeat_n((width, height), dropped_planes));
        FileLayout {
            geometry,
            planes,
            dropped_planes,
            sample_bytes: if bpc > 8 { 2 } else { 1 },
        }
    }

    /// Bytes of one frame's samples in the file.
    pub(super) fn frame_bytes(&self) -> u64 {
        self.planes
            .iter()
            .map(|&(w, h)| w as u64 * h as u64 * self.sample_bytes as u64)
            .sum()
    }

    /// Bytes of the widest stored row.
    fn max_row_bytes(&self) -> usize {
        self.planes
            .iter()
            .map(|&(w, _)| w as usize * self.sample_bytes)
            .max()
            .unwrap_or(0)
    }

    /// Reads one frame's samples from `src` into a frame over planes `recycler` gave back
    /// (new ones where it has none), which return there on release. `index` and `start` (the
    /// offset of the frame's first byte, header included) name the frame in errors; a file
    /// that ends inside the samples is an `Invalid` error, never a short frame, whose
    /// message ends with `note`.
    pub(super) fn read_frame(
        &self,
        src: &mut Source,
        row: &mut Vec<u8>,
        recycler: &PlaneRecycler,
        (index, start): (u64, u64),
        note: &str,
    ) -> Result<Frame> {
        if self.binds_in_place(src) {
            if let Some(frame) = self.bind_mapped(src, index)? {
                return Ok(frame);
            }
        }
        let g = self.geometry;
        let reused = recycler.take().and_then(|planes| {
            FrameBuilder::from_planes(g.format, g.bpc, g.width, g.height, Host, planes).ok()
        });
        let mut fb = match reused {
            Some(fb) => fb,
            None => FrameBuilder::new(g.format, g.bpc, g.width, g.height)
                .map_err(|e| Error::invalid(src.name(), format!("frame {index}: {e}")))?,
        };
        row.resize(self.max_row_bytes(), 0);
        let data_start = src.pos();
        let kept = self.planes.len() - self.dropped_planes;
        for (i, &(fw, fh)) in self.planes.iter().enumerate() {
            let row_bytes = fw as usize * self.sample_bytes;
            // A contiguous 8-bit plane is read whole, straight into the frame.
            if i < kept && whole_u8(fb.plane_mut(i), fw, fh, self.sample_bytes).is_some() {
                let dst = whole_u8(fb.plane_mut(i), fw, fh, self.sample_bytes).expect("checked");
                let want = dst.len();
                if src.read_full(dst, "frame data")? < want {
                    return Err(self.truncated(src, (index, start), data_start, note));
                }
                continue;
            }
            // The rows of an 8-bit plane with padded rows, straight into the frame.
            if i < kept {
                if let Some(mut rows) = u8_rows(fb.plane_mut(i), fw, fh, self.sample_bytes) {
                    let want = row_bytes * fh as usize;
                    if src.read_full_vectored(&mut rows, "frame data")? < want {
                        return Err(self.truncated(src, (index, start), data_start, note));
                    }
                    continue;
                }
            }
            for y in 0..fh {
                // 8-bit rows are read straight into the frame; others go through `row`.
                let direct = i < kept && u8_row(fb.plane_mut(i), y, row_bytes).is_some();
                let got = if direct {
                    let dst = u8_row(fb.plane_mut(i), y, row_bytes).expect("checked above");
                    src.read_full(dst, "frame data")?
                } else {
                    src.read_full(&mut row[..row_bytes], "frame data")?
                };
                if got < row_bytes {
                    return Err(self.truncated(src, (index, start), data_start, note));
                }
                if i < kept && !direct {
                    copy_row(fb.plane_mut(i), y, &row[..row_bytes]);
                }
            }
        }
        Ok(fb.on_release(recycler.hook()).build())
    }

    /// Whether a frame of this layout may be bound in place in a map of `src`: where it
    /// is mappable and, for 16-bit samples, where they are little-endian at an even offset
    /// (aligned `u16`s; a map starts on a page). Otherwise its bytes are copied into planes.
    fn binds_in_place(&self, src: &Source) -> bool {
        src.is_mappable()
            && (self.sample_bytes == 1
                || (cfg!(target_endian = "little") && src.pos().is_multiple_of(2)))
    }

    /// The next frame as planes over a map of its bytes in `src`, or `None` (nothing read)
    /// where they cannot be mapped: see [`Self::read_frame`] for the errors.
    fn bind_mapped(&self, src: &mut Source, index: u64) -> Result<Option<Frame>> {
        let g = self.geometry;
        let want = self.frame_bytes() as usize;
        // The luma is mapped in at once; the other planes' pages only where read.
        let luma = self.planes.first().map_or(want, |&(fw, fh)| {
            fw as usize * fh as usize * self.sample_bytes
        });
        let Some(map) = src.map_next(want, luma, &format!("frame {index}")) else {
            return Ok(None);
        };
        let map = Arc::new(map?);
        let wide = self.sample_bytes == 2;
        let mut offset = 0;
        let mut planes = Vec::with_capacity(3);
        for ((fw, fh), (w, h)) in self
            .planes
            .iter()
            .zip(plane_sizes(g.format, g.width, g.height))
        {
            let len_bytes = *fw as usize * *fh as usize * self.sample_bytes;
            let guard: Arc<dyn Send + Sync> = map.clone();
            // SAFETY: the plane's `len_bytes` bytes lie inside the map (it holds the
            // frame's bytes, planes one after the other), 2-aligned where wide
            // (`binds_in_place`: an even file offset in a map starting on a page), in a
            // read-only map that `guard` keeps alive and that nothing of ours writes.
            let fp = unsafe { ForeignPlane::new(map.at(offset), len_bytes, wide, guard) };
            planes.push(Plane {
                width: w,
                height: h,
                stride: *fw as usize,
                storage: PlaneStorage::Foreign(fp),
            });
            offset += len_bytes;
        }
        let fb = FrameBuilder::from_planes(g.format, g.bpc, g.width, g.height, Host, planes)
            .map_err(|e| Error::invalid(src.name(), format!("frame {index}: {e}")))?;
        Ok(Some(fb.build()))
    }

    /// The error for frame `index` (starting at byte `start`, its samples at `data_start`)
    /// cut short by the end of the file at `src`'s position.
    pub(super) fn truncated(
        &self,
        src: &Source,
        (index, start): (u64, u64),
        data_start: u64,
        note: &str,
    ) -> Error {
        let have = src.pos() - data_start;
        Error::invalid(
            src.name(),
            format!(
                "frame {index} at byte {start} is truncated: the file ends at byte {} after \
                 {have} of the frame's {} bytes of samples{note}",
                src.pos(),
                self.frame_bytes()
            ),
        )
    }
}

/// Copies the top-left `plane.width` samples of file row `bytes` into row `y` of `plane`;
/// rows below the plane's height are dropped.
/// All samples of an 8-bit `plane` of `w` x `h` (one byte each) stored without row
/// padding, if it is one.
fn whole_u8(plane: &mut crate::frame::Plane, w: u32, h: u32, bytes: usize) -> Option<&mut [u8]> {
    if bytes != 1 || (plane.width, plane.height) != (w, h) || plane.stride != w as usize {
        return None;
    }
    match plane.samples_mut() {
        Some(SamplesMut::U8(s)) => s.get_mut(..w as usize * h as usize),
        _ => None,
    }
}

/// The `h` rows of `w` bytes of an 8-bit `plane` of that size, if it is one.
fn u8_rows(
    plane: &mut crate::frame::Plane,
    w: u32,
    h: u32,
    bytes: usize,
) -> Option<Vec<&mut [u8]>> {
    let (w, h) = (w as usize, h as usize);
    if bytes != 1 || (plane.width as usize, plane.height as usize) != (w, h) || w == 0 {
        return None;
    }
    let stride = plane.stride;
    match plane.samples_mut() {
        Some(SamplesMut::U8(s)) if stride >= w && s.len() >= (h.max(1) - 1) * stride + w => {
            Some(s.chunks_mut(stride).take(h).map(|r| &mut r[..w]).collect())
        }
        _ => None,
    }
}

/// Row `y` of an 8-bit `plane` whose rows are `len` bytes, if it is one.
fn u8_row(plane: &mut crate::frame::Plane, y: u32, len: usize) -> Option<&mut [u8]> {
    if y >= plane.height || plane.width as usize != len {
        return None;
    }
    let o = y as usize * plane.stride;
    match plane.samples_mut() {
        Some(SamplesMut::U8(s)) => Some(&mut s[o..o + len]),
        _ => None,
    }
}

fn copy_row(plane: &mut crate::frame::Plane, y: u32, bytes: &[u8]) {
    if y >= plane.height {
        return;
    }
    let (w, o) = (plane.width as usize, y as usize * plane.stride);
    match plane.samples_mut() {
        Some(SamplesMut::U8(s)) => s[o..o + w].copy_from_slice(&bytes[..w]),
        Some(SamplesMut::U16(s)) => {
            for (d, b) in s[o..o + w].iter_mut().zip(bytes.chunks_exact(2)) {
                *d = u16::from_le_bytes([b[0], b[1]]);
            }
        }
        // Frames a FrameBuilder makes own their planes.
        None => {}
    }
}
