//! libvmaf's integer VIF (`vif`): visual information fidelity at four scales, in libvmaf's
//! fixed-point arithmetic, bit-exact with its C code.
//!
//! Each scale compares the luma of the reference and distorted pictures under a Gaussian
//! window (`stats.rs`); between scales both are filtered and halved (`subsample.rs`). Every
//! scale writes `num / den`; with `debug=true` the sums and their totals are written too.
//! Pictures must be at least 8x8: below that the fourth scale is empty, where libvmaf
//! divides by zero (width) or reads outside its buffers (height); `init` refuses them.
//! Nothing is carried from one frame to the next, so instances may take frames in any order.

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod dispatch;
mod kernels;
mod planes;
mod split;
mod stats;
mod subsample;
mod tables;
#[cfg(target_arch = "x86_64")]
mod x86;
mod xy_plan;

#[cfg(test)]
mod tests;

/// vif's tables for the kernel checker.
#[cfg(test)]
pub(crate) use dispatch::checkasm::CHECKASM;

use super::name::feature_name;
use super::scratch;
use super::{ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptKind, OptSpec};
use super::{OptValues, Ordering};
use crate::error::{Error, Result};
use crate::frame::{Frame, Samples};

use kernels::Kernels;
use planes::{PaddedPlane, Rows};
use split::Kept;
use stats::{scale_statistic, NumDen, StatScratch, Sums, VerticalShift};
use subsample::{filter_and_decimate, finish_scale, DownScratch};
use subsample::{statistic_and_decimate_by, statistic_and_decimate_planned as planned};
use tables::half_width;

/// Long names of the features `vif` writes, in the order it writes them.
const PROVIDED: &[&str] = &[
    "VMAF_integer_feature_vif_scale0_score",
    "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score",
    "VMAF_integer_feature_vif_scale3_score",
    "integer_vif",
    "integer_vif_num",
    "integer_vif_den",
    "integer_vif_num_scale0",
    "integer_vif_den_scale0",
    "integer_vif_num_scale1",
    "integer_vif_den_scale1",
    "integer_vif_num_scale2",
    "integer_vif_den_scale2",
    "integer_vif_num_scale3",
    "integer_vif_den_scale3",
];

/// Default (and largest) enhancement gain limit.
const DEFAULT_GAIN_LIMIT: f64 = 100.0;

/// `vif`'s options, with libvmaf's names, aliases, defaults and ranges.
const OPTIONS: &[OptSpec] = &[
    OptSpec::flag("debug", false, "debug mode: enable additional output"),
    OptSpec {
        name: "vif_enhn_gain_limit",
        alias: Some("egl"),
        kind: OptKind::Double(DEFAULT_GAIN_LIMIT),
        min: 1.0,
        max: DEFAULT_GAIN_LIMIT,
        feature_param: true,
        help: "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is \
               completely disabled",
    },
    OptSpec {
        name: "vif_skip_scale0",
        alias: Some("ssclz"),
        kind: OptKind::Bool(false),
        min: 0.0,
        max: 1.0,
        feature_param: true,
        help: "when set, skip scale 0 calculations",
    },
];

/// The extractors this module defines.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: "vif",
    aliases: &[],
    provided: PROVIDED,
    options: OPTIONS,
    ordering: Ordering::Independent,
    create,
}];

/// Smallest width and height: every one of the four scales keeps at least one sample.
const MIN_SIZE: u32 = 8;

fn create(opts: &OptValues) -> Result<Box<dyn Extractor>> {
    let params = opts.non_default_params();
    Ok(Box::new(Vif {
        debug: opts.bool("debug"),
        skip_scale0: opts.bool("vif_skip_scale0"),
        gain_limit: opts.double("vif_enhn_gain_limit"),
        names: PROVIDED.iter().map(|p| feature_name(p, &params)).collect(),
        state: None,
    }))
}

/// A `vif` instance: its options, output names, and buffers made by `init`.
struct Vif {
    debug: bool,
    skip_scale0: bool,
    gain_limit: f64,
    names: Vec<String>,
    state: Option<State>,
}

/// Buffers for one geometry. Scale 0 is read from the frames themselves (see [`Luma`]);
/// every later scale from `ref16`/`dis16`.
struct State {
    geometry: Geometry,
    kernels: Kernels,
    ref16: PaddedPlane<u16>,
    dis16: PaddedPlane<u16>,
    stat: StatScratch,
    down: DownScratch,
    /// The next scale of each, written while the current one is read, then swapped in.
    next_ref: PaddedPlane<u16>,
    next_dis: PaddedPlane<u16>,
    /// The scale already in `next_ref`/`next_dis`, made with the statistic of the one
    /// above (0: none).
    made: usize,
    /// The reference's scale-0 values kept for the next rendition of the same frame, only
    /// where the buffers are shared by the renditions of one reference
    /// ([`scratch::is_shared`]; allocated on first use there).
    kept: Kept,
}

/// The luma of the reference and distorted frames at scale 0, read in place with their
/// borders mirrored by row index: 8-bit or deeper samples.
enum Luma<'a> {
    U8(Rows<'a, u8>, Rows<'a, u8>),
    U16(Rows<'a, u16>, Rows<'a, u16>),
}

impl<'a> Luma<'a> {
    /// Both frames' luma, which must hold `g.bpc`-bit samples (8-bit words at 8 bits,
    /// 16-bit words deeper).
    fn of(reference: &'a Frame, distorted: &'a Frame, g: &Geometry) -> Result<Self> {
        let (r, d) = (reference.plane(0), distorted.plane(0));
        let (w, h) = (g.width as usize, g.height as usize);
        match (r.samples(), d.samples(), g.bpc == 8) {
            (Samples::U8(a), Samples::U8(b), true) => Ok(Luma::U8(
                Rows::mirrored(a, r.stride, w, h),
                Rows::mirrored(b, d.stride, w, h),
            )),
            (Samples::U16(a), Samples::U16(b), false) => Ok(Luma::U16(
                Rows::mirrored(a, r.stride, w, h),
                Rows::mirrored(b, d.stride, w, h),
            )),
            (a, b, _) => {
                let (which, samples) = if matches!(
                    (&a, g.bpc == 8),
                    (Samples::U8(_), true) | (Samples::U16(_), false)
                ) {
                    ("distorted", b)
                } else {
                    ("reference", a)
                };
                let held = if matches!(samples, Samples::U8(_)) {
                    "8-bit"
                } else {
                    "16-bit"
                };
                Err(Error::invalid(
                    format!("{which} frame"),
                    format!(
                        "vif: luma holds {held} words, not those of {}-bit samples",
                        g.bpc
                    ),
                ))
            }
        }
    }
}

impl State {
    fn new(geometry: Geometry, kernels: Kernels) -> Self {
        let (w, h) = (geometry.width as usize, geometry.height as usize);
        State {
            geometry,
            kernels,
            ref16: PaddedPlane::new(w / 2, h / 2),
            dis16: PaddedPlane::new(w / 2, h / 2),
            stat: StatScratch::new(w),
            down: DownScratch::new(w),
            next_ref: PaddedPlane::new(w / 2, h / 2),
            next_dis: PaddedPlane::new(w / 2, h / 2),
            made: 0,
            kept: Kept::default(),
        }
    }

    /// Makes `scale` (1..=3) from the scale above, `width` x `height` (scale 1 from
    /// `luma`).
    fn down_scale(&mut self, luma: &Luma<'_>, scale: usize, width: usize, height: usize) {
        let bpc = self.geometry.bpc;
        let shift = if scale == 1 { bpc } else { 16 };
        let s = &mut self.down;
        let k = &self.kernels;
        let k8 = (k.down_vertical_u8, k.down_horizontal);
        let k16 = (k.down_vertical_u16, k.down_horizontal);
        let (next_ref, next_dis) = (&mut self.next_ref, &mut self.next_dis);
        match (scale, luma) {
            _ if std::mem::take(&mut self.made) == scale => {}
            (1, Luma::U8(r, d)) => {
                filter_and_decimate(r, width, height, scale, shift, s, next_ref, k8);
                filter_and_decimate(d, width, height, scale, shift, s, next_dis, k8);
            }
            (1, Luma::U16(r, d)) => {
                filter_and_decimate(r, width, height, scale, shift, s, next_ref, k16);
                filter_and_decimate(d, width, height, scale, shift, s, next_dis, k16);
            }
            _ => {
                let (r, d) = (self.ref16.rows(), self.dis16.rows());
                filter_and_decimate(&r, width, height, scale, shift, s, next_ref, k16);
                filter_and_decimate(&d, width, height, scale, shift, s, next_dis, k16);
            }
        }
        let (h, half) = (height / 2, half_width(scale - 1));
        finish_scale(&mut self.next_ref, &self.ref16, h, half);
        finish_scale(&mut self.next_dis, &self.dis16, h, half);
        std::mem::swap(&mut self.ref16, &mut self.next_ref);
        std::mem::swap(&mut self.dis16, &mut self.next_dis);
    }

    /// The statistic of `scale`, `width` x `height` (scale 0 from `luma`).
    fn statistic(
        &mut self,
        luma: &Luma<'_>,
        scale: usize,
        width: usize,
        height: usize,
        gain_limit: f64,
    ) -> NumDen {
        let bpc = self.geometry.bpc;
        let shift = VerticalShift::at(scale, bpc);
        let s = &mut self.stat;
        let k = &self.kernels;
        let k16 = (k.vertical_u16, k.horizontal);
        // Scales 0 and 1 also make the next scale while their rows are read.
        if scale < 2 {
            self.made = scale + 1;
        }
        let (r16, d16) = (self.ref16.rows(), self.dis16.rows());
        let next = (&mut self.next_ref, &mut self.next_dis);
        let scratch = (s, &mut self.down);
        let (w, h, g) = (width, height, gain_limit);
        match (scale, luma) {
            // The row loops that run the deferred pass, so may skip `ref·dis` sums.
            (0, Luma::U8(r, d)) => {
                let fns = (k.vertical_u8, k.vertical_down_u8, k.down_horizontal);
                let rows = (k.horizontal, k.deferred_u8);
                planned((r, d), (w, h, g), (0, shift), scratch, next, fns, rows)
            }
            (0, Luma::U16(r, d)) => {
                let fns = (k.vertical_u16, k.vertical_down_u16, k.down_horizontal);
                let rows = (k.horizontal, k.deferred_u16);
                planned((r, d), (w, h, g), (0, shift), scratch, next, fns, rows)
            }
            (1, _) => {
                let fns = (k.vertical_u16, k.vertical_down_u16, k.down_horizontal);
                let rows = (k.horizontal, k.deferred_u16);
                planned(
                    (&r16, &d16),
                    (w, h, g),
                    (1, shift),
                    scratch,
                    next,
                    fns,
                    rows,
                )
            }
            _ => scale_statistic((&r16, &d16), w, h, scale, shift, g, scratch.0, k16),
        }
    }
}

impl State {
    /// The statistic of scale 0, `width` x `height`, where the buffers are shared by the
    /// renditions of one reference and `key` names the reference frame: the first
    /// rendition of the frame runs the fused passes keeping the reference's values
    /// (`split.rs`), the next ones only the distorted side's horizontal pass. Makes scale
    /// 1 on the way, as [`State::statistic`] does.
    fn shared_scale0(
        &mut self,
        luma: &Luma<'_>,
        (width, height): (usize, usize),
        gain_limit: f64,
        key: (u64, usize),
    ) -> NumDen {
        let shift = VerticalShift::at(0, self.geometry.bpc);
        let k = self.kernels;
        self.made = 1;
        let kept = &mut self.kept;
        let fresh = kept.of != Some(key);
        if fresh {
            kept.of = None;
            let n = width * height;
            if kept.mu1.len() < n {
                kept.mu1 = vec![0; n];
                kept.sigma1 = vec![0; n];
            }
        }
        let (mu1, sigma1) = (&mut kept.mu1, &mut kept.sigma1);
        let next = (&mut self.next_ref, &mut self.next_dis);
        let scratch = (&mut self.stat, &mut self.down);
        let (w, h, g) = (width, height, gain_limit);
        let row = move |y: usize| y * w..(y + 1) * w;
        let sums = if fresh {
            let keep = k.horizontal_keep;
            let rows = |s: &mut StatScratch, y: usize, sums: &mut Sums| {
                keep(s, w, 0, g, sums, &mut mu1[row(y)], &mut sigma1[row(y)])
            };
            match luma {
                Luma::U8(r, d) => {
                    let fns = (k.vertical_u8, k.vertical_down_u8, rows, k.down_horizontal);
                    statistic_and_decimate_by((r, d), w, h, 0, shift, scratch, next, fns)
                }
                Luma::U16(r, d) => {
                    let fns = (k.vertical_u16, k.vertical_down_u16, rows, k.down_horizontal);
                    statistic_and_decimate_by((r, d), w, h, 0, shift, scratch, next, fns)
                }
            }
        } else {
            let dis = k.horizontal_dis;
            let rows = |s: &mut StatScratch, y: usize, sums: &mut Sums| {
                dis(s, w, 0, g, sums, &mu1[row(y)], &sigma1[row(y)])
            };
            let mut sums = match luma {
                Luma::U8(r, d) => {
                    let fns = (k.vertical_u8, k.vertical_down_u8, rows, k.down_horizontal);
                    statistic_and_decimate_by((r, d), w, h, 0, shift, scratch, next, fns)
                }
                Luma::U16(r, d) => {
                    let fns = (k.vertical_u16, k.vertical_down_u16, rows, k.down_horizontal);
                    statistic_and_decimate_by((r, d), w, h, 0, shift, scratch, next, fns)
                }
            };
            sums.add_totals(0, kept.den.0, 0, kept.den.1);
            sums
        };
        if fresh {
            kept.den = sums.den();
            kept.of = Some(key);
        }
        sums.finish()
    }
}

/// Checks that `frame` has the geometry `vif` was set up for.
fn check_frame(frame: &Frame, which: &str, g: &Geometry) -> Result<()> {
    let got = (frame.bpc(), frame.width(), frame.height());
    if got != (g.bpc, g.width, g.height) {
        return Err(Error::invalid(
            format!("{which} frame"),
            format!(
                "vif: frame is {}x{} at {} bits; set up for {}x{} at {} bits",
                got.1, got.2, got.0, g.width, g.height, g.bpc
            ),
        ));
    }
    Ok(())
}

impl Vif {
    /// Writes the scores of one frame in libvmaf's order.
    fn write(&self, scales: &[NumDen; 4], index: u64, out: &mut FrameScores) {
        let ratio = |s: &NumDen| (s.num / s.den) as f64;
        let n = &self.names;
        out.put(
            &n[0],
            index,
            if self.skip_scale0 {
                0.0
            } else {
                ratio(&scales[0])
            },
        );
        for s in 1..4 {
            out.put(&n[s], index, ratio(&scales[s]));
        }
        if !self.debug {
            return;
        }
        let first = if self.skip_scale0 { 1 } else { 0 };
        let num: f64 = scales[first..].iter().map(|s| s.num as f64).sum();
        let den: f64 = scales[first..].iter().map(|s| s.den as f64).sum();
        out.put(&n[4], index, if den == 0.0 { 1.0 } else { num / den });
        out.put(&n[5], index, num);
        out.put(&n[6], index, den);
        for (s, sc) in scales.iter().enumerate() {
            let (num, den) = if s == 0 && self.skip_scale0 {
                (0.0, -1.0)
            } else {
                (sc.num as f64, sc.den as f64)
            };
            out.put(&n[7 + 2 * s], index, num);
            out.put(&n[8 + 2 * s], index, den);
        }
    }
}

impl Extractor for Vif {
    fn kernel_level(&self) -> Option<crate::cpu::CpuLevel> {
        self.state.as_ref().map(|s| s.kernels.level)
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        &["vif"]
    }

    fn init(&mut self, geometry: Geometry) -> Result<()> {
        if !(8..=16).contains(&geometry.bpc) {
            return Err(Error::range(
                "bit depth",
                format!(
                    "vif: {} bits per component; 8 to 16 are supported",
                    geometry.bpc
                ),
            ));
        }
        for (what, v) in [("width", geometry.width), ("height", geometry.height)] {
            if v < MIN_SIZE {
                return Err(Error::range(
                    what,
                    format!("vif: {what} {v} is below {MIN_SIZE}, leaving its fourth scale empty"),
                ));
            }
        }
        self.state = Some(State::new(geometry, Kernels::current()));
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let Some(state) = self.state.as_mut() else {
            return Err(Error::invalid("vif", "extract called before init"));
        };
        let g = state.geometry;
        check_frame(input.reference, "reference", &g)?;
        check_frame(input.distorted, "distorted", &g)?;
        let luma = Luma::of(input.reference, input.distorted, &g)?;

        let mut scales = [NumDen::default(); 4];
        let first = if self.skip_scale0 { 1 } else { 0 };
        let gain_limit = self.gain_limit;
        let (w, h) = (g.width as usize, g.height as usize);
        let key = scratch::shape_key(w, h, g.bpc, state.kernels.level as u8);
        let make = |s: &State| State::new(s.geometry, s.kernels);
        let reference = scratch::reference_key(input.index, input.reference);
        scratch::lend(state, key, make, |state| {
            let (mut w, mut h) = (w, h);
            for (scale, result) in scales.iter_mut().enumerate() {
                if scale > 0 {
                    state.down_scale(&luma, scale, w, h);
                    w /= 2;
                    h /= 2;
                }
                if scale < first {
                    continue;
                }
                *result = match reference {
                    Some(key) if scale == 0 => state.shared_scale0(&luma, (w, h), gain_limit, key),
                    _ => state.statistic(&luma, scale, w, h, gain_limit),
                };
            }
        });
        self.write(&scales, input.index, out);
        Ok(())
    }
}
