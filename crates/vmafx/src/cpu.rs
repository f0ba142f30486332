//! The CPU level the kernels run at: what the processor offers, lowered on request.
//!
//! Kernels with hand-written SIMD twins pick theirs from [`level`] when they are set up.
//! The level can be lowered, never raised, by the environment variable `VMAFX_CPU`
//! (`scalar`, `avx2` or `avx512`, read once) and by a libvmaf-style cpumask given to
//! [`set_cpumask`] (a set bit turns that instruction set off: bit 3 AVX2, bit 4 AVX-512).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// An instruction-set level, ordered from the plainest to the widest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CpuLevel {
    /// Portable Rust only.
    Scalar,
    /// x86-64 with AVX2 (256-bit integer vectors).
    Avx2,
    /// x86-64 with AVX-512 F, BW, CD, DQ and VL (512-bit vectors).
    Avx512,
}

impl CpuLevel {
    /// The level named `name` (`scalar`, `avx2`, `avx512`; case-insensitive).
    pub fn parse(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "scalar" | "none" | "c" => Some(CpuLevel::Scalar),
            "avx2" => Some(CpuLevel::Avx2),
            "avx512" | "avx-512" => Some(CpuLevel::Avx512),
            _ => None,
        }
    }
}

/// libvmaf's cpumask bit for AVX2.
const MASK_AVX2: u64 = 1 << 3;
/// libvmaf's cpumask bit for AVX-512.
const MASK_AVX512: u64 = 1 << 4;

static CPUMASK: AtomicU64 = AtomicU64::new(0);

/// Turns off the instruction sets whose libvmaf cpumask bits are set in `mask`
/// (bit 3 AVX2, bit 4 AVX-512; other bits are accepted and ignored). Kernels set up
/// after this call use the lowered level.
pub fn set_cpumask(mask: u64) {
    CPUMASK.store(mask, Ordering::Relaxed);
}

/// The level the processor supports.
pub fn detected() -> CpuLevel {
    static DETECTED: OnceLock<CpuLevel> = OnceLock::new();
    *DETECTED.get_or_init(detect)
}

#[cfg(target_arch = "x86_64")]
fn detect() -> CpuLevel {
    let avx512 = is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512cd")
        && is_x86_feature_detected!("avx512dq")
        && is_x86_feature_detected!("avx512vl");
    if avx512 && is_x86_feature_detected!("avx2") {
        CpuLevel::Avx512
    } else if is_x86_feature_detected!("avx2") {
        CpuLevel::Avx2
    } else {
        CpuLevel::Scalar
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> CpuLevel {
    CpuLevel::Scalar
}

/// The ceiling `VMAFX_CPU` sets, read once; unset or unrecognised means no ceiling.
fn env_ceiling() -> CpuLevel {
    static CEILING: OnceLock<CpuLevel> = OnceLock::new();
    *CEILING.get_or_init(|| {
        std::env::var("VMAFX_CPU")
            .ok()
            .and_then(|v| CpuLevel::parse(&v))
            .unwrap_or(CpuLevel::Avx512)
    })
}

/// The ceiling the cpumask sets.
fn mask_ceiling() -> CpuLevel {
    let mask = CPUMASK.load(Ordering::Relaxed);
    if mask & MASK_AVX2 != 0 {
        CpuLevel::Scalar
    } else if mask & MASK_AVX512 != 0 {
        CpuLevel::Avx2
    } else {
        CpuLevel::Avx512
    }
}

/// The level kernels should use: the detected one, lowered by `VMAFX_CPU` and the cpumask.
pub fn level() -> CpuLevel {
    detected().min(env_ceiling()).min(mask_ceiling())
}

/// Every level this processor can run, from [`CpuLevel::Scalar`] up to [`detected`].
pub fn supported() -> Vec<CpuLevel> {
    [CpuLevel::Scalar, CpuLevel::Avx2, CpuLevel::Avx512]
        .into_iter()
        .filter(|&l| l <= detected())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered_and_parse() {
        assert!(CpuLevel::Scalar < CpuLevel::Avx2 && CpuLevel::Avx2 < CpuLevel::Avx512);
        assert_eq!(CpuLevel::parse("AVX2"), Some(CpuLevel::Avx2));
        assert_eq!(CpuLevel::parse("scalar"), Some(CpuLevel::Scalar));
        assert_eq!(CpuLevel::parse("sse9"), None);
        assert!(level() <= detected());
        assert_eq!(supported()[0], CpuLevel::Scalar);
    }
}
