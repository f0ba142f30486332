//! The metric names a run's log will hold, known before its first frame is read, so that a
//! `--html-plot` name the log cannot have is refused at once rather than after scoring.
//!
//! The names are the engine's own: a scorer of the run's models and features scores a few
//! flat synthetic pairs of the inputs' geometry, and its table's columns are the names. The
//! columns depend on the extractors and their options, not on the pictures, and every
//! extractor writes each of its outputs from the first frames on.

use vmafx::frame::Geometry;
use vmafx::{FrameBuilder, Scorer, ScorerConfig};

/// Pairs scored by the probe: enough for the temporal features' outputs (motion2 reads the
/// next frame) to be written.
const PROBE_FRAMES: u32 = 3;

/// The columns a run of `config` on pictures of `geometry` writes into its log.
pub fn of_run(config: ScorerConfig, geometry: Geometry) -> vmafx::Result<Vec<String>> {
    let mut scorer = Scorer::new(config.threads(1))?;
    for _ in 0..PROBE_FRAMES {
        let frame = || {
            FrameBuilder::new(
                geometry.format,
                geometry.bpc,
                geometry.width,
                geometry.height,
            )
            .map(FrameBuilder::build)
        };
        scorer.push(frame()?, frame()?)?;
    }
    let report = scorer.finish()?;
    Ok(report.table().0.names.clone())
}

/// The message for a `--html-plot` name the log does not have.
pub fn unknown(name: &str, names: &[String]) -> String {
    format!(
        "--html-plot {name}: no such metric in the log (it has: {})",
        names.join(", ")
    )
}
