//! The worst frames as pictures: reference, distorted and their luma difference, as PNG.
//!
//! Scoring keeps no pictures. Once the scores are known, the worst frames' indices are
//! read again from the inputs in a second pass (inputs are files; a compressed one is
//! decoded again, a y4m or raw file seeks), holding only those frames: memory stays
//! bounded by N frames per input. Standard input cannot be read twice, so a report from it
//! has no thumbnails.

use std::path::Path;

use base64::Engine as _;
use vmafx::io::{OpenOptions, VideoReader};
use vmafx::Frame;

/// Widest thumbnail, in pixels.
const THUMB_WIDTH: u32 = 320;

/// Gain on the luma difference, so small errors show.
pub const DIFF_GAIN: u32 = 4;

/// One worst frame's pictures, each a base64 PNG.
pub struct Thumb {
    /// Frame index, as the log numbers it.
    pub index: u64,
    /// Its score.
    pub score: f64,
    /// Reference picture.
    pub reference: String,
    /// Distorted picture.
    pub distorted: String,
    /// |reference - distorted| luma, times [`DIFF_GAIN`].
    pub difference: String,
}

/// The `n` lowest-scoring frames, lowest first (ties by index).
pub fn worst(points: &[(u64, f64)], n: usize) -> Vec<(u64, f64)> {
    let mut v: Vec<(u64, f64)> = points.iter().copied().filter(|p| !p.1.is_nan()).collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    v.truncate(n);
    v
}

/// An input and how to open it again.
pub struct Reopen<'a> {
    /// Its path.
    pub path: &'a Path,
    /// How it was opened.
    pub options: &'a OpenOptions,
    /// Frames skipped before frame 0 of the log.
    pub skip: u64,
}

/// Reads the frames at `indices` (sorted, distinct) from `input` again.
fn grab(input: &Reopen<'_>, indices: &[u64]) -> Result<Vec<Frame>, String> {
    let name = input.path.display();
    let mut r = VideoReader::open_input(input.path, input.options)
        .map_err(|e| format!("reading {name} again: {e}"))?;
    let fail = |e: vmafx::Error| format!("reading {name} again: {e}");
    r.skip(input.skip).map_err(fail)?;
    let mut at = 0;
    let mut frames = Vec::with_capacity(indices.len());
    for &i in indices {
        r.skip(i - at).map_err(fail)?;
        let f = r
            .next_frame()
            .map_err(fail)?
            .ok_or_else(|| format!("reading {name} again: it ended before frame {i}"))?;
        frames.push(f);
        at = i + 1;
    }
    Ok(frames)
}

/// Pictures of the worst frames `worst` (index, score) of the two inputs.
pub fn thumbs(
    reference: &Reopen<'_>,
    distorted: &Reopen<'_>,
    worst: &[(u64, f64)],
) -> Result<Vec<Thumb>, String> {
    if [reference, distorted]
        .iter()
        .any(|i| i.path.as_os_str() == "-")
    {
        return Err("standard input cannot be read a second time".into());
    }
    let mut indices: Vec<u64> = worst.iter().map(|w| w.0).collect();
    indices.sort_unstable();
    indices.dedup();
    let (rf, df) = (grab(reference, &indices)?, grab(distorted, &indices)?);
    let mut out = Vec::with_capacity(worst.len());
    for &(index, score) in worst {
        let k = indices.binary_search(&index).map_err(|_| "lost a frame")?;
        let (r, d) = (&rf[k], &df[k]);
        out.push(Thumb {
            index,
            score,
            reference: png_base64(&rgb(r))?,
            distorted: png_base64(&rgb(d))?,
            difference: png_base64(&difference(r, d))?,
        });
    }
    Ok(out)
}

/// An 8-bit RGB picture.
pub struct Picture {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// RGB bytes, row after row.
    pub data: Vec<u8>,
}

/// Thumbnail size for a frame.
fn thumb_size(f: &Frame) -> (u32, u32) {
    let w = f.width().min(THUMB_WIDTH);
    let h = ((f.height() as u64 * w as u64) / f.width() as u64).max(1) as u32;
    (w, h)
}

/// Sample of plane `p` at picture position (x, y), scaled to 8 bits.
fn sample(f: &Frame, p: usize, x: u32, y: u32) -> f64 {
    let plane = f.plane(p);
    let (sx, sy) = if p == 0 {
        (0, 0)
    } else {
        f.format().chroma_shift()
    };
    let px = (x >> sx).min(plane.width.saturating_sub(1));
    let py = (y >> sy).min(plane.height.saturating_sub(1));
    plane.get(px, py) as f64 / (1u32 << (f.bpc() - 8)) as f64
}

/// The frame shrunk to thumbnail size (nearest sample), in RGB by BT.709 limited range.
pub fn rgb(f: &Frame) -> Picture {
    let (w, h) = thumb_size(f);
    let mut data = Vec::with_capacity((w * h * 3) as usize);
    let colour = f.planes().len() >= 3;
    for ty in 0..h {
        for tx in 0..w {
            let x = (tx as u64 * f.width() as u64 / w as u64) as u32;
            let y = (ty as u64 * f.height() as u64 / h as u64) as u32;
            let luma = 1.164 * (sample(f, 0, x, y) - 16.0);
            let (u, v) = if colour {
                (sample(f, 1, x, y) - 128.0, sample(f, 2, x, y) - 128.0)
            } else {
                (0.0, 0.0)
            };
            let px = [
                luma + 1.793 * v,
                luma - 0.213 * u - 0.533 * v,
                luma + 2.112 * u,
            ];
            data.extend(px.map(|c| c.round().clamp(0.0, 255.0) as u8));
        }
    }
    Picture {
        width: w,
        height: h,
        data,
    }
}

/// |reference - distorted| luma at thumbnail size, times [`DIFF_GAIN`], grey.
pub fn difference(r: &Frame, d: &Frame) -> Picture {
    let (w, h) = thumb_size(r);
    let mut data = Vec::with_capacity((w * h * 3) as usize);
    for ty in 0..h {
        for tx in 0..w {
            let x = (tx as u64 * r.width() as u64 / w as u64) as u32;
            let y = (ty as u64 * r.height() as u64 / h as u64) as u32;
            let diff = (sample(r, 0, x, y) - sample(d, 0, x, y)).abs() * DIFF_GAIN as f64;
            let g = diff.round().clamp(0.0, 255.0) as u8;
            data.extend([g, g, g]);
        }
    }
    Picture {
        width: w,
        height: h,
        data,
    }
}

/// A picture as a base64 PNG.
pub fn png_base64(p: &Picture) -> Result<String, String> {
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, p.width, p.height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Best);
        enc.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
        let mut w = enc.write_header().map_err(|e| e.to_string())?;
        w.write_image_data(&p.data).map_err(|e| e.to_string())?;
    }
    Ok(base64::engine::general_purpose::STANDARD.encode(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use vmafx::frame::{FrameBuilder, PixelFormat};

    fn grey(level: u8, w: u32, h: u32) -> Frame {
        let mut fb = FrameBuilder::new(PixelFormat::Yuv420p, 8, w, h).unwrap();
        for p in 0..3 {
            let v = if p == 0 { level } else { 128 };
            if let Some(vmafx::frame::SamplesMut::U8(s)) = fb.plane_mut(p).samples_mut() {
                s.fill(v);
            }
        }
        fb.build()
    }

    #[test]
    fn worst_frames_are_the_lowest_scores_first() {
        let pts = [(0, 50.0), (1, 10.0), (2, 30.0), (3, 10.0)];
        assert_eq!(worst(&pts, 3), vec![(1, 10.0), (3, 10.0), (2, 30.0)]);
    }

    #[test]
    fn limited_range_white_and_black_map_to_full_rgb() {
        assert_eq!(rgb(&grey(235, 8, 4)).data[..3], [255, 255, 255]);
        assert_eq!(rgb(&grey(16, 8, 4)).data[..3], [0, 0, 0]);
        let d = difference(&grey(100, 8, 4), &grey(110, 8, 4));
        assert_eq!(d.data[0], 10 * DIFF_GAIN as u8);
    }

    #[test]
    fn thumbnails_shrink_to_320_wide_and_encode_as_png() {
        let p = rgb(&grey(100, 640, 360));
        assert_eq!((p.width, p.height), (320, 180));
        let b64 = png_base64(&p).unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
    }
}
