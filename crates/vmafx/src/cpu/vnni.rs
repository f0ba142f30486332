//! `vpdpwssd` as one instruction.
//!
//! Left to itself the compiler may split `_mm512_dpwssd_epi32` into a multiply-add and a
//! separate add (its tuning for processors where that is faster); on Zen 4 the fused form
//! issues one operation instead of two.

use std::arch::x86_64::__m512i;

/// `acc + a.lo * b.lo + a.hi * b.hi` of the signed word pairs of every 32-bit lane,
/// wrapping, as `_mm512_dpwssd_epi32` gives it.
#[inline]
#[target_feature(enable = "avx512f,avx512vnni")]
pub(crate) fn dpwssd(mut acc: __m512i, a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the instruction reads `a` and `b` and updates `acc`, all registers, and
    // touches neither memory, the stack nor the flags; AVX-512 VNNI is enabled here.
    unsafe {
        std::arch::asm!(
            "vpdpwssd {acc}, {a}, {b}",
            acc = inout(zmm_reg) acc,
            a = in(zmm_reg) a,
            b = in(zmm_reg) b,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    acc
}
