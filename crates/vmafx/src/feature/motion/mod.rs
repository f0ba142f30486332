//! libvmaf's integer motion extractor (`motion`), and VMAFx's `motion_v2` name for its
//! per-frame value.
//!
//! Per frame, `motion` writes the SAD score: the mean absolute blurred difference between
//! the luma of this reference and of the previous one (two back with
//! `motion_five_frame_window`), divided by 256, weighted by `motion_fps_weight` and capped
//! at `motion_max_val`; 0 on the first frame(s). With `debug` the same value is also
//! written as `VMAF_integer_feature_motion_score`. After the last frame, `flush` derives
//! `motion2` (the smaller SAD of a frame and the next) and `motion3` (motion2 blended
//! towards `motion_blend_offset`, capped, optionally averaged with the previous frame's)
//! from the collected SAD scores, as libvmaf's flush does.
//!
//! `motion_v2` is a second entry with the same options and kernel that writes the
//! per-frame SAD *instead* under `VMAF_integer_feature_motion_v2_sad_score` and nothing
//! else (no debug copy, no motion2/motion3), so it can run beside `motion` without the two
//! writing the same names. It is a separate entry, not an alias of `motion`, because the
//! create function sees only options.

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod dispatch;
mod extractor;
mod kernel;
mod kernels;
mod names;
mod sad;
mod temporal;
mod words;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(test)]
mod tests;

/// motion's tables for the kernel checker.
#[cfg(test)]
pub(crate) use dispatch::checkasm::CHECKASM;

use super::{ExtractorInfo, OptKind, OptSpec, OptValues, Ordering, Reach};

pub(crate) use names::{MOTION, MOTION2, MOTION3, SAD, V2_SAD};

/// Default of `motion_max_val` (also its largest value).
pub(crate) const DEFAULT_MAX_VAL: f64 = 10000.0;

/// libvmaf's option table of the motion extractor (defaults, ranges, aliases, flags).
pub(crate) static OPTIONS: &[OptSpec] = &[
    OptSpec::param(
        "motion_force_zero",
        "force_0",
        OptKind::Bool(false),
        0.0,
        1.0,
        "forcing motion score to zero",
    ),
    OptSpec::param(
        "motion_blend_factor",
        "mbf",
        OptKind::Double(1.0),
        0.0,
        1.0,
        "blend motion score given an offset",
    ),
    OptSpec::param(
        "motion_blend_offset",
        "mbo",
        OptKind::Double(40.0),
        0.0,
        1000.0,
        "blend motion score starting from this offset",
    ),
    OptSpec::param(
        "motion_fps_weight",
        "mfw",
        OptKind::Double(1.0),
        0.0,
        5.0,
        "fps-aware multiplicative weight/correction",
    ),
    OptSpec::param(
        "motion_max_val",
        "mmxv",
        OptKind::Double(DEFAULT_MAX_VAL),
        0.0,
        DEFAULT_MAX_VAL,
        "maximum value allowed; larger values will be clipped to this value",
    ),
    OptSpec::param(
        "motion_five_frame_window",
        "mffw",
        OptKind::Bool(false),
        0.0,
        1.0,
        "use five-frame temporal window",
    ),
    OptSpec::param(
        "motion_moving_average",
        "mma",
        OptKind::Bool(false),
        0.0,
        1.0,
        "use moving average for motion scores after first frame",
    ),
    OptSpec::flag("debug", false, "debug mode: enable additional output"),
];

/// Frames `motion`'s scores at frame n read. The SAD compares with the reference `s` frames
/// back (`s` = 2 with `motion_five_frame_window`, else 1); motion2 takes the smaller SAD of
/// frames n + 1 - s and n + 1, so it reads frames n + 1 - 2s ..= n + 1; the moving average
/// adds motion2 of frame n - 1 (s frames further back; not recursive: it averages the
/// processed motion2 values, not the previous average). The first frames take the processed
/// SAD of frame s, hence s frames after.
pub(crate) fn reach(opts: &OptValues) -> Reach {
    let s = sad_distance(opts);
    let before = if opts.bool("motion_moving_average") {
        2 * s
    } else {
        2 * s - 1
    };
    Reach::Frames { before, after: s }
}

/// Frames `motion_v2`'s per-frame SAD at frame n reads: the reference 1 (or 2, with
/// `motion_five_frame_window`) frames back.
pub(crate) fn reach_v2(opts: &OptValues) -> Reach {
    Reach::Frames {
        before: sad_distance(opts),
        after: 0,
    }
}

/// How far back the reference frame a SAD compares with lies, for `motion` and
/// `motion_v2` alike: 2 with `motion_five_frame_window`, else 1. Those are the earlier
/// frames the context must keep for them (a frame n - 2 reader needs n - 1 kept too, as
/// the next frame's n - 2).
pub(crate) fn sad_distance(opts: &OptValues) -> u64 {
    if opts.bool("motion_five_frame_window") {
        2
    } else {
        1
    }
}

/// The extractors this module defines: `motion`, then `motion_v2`.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[
    ExtractorInfo {
        name: "motion",
        aliases: &[],
        provided: &[SAD, MOTION, MOTION2, MOTION3],
        options: OPTIONS,
        ordering: Ordering::PrevRef,
        create: extractor::create_motion,
    },
    ExtractorInfo {
        name: "motion_v2",
        aliases: &[],
        provided: &[V2_SAD],
        options: OPTIONS,
        ordering: Ordering::PrevRef,
        create: extractor::create_motion_v2,
    },
];
