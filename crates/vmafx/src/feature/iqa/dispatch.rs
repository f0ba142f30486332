//! The IQA steps' kernel table per CPU level (scalar in [`super::rows`], AVX2 and AVX-512
//! in `x86/`), used by float_ssim and float_ms_ssim.
//!
//! The vector code widens each lane's `f32` product to `f64` and adds it in the scalar
//! tap order, so every output has the scalar bits.

use super::rows;
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::{kernel_tables, CpuLevel, KernelTable};

#[cfg(test)]
pub(crate) mod checkasm;

/// A pass over one row per tap: `(rows, kernel, out)`.
pub type RowsFn = fn(&[&[f32]], &[f32], &mut [f32]);

/// The IQA row kernels.
#[derive(Debug, Clone, Copy)]
pub struct IqaKernels {
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
    pub const SCALAR: IqaKernels = IqaKernels {
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

kernel_tables!(pub(crate) static IQA_KERNELS: Dispatch<IqaKernels> =
    IqaKernels::SCALAR; x86_64: x86::avx2::KERNELS, x86::avx512::KERNELS);
