//! SpEED (spatial efficient entropic differencing) as libvmaf computes it: `speed_chroma`
//! (the U and V planes, used by the vmaf_v1.0.16 models) and `speed_temporal` (the luma
//! difference of consecutive frames).
//!
//! Each plane is optionally prescaled, low-passed and decimated by 16, its local mean
//! removed; the covariance of 5x5 neighbourhoods gives per-block variances and entropies,
//! and the score is the mean absolute difference of variance-weighted entropies. Where a
//! plane's covariance is singular libvmaf (and this) use a zero solution.

mod chroma;
mod compute;
mod dispatch;
mod estimate;
mod filter;
mod linalg;
mod params;
mod scale;
mod temporal;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(test)]
pub(crate) use dispatch::checkasm::CHECKASM;

use super::{ExtractorInfo, OptKind, OptSpec, Ordering, Reach};

const KERNELSCALE: OptSpec = OptSpec::param(
    "speed_kernelscale",
    "ks",
    OptKind::Double(1.0),
    0.1,
    4.0,
    "scaling factor for the Gaussian kernel (2.0 doubles its standard deviation and size)",
);
const PRESCALE: OptSpec = OptSpec::param(
    "speed_prescale",
    "ps",
    OptKind::Double(1.0),
    0.1,
    4.0,
    "scaling factor for the frame (2.0 makes it twice as large each way)",
);
const PRESCALE_METHOD: OptSpec = OptSpec {
    name: "speed_prescale_method",
    alias: Some("psm"),
    kind: OptKind::Str("nearest"),
    min: 0.0,
    max: 0.0,
    feature_param: true,
    help: "prescale method: nearest, bilinear, bicubic or lanczos4",
};
const SIGMA_NN: OptSpec = OptSpec::param(
    "speed_sigma_nn",
    "snn",
    OptKind::Double(0.29),
    0.1,
    2.0,
    "standard deviation of neural noise",
);
const NN_FLOOR: OptSpec = OptSpec::param(
    "speed_nn_floor",
    "nnf",
    OptKind::Double(0.0),
    0.0,
    1.0,
    "neural noise floor, as a fraction of speed_sigma_nn",
);
const MAX_VAL: OptSpec = OptSpec::param(
    "speed_max_val",
    "mxv",
    OptKind::Double(1000.0),
    0.0,
    1000.0,
    "largest value written; larger ones are clipped (speed_chroma only; libvmaf's \
     speed_temporal accepts it and ignores it)",
);

static CHROMA_OPTIONS: &[OptSpec] = &[
    KERNELSCALE,
    PRESCALE,
    PRESCALE_METHOD,
    SIGMA_NN,
    NN_FLOOR,
    MAX_VAL,
    OptSpec::param(
        "speed_weight_var_mode",
        "wvm",
        OptKind::Int(0),
        0.0,
        6.0,
        "variance weighting: 0 own, 1 ref, 2 dis, 3 mean, 4 ref / mean, 5 ref / 0.75 ref + \
         0.25 dis, 6 ref / 0.25 ref + 0.75 dis",
    ),
];

static TEMPORAL_OPTIONS: &[OptSpec] = &[
    KERNELSCALE,
    PRESCALE,
    PRESCALE_METHOD,
    SIGMA_NN,
    NN_FLOOR,
    MAX_VAL,
    OptSpec {
        name: "speed_use_ref_diff",
        alias: Some("urd"),
        kind: OptKind::Bool(false),
        min: 0.0,
        max: 1.0,
        feature_param: true,
        help: "take the distorted difference against the reference frame",
    },
];

/// Frames `speed_temporal`'s score at frame n reads: the luma of frame n - 1 (whatever
/// the options).
pub(crate) const TEMPORAL_REACH: Reach = Reach::Frames {
    before: 1,
    after: 0,
};

/// The extractors this module defines.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[
    ExtractorInfo {
        name: "speed_chroma",
        aliases: &[],
        provided: &chroma::PROVIDED,
        options: CHROMA_OPTIONS,
        ordering: Ordering::Independent,
        create: chroma::create,
    },
    ExtractorInfo {
        name: "speed_temporal",
        aliases: &[],
        provided: &[temporal::PROVIDED],
        options: TEMPORAL_OPTIONS,
        ordering: Ordering::Temporal,
        create: temporal::create,
    },
];
