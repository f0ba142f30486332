//! libvmaf float_adm (in progress).

use super::ExtractorInfo;

/// The extractors this module defines.
pub static EXTRACTORS: &[ExtractorInfo] = &[];
