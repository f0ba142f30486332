//! motion's kernel table type and the scalar table (the passes in [`super::kernel`]).
//! The tables per CPU level are in `x86/`, listed by [`super::dispatch`].

use super::kernel::{horizontal_abs_sum, MotionSample, VerticalFn};
use super::words::Words;
use crate::cpu::{CpuLevel, KernelTable};

/// The kernels one motion instance runs, chosen once from the CPU level.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kernels {
    /// The level these kernels were written for (what the dispatch and the checker read).
    pub level: CpuLevel,
    /// Vertical pass over 8-bit samples.
    pub vertical_u8: VerticalFn<u8>,
    /// Vertical pass over 9..16-bit samples.
    pub vertical_u16: VerticalFn<u16>,
    /// Horizontal pass and absolute sum of one row buffer (wrapping at 32 bits).
    pub abs_sum: fn(&[i32]) -> u32,
    /// The 16-bit row pipeline ([`super::words`]), where this level has one faster than
    /// the `i32` passes above (which then take only the rows and depths it cannot).
    pub words: Option<Words>,
}

impl Kernels {
    /// The scalar reference kernels.
    pub(super) const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        vertical_u8: <u8 as MotionSample>::vertical,
        vertical_u16: <u16 as MotionSample>::vertical,
        abs_sum: horizontal_abs_sum,
        words: None,
    };
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}
