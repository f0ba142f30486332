//! Running an extractor over a whole clip, for the features' tests (test builds only).

use super::{ExtractInput, Extractor, FrameScores};
use crate::frame::{Frame, Geometry};

/// Initialises `x` for the clip's geometry and extracts every frame pair, in order.
pub(crate) fn extract_all(
    x: &mut dyn Extractor,
    refs: &[Frame],
    dis: &[Frame],
) -> Vec<FrameScores> {
    let f = &refs[0];
    x.init(Geometry {
        format: f.format(),
        bpc: f.bpc(),
        width: f.width(),
        height: f.height(),
    })
    .unwrap();
    refs.iter()
        .zip(dis)
        .enumerate()
        .map(|(i, (r, d))| {
            let mut out = FrameScores::default();
            let input = ExtractInput {
                reference: r,
                distorted: d,
                prev_reference: None,
                prev_prev_reference: None,
                index: i as u64,
            };
            x.extract(&input, &mut out).unwrap();
            out
        })
        .collect()
}
