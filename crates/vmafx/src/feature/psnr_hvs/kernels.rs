//! psnr_hvs's kernel table type and the scalar table (the DCT in `dct.rs`). The tables
//! per CPU level are in `x86/`, listed by [`super::dispatch`].

use super::dct;
use crate::cpu::{CpuLevel, KernelTable};

/// The kernels one psnr_hvs instance runs, chosen once from the CPU level.
#[derive(Debug, Clone, Copy)]
pub(super) struct Kernels {
    /// The level these kernels were written for (what the dispatch and the checker read).
    pub level: CpuLevel,
    /// The 2-D 8x8 DCT of a row-major block, in place.
    pub fdct8x8: fn(&mut [i32; 64]),
}

impl Kernels {
    /// The scalar reference kernels.
    pub(super) const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        fdct8x8: dct::fdct8x8,
    };
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}
