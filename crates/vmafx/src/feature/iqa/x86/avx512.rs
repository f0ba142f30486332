//! The IQA steps' AVX-512 table: the width-generic row kernels at sixteen lanes.

use super::rows;
use crate::cpu::CpuLevel;
use crate::feature::float_conv::x86::lanes::Avx512;
use crate::feature::float_conv::x86::level_entry;
use crate::feature::iqa::kernels::IqaKernels;

/// The AVX-512 kernels. The dispatch hands them out only when the processor has AVX-512.
pub(in crate::feature::iqa) const KERNELS: IqaKernels = IqaKernels {
    level: CpuLevel::Avx512,
    conv_h,
    conv_v,
    decimate2,
};

level_entry!("avx512f", Avx512, conv_h = rows::conv_h, (row: &[f32], k: &[f32], out: &mut [f32]));
level_entry!("avx512f", Avx512, conv_v = rows::conv_v, (rows: &[&[f32]], k: &[f32], out: &mut [f32]));
level_entry!("avx512f", Avx512, decimate2 = rows::decimate2, (rows: &[&[f32]], k: &[f32], out: &mut [f32]));
