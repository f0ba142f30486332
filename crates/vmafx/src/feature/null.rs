//! libvmaf's `null` extractor: reads every pair and writes nothing, so that a run measures
//! what reading, decoding and scheduling cost without any feature (`--feature null`).

use super::{ExtractInput, Extractor, ExtractorInfo, FrameScores, Geometry, OptValues, Ordering};
use crate::error::Result;

/// The extractor this module defines: `null`, which provides no feature.
pub(crate) static EXTRACTORS: &[ExtractorInfo] = &[ExtractorInfo {
    name: "null",
    aliases: &[],
    provided: &[],
    options: &[],
    ordering: Ordering::Independent,
    create,
}];

fn create(_opts: &OptValues) -> Result<Box<dyn Extractor>> {
    Ok(Box::new(Null))
}

/// Takes any picture and scores nothing.
struct Null;

impl Extractor for Null {
    fn init(&mut self, _geometry: Geometry) -> Result<()> {
        Ok(())
    }

    fn extract(&mut self, _input: &ExtractInput<'_>, _out: &mut FrameScores) -> Result<()> {
        Ok(())
    }
}
