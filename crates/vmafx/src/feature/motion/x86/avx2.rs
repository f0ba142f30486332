//! motion's AVX2 kernels (see `super::super::dispatch` for the arithmetic): the 16-bit
//! pipeline (`super::words_by`) and the `i32` row passes (`super::rows32_by`), each written
//! once over the vector width, at sixteen words and eight `i32` lanes a step.

use super::super::kernels::Kernels;
use crate::cpu::CpuLevel;

/// The AVX2 kernels. The dispatch hands them out only when the processor has AVX2.
pub(in crate::feature::motion) const KERNELS: Kernels = Kernels {
    level: CpuLevel::Avx2,
    vertical_u8: rows32::vertical_u8,
    vertical_u16: rows32::vertical_u16,
    abs_sum: rows32::abs_sum,
    words: Some(words::WORDS),
};

super::words_by::words_table!("avx2", crate::feature::motion::x86::lanes::Avx2);
super::rows32_by::rows32_table!("avx2", crate::feature::motion::x86::lanes::Avx2);
