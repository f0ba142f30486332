//! The float convolution's kernel table per CPU level (scalar in [`super::rows`], AVX2
//! and AVX-512 in `x86/`), shared by float_vif, float_motion and float_adm.
//!
//! Every table gives the scalar rows' bits: the vector code sums each column's taps in
//! the same order, a multiply then an add per tap, never fused.

use super::rows;
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::{kernel_tables, CpuLevel, KernelTable};

#[cfg(test)]
pub(crate) mod checkasm;

/// A vertical pass over one row per tap: `(filter, rows, out)`.
pub type VerticalFn = fn(&[f32], &[&[f32]], &mut [f32]);

/// A vertical pass over the products of two pictures' rows: `(filter, a, b, out)`.
pub type ProductFn = fn(&[f32], &[&[f32]], &[&[f32]], &mut [f32]);

/// The row kernels of the separable float convolution.
#[derive(Debug, Clone, Copy)]
pub struct ConvKernels {
    /// The level these kernels were written for.
    pub level: CpuLevel,
    /// `out[j] = Σ_k f[k] · rows[k][j]`.
    pub vertical: VerticalFn,
    /// `out[j] = Σ_k f[k] · rows[k][j]²`.
    pub vertical_square: VerticalFn,
    /// `out[j] = Σ_k f[k] · (a[k][j] · b[k][j])`: `(filter, a, b, out)`.
    pub vertical_product: ProductFn,
    /// One row of the horizontal pass with mirrored ends: `(filter, src, out)`.
    pub horizontal: fn(&[f32], &[f32], &mut [f32]),
    /// Every other output of a horizontal pass inside the row:
    /// `out[o] = Σ_k f[k] · src[2o + k]`, `(filter, src, out)` (float_adm's DWT).
    pub stride2: fn(&[f32], &[f32], &mut [f32]),
}

impl ConvKernels {
    /// The scalar reference kernels.
    pub const SCALAR: ConvKernels = ConvKernels {
        level: CpuLevel::Scalar,
        vertical: rows::vertical,
        vertical_square: rows::vertical_square,
        vertical_product: rows::vertical_product,
        horizontal: rows::horizontal,
        stride2: rows::stride2,
    };
}

impl KernelTable for ConvKernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}

kernel_tables!(pub(crate) static CONV_KERNELS: Dispatch<ConvKernels> =
    ConvKernels::SCALAR; x86_64: x86::avx2::KERNELS, x86::avx512::KERNELS);
