//! Scores a distorted video against its reference with VMAF (vmaf_v0.6.1) and prints the
//! pooled mean as libvmaf's `vmaf` tool does.
//!
//! `cargo run --example score -- REF.y4m DIS.y4m`; without arguments it scores the 576x324
//! pair of the conformance corpus in `../shared/conformance` (libvmaf: 73.343961).

use vmafx::{Model, Scorer, ScorerConfig};

/// The reference and distorted files scored when none are given.
const DEFAULTS: [&str; 2] = [
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/conformance/bbb_576x324_420p8_crf35_ref.y4m"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/conformance/bbb_576x324_420p8_crf35_dis.y4m"
    ),
];

fn main() -> vmafx::Result<()> {
    let [r, d] = [1, 2].map(|i| std::env::args().nth(i).unwrap_or(DEFAULTS[i - 1].into()));
    let scorer = Scorer::new(ScorerConfig::new().model(Model::builtin("vmaf_v0.6.1")))?;
    let report = scorer.score_files(r, d)?;
    println!("vmaf_v0.6.1: {:.6}", report.model("vmaf_v0.6.1")?.pooled);
    Ok(())
}
