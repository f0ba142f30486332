//! libvmaf's integer PSNR extractor (`psnr`): `psnr_y`, `psnr_cb`, `psnr_cr` per frame.
//!
//! PSNR is `10 log10(peak² / mse)` per plane, with `mse` floored at 1e-16 and the result
//! capped at `6 * bpc + 12` dB (60 at 8 bits, 72 at 10), or with `min_sse` at the PSNR
//! that SSE gives, rounded up. The peak is `2^bpc - 1`, or `255 << (bpc - 8)` with
//! `reduced_hbd_peak`. 4:0:0 input has luma only. `enable_mse` adds `mse_y/cb/cr`.
//!
//! `enable_apsnr` adds the whole run's PSNR of each plane (`apsnr_y/cb/cr`, libvmaf's
//! `aggregate_metrics`): `10 log10(peak² · pixels / sse)` over the sums of every frame's
//! SSE and pixel count, capped at `ceil(10 log10(peak² · pixels · 2))`. The extractor is
//! then temporal (one instance sees every frame, subsampled or not, as libvmaf's does), and
//! cannot score part of a video.
//!
//! Differences from libvmaf: libvmaf scores only 8, 10, 12 and 16 bits; this scores every
//! depth 8..=16 with the same formula. Without chroma (`enable_chroma=false`, or 4:0:0)
//! libvmaf writes `apsnr_cb` and `apsnr_cr` as `-inf` (null in JSON) from empty sums; this
//! writes `apsnr_y` only.

mod dispatch;
mod kernels;
mod sse;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(test)]
mod tests;

/// psnr's tables for the kernel checker.
#[cfg(test)]
pub(crate) use dispatch::checkasm::CHECKASM;
#[cfg(test)]
use sse::{sse_u16, sse_u8};

use dispatch::KERNELS;
use kernels::Kernels;

use super::{
    ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptKind, OptSpec, OptValues,
    Ordering,
};
use crate::error::{Error, Result};
use crate::frame::{plane_sizes, Frame, PixelFormat, Samples};

/// Per-plane PSNR names.
pub(crate) const PSNR_NAMES: [&str; 3] = ["psnr_y", "psnr_cb", "psnr_cr"];
/// Per-plane MSE names (with `enable_mse`).
pub(crate) const MSE_NAMES: [&str; 3] = ["mse_y", "mse_cb", "mse_cr"];
/// Per-plane whole-run PSNR names (with `enable_apsnr`).
pub(crate) const APSNR_NAMES: [&str; 3] = ["apsnr_y", "apsnr_cb", "apsnr_cr"];

/// Whether psnr with `options` writes whole-run values (`enable_apsnr`), which makes it
/// temporal (see the registry's `ordering`).
pub(crate) fn aggregates(options: &OptValues) -> bool {
    options.bool("enable_apsnr")
}

/// libvmaf's option table of the psnr extractor.
pub(crate) static OPTIONS: &[OptSpec] = &[
    OptSpec::flag(
        "enable_chroma",
        true,
        "enable calculation for chroma channels",
    ),
    OptSpec::flag("enable_mse", false, "enable MSE calculation"),
    OptSpec::flag("enable_apsnr", false, "enable APSNR calculation"),
    OptSpec::flag(
        "reduced_hbd_peak",
        false,
        "reduce hbd peak value to align with scaled 8-bit content",
    ),
    OptSpec {
        name: "min_sse",
        alias: None,
        kind: OptKind::Double(0.0),
        min: 0.0,
        max: f64::MAX,
        feature_param: false,
        help: "constrain the minimum possible sse",
    },
];

/// The extractors this module defines.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: "psnr",
    aliases: &[],
    provided: &PSNR_NAMES,
    options: OPTIONS,
    ordering: Ordering::Independent,
    create,
}];

/// Set up for one geometry.
#[derive(Debug, Clone, Copy)]
struct Setup {
    geometry: Geometry,
    planes: usize,
    /// The peak squared, as C's `unsigned` product.
    peak_sq: u32,
    psnr_max: [f64; 3],
}

/// The psnr extractor.
#[derive(Debug)]
pub(crate) struct Psnr {
    enable_chroma: bool,
    enable_mse: bool,
    /// With `enable_apsnr`: each plane's SSE and pixel count summed over the frames so far
    /// (wrapping, as libvmaf's `uint64_t` sums).
    run_sums: Option<[(u64, u64); 3]>,
    reduced_hbd_peak: bool,
    min_sse: f64,
    setup: Option<Setup>,
    kernels: Kernels,
}

fn create(opts: &OptValues) -> Result<Box<dyn Extractor>> {
    Ok(Box::new(Psnr {
        enable_chroma: opts.bool("enable_chroma"),
        enable_mse: opts.bool("enable_mse"),
        run_sums: aggregates(opts).then_some([(0, 0); 3]),
        reduced_hbd_peak: opts.bool("reduced_hbd_peak"),
        min_sse: opts.double("min_sse"),
        setup: None,
        kernels: Kernels::SCALAR,
    }))
}

/// `min(a, b)` as C's `MIN` macro picks.
fn c_min(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

impl Extractor for Psnr {
    fn init(&mut self, g: Geometry) -> Result<()> {
        crate::frame::validate_geometry(g.format, g.bpc, g.width, g.height)?;
        let peak: u32 = if self.reduced_hbd_peak {
            255 << (g.bpc - 8)
        } else {
            (1 << g.bpc) - 1
        };
        let peak_sq = peak.wrapping_mul(peak);
        let chroma = self.enable_chroma && g.format != PixelFormat::Yuv400p;
        let mut psnr_max = [(6 * g.bpc + 12) as f64; 3];
        if self.min_sse != 0.0 {
            let sub_w = g.format != PixelFormat::Yuv444p;
            let sub_h = g.format == PixelFormat::Yuv420p;
            for (i, m) in psnr_max.iter_mut().enumerate() {
                let w = if i > 0 && sub_w { g.width / 2 } else { g.width };
                let h = if i > 0 && sub_h {
                    g.height / 2
                } else {
                    g.height
                };
                let mse = self.min_sse / (w as f64 * h as f64);
                *m = (10.0 * (peak_sq as f64 / mse).log10()).ceil();
            }
        }
        self.kernels = KERNELS.current();
        self.setup = Some(Setup {
            geometry: g,
            planes: if chroma { 3 } else { 1 },
            peak_sq,
            psnr_max,
        });
        Ok(())
    }

    fn kernel_level(&self) -> Option<crate::cpu::CpuLevel> {
        self.setup.map(|_| self.kernels.level)
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        &["psnr"]
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let Some(s) = self.setup else {
            return Err(Error::invalid("psnr", "extract called before init"));
        };
        let g = s.geometry;
        check(input.reference, g, "reference")?;
        check(input.distorted, g, "distorted")?;
        let sizes = plane_sizes(g.format, g.width, g.height);
        for (p, &(w, h)) in sizes.iter().enumerate().take(s.planes) {
            let (r, d) = (input.reference.plane(p), input.distorted.plane(p));
            let (wu, hu) = (w as usize, h as usize);
            let fits = |len: usize, stride: usize| {
                stride >= wu && (hu == 0 || len >= (hu - 1) * stride + wu)
            };
            let sse = match (r.samples(), d.samples()) {
                (Samples::U8(a), Samples::U8(b))
                    if fits(a.len(), r.stride) && fits(b.len(), d.stride) =>
                {
                    (self.kernels.sse_u8)(a, r.stride, b, d.stride, wu, hu)
                }
                (Samples::U16(a), Samples::U16(b))
                    if fits(a.len(), r.stride) && fits(b.len(), d.stride) =>
                {
                    (self.kernels.sse_u16)(a, r.stride, b, d.stride, wu, hu)
                }
                _ => {
                    return Err(Error::invalid(
                        format!("plane {p}"),
                        "reference and distorted planes do not hold the frame's samples",
                    ))
                }
            };
            if let Some(sums) = &mut self.run_sums {
                // libvmaf adds the plane's `w * h` as an `unsigned` product.
                let pixels = u64::from(w.wrapping_mul(h));
                sums[p].0 = sums[p].0.wrapping_add(sse);
                sums[p].1 = sums[p].1.wrapping_add(pixels);
            }
            let mse = sse as f64 / (w as f64 * h as f64);
            let floor = if mse > 1e-16 { mse } else { 1e-16 };
            let psnr = c_min(10.0 * (s.peak_sq as f64 / floor).log10(), s.psnr_max[p]);
            out.put(PSNR_NAMES[p], input.index, psnr);
            if self.enable_mse {
                out.put(MSE_NAMES[p], input.index, mse);
            }
        }
        Ok(())
    }

    fn flush(&mut self, store: &mut dyn super::ScoreStore) -> Result<()> {
        let (Some(sums), Some(s)) = (self.run_sums, self.setup) else {
            return Ok(());
        };
        for (p, &(sse, pixels)) in sums.iter().enumerate().take(s.planes) {
            store.put_aggregate(APSNR_NAMES[p], whole_run_psnr(s.peak_sq, sse, pixels));
        }
        Ok(())
    }
}

/// The PSNR of `pixels` samples whose squared errors sum to `sse`, with peak² `peak_sq`, in
/// libvmaf's steps: the logarithms taken apart (an SSE of 0 gives +inf, then the cap), and
/// the cap's product in C's `unsigned` and `uint64_t` arithmetic.
fn whole_run_psnr(peak_sq: u32, sse: u64, pixels: u64) -> f64 {
    let psnr = 10.0 * ((peak_sq as f64).log10() + (pixels as f64).log10() - (sse as f64).log10());
    let cap = u64::from(peak_sq).wrapping_mul(pixels).wrapping_mul(2);
    c_min(psnr, (10.0 * (cap as f64).log10()).ceil())
}

/// Checks a frame against the geometry given at init.
fn check(frame: &Frame, g: Geometry, what: &str) -> Result<()> {
    let got = (frame.format(), frame.bpc(), frame.width(), frame.height());
    if got != (g.format, g.bpc, g.width, g.height) {
        return Err(Error::invalid(
            what,
            format!(
                "frame is {} {}x{} at {} bits; psnr was set up for {} {}x{} at {} bits",
                got.0, got.2, got.3, got.1, g.format, g.width, g.height, g.bpc
            ),
        ));
    }
    let sizes = plane_sizes(g.format, g.width, g.height);
    let planes = frame.planes();
    if planes.len() != sizes.len()
        || planes
            .iter()
            .zip(&sizes)
            .any(|(p, &s)| (p.width, p.height) != s)
    {
        return Err(Error::invalid(
            what,
            "plane sizes do not match the frame's format",
        ));
    }
    Ok(())
}
