//! The kernel checker (see `crate::testutil::checkasm`): every entry of every listed
//! table, at every SIMD level this processor runs, against the scalar entry; a planted
//! one-lane error must be caught, and every feature with SIMD tables must have a suite.

use crate::cpu::{detected, dispatch::with_planted_defect, CpuLevel};
use crate::testutil::checkasm::Checkable;

/// Random cases per entry and level.
const TRIALS: u64 = 300;

/// The features whose tables the checker runs.
fn suites() -> [&'static dyn Checkable; 10] {
    [
        crate::feature::vif::CHECKASM,
        crate::feature::adm::CHECKASM,
        crate::feature::motion::CHECKASM,
        crate::feature::cambi::CHECKASM,
        crate::feature::speed::CHECKASM,
        crate::feature::psnr::CHECKASM,
        crate::feature::psnr_hvs::CHECKASM,
        crate::feature::float_common::dispatch::checkasm::CHECKASM,
        crate::feature::float_vif::dispatch::checkasm::CHECKASM,
        crate::feature::iqa::dispatch::checkasm::CHECKASM,
    ]
}

/// The suites that cover an extractor's tables: its own, and the shared float
/// convolution's for the float extractors built on it.
fn suites_of(extractor: &str) -> Vec<&str> {
    match extractor {
        "float_vif" => vec!["float_conv", "float_vif"],
        "float_motion" | "float_adm" => vec!["float_conv"],
        "float_ssim" | "float_ms_ssim" => vec!["iqa"],
        "speed_chroma" | "speed_temporal" => vec!["speed"],
        _ => vec![extractor],
    }
}

#[test]
fn every_entry_of_every_table_matches_scalar_at_every_level() {
    let mut calls = 0;
    for suite in suites() {
        let uncovered = suite.uncovered();
        assert!(
            uncovered.is_empty(),
            "{}: table entries without a check: {uncovered:?}",
            suite.feature()
        );
        let checked = suite.run(TRIALS).unwrap_or_else(|e| panic!("{e}"));
        if detected() >= CpuLevel::Avx2 {
            assert!(
                !checked.is_empty(),
                "{}: no SIMD table ran",
                suite.feature()
            );
        }
        calls += checked.len();
    }
    eprintln!("checkasm: {calls} (level, entry) pairs, {TRIALS} random cases each");
}

#[test]
fn a_planted_one_lane_error_is_caught() {
    // The planted defect is in motion's 8-bit vertical pass at the first SIMD level.
    let first = if cfg!(target_arch = "aarch64") {
        CpuLevel::Neon
    } else {
        CpuLevel::Avx2
    };
    if detected() < first {
        eprintln!(
            "checkasm: no {} here; the planted defect cannot run",
            first.name()
        );
        return;
    }
    let motion = crate::feature::motion::CHECKASM;
    assert!(motion.run(20).is_ok());
    let err = with_planted_defect(|| motion.run(TRIALS)).unwrap_err();
    let want = format!("motion.vertical_u8 at {}", first.name());
    assert!(err.starts_with(&want), "{err}");
    // Off again after the closure: the same run passes.
    assert!(motion.run(20).is_ok());
}

#[test]
fn every_feature_with_simd_tables_is_checked() {
    let listed: Vec<&str> = suites().iter().map(|s| s.feature()).collect();
    for (name, levels) in super::kernel_tables::SIMD_TABLES {
        assert!(levels.len() > 1);
        for suite in suites_of(name.trim_end_matches("_v2")) {
            assert!(
                listed.contains(&suite),
                "{name} has SIMD tables the checker skips ({suite})"
            );
        }
    }
}
