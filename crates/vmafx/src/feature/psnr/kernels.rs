//! psnr's kernel table type, the kernels' signature and the scalar table (the kernels in
//! `sse.rs`). The tables per CPU level are in `x86/`, listed by [`super::dispatch`].

use super::sse::{sse_u16, sse_u8};
use crate::cpu::{CpuLevel, KernelTable};

/// The sum of squared differences of two planes: `(a, a_stride, b, b_stride, width,
/// height)`, strides in samples.
pub(super) type SseFn<T> = fn(&[T], usize, &[T], usize, usize, usize) -> u64;

/// The kernels one psnr instance runs, chosen once from the CPU level.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kernels {
    /// The level these kernels were written for (what the dispatch and the checker read).
    pub level: CpuLevel,
    /// SSE of two 8-bit planes.
    pub sse_u8: SseFn<u8>,
    /// SSE of two 9..16-bit planes.
    pub sse_u16: SseFn<u16>,
}

impl Kernels {
    /// The scalar reference kernels.
    pub(super) const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        sse_u8,
        sse_u16,
    };
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}
