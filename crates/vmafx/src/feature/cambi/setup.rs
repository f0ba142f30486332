//! What cambi's `init` derives from the options and the input geometry: encoding and source
//! sizes, window sizes, the contrast thresholds and the heatmap files, with libvmaf's
//! refusals.

use super::cvalues::{Contrast, RECIPROCAL_LUT_SIZE};
use super::heatmap::Heatmaps;
use super::luminance::{self, LumaRange};
use super::options::Options;
use crate::error::{Error, Result};
use crate::feature::Geometry;

/// Pictures with both sides below this are refused, as libvmaf does.
const MIN_WIDTH_HEIGHT: u32 = 216;
/// Width and height of the 4K picture the window size is defined for.
const WIDTH_4K: u32 = 3840;
const HEIGHT_4K: u32 = 2160;

/// Everything `init` derives for a geometry.
#[derive(Debug)]
pub(super) struct Run {
    /// Bit depth of the input.
    pub bpc: u32,
    /// Bit depth of the encode (anti-dithering below 10).
    pub enc_bitdepth: u32,
    /// Size the distorted picture is scored at.
    pub enc: (u32, u32),
    /// Size the reference is scored at (full_ref).
    pub src: (u32, u32),
    /// Window side at the encoding size.
    pub window: usize,
    /// Window side at the source size.
    pub src_window: usize,
    /// Whether the first scale is already decimated.
    pub high_res_speedup: bool,
    /// Contrast thresholds.
    pub contrast: Contrast,
    /// Heatmap files, when asked for.
    pub heatmaps: Option<Heatmaps>,
}

/// libvmaf's window size for a picture of `width` x `height`: the 4K window scaled by the
/// sum of the sides, halved (rounding up) with the speed-up, made odd.
pub(super) fn adjust_window(window: usize, width: u32, height: u32, speedup: bool) -> usize {
    // Unsigned 32-bit arithmetic, stored back into 16 bits, as libvmaf computes it.
    let scaled = (window as u32).wrapping_mul(width.wrapping_add(height)) / 375;
    let mut w = (scaled >> 4) as u16 as usize;
    if speedup {
        w = (w + 1) >> 1;
    }
    w | 1
}

fn size_error(what: &str, w: u32, h: u32, g: &Geometry) -> Error {
    Error::invalid(
        "cambi",
        format!(
            "{what} {w}x{h} (input {}x{}): cambi needs a width or height of at least \
             {MIN_WIDTH_HEIGHT}",
            g.width, g.height
        ),
    )
}

impl Run {
    /// Resolves `o` for frames of `g`, refusing what libvmaf refuses.
    pub(super) fn new(o: &Options, g: Geometry) -> Result<Run> {
        let enc_bitdepth = if o.enc_bitdepth == 0 {
            g.bpc
        } else {
            o.enc_bitdepth
        };
        let mut enc = if o.enc_width == 0 || o.enc_height == 0 {
            (g.width, g.height)
        } else {
            (o.enc_width, o.enc_height)
        };
        let src = if o.src_width == 0 || o.src_height == 0 {
            (g.width, g.height)
        } else {
            (o.src_width, o.src_height)
        };
        // A downscaled encode is scored at the input's size, never upscaled back.
        if enc.1 > g.height || enc.0 > g.width {
            enc = (g.width, g.height);
        }
        if enc.0 < MIN_WIDTH_HEIGHT && enc.1 < MIN_WIDTH_HEIGHT {
            return Err(size_error("encoding size", enc.0, enc.1, &g));
        }
        if src.0 < MIN_WIDTH_HEIGHT && src.1 < MIN_WIDTH_HEIGHT {
            return Err(size_error("source size", src.0, src.1, &g));
        }
        if (src.0 > enc.0 && src.1 < enc.1) || (src.0 < enc.0 && src.1 > enc.1) {
            return Err(Error::invalid(
                "cambi",
                format!(
                    "source size {}x{} and encoding size {}x{} are not scaled alike: one is \
                     wider but the other taller",
                    src.0, src.1, enc.0, enc.1
                ),
            ));
        }
        let enc_pixels = enc.0 as u64 * enc.1 as u64;
        let high_res_speedup = match o.high_res_speedup {
            1080 => enc_pixels >= 1920 * 1080,
            1440 => enc_pixels >= 2560 * 1440,
            2160 => enc_pixels >= (WIDTH_4K * HEIGHT_4K) as u64,
            _ => false,
        };
        let num_diffs = 1usize << o.max_log_contrast;
        let range = LumaRange::limited(10);
        let mut tvi_for_diff = Vec::with_capacity(num_diffs);
        for d in 0..num_diffs {
            let t = luminance::tvi_for_diff(d as i32 + 1, o.tvi_threshold, 10, range, o.eotf)?;
            tvi_for_diff.push((t + num_diffs as i32) as u16);
        }
        let vlt_luma = luminance::vis_lum_luma(o.vis_lum_threshold, range, o.eotf)?;
        let window = adjust_window(o.window_size, enc.0, enc.1, high_res_speedup);
        let src_window = adjust_window(o.window_size, src.0, src.1, high_res_speedup);
        let largest = window.max(src_window);
        if largest * largest >= RECIPROCAL_LUT_SIZE {
            return Err(Error::range(
                "cambi:window_size",
                format!(
                    "window_size {} gives a window of {largest} samples at {}x{}, more than \
                     cambi's largest ({})",
                    o.window_size,
                    enc.0.max(src.0),
                    enc.1.max(src.1),
                    (RECIPROCAL_LUT_SIZE as f64).sqrt() as usize
                ),
            ));
        }
        let heatmaps = match &o.heatmaps_path {
            Some(p) => Some(Heatmaps::create(p, enc.0 as usize, enc.1 as usize)?),
            None => None,
        };
        Ok(Run {
            bpc: g.bpc,
            enc_bitdepth,
            enc,
            src,
            window,
            src_window,
            high_res_speedup,
            contrast: Contrast {
                num_diffs,
                tvi_for_diff,
                vlt_luma,
            },
            heatmaps,
        })
    }
}
