//! CAMBI, Netflix's contrast-aware multiscale banding index (`cambi`), as libvmaf computes
//! it: the luma plane brought to 10 bits at the encoding size, a mask of flat areas, then
//! at five scales a mode filter, per-sample banding confidence from windowed histograms,
//! and the mean of the worst `topk` samples, the scales weighted 16:8:4:2:1.
//!
//! With `full_ref` the reference is scored too (at the source size) and the excess of the
//! distorted score over it is written as `cambi_full_reference`.
//!
//! Each frame is scored on its own ([`Ordering::Independent`]). With `heatmaps_path`, every
//! instance creates (truncating) the five files in `init`, which the context calls for all
//! instances before the first frame, and writes each frame at its own offset.
//!
//! Where a scale is narrower or shorter than half the window (only for aspect ratios beyond
//! about 10:1), libvmaf's histogram pass reads samples outside the scaled picture (stale
//! rows and columns of its working buffer); here the window is clipped to the picture.

mod cvalues;
mod dispatch;
mod heatmap;
mod luminance;
mod mask;
mod options;
mod pooling;
mod preprocess;
mod setup;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(test)]
pub(crate) use dispatch::checkasm::CHECKASM;

use super::name::feature_name;
use super::{ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptValues, Ordering};
use crate::cpu::CpuLevel;
use crate::error::{Error, Result};
use crate::frame::Frame;
use cvalues::CONTRAST_WEIGHTS;
use dispatch::{Kernels, KERNELS};
use options::Options;
use pooling::NUM_SCALES;
use setup::Run;

/// The long name of the score.
const PROVIDED: &str = "Cambi_feature_cambi_score";

/// The extractors this module defines.
pub static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: "cambi",
    aliases: &[],
    provided: &[PROVIDED],
    options: options::OPTIONS,
    ordering: Ordering::Independent,
    create,
}];

fn create(o: &OptValues) -> Result<Box<dyn Extractor>> {
    Ok(Box::new(Cambi {
        name: feature_name(PROVIDED, &o.non_default_params()),
        opts: Options::from_values(o)?,
        run: None,
        kernels: Kernels::SCALAR,
        scratch: cvalues::Scratch::default(),
        c_values: Vec::new(),
    }))
}

/// A 10-bit (or 0/1 mask) picture, rows packed.
#[derive(Debug, Clone)]
pub(crate) struct Picture {
    width: usize,
    height: usize,
    data: Vec<u16>,
}

impl Picture {
    fn new(width: usize, height: usize) -> Self {
        Picture {
            width,
            height,
            data: vec![0; width * height],
        }
    }

    fn row(&self, y: usize) -> &[u16] {
        &self.data[y * self.width..(y + 1) * self.width]
    }

    fn row_mut(&mut self, y: usize) -> &mut [u16] {
        &mut self.data[y * self.width..(y + 1) * self.width]
    }
}
struct Cambi {
    name: String,
    opts: Options,
    run: Option<Run>,
    kernels: Kernels,
    scratch: cvalues::Scratch,
    /// The c-values of the scale being scored (kept for the next frame's use).
    c_values: Vec<f32>,
}
/// The CAMBI score of `frame` scored at `size` with `window`, writing heatmaps for `index`
/// when given.
#[allow(clippy::too_many_arguments)]
fn score_frame(
    run: &mut Run,
    kernels: &Kernels,
    scratch: &mut cvalues::Scratch,
    c_values: &mut Vec<f32>,
    frame: &Frame,
    size: (u32, u32),
    window: usize,
    topk: f64,
    heatmap_index: Option<u64>,
    what: &str,
) -> Result<f64> {
    let mut image = preprocess::preprocess(
        frame.plane(0),
        run.bpc,
        size.0,
        size.1,
        run.enc_bitdepth,
        what,
    )?;
    let mut mask = mask::spatial_mask(&image);
    let mut scores = [0f64; NUM_SCALES];
    let max_weight = CONTRAST_WEIGHTS[..run.contrast.num_diffs]
        .iter()
        .copied()
        .max()
        .unwrap_or(1);
    for (scale, score) in scores.iter_mut().enumerate() {
        if scale > 0 || run.high_res_speedup {
            image = mask::decimate(&image);
            mask = mask::decimate(&mask);
        }
        mask::mode_filter(&mut image);
        cvalues::c_values(
            &image,
            &mask,
            window,
            &run.contrast,
            (kernels.c_value_row, kernels.histograms()),
            scratch,
            c_values,
        );
        if let (Some(index), Some(h)) = (heatmap_index, run.heatmaps.as_mut()) {
            h.write(
                scale,
                index,
                c_values,
                image.width,
                image.height,
                window,
                max_weight,
            )?;
        }
        *score = pooling::spatial_pooling(c_values, topk, kernels.pool_stats);
    }
    Ok(pooling::weight_scales(&scores, window))
}

impl Extractor for Cambi {
    fn kernel_level(&self) -> Option<CpuLevel> {
        self.run.as_ref().map(|_| self.kernels.level)
    }

    fn init(&mut self, g: Geometry) -> Result<()> {
        self.run = Some(Run::new(&self.opts, g)?);
        self.kernels = KERNELS.current();
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let max_val = self.opts.max_val;
        let topk = self.opts.topk;
        let full_ref = self.opts.full_ref;
        let run = self
            .run
            .as_mut()
            .ok_or_else(|| Error::invalid("cambi", "extract called before init"))?;
        let (enc, window) = (run.enc, run.window);
        let what = format!("distorted frame {}", input.index);
        let kernels = self.kernels;
        let dist = score_frame(
            run,
            &kernels,
            &mut self.scratch,
            &mut self.c_values,
            input.distorted,
            enc,
            window,
            topk,
            Some(input.index),
            &what,
        )?;
        out.put(&self.name, input.index, dist.min(max_val));
        if full_ref {
            let (src, src_window) = (run.src, run.src_window);
            let what = format!("reference frame {}", input.index);
            let source = score_frame(
                run,
                &kernels,
                &mut self.scratch,
                &mut self.c_values,
                input.reference,
                src,
                src_window,
                topk,
                None,
                &what,
            )?;
            out.put("cambi_source", input.index, source.min(max_val));
            out.put(
                "cambi_full_reference",
                input.index,
                (dist - source).max(0.0).min(max_val),
            );
        }
        Ok(())
    }
}
