//! The AVX2 table of the float convolution: the width-generic row kernels of
//! [`super::conv`] at eight lanes.

use super::conv;
use super::lanes::Avx2;
use super::level_entry;
use crate::cpu::CpuLevel;
use crate::feature::float_conv::kernels::ConvKernels;

/// The AVX2 kernels. The dispatch hands them out only when the processor has AVX2.
pub(in crate::feature::float_conv) const KERNELS: ConvKernels = ConvKernels {
    level: CpuLevel::Avx2,
    vertical,
    vertical_square,
    vertical_product,
    horizontal,
    stride2,
    abs_diff_sums: super::abs_diff::abs_diff_sums,
};

level_entry!("avx2", Avx2, vertical = conv::vertical, (f: &[f32], rows: &[&[f32]], out: &mut [f32]));
level_entry!("avx2", Avx2, vertical_square = conv::vertical_square, (f: &[f32], rows: &[&[f32]], out: &mut [f32]));
level_entry!("avx2", Avx2, vertical_product = conv::vertical_product, (f: &[f32], a: &[&[f32]], b: &[&[f32]], out: &mut [f32]));
level_entry!("avx2", Avx2, horizontal = conv::horizontal, (f: &[f32], src: &[f32], out: &mut [f32]));
level_entry!("avx2", Avx2, stride2 = conv::stride2, (f: &[f32], src: &[f32], out: &mut [f32]));
