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
mod kernels;
mod luminance;
mod mask;
mod options;
mod picture;
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
use crate::frame::{Frame, Plane};
use cvalues::CONTRAST_WEIGHTS;
use dispatch::KERNELS;
use kernels::Kernels;
use options::Options;
use picture::Picture;
use pooling::NUM_SCALES;
use setup::Run;

/// The long name of the score.
const PROVIDED: &str = "Cambi_feature_cambi_score";

/// The extractors this module defines.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
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
        buffers: Buffers::default(),
    }))
}

struct Cambi {
    name: String,
    opts: Options,
    run: Option<Run>,
    kernels: Kernels,
    scratch: cvalues::Scratch,
    /// The working picture, its mask and the steps' row buffers, kept from one frame to
    /// the next.
    buffers: Buffers,
}

/// The working picture and mask of the scale being scored, the row buffers of the steps
/// that make them, and the c-value row and its pooling; reused by every scale of every
/// frame (each step writes every sample it then reads, so nothing is cleared).
#[derive(Debug)]
struct Buffers {
    image: Picture,
    mask: Picture,
    rows: preprocess::RowScratch,
    mask_rows: mask::MaskScratch,
    mode_rows: mask::ModeScratch,
    /// One row of c-values.
    c_row: Vec<f32>,
    /// The pooling fed each row of c-values as it is made.
    pool: pooling::RowPool,
    /// Per scale, whether the pooling keeps the nonzero values (more than four fifths of
    /// `k` were nonzero at the last frame's same scale; at first not).
    keep: [bool; NUM_SCALES],
    /// A whole scale's c-values, only where heatmaps are written (kept from frame to
    /// frame then).
    plane: Vec<f32>,
}

impl Default for Buffers {
    fn default() -> Self {
        Buffers {
            image: Picture::new(0, 0),
            mask: Picture::new(0, 0),
            rows: Default::default(),
            mask_rows: Default::default(),
            mode_rows: Default::default(),
            c_row: Vec::new(),
            pool: Default::default(),
            keep: [false; NUM_SCALES],
            plane: Vec::new(),
        }
    }
}

/// The first scale's picture (mode-filtered) and mask, from `plane` (`bpc` bits) brought
/// to `size` at 10 bits, into `buffers`, in one pass over the rows: each preprocessed row
/// goes to the mask and to the mode filter. With `step` 2 (the high-res speed-up) the
/// first scale is already decimated, so only every other sample of every other row of
/// either is kept.
fn first_scale(
    (plane, bpc): (&Plane, u32),
    size: (u32, u32),
    enc_bitdepth: u32,
    step: usize,
    what: &str,
    buffers: &mut Buffers,
) -> Result<()> {
    let Buffers {
        image,
        mask,
        rows,
        mask_rows,
        mode_rows,
        ..
    } = buffers;
    let (w, h) = (size.0 as usize, size.1 as usize);
    let (dw, dh) = (w.div_ceil(step), h.div_ceil(step));
    image.resize(dw, dh);
    let mut masker = mask::MaskRows::new(w, h, step, mask, mask_rows);
    let (mut modes, half) = mode_rows.start(dw, dh);
    let out = &mut image.data;
    let mut y = 0;
    preprocess::preprocess_rows(
        plane,
        bpc,
        size.0,
        size.1,
        enc_bitdepth,
        what,
        rows,
        |above, row| {
            if step == 1 {
                modes.push(row, out);
            } else if y % 2 == 0 {
                mask::take_even(row, half);
                modes.push(half, out);
            }
            masker.push(above, row);
            y += 1;
        },
    )
}

#[cfg(test)]
thread_local! {
    /// Tests: pool every scale as libvmaf's whole-plane path does (the c-values made
    /// again into a plane), as where the row pooling's sum is not exact.
    static WHOLE_PLANE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: scales pooled again because the values were not kept.
    static REPOOLED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The CAMBI score of `frame` scored at `size` with `window`, writing heatmaps for `index`
/// when given.
#[allow(clippy::too_many_arguments)]
fn score_frame(
    run: &mut Run,
    kernels: &Kernels,
    scratch: &mut cvalues::Scratch,
    buffers: &mut Buffers,
    frame: &Frame,
    size: (u32, u32),
    window: usize,
    topk: f64,
    heatmap_index: Option<u64>,
    what: &str,
) -> Result<f64> {
    let step = if run.high_res_speedup { 2 } else { 1 };
    let input = (frame.plane(0), run.bpc);
    first_scale(input, size, run.enc_bitdepth, step, what, buffers)?;
    let Buffers {
        image,
        mask,
        mode_rows,
        c_row,
        pool,
        keep,
        plane,
        ..
    } = buffers;
    let mut scores = [0f64; NUM_SCALES];
    let max_weight = CONTRAST_WEIGHTS[..run.contrast.num_diffs]
        .iter()
        .copied()
        .max()
        .unwrap_or(1);
    for (scale, score) in scores.iter_mut().enumerate() {
        // The first scale was mode-filtered as it was made.
        if scale > 0 {
            mask::decimate_and_mode_filter(image, mode_rows);
            mask::decimate(mask);
        }
        let kernels_cv = (kernels.c_value_row, kernels.histograms());
        let mut c_values = |sink: &mut dyn FnMut(&[f32])| {
            let (image, mask) = (&*image, &*mask);
            cvalues::c_values(
                image,
                mask,
                window,
                &run.contrast,
                kernels_cv,
                scratch,
                c_row,
                sink,
            );
        };
        if let (Some(index), Some(h)) = (heatmap_index, run.heatmaps.as_mut()) {
            // The heatmap writes the whole plane: kept, and pooled whole.
            plane.clear();
            c_values(&mut |r| plane.extend_from_slice(r));
            let (w, ht) = (image.width, image.height);
            h.write(scale, index, plane, w, ht, window, max_weight)?;
            *score = pooling::spatial_pooling(plane, topk, kernels.pool_stats);
            continue;
        }
        // Each row pooled as it is made; the plane is not kept, and the values the exact
        // sum may read only where the last frame suggests it will.
        pool.start(keep[scale]);
        c_values(&mut |r| pool.push(r, kernels.pool_stats));
        let mut exact = pool.exact_mean(topk);
        if exact == Err(pooling::NotExact::Unkept) {
            // More values nonzero than the guess allowed for: pooled again, keeping them.
            #[cfg(test)]
            REPOOLED.with(|n| n.set(n.get() + 1));
            pool.start(true);
            c_values(&mut |r| pool.push(r, kernels.pool_stats));
            exact = pool.exact_mean(topk);
        }
        keep[scale] = pool.keep_next(topk);
        #[cfg(test)]
        let exact = exact.and_then(|m| match WHOLE_PLANE.with(|w| w.get()) {
            true => Err(pooling::NotExact::Inexact),
            false => Ok(m),
        });
        *score = match exact {
            Ok(mean) => mean,
            Err(_) => {
                // libvmaf's quickselect reads the whole plane in its order: made again
                // (only where the sum is not exact in every order), pooled and dropped.
                let mut whole = Vec::with_capacity(image.width * image.height);
                c_values(&mut |r| whole.extend_from_slice(r));
                pooling::spatial_pooling(&mut whole, topk, kernels.pool_stats)
            }
        };
    }
    Ok(pooling::weight_scales(&scores, window))
}

impl Extractor for Cambi {
    fn kernel_level(&self) -> Option<CpuLevel> {
        self.run.as_ref().map(|_| self.kernels.level)
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        &["cambi"]
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
            &mut self.buffers,
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
                &mut self.buffers,
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

#[cfg(test)]
mod first_scale_twin {
    use super::*;
    use crate::frame::SamplesMut;
    use crate::testutil::twin_rng::TwinRng;

    /// The one-pass first scale against its steps one after another, each by its scalar
    /// twin: preprocessing, the mask of the whole picture, decimation, the mode filter.
    #[test]
    fn first_scale_matches_the_steps_one_by_one() {
        let mut rng = TwinRng::new(0xf125);
        // One set of buffers for every case: what other sizes left must not matter.
        let mut buffers = Buffers::default();
        let mut filtered = 0;
        for case in 0..300 {
            let (w, h) = (rng.size(1, 100) as u32, rng.size(1, 40) as u32);
            let bpc = [8, 10][case % 2];
            let mut plane = Plane::zeroed(w, h, bpc > 8);
            // Blocks of few levels with some noise: flat areas and mode changes.
            let block = rng.range(1, 6) as usize;
            let base = rng.range(0, 200);
            let levels: Vec<i64> = (0..64).map(|_| base + rng.range(0, 2)).collect();
            let stride = plane.stride;
            let sample = |x: usize, y: usize, rng: &mut TwinRng| {
                let v = levels[(y / block * 8 + x / block) % 64];
                v + i64::from(rng.next_u64().is_multiple_of(7))
            };
            match plane.samples_mut() {
                Some(SamplesMut::U8(s)) => {
                    for y in 0..h as usize {
                        for x in 0..w as usize {
                            s[y * stride + x] = sample(x, y, &mut rng) as u8;
                        }
                    }
                }
                Some(SamplesMut::U16(s)) => {
                    for y in 0..h as usize {
                        for x in 0..w as usize {
                            s[y * stride + x] = sample(x, y, &mut rng) as u16;
                        }
                    }
                }
                None => unreachable!("own planes are writable"),
            }
            let (step, enc_bitdepth) = (1 + case % 3 / 2, [8, 10][case % 4 / 2]);
            let size = if case % 5 == 0 {
                (rng.size(1, 100) as u32, rng.size(1, 40) as u32)
            } else {
                (w, h)
            };
            first_scale((&plane, bpc), size, enc_bitdepth, step, "t", &mut buffers).unwrap();
            let pic = preprocess::preprocess_reference(&plane, bpc, size.0, size.1, enc_bitdepth);
            let mut mask = mask::spatial_mask_reference(&pic);
            let mut image = pic;
            if step == 2 {
                mask = mask::decimate_reference(&mask);
                image = mask::decimate_reference(&image);
            }
            let unfiltered = image.clone();
            mask::mode_filter_reference(&mut image);
            filtered += usize::from(image.pixels() != unfiltered.pixels());
            let what = format!("case {case}: {w}x{h} -> {size:?}, step {step}");
            assert_eq!(buffers.image.pixels(), image.pixels(), "{what}: picture");
            assert_eq!(buffers.mask.pixels(), mask.pixels(), "{what}: mask");
        }
        assert!(
            filtered > 100,
            "only {filtered} pictures changed by the mode filter"
        );
    }
}
