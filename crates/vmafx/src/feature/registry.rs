//! The table of every extractor this build has.

use super::{ExtractorInfo, OptValues, Ordering, Reach};
use crate::error::{Error, Result};

/// Every extractor, in a fixed order.
pub fn all() -> Vec<&'static ExtractorInfo> {
    let groups: &[&[ExtractorInfo]] = &[
        super::psnr::EXTRACTORS,
        super::vif::EXTRACTORS,
        super::adm::EXTRACTORS,
        super::motion::EXTRACTORS,
        super::ciede::EXTRACTORS,
        super::float_ssim::EXTRACTORS,
        super::float_ms_ssim::EXTRACTORS,
        super::psnr_hvs::EXTRACTORS,
        super::cambi::EXTRACTORS,
        super::float_vif::EXTRACTORS,
        super::float_adm::EXTRACTORS,
        super::float_motion::EXTRACTORS,
        super::speed::EXTRACTORS,
        super::float_psnr::EXTRACTORS,
        super::float_ansnr::EXTRACTORS,
        super::float_moment::EXTRACTORS,
        super::null::EXTRACTORS,
    ];
    #[allow(unused_mut)]
    let mut v: Vec<&'static ExtractorInfo> = groups.iter().flat_map(|g| g.iter()).collect();
    #[cfg(test)]
    v.extend(super::test_extractors::TEST_EXTRACTORS.iter());
    v
}

/// The extractor selected by `name` (its libvmaf name or an alias).
pub fn by_name(name: &str) -> Result<&'static ExtractorInfo> {
    all()
        .into_iter()
        .find(|e| e.answers_to(name))
        .ok_or_else(|| {
            let known: Vec<_> = all().iter().map(|e| e.name).collect();
            Error::not_found(
                name,
                format!(
                    "no feature extractor named '{name}' (known: {})",
                    known.join(", ")
                ),
            )
        })
}

/// The extractor that provides the long feature name `feature` (model lookup).
pub fn by_feature(feature: &str) -> Option<&'static ExtractorInfo> {
    all().into_iter().find(|e| e.provided.contains(&feature))
}

/// How far the scores of extractor `info` with `options` reach into neighbouring frames
/// (see [`Reach`]). Extractors that score each pair on its own reach nothing; the temporal
/// ones declare theirs; a temporal extractor without a declaration is taken as unbounded,
/// so a chunk plan refuses it rather than split it inexactly.
pub(crate) fn reach(info: &ExtractorInfo, options: &OptValues) -> Reach {
    match info.name {
        _ if writes_aggregates(info, options) => Reach::Unbounded("psnr (enable_apsnr)"),
        "motion" => super::motion::reach(options),
        "motion_v2" => super::motion::reach_v2(options),
        "float_motion" => super::float_motion::reach(options),
        "speed_temporal" => super::speed::TEMPORAL_REACH,
        _ if info.ordering == Ordering::Independent => Reach::NONE,
        name => Reach::Unbounded(name),
    }
}

/// Whether extractor `info` with `options` writes whole-run values at flush (libvmaf's
/// `aggregate_metrics`): `psnr` with `enable_apsnr`.
pub(crate) fn writes_aggregates(info: &ExtractorInfo, options: &OptValues) -> bool {
    info.name == "psnr" && super::psnr::aggregates(options)
}

/// How instances of extractor `info` with `options` are fed: its [`Ordering`], except that
/// `psnr` with `enable_apsnr` is temporal (one instance sees every frame, so that its
/// whole-run sums are whole, as libvmaf's temporal psnr sees every frame).
pub(crate) fn ordering(info: &ExtractorInfo, options: &OptValues) -> Ordering {
    match info.name {
        _ if writes_aggregates(info, options) => Ordering::Temporal,
        _ => info.ordering,
    }
}

/// Whether libvmaf runs extractor `info` on the thread that reads the pictures when it has
/// a thread pool: the extractors it flags temporal (`psnr`, `float_motion`,
/// `speed_temporal`). Their features list first in [`crate::context::FeatureOrder::Pool`].
pub(crate) fn on_reading_thread(info: &ExtractorInfo) -> bool {
    matches!(info.name, "psnr" | "float_motion" | "speed_temporal")
}

/// Whether extractor `info` is light: one pass over each plane's samples into a sum, so
/// that scoring a pair costs about what handing it to a worker thread does (waking it and
/// waiting for it). A scorer given one worker for light extractors only scores on the
/// caller's thread instead ([`crate::Scorer`]); the scores are the same.
pub(crate) fn light(info: &ExtractorInfo) -> bool {
    info.name == "psnr"
}

/// Whether every score extractor `info` writes for a frame depends on the reference frames
/// alone (and its options and the frame's index), with nothing kept from one call to the
/// next: `motion` and `motion_v2`, whose SAD compares two reference frames. Contexts that
/// score one reference against several distorted inputs compute these once.
pub(crate) fn reads_reference_only(info: &ExtractorInfo) -> bool {
    matches!(info.name, "motion" | "motion_v2")
}

/// How many earlier reference frames the context must keep for extractor `info` with
/// `options`: 0 unless it is a previous-reference extractor ([`Ordering::PrevRef`], the
/// only ones handed earlier frames; temporal ones keep what they need themselves), 1 for
/// one that reads frame n - 1, 2 for one that reads frame n - 2 (n - 1 is kept too, being
/// the next frame's n - 2). A previous-reference extractor without a declaration is given
/// both.
pub(crate) fn references_read(info: &ExtractorInfo, options: &OptValues) -> u32 {
    if info.ordering != Ordering::PrevRef {
        return 0;
    }
    match info.name {
        "motion" | "motion_v2" => super::motion::sad_distance(options) as u32,
        #[cfg(test)]
        "test_prev" => 1,
        _ => 2,
    }
}
