//! The float convolution's kernel table type: the row kernels' signatures and the scalar
//! table (the kernels in [`super::rows`]). The tables per CPU level are in `x86/`, listed
//! by [`super::dispatch`].

use super::rows;
use crate::cpu::{CpuLevel, KernelTable};

/// A vertical pass over one row per tap: `(filter, rows, out)`.
pub(crate) type VerticalFn = fn(&[f32], &[&[f32]], &mut [f32]);

/// A vertical pass over the products of two pictures' rows: `(filter, a, b, out)`.
pub(crate) type ProductFn = fn(&[f32], &[&[f32]], &[&[f32]], &mut [f32]);

/// The row kernels of the float features: the separable convolution's passes, and
/// float_motion's row sums of absolute differences.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConvKernels {
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
    /// Each row's sum of absolute differences, `(a, b, width, sums)`: `sums[r]` is
    /// `Σ_j |a[r·width + j] - b[r·width + j]|` summed from zero in column order in
    /// `f32`, libvmaf's `vmaf_image_sad_c` row sums (float_motion).
    pub abs_diff_sums: AbsDiffSumsFn,
}

/// Row sums of absolute differences: `(a, b, width, sums)`, one sum per row.
pub(crate) type AbsDiffSumsFn = fn(&[f32], &[f32], usize, &mut [f32]);

impl ConvKernels {
    /// The scalar reference kernels.
    pub(crate) const SCALAR: ConvKernels = ConvKernels {
        level: CpuLevel::Scalar,
        vertical: rows::vertical,
        vertical_square: rows::vertical_square,
        vertical_product: rows::vertical_product,
        horizontal: rows::horizontal,
        stride2: rows::stride2,
        abs_diff_sums: rows::abs_diff_sums,
    };
}

impl KernelTable for ConvKernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}
