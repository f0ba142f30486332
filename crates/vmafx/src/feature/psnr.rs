//! Placeholder: the psnr extractor lands in its own change.

use super::ExtractorInfo;

/// The extractors this module defines.
pub static EXTRACTORS: &[ExtractorInfo] = &[];
