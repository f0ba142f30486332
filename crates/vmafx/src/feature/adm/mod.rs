//! libvmaf's integer ADM extractor (`adm`): detail loss (adm2), additive impairment (aim),
//! their blend (adm3) and the per-scale ratios, bit-exact with libvmaf's fixed-point path.
//!
//! Per frame pair the luma planes go through four DWT levels. At each level the distorted
//! detail bands are decoupled into restored and additive parts, CSF-weighted, masked by
//! each other, and summed as 3-norms over the picture less a 10% border. The kernels are
//! scalar row loops, the reference twins of the vector kernels in `x86` and `aarch64` (chosen in
//! `init` from [`crate::cpu::level`]).

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod bands;
mod border;
mod cm;
mod cnum;
mod csf;
mod decouple;
mod den;
mod dispatch;
mod dwt;
mod kernels;
mod options;
mod settings;
mod strips;
mod weight;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(test)]
mod tests;

/// ADM's tables for the kernel checker.
#[cfg(test)]
pub(crate) use dispatch::checkasm::CHECKASM;
#[cfg(test)]
mod tests_strips;

use super::name::feature_name;
use super::scratch;
use super::{ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptValues, Ordering};
use crate::error::{Error, Result};
use crate::frame::{Frame, Samples};

use bands::{zeroed_hvd, Bands};
use border::with_taps;
use csf::CsfParams;
use settings::Settings;

/// Features the extractor writes, in libvmaf's order (the last eleven only with `debug`).
pub(crate) const PROVIDED: &[&str] = &[
    "VMAF_integer_feature_adm2_score",
    "VMAF_integer_feature_aim_score",
    "VMAF_integer_feature_adm3_score",
    "integer_adm_scale0",
    "integer_adm_scale1",
    "integer_adm_scale2",
    "integer_adm_scale3",
    "integer_adm",
    "integer_adm_num",
    "integer_adm_den",
    "integer_adm_num_scale0",
    "integer_adm_den_scale0",
    "integer_adm_num_scale1",
    "integer_adm_den_scale1",
    "integer_adm_num_scale2",
    "integer_adm_den_scale2",
    "integer_adm_num_scale3",
    "integer_adm_den_scale3",
];

/// Number of features written without `debug`.
const NON_DEBUG: usize = 7;

/// Smallest width and height: libvmaf's index tables need at least 5 inputs at the
/// coarsest level (33 → 17 → 9 → 5) and read outside the picture below that.
pub(crate) const MIN_DIMENSION: u32 = 33;

/// The extractors this module defines.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: "adm",
    aliases: &[],
    provided: PROVIDED,
    options: options::OPTIONS,
    ordering: Ordering::Independent,
    create: Adm::create,
}];

/// Per-scale results: (numerator, denominator, AIM numerator), as libvmaf's floats.
type ScaleScores = [(f32, f32, f32); 4];

/// Working buffers, sized in `init`.
#[derive(Debug, Default)]
struct Work {
    width: usize,
    height: usize,
    bpc: u32,
    stride: usize,
    kernels: kernels::Kernels,
    taps: [dwt::Taps; 4],
    tmp0: Vec<i32>,
    tmp: Vec<i64>,
    ref0: Bands<i16>,
    /// The reference frame (index, luma address) whose bands `ref0` holds, kept only
    /// where the buffers are shared by the renditions of one reference
    /// ([`scratch::is_shared`]).
    ref0_of: Option<(u64, usize)>,
    dis0: Bands<i16>,
    strip0: strips::Strip0,
    ref_n: Bands<i32>,
    dis_n: Bands<i32>,
    ref_low: Vec<i32>,
    /// The reference's bands of levels 1 to 3, each level in its own buffers so that they
    /// outlive the frame's scoring like `ref0`: used (and allocated, on first use) only
    /// where the buffers are shared ([`scratch::is_shared`]); a pair run uses `ref_n`.
    ref_levels: Vec<Bands<i32>>,
    dis_low: Vec<i32>,
    restored: [Vec<i32>; 3],
    additive: [Vec<i32>; 3],
    csf: [Vec<i32>; 3],
    activity: [Vec<i32>; 3],
}

impl Work {
    /// Buffers for `w` x `h` pictures of `bpc` bits, run by `kernels`.
    fn new(w: usize, h: usize, bpc: u32, kernels: kernels::Kernels) -> Work {
        let stride = w.div_ceil(2);
        let len = stride * h.div_ceil(2);
        // Scale 1's bands, stored compactly; the later scales' are smaller still.
        let len1 = stride.div_ceil(2) * h.div_ceil(2).div_ceil(2);
        Work {
            width: w,
            height: h,
            bpc,
            stride,
            kernels,
            taps: level_taps(w, h),
            tmp0: vec![0; 2 * w],
            tmp: vec![0; 2 * w],
            ref0: Bands::zeroed(len),
            ref0_of: None,
            dis0: Bands::zeroed(len),
            strip0: strips::Strip0::new(strips::STRIP_ROWS, stride),
            ref_n: Bands::zeroed(len1),
            dis_n: Bands::zeroed(len1),
            ref_low: vec![0; len1],
            ref_levels: Vec::new(),
            dis_low: vec![0; len1],
            restored: zeroed_hvd(len1),
            additive: zeroed_hvd(len1),
            csf: zeroed_hvd(len1),
            activity: zeroed_hvd(len1),
        }
    }
}

/// An `adm` extractor instance.
#[derive(Debug)]
pub(crate) struct Adm {
    settings: Settings,
    names: Vec<String>,
    work: Work,
}

impl Adm {
    /// Makes an instance from parsed options; refuses viewing set-ups finer than libvmaf's
    /// 16-bit pipeline handles (norm_view_dist · ref_display_height below 3 · 1080), a
    /// blend mode's display set-up missing from its table, and CSF weights its fixed point
    /// cannot hold: where libvmaf prints nulls or meaningless scores.
    pub(crate) fn create(opts: &OptValues) -> Result<Box<dyn Extractor>> {
        let csf = CsfParams {
            mode: opts.int("adm_csf_mode"),
            norm_view_dist: opts.double("adm_norm_view_dist"),
            ref_display_height: opts.int("adm_ref_display_height"),
            csf_scale: opts.double("adm_csf_scale"),
            csf_diag_scale: opts.double("adm_csf_diag_scale"),
        };
        let settings = Settings {
            debug: opts.bool("debug"),
            csf,
            factors: std::array::from_fn(|scale| csf.factors(scale)),
            fixed0: weight::fixed0(&csf),
            fixed: std::array::from_fn(|scale| {
                if scale == 0 {
                    [0; 3]
                } else {
                    weight::fixed123(&csf, scale)
                }
            }),
            dlm_weight: opts.double("adm_dlm_weight"),
            gain_limit: opts.double("adm_enhn_gain_limit"),
            noise_weight: opts.double("adm_noise_weight"),
            skip_aim: opts.bool("adm_skip_aim"),
            skip_scale0: opts.bool("adm_skip_scale0"),
            min_val: opts.double("adm_min_val"),
        };
        let c = &settings.csf;
        if c.norm_view_dist * (c.ref_display_height as f64) < 3.0 * 1080.0 {
            return Err(Error::invalid(
                "adm:adm_norm_view_dist",
                format!(
                    "adm_norm_view_dist ({}) x adm_ref_display_height ({}) is below 3240: \
                     libvmaf's integer ADM cannot score angular frequencies finer than 1080 \
                     lines at 3 heights",
                    c.norm_view_dist, c.ref_display_height
                ),
            ));
        }
        if let Some(setups) = c.missing_blend() {
            let listed: Vec<_> = setups.iter().map(|(h, d)| format!("{h} at {d}")).collect();
            return Err(Error::invalid(
                "adm:adm_csf_mode",
                format!(
                    "adm_csf_mode={} has blend weights for these adm_ref_display_height at \
                     adm_norm_view_dist only: {}; not for {} at {} (libvmaf's integer ADM \
                     prints null scores there)",
                    c.mode,
                    listed.join(", "),
                    c.ref_display_height,
                    c.norm_view_dist
                ),
            ));
        }
        if let Some(u) = weight::unfit(&settings.factors) {
            let band = ["horizontal", "vertical", "diagonal"][u.band];
            return Err(Error::invalid(
                "adm:adm_csf_mode",
                format!(
                    "adm_csf_mode={} weighs scale {}'s {band} band by {}, which the integer \
                     ADM's fixed point cannot hold (weights below {} at that scale): \
                     libvmaf's integer ADM wraps it and prints meaningless or null scores; \
                     lower adm_csf_scale / adm_csf_diag_scale, or use float_adm",
                    c.mode, u.scale, u.weight, u.limit
                ),
            ));
        }
        let params = opts.non_default_params();
        let names = PROVIDED.iter().map(|p| feature_name(p, &params)).collect();
        Ok(Box::new(Adm {
            settings,
            names,
            work: Work::default(),
        }))
    }

    fn check_frame(&self, frame: &Frame, what: &str) -> Result<()> {
        let w = &self.work;
        if frame.width() as usize != w.width
            || frame.height() as usize != w.height
            || frame.bpc() != w.bpc
        {
            return Err(Error::invalid(
                format!("adm:{what}"),
                format!(
                    "{what} frame is {}x{} at {} bits; the extractor was set up for {}x{} at {} bits",
                    frame.width(),
                    frame.height(),
                    frame.bpc(),
                    w.width,
                    w.height,
                    w.bpc
                ),
            ));
        }
        Ok(())
    }
}

impl Extractor for Adm {
    fn kernel_level(&self) -> Option<crate::cpu::CpuLevel> {
        (self.work.width > 0).then_some(self.work.kernels.level)
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        &["adm"]
    }

    fn init(&mut self, g: Geometry) -> Result<()> {
        if g.width < MIN_DIMENSION || g.height < MIN_DIMENSION {
            return Err(Error::range(
                "adm",
                format!(
                    "adm needs pictures of at least {MIN_DIMENSION}x{MIN_DIMENSION}; got {}x{}",
                    g.width, g.height
                ),
            ));
        }
        if !(8..=16).contains(&g.bpc) {
            return Err(Error::range(
                "adm",
                format!("adm reads 8 to 16 bits; got {}", g.bpc),
            ));
        }
        self.work = Work::new(
            g.width as usize,
            g.height as usize,
            g.bpc,
            dispatch::KERNELS.current(),
        );
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        if self.work.width == 0 {
            return Err(Error::invalid("adm", "extract called before init"));
        }
        self.check_frame(input.reference, "reference")?;
        self.check_frame(input.distorted, "distorted")?;
        let s = self.settings;
        let wk = &self.work;
        let key = scratch::shape_key(wk.width, wk.height, wk.bpc, wk.kernels.level as u8);
        let make = |wk: &Work| Work::new(wk.width, wk.height, wk.bpc, wk.kernels);
        let scales = scratch::lend(&mut self.work, key, make, |wk| score_scales(wk, &s, input));
        let (w, h) = (self.work.width as f64, self.work.height as f64);
        let limit = 1e-10 * (w * h) / (1920.0 * 1080.0);
        let mut num = 0f64;
        let mut den = 0f64;
        let mut aim_num = 0f64;
        for &(n, d, a) in &scales {
            num += n as f64;
            den += d as f64;
            aim_num += a as f64;
        }
        let num = if num < limit { 0.0 } else { num };
        let den = if den < limit { 0.0 } else { den };
        // libvmaf leaves the AIM score unset when the denominator vanishes; 0 here.
        let (score, aim) = if den == 0.0 {
            (1.0, 0.0)
        } else {
            (num / den, aim_num / den)
        };
        let blend = score * s.dlm_weight + (1.0 - aim) * (1.0 - s.dlm_weight);
        let adm3 = if blend > s.min_val { blend } else { s.min_val };
        let mut values = vec![score, aim, adm3];
        values.extend(scales.iter().map(|&(n, d, _)| n as f64 / d as f64));
        if s.debug {
            values.extend([score, num, den]);
            for &(n, d, _) in &scales {
                values.extend([n as f64, d as f64]);
            }
        }
        let count = if s.debug { PROVIDED.len() } else { NON_DEBUG };
        for (name, v) in self.names.iter().zip(values).take(count) {
            out.put(name, input.index, v);
        }
        Ok(())
    }
}

/// The DWT taps of the four levels of a `w` x `h` picture.
fn level_taps(w: usize, h: usize) -> [dwt::Taps; 4] {
    let (mut w, mut h) = (w, h);
    std::array::from_fn(|_| {
        let t = dwt::Taps::new(w, h);
        (w, h) = (w.div_ceil(2), h.div_ceil(2));
        t
    })
}

/// Runs the four scales over one pair.
fn score_scales(wk: &mut Work, s: &Settings, input: &ExtractInput<'_>) -> ScaleScores {
    let (reference, distorted) = (input.reference, input.distorted);
    let (mut w, mut h) = (wk.width, wk.height);
    let stride = wk.stride;
    // Buffers shared by the renditions of one reference keep the reference's level-0
    // bands for the next rendition of the same frame: nothing but this DWT writes them.
    let reference_key = scratch::reference_key(input.index, reference);
    let fresh = reference_key.is_none() || wk.ref0_of != reference_key;
    let mut sides = vec![(distorted, &mut wk.dis0)];
    if fresh {
        sides.insert(0, (reference, &mut wk.ref0));
        wk.ref0_of = reference_key;
    }
    for (frame, bands) in sides {
        let plane = frame.plane(0);
        match plane.samples() {
            Samples::U8(px) => (wk.kernels.dwt0_u8)(
                px,
                plane.stride,
                &wk.taps[0],
                8,
                &mut wk.tmp0,
                bands,
                stride,
            ),
            Samples::U16(px) => (wk.kernels.dwt0_u16)(
                px,
                plane.stride,
                &wk.taps[0],
                wk.bpc,
                &mut wk.tmp0,
                bands,
                stride,
            ),
        }
    }
    (w, h) = (w.div_ceil(2), h.div_ceil(2));
    let mut scores: ScaleScores = [(0.0, 0.0, 0.0); 4];
    // Each later scale's bands are stored compactly (row stride = band width), so that
    // they touch a quarter of the memory of the scale above.
    let mut in_stride = stride;
    scores[0] = if s.skip_scale0 {
        (0.0, 1e-10, 0.0)
    } else {
        scale0(wk, s, w, h)
    };
    // Shared buffers keep the reference's later levels too, each in its own bands (the
    // reference's DWT of levels 1 to 3 then runs once per frame and worker); a pair run
    // decomposes both sides level by level in `ref_n` and `dis_n`.
    let mut levels = std::mem::take(&mut wk.ref_levels);
    if reference_key.is_some() && levels.is_empty() {
        levels = (1..4).map(|_| Bands::zeroed(wk.ref_low.len())).collect();
    }
    for (scale, slot) in scores.iter_mut().enumerate().skip(1) {
        let out_stride = w.div_ceil(2);
        let k = wk.kernels;
        let taps = &wk.taps[scale];
        let level = |low0: &[i16], low: &[i32], tmp: &mut Vec<i64>, bands: &mut Bands<i32>| {
            // Level 1 reads the scale-0 low band itself; later levels the one before.
            if scale == 1 {
                (k.dwt1)(low0, in_stride, taps, scale, tmp, bands, out_stride);
            } else {
                (k.dwt)(low, in_stride, taps, scale, tmp, bands, out_stride);
            }
        };
        if levels.is_empty() {
            level(&wk.ref0.a, &wk.ref_low, &mut wk.tmp, &mut wk.ref_n);
            std::mem::swap(&mut wk.ref_low, &mut wk.ref_n.a);
        } else if fresh {
            let (before, rest) = levels.split_at_mut(scale - 1);
            let low = before.last().map_or(&[][..], |b| &b.a[..]);
            level(&wk.ref0.a, low, &mut wk.tmp, &mut rest[0]);
        }
        level(&wk.dis0.a, &wk.dis_low, &mut wk.tmp, &mut wk.dis_n);
        std::mem::swap(&mut wk.dis_low, &mut wk.dis_n.a);
        (w, h) = (w.div_ceil(2), h.div_ceil(2));
        let reference = levels.get(scale - 1).map(|b| &b.hvd);
        *slot = scale123(wk, s, (scale, reference), out_stride, w, h);
        in_stride = out_stride;
    }
    // Three swaps left the low bands' first buffers in the bands: swap them back.
    if levels.is_empty() {
        std::mem::swap(&mut wk.ref_low, &mut wk.ref_n.a);
    }
    std::mem::swap(&mut wk.dis_low, &mut wk.dis_n.a);
    wk.ref_levels = levels;
    scores
}

/// Decoupling, weighting and masking of scale 0 (`w` x `h` bands), in strips of rows.
fn scale0(wk: &mut Work, s: &Settings, w: usize, h: usize) -> (f32, f32, f32) {
    let input = strips::Inputs {
        reference: &wk.ref0.hvd,
        distorted: &wk.dis0.hvd,
        stride: wk.stride,
        size: (w, h),
    };
    strips::scale0(&input, &mut wk.strip0, &wk.kernels, s)
}

/// Decoupling, weighting and masking of scale `scale` (1..=3, `w` x `h` bands of row
/// stride `stride`), of the reference's bands `reference` where given, else `ref_n`'s.
fn scale123(
    wk: &mut Work,
    s: &Settings,
    (scale, reference): (usize, Option<&[Vec<i32>; 3]>),
    stride: usize,
    w: usize,
    h: usize,
) -> (f32, f32, f32) {
    let region = with_taps(w, h);
    let k = wk.kernels;
    let reference = reference.unwrap_or(&wk.ref_n.hvd);
    (k.decouple123)(
        decouple::Decouple::of(reference, &wk.dis_n.hvd, &mut wk.restored, &mut wk.additive),
        stride,
        region,
        s.gain_limit,
    );
    let factors = s.factors[scale];
    let den = den::scale123(
        reference,
        (scale, stride),
        (w, h),
        factors,
        s.noise_weight,
        k.den123_row,
    );
    let rf = s.fixed[scale];
    let mut masked = |source: &[Vec<i32>; 3], masker: &[Vec<i32>; 3], nw: f64| {
        let out = weight::Weighted {
            csf: &mut wk.csf,
            activity: &mut wk.activity,
        };
        (k.weight123)(masker, out, stride, region, rf);
        let m = cm::Masking {
            source,
            masker: &wk.csf,
            activity: &wk.activity,
        };
        cm::scale123(m, scale, stride, (w, h), rf, nw, k.cm123_row)
    };
    let num = masked(&wk.restored, &wk.additive, s.noise_weight);
    let aim = if s.skip_aim {
        0.0
    } else {
        masked(&wk.additive, &wk.restored, 0.0)
    };
    (num, den, aim)
}
