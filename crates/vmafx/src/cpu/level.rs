//! The instruction-set level the kernels run at, process-wide.
//!
//! The level is the best the CPU offers ([`detected`]), lowered by two overrides:
//!
//! * libvmaf's `--cpumask` semantics ([`set_cpumask`]): each set bit *forbids* one of
//!   libvmaf's flags. On x86-64 those are `FLAG_SSE2` .. `FLAG_AVX512ICL`: as in
//!   libvmaf, the AVX-512 kernels need only `FLAG_AVX512` to stay allowed, and the AVX2
//!   ones `FLAG_AVX2`; the AVX-512 VNNI tier needs `FLAG_AVX512` and
//!   `FLAG_AVX512ICL` (libvmaf's Ice Lake bit, whose extensions include VNNI), so
//!   `--cpumask 32` turns it off alone. On aarch64 the one flag is `FLAG_NEON` (bit 0).
//! * the environment variable `VMAFX_CPU` (`scalar`, `neon`, `avx2`, `avx512` or
//!   `avx512vnni`, read once, any case), a cap for testing and comparison: `VMAFX_CPU=scalar
//!   cargo test` runs every dispatched kernel as its scalar twin. A level above what the
//!   CPU has is lowered to what it has, and another architecture's level counts as scalar;
//!   an empty value is no cap, an unknown one is ignored (see [`env_override`]).
//!
//! * `with_level`, a cap on the calling thread only, for side-by-side comparisons.
//!
//! Extractors read [`level`] once in `init` and pick their kernel tables from it (through a
//! `Dispatch`, see `dispatch`), so a change made here affects instances initialised
//! afterwards.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use crate::error::{Error, Result};

/// libvmaf's x86 flag bits (`VMAF_X86_CPU_FLAG_*`), as `--cpumask` names them.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const FLAG_SSE2: u32 = 1 << 0;
/// SSSE3.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const FLAG_SSSE3: u32 = 1 << 1;
/// SSE4.1.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const FLAG_SSE41: u32 = 1 << 2;
/// AVX2 (with BMI1/BMI2).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const FLAG_AVX2: u32 = 1 << 3;
/// AVX-512 F, CD, BW, DQ and VL.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const FLAG_AVX512: u32 = 1 << 4;
/// The Ice Lake AVX-512 extensions.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const FLAG_AVX512ICL: u32 = 1 << 5;
/// libvmaf's aarch64 flag (`VMAF_ARM_CPU_FLAG_NEON`): Advanced SIMD. The flags are per
/// architecture, so it shares its bit with [`FLAG_SSE2`].
#[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
pub(crate) const FLAG_NEON: u32 = 1 << 0;

/// The environment variable that caps the level.
pub(crate) const ENV_VAR: &str = "VMAFX_CPU";

/// An instruction-set level of the kernels, lowest first. Each level but `Scalar` belongs
/// to one architecture ([`CpuLevel::is_native`]); NEON sorts below the x86 levels, so an
/// x86 cap on aarch64 lowers to NEON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CpuLevel {
    /// Portable Rust, the reference every other level matches bit for bit.
    Scalar,
    /// aarch64 Advanced SIMD (NEON).
    Neon,
    /// x86-64 AVX2.
    Avx2,
    /// x86-64 AVX-512 (F, CD, BW, DQ, VL).
    Avx512,
    /// x86-64 AVX-512 with the Ice Lake extensions, VNNI among them (`vpdpwssd`).
    Avx512Vnni,
}

impl CpuLevel {
    /// Every level, lowest first.
    pub const ALL: [CpuLevel; 5] = [
        CpuLevel::Scalar,
        CpuLevel::Neon,
        CpuLevel::Avx2,
        CpuLevel::Avx512,
        CpuLevel::Avx512Vnni,
    ];

    /// The level's lower-case name, as `VMAFX_CPU` spells it.
    pub fn name(self) -> &'static str {
        match self {
            CpuLevel::Scalar => "scalar",
            CpuLevel::Neon => "neon",
            CpuLevel::Avx2 => "avx2",
            CpuLevel::Avx512 => "avx512",
            CpuLevel::Avx512Vnni => "avx512vnni",
        }
    }

    /// Whether the level's kernels can exist in this build's architecture (scalar
    /// everywhere, NEON on aarch64, the others on x86-64).
    pub fn is_native(self) -> bool {
        match self {
            CpuLevel::Scalar => true,
            CpuLevel::Neon => cfg!(target_arch = "aarch64"),
            CpuLevel::Avx2 | CpuLevel::Avx512 | CpuLevel::Avx512Vnni => {
                cfg!(target_arch = "x86_64")
            }
        }
    }

    /// Parses a level name (`scalar`, `neon`, `avx2`, `avx512`, `avx512vnni`; any case).
    pub fn parse(s: &str) -> Result<CpuLevel> {
        let t = s.trim().to_ascii_lowercase();
        CpuLevel::ALL
            .into_iter()
            .find(|l| l.name() == t)
            .ok_or_else(|| {
                Error::invalid(
                    ENV_VAR,
                    format!(
                        "unknown CPU level {s:?}; expected scalar, neon, avx2, avx512 or \
                         avx512vnni"
                    ),
                )
            })
    }
}

/// libvmaf's flags this CPU has (x86-64's, or aarch64's `FLAG_NEON`), detected once.
pub fn cpu_flags() -> u32 {
    static FLAGS: OnceLock<u32> = OnceLock::new();
    *FLAGS.get_or_init(detect_flags)
}

#[cfg(target_arch = "x86_64")]
fn detect_flags() -> u32 {
    let mut f = 0;
    let has = [
        (FLAG_SSE2, is_x86_feature_detected!("sse2")),
        (FLAG_SSSE3, is_x86_feature_detected!("ssse3")),
        (FLAG_SSE41, is_x86_feature_detected!("sse4.1")),
        (
            FLAG_AVX2,
            is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2"),
        ),
        (
            FLAG_AVX512,
            is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512cd")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512dq")
                && is_x86_feature_detected!("avx512vl"),
        ),
        (
            FLAG_AVX512ICL,
            is_x86_feature_detected!("avx512vbmi")
                && is_x86_feature_detected!("avx512vbmi2")
                && is_x86_feature_detected!("avx512vnni")
                && is_x86_feature_detected!("avx512bitalg")
                && is_x86_feature_detected!("avx512vpopcntdq")
                && is_x86_feature_detected!("gfni")
                && is_x86_feature_detected!("vpclmulqdq")
                && is_x86_feature_detected!("vaes"),
        ),
    ];
    for (bit, present) in has {
        if present {
            f |= bit;
        }
    }
    f
}

#[cfg(target_arch = "aarch64")]
fn detect_flags() -> u32 {
    if std::arch::is_aarch64_feature_detected!("neon") {
        FLAG_NEON
    } else {
        0
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn detect_flags() -> u32 {
    0
}

/// The level a set of flags allows: AVX-512 needs its own bit, AVX2 its own, and the
/// VNNI tier the AVX-512 bit and the Ice Lake one.
#[cfg(target_arch = "x86_64")]
pub fn level_of_flags(flags: u32) -> CpuLevel {
    if flags & FLAG_AVX512 != 0 && flags & FLAG_AVX512ICL != 0 {
        CpuLevel::Avx512Vnni
    } else if flags & FLAG_AVX512 != 0 {
        CpuLevel::Avx512
    } else if flags & FLAG_AVX2 != 0 {
        CpuLevel::Avx2
    } else {
        CpuLevel::Scalar
    }
}

/// The level a set of flags allows: NEON needs [`FLAG_NEON`].
#[cfg(target_arch = "aarch64")]
pub fn level_of_flags(flags: u32) -> CpuLevel {
    if flags & FLAG_NEON != 0 {
        CpuLevel::Neon
    } else {
        CpuLevel::Scalar
    }
}

/// The level a set of flags allows: scalar only on this architecture.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn level_of_flags(_flags: u32) -> CpuLevel {
    CpuLevel::Scalar
}

/// The best level this CPU runs, ignoring every override.
pub fn detected() -> CpuLevel {
    level_of_flags(cpu_flags())
}

/// Every level this CPU runs, lowest first (kernel tests iterate over them).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn supported() -> Vec<CpuLevel> {
    CpuLevel::ALL
        .into_iter()
        .filter(|&l| l.is_native() && l <= detected())
        .collect()
}

static CPUMASK: AtomicU32 = AtomicU32::new(0);

/// Forbids the libvmaf flags set in `mask`, as libvmaf's `--cpumask` does (0 allows all).
pub fn set_cpumask(mask: u32) {
    CPUMASK.store(mask, Ordering::Relaxed);
}

/// The mask last given to [`set_cpumask`].
pub(crate) fn cpumask() -> u32 {
    CPUMASK.load(Ordering::Relaxed)
}

/// The cap `VMAFX_CPU` sets: `Ok(None)` when unset or empty (as `VMAFX_CPU= cmd` and a
/// shell loop over `"" avx2 scalar` write "no cap"), an error naming the variable when its
/// value is not a level.
pub fn env_override() -> Result<Option<CpuLevel>> {
    match std::env::var(ENV_VAR) {
        Ok(v) if v.trim().is_empty() => Ok(None),
        Ok(v) => CpuLevel::parse(&v).map(Some),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(Error::invalid(
            ENV_VAR,
            "value is not valid Unicode; expected scalar, neon, avx2, avx512 or avx512vnni",
        )),
    }
}

/// The `VMAFX_CPU` cap, read once; an unusable value counts as unset.
fn env_cap() -> Option<CpuLevel> {
    static CAP: OnceLock<Option<CpuLevel>> = OnceLock::new();
    *CAP.get_or_init(|| env_override().ok().flatten())
}

thread_local! {
    static THREAD_CAP: std::cell::Cell<Option<CpuLevel>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with the level capped at `cap` on this thread only (instances initialised
/// inside `f` pick their kernels from it): benchmarks and tests compare levels side by
/// side with it without touching other threads.
pub(crate) fn with_level<R>(cap: CpuLevel, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<CpuLevel>);
    impl Drop for Restore {
        fn drop(&mut self) {
            THREAD_CAP.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(THREAD_CAP.with(|c| c.replace(Some(cap))));
    f()
}

/// The level kernels run at now: detected, less the cpumask, capped by `VMAFX_CPU` and
/// by `with_level` on this thread.
pub fn level() -> CpuLevel {
    let mut l = level_of_flags(cpu_flags() & !cpumask());
    for cap in [env_cap(), THREAD_CAP.with(|c| c.get())]
        .into_iter()
        .flatten()
    {
        l = clamp(l.min(cap));
    }
    l
}

/// `wanted`, lowered to what this CPU runs (kernel tables never hold code it lacks);
/// another architecture's level lowers to scalar.
pub(crate) fn clamp(wanted: CpuLevel) -> CpuLevel {
    let l = wanted.min(detected());
    if l.is_native() {
        l
    } else {
        CpuLevel::Scalar
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn flags_map_to_levels_as_libvmaf_checks_them() {
        assert_eq!(level_of_flags(0), CpuLevel::Scalar);
        assert_eq!(level_of_flags(FLAG_SSE2 | FLAG_SSE41), CpuLevel::Scalar);
        assert_eq!(level_of_flags(FLAG_AVX2 | FLAG_SSE2), CpuLevel::Avx2);
        assert_eq!(level_of_flags(FLAG_AVX2 | FLAG_AVX512), CpuLevel::Avx512);
        let all = FLAG_AVX2 | FLAG_AVX512 | FLAG_AVX512ICL;
        assert_eq!(level_of_flags(all), CpuLevel::Avx512Vnni);
        assert_eq!(level_of_flags(all & !FLAG_AVX512ICL), CpuLevel::Avx512);
        // The Ice Lake bit alone (AVX-512 masked off) allows no AVX-512 kernel.
        assert_eq!(level_of_flags(all & !FLAG_AVX512), CpuLevel::Avx2);
        assert_eq!(
            level_of_flags(cpu_flags() & !FLAG_AVX2 & !FLAG_AVX512),
            CpuLevel::Scalar
        );
    }

    #[test]
    #[cfg(target_arch = "aarch64")]
    fn the_neon_flag_maps_to_neon() {
        assert_eq!(level_of_flags(0), CpuLevel::Scalar);
        assert_eq!(level_of_flags(FLAG_NEON), CpuLevel::Neon);
        assert_eq!(detected(), CpuLevel::Neon, "every aarch64 Linux has NEON");
        // An x86 cap lowers to NEON; the whole mask to scalar.
        assert_eq!(clamp(CpuLevel::Avx2), CpuLevel::Neon);
        assert_eq!(level_of_flags(cpu_flags() & !FLAG_NEON), CpuLevel::Scalar);
    }

    #[test]
    fn another_architectures_level_counts_as_scalar() {
        for l in CpuLevel::ALL {
            let c = clamp(l);
            assert!(c.is_native() && c <= l, "{l:?} clamped to {c:?}");
            assert_eq!(with_level(l, level), c.min(level()), "{l:?}");
        }
        assert!(supported().iter().all(|l| l.is_native()));
        #[cfg(target_arch = "x86_64")]
        assert_eq!(clamp(CpuLevel::Neon), CpuLevel::Scalar);
    }

    #[test]
    fn names_parse_back_and_bad_names_are_refused() {
        for l in CpuLevel::ALL {
            assert_eq!(CpuLevel::parse(l.name()).unwrap(), l);
        }
        assert_eq!(CpuLevel::parse(" AVX2 ").unwrap(), CpuLevel::Avx2);
        let e = CpuLevel::parse("sse9").unwrap_err();
        assert!(e.to_string().contains("sse9"), "{e}");
    }

    #[test]
    fn level_never_exceeds_the_cpu() {
        assert!(level() <= detected());
        assert_eq!(clamp(CpuLevel::Avx512Vnni), detected());
        assert_eq!(supported().last(), Some(&detected()));
        if let Ok(Some(cap)) = env_override() {
            assert!(
                level() <= cap,
                "{ENV_VAR}={} but level is {:?}",
                cap.name(),
                level()
            );
        }
        assert_eq!(with_level(CpuLevel::Scalar, level), CpuLevel::Scalar);
        let inner = with_level(CpuLevel::Avx512Vnni, || with_level(CpuLevel::Scalar, level));
        assert_eq!(inner, CpuLevel::Scalar);
    }
}
