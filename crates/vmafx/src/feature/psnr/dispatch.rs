//! The psnr kernel table per CPU level (the kernels are in `x86/`: `avx2` and `avx512`).
//!
//! Every kernel gives the scalar twin's integer exactly: 8-bit rows are summed in wrapping
//! 32-bit lanes (addition modulo 2^32 does not depend on the order, so the lanes' wrapping
//! sum is the scalar row sum), deeper samples in 64-bit lanes (no wrap at all).

use super::sse::{sse_u16, sse_u8};
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::{kernel_tables, CpuLevel, KernelTable};

#[cfg(test)]
pub(crate) mod checkasm;

/// The sum of squared differences of two planes: `(a, a_stride, b, b_stride, width,
/// height)`, strides in samples.
pub type SseFn<T> = fn(&[T], usize, &[T], usize, usize, usize) -> u64;

/// The kernels one psnr instance runs, chosen once from the CPU level.
#[derive(Debug, Clone, Copy)]
pub struct Kernels {
    /// The level these kernels were written for (what the dispatch and the checker read).
    pub level: CpuLevel,
    /// SSE of two 8-bit planes.
    pub sse_u8: SseFn<u8>,
    /// SSE of two 9..16-bit planes.
    pub sse_u16: SseFn<u16>,
}

impl Kernels {
    /// The scalar reference kernels.
    pub const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        sse_u8,
        sse_u16,
    };

    /// The AVX2 kernels. Only a table made after AVX2 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX2: Kernels = Kernels {
        level: CpuLevel::Avx2,
        sse_u8: x86::avx2::sse_u8,
        sse_u16: x86::avx2::sse_u16,
    };

    /// The AVX-512 kernels. Only a table made after AVX-512 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX512: Kernels = Kernels {
        level: CpuLevel::Avx512,
        sse_u8: x86::avx512::sse_u8,
        sse_u16: x86::avx512::sse_u16,
    };
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: Kernels::AVX2, Kernels::AVX512);
