//! cambi's AVX-512 table: the run kernels of `runs_by` on sixteen 32-bit lanes (thirty-two
//! 16-bit ones for the histogram update; masked loads and stores at the ends of a run),
//! and the AVX2 pooling statistics.

use super::super::kernels::Kernels;
use crate::cpu::CpuLevel;

/// The AVX-512 kernels. The dispatch hands them out only when the processor has AVX-512.
pub(in crate::feature::cambi) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx512,
    c_value_row,
    scan_runs,
    add_runs,
    // The pooling statistics are bound by memory: the AVX2 kernel.
    pool_stats: super::avx2::pool_stats,
};

super::runs_by::run_kernels!("avx512f,avx512bw,avx512vl", super::lanes::Avx512);
