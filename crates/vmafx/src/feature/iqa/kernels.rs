//! The IQA steps' kernel table type: the row kernels' signatures and the scalar table (the
//! kernels in [`super::rows`]). The tables per CPU level are in `x86/`, listed by
//! [`super::dispatch`].

use super::rows;
use crate::cpu::{CpuLevel, KernelTable};

/// A pass over one row per tap: `(rows, kernel, out)`.
pub(crate) type RowsFn = fn(&[&[f32]], &[f32], &mut [f32]);

/// The IQA row kernels.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IqaKernels {
    /// The level these kernels were written for.
    pub level: CpuLevel,
    /// Horizontal convolution over the fully covered columns: `(row, kernel, out)`.
    pub conv_h: fn(&[f32], &[f32], &mut [f32]),
    /// Vertical convolution.
    pub conv_v: RowsFn,
    /// Decimation by 2 with a square kernel, inside the picture.
    pub decimate2: RowsFn,
}

impl IqaKernels {
    /// The scalar reference kernels.
    pub(crate) const SCALAR: IqaKernels = IqaKernels {
        level: CpuLevel::Scalar,
        conv_h: rows::conv_h,
        conv_v: rows::conv_v,
        decimate2: rows::decimate2,
    };
}

impl KernelTable for IqaKernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}
