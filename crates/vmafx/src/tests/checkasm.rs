//! The kernel checker (see `crate::testutil::checkasm`): every entry of every listed
//! table, at every SIMD level this processor runs, against the scalar entry; a planted
//! one-lane error must be caught, and every feature with SIMD tables must have a suite.

use crate::cpu::{detected, dispatch::with_planted_defect, CpuLevel};
use crate::testutil::checkasm::Checkable;

/// Random cases per entry and level.
const TRIALS: u64 = 300;

/// The features whose tables the checker runs.
pub(super) fn suites() -> [&'static dyn Checkable; 10] {
    [
        crate::feature::vif::CHECKASM,
        crate::feature::adm::CHECKASM,
        crate::feature::motion::CHECKASM,
        crate::feature::cambi::CHECKASM,
        crate::feature::speed::CHECKASM,
        crate::feature::psnr::CHECKASM,
        crate::feature::psnr_hvs::CHECKASM,
        crate::feature::float_conv::dispatch::checkasm::CHECKASM,
        crate::feature::float_vif::dispatch::checkasm::CHECKASM,
        crate::feature::iqa::dispatch::checkasm::CHECKASM,
    ]
}

/// The suite of kernel family `family` (the name extractors give in
/// `Extractor::kernel_families`).
pub(super) fn suite(family: &str) -> Option<&'static dyn Checkable> {
    suites().into_iter().find(|s| s.feature() == family)
}

/// Features whose tables were decided to have no SIMD kernel on x86-64 (a feature missing
/// here that has none fails the checker): none today.
const SCALAR_ONLY_BY_DECISION: &[&str] = &[];

/// One line of the checker's report: the levels `suite` lists, the ones it compared with
/// scalar on this processor, and the levels it has no table for (they run the next one
/// below).
fn report_line(suite: &dyn Checkable, checked: &[(CpuLevel, &str)]) -> String {
    let names = |ls: Vec<CpuLevel>| {
        let v: Vec<&str> = ls.into_iter().map(CpuLevel::name).collect();
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(" ")
        }
    };
    let listed = suite.levels();
    let mut compared: Vec<CpuLevel> = checked.iter().map(|(l, _)| *l).collect();
    compared.dedup();
    let top = detected();
    let not_here = listed.iter().copied().filter(|&l| l > top).collect();
    let gaps = CpuLevel::ALL
        .into_iter()
        .filter(|l| l.is_native() && *l != CpuLevel::Scalar && !listed.contains(l))
        .collect();
    format!(
        "{}: compared with scalar at {} ({} entries, {TRIALS} cases each); \
         listed but above this CPU: {}; no table at: {}",
        suite.feature(),
        names(compared),
        suite.entries().len(),
        names(not_here),
        names(gaps),
    )
}

#[test]
fn every_entry_of_every_table_matches_scalar_at_every_level() {
    let mut calls = 0;
    let mut report = Vec::new();
    for suite in suites() {
        let uncovered = suite.uncovered();
        assert!(
            uncovered.is_empty(),
            "{}: table entries without a check: {uncovered:?}",
            suite.feature()
        );
        let checked = suite.run(TRIALS).unwrap_or_else(|e| panic!("{e}"));
        let simd_listed = suite.levels().iter().any(|&l| l != CpuLevel::Scalar);
        if cfg!(target_arch = "x86_64") {
            assert!(
                simd_listed || SCALAR_ONLY_BY_DECISION.contains(&suite.feature()),
                "{}: no SIMD table on x86-64, and that was never decided",
                suite.feature()
            );
        }
        // Every listed level this processor runs was compared, entry by entry.
        for l in suite.levels() {
            if l != CpuLevel::Scalar && l <= detected() {
                let n = checked.iter().filter(|(c, _)| *c == l).count();
                assert_eq!(
                    n,
                    suite.entries().len(),
                    "{} at {}",
                    suite.feature(),
                    l.name()
                );
            }
        }
        report.push(report_line(suite, &checked));
        calls += checked.len();
    }
    for line in &report {
        println!("checkasm: {line}");
    }
    println!(
        "checkasm: {calls} (level, entry) pairs on this CPU (best level {}), {TRIALS} random cases each",
        detected().name()
    );
}

#[test]
fn a_planted_one_lane_error_is_caught() {
    // The planted defect is in motion's 8-bit vertical pass at the first SIMD level (on
    // x86-64 the 16-bit pipeline's, which 8-bit planes take there).
    let (first, entry) = if cfg!(target_arch = "aarch64") {
        (CpuLevel::Neon, "vertical_u8")
    } else {
        (CpuLevel::Avx2, "words")
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
    let want = format!("motion.{entry} at {}", first.name());
    assert!(err.starts_with(&want), "{err}");
    // Off again after the closure: the same run passes.
    assert!(motion.run(20).is_ok());
}

#[test]
fn every_kernel_family_is_checked_and_every_suite_is_used() {
    let mut named: Vec<&str> = crate::feature::registry::all()
        .into_iter()
        .flat_map(|info| {
            let opts = info.parse_options(&[]).unwrap();
            (info.create)(&opts).unwrap().kernel_families()
        })
        .copied()
        .collect();
    named.sort();
    named.dedup();
    for family in &named {
        assert!(
            suite(family).is_some(),
            "kernel family {family} has no checker suite"
        );
    }
    for s in suites() {
        assert!(
            named.contains(&s.feature()),
            "suite {} is no extractor's kernel family",
            s.feature()
        );
    }
}

/// The table of kernels per level in docs/PERFORMANCE.md, as the tables list them (one row
/// per feature: its entries, then for each level the table that runs there).
#[cfg(target_arch = "x86_64")]
fn kernel_level_table() -> String {
    let mut t = String::from("| kernel table | entries |");
    // This build's levels (the documented table is the x86-64 one).
    let levels: Vec<CpuLevel> = CpuLevel::ALL
        .into_iter()
        .filter(|l| l.is_native())
        .collect();
    for l in &levels {
        t += &format!(" {} |", l.name());
    }
    t += "\n|---|---|";
    t += &"---|".repeat(levels.len());
    t += "\n";
    for suite in suites() {
        let listed = suite.levels();
        t += &format!("| {} | {} |", suite.feature(), suite.entries().join(", "));
        for &l in &levels {
            let runs = listed.iter().rev().find(|&&x| x <= l).copied();
            t += &match runs {
                Some(r) if r == l => " yes |".to_string(),
                Some(r) => format!(" ({}) |", r.name()),
                None => " - |".to_string(),
            };
        }
        t += "\n";
    }
    t
}

/// docs/PERFORMANCE.md states which kernels exist at which level, and says what the code
/// says. `VMAFX_BLESS=1` rewrites the block from the code.
#[cfg(target_arch = "x86_64")]
#[test]
fn the_documented_kernel_levels_are_the_tables() {
    const BEGIN: &str = "<!-- kernel-levels:begin -->\n";
    const END: &str = "<!-- kernel-levels:end -->";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/PERFORMANCE.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let (head, rest) = doc
        .split_once(BEGIN)
        .expect("kernel-levels block in PERFORMANCE.md");
    let (block, tail) = rest.split_once(END).expect("kernel-levels block end");
    let want = kernel_level_table();
    if block != want && std::env::var_os("VMAFX_BLESS").is_some() {
        std::fs::write(path, format!("{head}{BEGIN}{want}{END}{tail}")).unwrap();
        return;
    }
    assert_eq!(
        block, want,
        "docs/PERFORMANCE.md's kernel table differs from the code (VMAFX_BLESS=1 rewrites it)"
    );
}
