//! float_vif's AVX2 table: the width-generic statistic at eight lanes.

use super::stat;
use crate::cpu::CpuLevel;
use crate::feature::float_conv::x86::lanes::Avx2;
use crate::feature::float_conv::x86::level_entry;
use crate::feature::float_vif::kernels::VifKernels;
use crate::feature::float_vif::stat::StatParams;

/// The AVX2 kernels. The dispatch hands them out only when the processor has AVX2.
pub(in crate::feature::float_vif) const KERNELS: VifKernels = VifKernels {
    level: CpuLevel::Avx2,
    stat_row,
};

level_entry!("avx2", Avx2, stat_row = stat::stat_row, (rows: [&[f32]; 5], p: &StatParams) -> (f32, f32));
