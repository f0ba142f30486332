//! The CAMBI kernel tables per CPU level (scalar in [`super::kernels`]; `avx2` and
//! `avx512` in `x86/`).
//!
//! The c-value kernels score only the row's runs (found as the row entered the window),
//! eight (AVX2) or sixteen (AVX-512) columns of one run a step: one level, so the counts
//! of the run's level and of the levels `d + 1` above and below are each one load of
//! neighbouring counts (levels outside the histograms count as zero), and the visible
//! steps are known for the whole run; the other columns are left as they arrive (zero).
//! Each lane follows the scalar kernel's
//! arithmetic: the wrapping 32-bit product `weight * p0 * p`, converted to single
//! precision, times the gathered reciprocal (a plain multiply, no fused multiply-add),
//! the largest kept; a step where no lane has a count at its levels is skipped (it
//! scores zero).
//!
//! The run-finding kernels scan thirty-two columns of a row entering the window a step:
//! which samples count (masked, level inside the histograms) and where a run of one level
//! starts or the one before ends, each a bit of a 32-bit mask (AVX-512 compare masks; AVX2
//! compares packed to bytes and gathered by `movemask`), the columns found by counting
//! trailing zeros. The row's runs are kept until it leaves. The run-adding kernels add
//! each run at once: its window sum over the columns it reaches, `min(y + 1, run) - max(y -
//! 2 pad, 0)` at offset `y`, in saturating 16-bit lanes (zero past the last window), to
//! whole vectors of counts (sixteen or thirty-two), wrapping as the scalar adds do. The
//! pooling-statistics kernel (AVX2, also in the AVX-512 table) reads eight values a step
//! with unsigned 32-bit minimum and maximum of their bits, and continues the scalar
//! kernel's eight double-precision running sums lane for lane from the statistics it is
//! given (a row of c-values at a time), so every total is the same bits.

use super::kernels::Kernels;
#[cfg(target_arch = "x86_64")]
use super::x86;
use crate::cpu::kernel_tables;

#[cfg(test)]
pub(crate) mod checkasm;

kernel_tables!(pub(crate) static KERNELS: Dispatch<Kernels> =
    Kernels::SCALAR; x86_64: x86::avx2::KERNELS, x86::avx512::KERNELS);
