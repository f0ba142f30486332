//! The SpEED parameters of an option set, as both extractors take them.

use super::{compute, scale};
use crate::error::Result;
use crate::feature::OptValues;

/// The SpEED parameters an option set gives (the method is checked here).
pub(super) fn params(
    extractor: &str,
    o: &OptValues,
    weight_var_mode: i64,
) -> Result<compute::Params> {
    Ok(compute::Params {
        kernelscale: o.double("speed_kernelscale"),
        prescale: o.double("speed_prescale"),
        method: scale::Method::parse(extractor, o.string("speed_prescale_method"))?,
        sigma_nn: o.double("speed_sigma_nn"),
        nn_floor: o.double("speed_nn_floor"),
        weight_var_mode,
    })
}
