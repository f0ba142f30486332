//! Scores a distorted video against its reference with VMAF (vmaf_v0.6.1) and prints the
//! pooled mean as libvmaf's `vmaf` tool does. The README shows this file's code as it is.
//!
//! `cargo run --example score -- REF.y4m DIS.y4m`; the 576x324 pair of the conformance corpus
//! (`../shared/conformance/bbb_576x324_420p8_crf35_{ref,dis}.y4m`) gives libvmaf's 73.343961.

use vmafx::{Model, Scorer, ScorerConfig};

fn main() -> vmafx::Result<()> {
    let mut args = std::env::args().skip(1);
    let (reference, distorted) = (args.next(), args.next());
    let (Some(reference), Some(distorted)) = (reference, distorted) else {
        eprintln!("usage: score REFERENCE DISTORTED");
        std::process::exit(2);
    };
    let scorer = Scorer::new(ScorerConfig::new().model(Model::builtin("vmaf_v0.6.1")))?;
    let report = scorer.score_files(reference, distorted)?;
    println!("vmaf_v0.6.1: {:.6}", report.model("vmaf_v0.6.1")?.pooled);
    Ok(())
}
