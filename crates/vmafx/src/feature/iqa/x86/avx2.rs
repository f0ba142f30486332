//! The IQA steps' AVX2 table: the width-generic row kernels at eight lanes.

use super::rows;
use crate::cpu::CpuLevel;
use crate::feature::float_conv::x86::lanes::Avx2;
use crate::feature::float_conv::x86::level_entry;
use crate::feature::iqa::kernels::IqaKernels;

/// The AVX2 kernels. The dispatch hands them out only when the processor has AVX2.
pub(in crate::feature::iqa) const KERNELS: IqaKernels = IqaKernels {
    level: CpuLevel::Avx2,
    conv_h,
    conv_v,
    decimate2,
};

level_entry!("avx2", Avx2, conv_h = rows::conv_h, (row: &[f32], k: &[f32], out: &mut [f32]));
level_entry!("avx2", Avx2, conv_v = rows::conv_v, (rows: &[&[f32]], k: &[f32], out: &mut [f32]));
level_entry!("avx2", Avx2, decimate2 = rows::decimate2, (rows: &[&[f32]], k: &[f32], out: &mut [f32]));
