//! The motion extractor instance: options, buffers, per-frame scoring and flush.

use super::kernel::{LumaView, MIN_DIMENSION};
use super::kernels::Kernels;
use super::names::{MOTION, MOTION2, MOTION3, SAD, V2_SAD};
use super::sad::{plane_sad, Scratch};
use super::temporal::{late_scores, Blend};
use crate::error::{Error, Result};
use crate::feature::name::feature_name;
use crate::feature::{ExtractInput, Extractor, FrameScores, Geometry, OptValues, ScoreStore};
use crate::frame::{Frame, Samples};

/// Which entry made the instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    /// libvmaf's `motion`: SAD, debug copy, motion2 and motion3.
    Motion,
    /// VMAFx's `motion_v2`: the per-frame SAD under its own name only.
    V2,
}

/// Collector keys, with libvmaf's suffixes for non-default feature parameters.
#[derive(Debug, Clone)]
struct Names {
    sad: String,
    motion: String,
    motion2: String,
    motion3: String,
}

/// The motion extractor.
#[derive(Debug)]
pub(super) struct Motion {
    variant: Variant,
    force_zero: bool,
    fps_weight: f64,
    max_val: f64,
    five_frame_window: bool,
    blend: Blend,
    debug: bool,
    names: Names,
    geometry: Option<Geometry>,
    scratch: Scratch,
    kernels: Kernels,
    /// The first index fed (above 0 for a chunk fed from its pre-roll).
    first: u64,
}

/// Makes libvmaf's `motion`.
pub(super) fn create_motion(opts: &OptValues) -> Result<Box<dyn Extractor>> {
    Ok(Box::new(Motion::new(opts, Variant::Motion)))
}

/// Makes VMAFx's `motion_v2`.
pub(super) fn create_motion_v2(opts: &OptValues) -> Result<Box<dyn Extractor>> {
    Ok(Box::new(Motion::new(opts, Variant::V2)))
}

impl Motion {
    fn new(opts: &OptValues, variant: Variant) -> Self {
        let params = opts.non_default_params();
        let name = |provided: &str| feature_name(provided, &params);
        Motion {
            variant,
            force_zero: opts.bool("motion_force_zero"),
            fps_weight: opts.double("motion_fps_weight"),
            max_val: opts.double("motion_max_val"),
            five_frame_window: opts.bool("motion_five_frame_window"),
            blend: Blend {
                factor: opts.double("motion_blend_factor"),
                offset: opts.double("motion_blend_offset"),
                max_val: opts.double("motion_max_val"),
                moving_average: opts.bool("motion_moving_average"),
                five_frame_window: opts.bool("motion_five_frame_window"),
            },
            debug: opts.bool("debug"),
            names: Names {
                sad: name(if variant == Variant::V2 { V2_SAD } else { SAD }),
                motion: name(MOTION),
                motion2: name(MOTION2),
                motion3: name(MOTION3),
            },
            geometry: None,
            scratch: Scratch::default(),
            kernels: Kernels::SCALAR,
            first: 0,
        }
    }

    /// The first index that has a frame to compare with.
    fn min_index(&self) -> u64 {
        if self.five_frame_window {
            2
        } else {
            1
        }
    }

    /// The first index whose SAD this run can compute: 0 from the start of a video;
    /// past a later first frame, the first whose comparison frame was fed.
    fn first_sad(&self) -> u64 {
        if self.first == 0 {
            0
        } else {
            self.first + self.min_index()
        }
    }

    fn score(&mut self, g: Geometry, input: &ExtractInput<'_>) -> Result<f64> {
        if self.force_zero || input.index < self.min_index() {
            return Ok(0.0);
        }
        let (prev, what) = if self.five_frame_window {
            (input.prev_prev_reference, "prev_prev_reference")
        } else {
            (input.prev_reference, "prev_reference")
        };
        let Some(prev) = prev else {
            return Err(Error::invalid(
                what,
                format!(
                    "motion needs the reference frame {} back at index {}",
                    self.min_index(),
                    input.index
                ),
            ));
        };
        let sad = match (luma(prev, g, what)?, luma(input.reference, g, "reference")?) {
            (Luma::U8(p), Luma::U8(c)) => plane_sad(&self.kernels, p, c, g.bpc, &mut self.scratch),
            (Luma::U16(p), Luma::U16(c)) => {
                plane_sad(&self.kernels, p, c, g.bpc, &mut self.scratch)
            }
            _ => {
                return Err(Error::invalid(
                    what,
                    "previous and current reference store samples differently",
                ))
            }
        };
        let area = g.width as f64 * g.height as f64;
        let score = sad as f64 / 256.0 / area * self.fps_weight;
        Ok(if score < self.max_val {
            score
        } else {
            self.max_val
        })
    }
}

impl Extractor for Motion {
    fn kernel_level(&self) -> Option<crate::cpu::CpuLevel> {
        self.geometry.map(|_| self.kernels.level)
    }

    fn kernel_families(&self) -> &'static [&'static str] {
        &["motion"]
    }

    fn init(&mut self, geometry: Geometry) -> Result<()> {
        crate::frame::validate_geometry(
            geometry.format,
            geometry.bpc,
            geometry.width,
            geometry.height,
        )?;
        for (what, v) in [("width", geometry.width), ("height", geometry.height)] {
            if v < MIN_DIMENSION {
                return Err(Error::range(
                    what,
                    format!("motion needs a luma {what} of at least {MIN_DIMENSION}, got {v}"),
                ));
            }
        }
        self.scratch = Scratch::new(geometry.width as usize);
        self.kernels = super::dispatch::KERNELS.current();
        self.geometry = Some(geometry);
        Ok(())
    }

    fn extract(&mut self, input: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let Some(g) = self.geometry else {
            return Err(Error::invalid("motion", "extract called before init"));
        };
        if input.index < self.first_sad() {
            // Its comparison frame precedes the chunk's pre-roll: nothing to write.
            return Ok(());
        }
        let score = self.score(g, input)?;
        out.put(&self.names.sad, input.index, score);
        if self.debug && self.variant == Variant::Motion {
            out.put(&self.names.motion, input.index, score);
        }
        Ok(())
    }

    fn start_at(&mut self, first: u64) {
        self.first = first;
    }

    fn flush(&mut self, store: &mut dyn ScoreStore) -> Result<()> {
        if self.variant == Variant::Motion {
            late_scores(
                store,
                self.first_sad(),
                &self.names.sad,
                &self.names.motion2,
                &self.names.motion3,
                &self.blend,
            );
        }
        Ok(())
    }
}

/// The luma plane of a frame, typed by its depth.
enum Luma<'a> {
    U8(LumaView<'a, u8>),
    U16(LumaView<'a, u16>),
}

/// The luma of `frame` after checking it against the geometry given at init.
fn luma<'a>(frame: &'a Frame, g: Geometry, what: &str) -> Result<Luma<'a>> {
    if (frame.width(), frame.height(), frame.bpc()) != (g.width, g.height, g.bpc) {
        return Err(Error::invalid(
            what,
            format!(
                "frame is {}x{} at {} bits; motion was set up for {}x{} at {} bits",
                frame.width(),
                frame.height(),
                frame.bpc(),
                g.width,
                g.height,
                g.bpc
            ),
        ));
    }
    let plane = frame.plane(0);
    let (width, height, stride) = (plane.width as usize, plane.height as usize, plane.stride);
    let fits = |len: usize| {
        width == g.width as usize
            && height == g.height as usize
            && stride >= width
            && len >= (height - 1) * stride + width
    };
    let bad = || Error::invalid(what, "luma plane does not hold the frame's samples");
    match plane.samples() {
        Samples::U8(s) if g.bpc == 8 => {
            if !fits(s.len()) {
                return Err(bad());
            }
            Ok(Luma::U8(LumaView {
                samples: s,
                width,
                height,
                stride,
            }))
        }
        Samples::U16(s) if g.bpc > 8 => {
            if !fits(s.len()) {
                return Err(bad());
            }
            Ok(Luma::U16(LumaView {
                samples: s,
                width,
                height,
                stride,
            }))
        }
        _ => Err(Error::invalid(
            what,
            format!("luma samples are not stored as a {}-bit frame's", g.bpc),
        )),
    }
}
