//! The psnr_hvs kernel table per CPU level (the AVX2 DCT is in `x86/avx2.rs`; the AVX-512
//! levels run it too). The DCT is integer arithmetic in wrapping 32-bit lanes, so the vector
//! kernel gives the scalar block exactly.

use super::dct;
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::{kernel_tables, CpuLevel, KernelTable};

#[cfg(test)]
pub(crate) mod checkasm;

/// The kernels one psnr_hvs instance runs, chosen once from the CPU level.
#[derive(Debug, Clone, Copy)]
pub struct Kernels {
    /// The level these kernels were written for (what the dispatch and the checker read).
    pub level: CpuLevel,
    /// The 2-D 8x8 DCT of a row-major block, in place.
    pub fdct8x8: fn(&mut [i32; 64]),
}

impl Kernels {
    /// The scalar reference kernels.
    pub const SCALAR: Kernels = Kernels {
        level: CpuLevel::Scalar,
        fdct8x8: dct::fdct8x8,
    };

    /// The AVX2 kernels. Only a table made after AVX2 was detected may be called.
    #[cfg(target_arch = "x86_64")]
    const AVX2: Kernels = Kernels {
        level: CpuLevel::Avx2,
        fdct8x8: x86::avx2::fdct8x8,
    };
}

impl KernelTable for Kernels {
    fn level(&self) -> CpuLevel {
        self.level
    }
}

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: Kernels::AVX2);
