//! The long names of the scores motion and motion_v2 write.

/// The per-frame SAD score `motion` writes.
pub(crate) const SAD: &str = "VMAF_integer_feature_motion_sad_score";
/// The debug copy of the per-frame score.
pub(crate) const MOTION: &str = "VMAF_integer_feature_motion_score";
/// min(SAD of this frame, SAD of the next), written by flush.
pub(crate) const MOTION2: &str = "VMAF_integer_feature_motion2_score";
/// Blended, capped (and optionally averaged) motion2, written by flush.
pub(crate) const MOTION3: &str = "VMAF_integer_feature_motion3_score";
/// The per-frame SAD score under VMAFx's `motion_v2` name.
pub(crate) const V2_SAD: &str = "VMAF_integer_feature_motion_v2_sad_score";
