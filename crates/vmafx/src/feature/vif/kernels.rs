//! `vif`'s kernel table type and its scalar table (the twins in `stats.rs` and
//! `subsample.rs`). The tables per CPU level are in `x86/`, listed by [`super::dispatch`].

use super::split::{horizontal_dis, horizontal_keep, DisFn, KeepFn};
use super::stats::{horizontal, no_deferred, vertical, DeferredFn, HorizontalFn, VerticalFn};
use super::subsample::{down_horizontal, down_vertical, vertical_down};
use super::subsample::{DownHorizontalFn, DownVerticalFn, VerticalDownFn};
use crate::cpu::{CpuLevel, KernelTable};

/// `vif`'s kernels for one CPU level.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kernels {
    /// The level the kernels were written for.
    pub level: CpuLevel,
    /// Vertical statistic pass over 8-bit pictures.
    pub vertical_u8: VerticalFn<u8>,
    /// Vertical statistic pass over 16-bit words.
    pub vertical_u16: VerticalFn<u16>,
    /// Horizontal statistic pass and per-pixel score.
    pub horizontal: HorizontalFn,
    /// The deferred pass after the horizontal one at scale 0 of 8-bit pictures (the steps
    /// it left for want of `ref·dis` sums the vertical pass skipped, see `xy_plan`).
    pub deferred_u8: DeferredFn<u8>,
    /// The deferred pass over 16-bit words: scale 0 of deeper pictures, and scale 1.
    pub deferred_u16: DeferredFn<u16>,
    /// Horizontal statistic pass and per-pixel score at scale 0 that also keeps the
    /// reference's `mu1` and `sigma1_sq` of the row (the shared path's first rendition).
    pub horizontal_keep: KeepFn,
    /// The distorted side's horizontal pass at scale 0 against kept reference values (the
    /// shared path's later renditions).
    pub horizontal_dis: DisFn,
    /// Vertical down-sampling filter over 8-bit pictures.
    pub down_vertical_u8: DownVerticalFn<u8>,
    /// Vertical down-sampling filter over 16-bit words.
    pub down_vertical_u16: DownVerticalFn<u16>,
    /// Horizontal down-sampling filter and decimation.
    pub down_horizontal: DownHorizontalFn,
    /// Vertical statistic pass over 8-bit pictures fused with the vertical down-sampling
    /// filter of the same row.
    pub vertical_down_u8: VerticalDownFn<u8>,
    /// Vertical statistic pass over 16-bit words fused with the vertical down-sampling
    /// filter of the same row.
    pub vertical_down_u16: VerticalDownFn<u16>,
}

impl Kernels {
    /// The portable kernels.
    pub(super) const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        vertical_u8: vertical::<u8>,
        vertical_u16: vertical::<u16>,
        horizontal,
        deferred_u8: no_deferred::<u8>,
        deferred_u16: no_deferred::<u16>,
        horizontal_keep,
        horizontal_dis,
        down_vertical_u8: down_vertical::<u8>,
        down_vertical_u16: down_vertical::<u16>,
        down_horizontal,
        vertical_down_u8: vertical_down::<u8>,
        vertical_down_u16: vertical_down::<u16>,
    };
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}
