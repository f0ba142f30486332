//! One way to build a feature's kernel dispatch: a waterfall of tables, one per level.
//!
//! A feature writes its kernels as a struct of function pointers (its "table") and lists
//! one table per level it has code for, scalar first, with `kernel_tables!`. At `init`
//! an extractor asks [`Dispatch::pick`] for the best table at or below the level the run
//! allows ([`super::level()`], which `VMAFX_CPU`, `--cpumask` and [`super::with_level`]
//! lower). A level a feature has no table for falls to the next one below: vif has no
//! plain AVX-512 table, so on a processor without VNNI its AVX-512 level runs AVX2.
//!
//! A table is only ever handed out at or below [`super::detected`], so a table listed at
//! a level may call that level's instructions without checking again. The kernel checker
//! walks [`Dispatch::runnable`] to call every entry of every table the processor runs.

use super::level::{self, CpuLevel};

/// A table of kernels written for one [`CpuLevel`].
pub(crate) trait KernelTable: Copy + 'static {
    /// The level the table's kernels were written for (its instructions need it).
    fn level(&self) -> CpuLevel;
}

/// A feature's tables, lowest level first; the first is the scalar reference.
#[derive(Debug)]
pub(crate) struct Dispatch<T: 'static> {
    tables: &'static [T],
}

impl<T: KernelTable> Dispatch<T> {
    /// The dispatch over `tables`: scalar first, levels strictly rising (checked in
    /// debug builds and by the kernel checker).
    pub(crate) const fn new(tables: &'static [T]) -> Self {
        assert!(!tables.is_empty(), "a dispatch needs its scalar table");
        Dispatch { tables }
    }

    /// The scalar reference table.
    #[cfg_attr(not(test), allow(dead_code))] // the kernel checker's
    pub(crate) fn scalar(&self) -> T {
        self.tables[0]
    }

    /// Every table listed, lowest first (including levels this processor lacks).
    #[cfg_attr(not(test), allow(dead_code))] // the kernel checker's
    pub(crate) fn all(&self) -> &'static [T] {
        self.tables
    }

    /// The best table at or below `wanted`, lowered to what this processor runs.
    pub(crate) fn pick(&self, wanted: CpuLevel) -> T {
        debug_assert!(self.is_well_formed());
        let cap = level::clamp(wanted);
        self.tables
            .iter()
            .rev()
            .find(|t| t.level() <= cap)
            .copied()
            .unwrap_or(self.tables[0])
    }

    /// The table for the level kernels run at now ([`super::level()`]).
    pub(crate) fn current(&self) -> T {
        self.pick(level::level())
    }

    /// The tables this processor can run, lowest first (scalar included).
    #[cfg_attr(not(test), allow(dead_code))] // the kernel checker's
    pub(crate) fn runnable(&self) -> impl Iterator<Item = T> + '_ {
        let top = level::detected();
        self.tables
            .iter()
            .copied()
            .filter(move |t| t.level() <= top)
    }

    /// Whether the first table is scalar and the levels rise strictly.
    pub(crate) fn is_well_formed(&self) -> bool {
        self.tables[0].level() == CpuLevel::Scalar
            && self.tables.windows(2).all(|w| w[0].level() < w[1].level())
    }
}

/// Declares a feature's [`Dispatch`]: the scalar table, then the SIMD tables of x86-64
/// and (optionally) of aarch64, each list lowest level first; a build for any other
/// architecture has the scalar table only.
///
/// ```ignore
/// kernel_tables!(pub(super) static KERNELS: Dispatch<Kernels> =
///     Kernels::SCALAR; x86_64: x86::avx2::KERNELS, x86::avx512::KERNELS;
///     aarch64: neon::KERNELS);
/// ```
macro_rules! kernel_tables {
    ($vis:vis static $name:ident: Dispatch<$ty:ty> = $scalar:expr;
        x86_64: $($x86:expr),+; aarch64: $($arm:expr),+ $(,)?) => {
        /// The kernel tables of this feature, scalar first (see `crate::cpu::dispatch`).
        #[cfg(target_arch = "x86_64")]
        $vis static $name: $crate::cpu::Dispatch<$ty> =
            $crate::cpu::Dispatch::new(&[$scalar, $($x86),+]);
        /// The kernel tables of this feature, scalar first (see `crate::cpu::dispatch`).
        #[cfg(target_arch = "aarch64")]
        $vis static $name: $crate::cpu::Dispatch<$ty> =
            $crate::cpu::Dispatch::new(&[$scalar, $($arm),+]);
        /// The kernel tables of this feature: scalar only on this architecture.
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        $vis static $name: $crate::cpu::Dispatch<$ty> = $crate::cpu::Dispatch::new(&[$scalar]);
    };
    ($vis:vis static $name:ident: Dispatch<$ty:ty> = $scalar:expr; x86_64: $($x86:expr),+ $(,)?) => {
        /// The kernel tables of this feature, scalar first (see `crate::cpu::dispatch`).
        #[cfg(target_arch = "x86_64")]
        $vis static $name: $crate::cpu::Dispatch<$ty> =
            $crate::cpu::Dispatch::new(&[$scalar, $($x86),+]);
        /// The kernel tables of this feature: scalar only on this architecture.
        #[cfg(not(target_arch = "x86_64"))]
        $vis static $name: $crate::cpu::Dispatch<$ty> = $crate::cpu::Dispatch::new(&[$scalar]);
    };
}

pub(crate) use kernel_tables;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    struct T(CpuLevel);

    impl KernelTable for T {
        fn level(&self) -> CpuLevel {
            self.0
        }
    }

    static GAPPED: Dispatch<T> = Dispatch::new(&[
        T(CpuLevel::Scalar),
        T(CpuLevel::Avx2),
        T(CpuLevel::Avx512Vnni),
    ]);

    #[test]
    fn the_waterfall_picks_the_best_table_at_or_below_the_cap() {
        assert!(GAPPED.is_well_formed());
        assert_eq!(GAPPED.pick(CpuLevel::Scalar), T(CpuLevel::Scalar));
        let top = crate::cpu::detected();
        for cap in CpuLevel::ALL {
            let got = GAPPED.pick(cap).0;
            assert!(got <= cap && got <= top, "cap {cap:?} picked {got:?}");
            // Nothing listed lies between the pick and the reachable cap.
            let reach = cap.min(top);
            assert!(GAPPED.all().iter().all(|t| t.0 <= got || t.0 > reach));
        }
        // A gap falls through: AVX-512 without VNNI runs the AVX2 table.
        if top >= CpuLevel::Avx512 {
            assert_eq!(GAPPED.pick(CpuLevel::Avx512), T(CpuLevel::Avx2));
        }
        assert_eq!(
            GAPPED.runnable().last().map(|t| t.0),
            Some(GAPPED.pick(top).0)
        );
    }

    #[test]
    fn badly_ordered_tables_are_caught() {
        static BAD: Dispatch<T> = Dispatch::new(&[T(CpuLevel::Avx2), T(CpuLevel::Scalar)]);
        assert!(!BAD.is_well_formed());
    }
}

#[cfg(test)]
thread_local! {
    static PLANTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the planted one-lane defect is on for this thread (test builds only): one
/// SIMD kernel (motion's AVX2 8-bit vertical pass; on aarch64 its NEON one) then adds 1
/// to lane 3 of each vector it stores, which the kernel checker must catch.
#[cfg(test)]
pub(crate) fn planted() -> bool {
    PLANTED.with(|p| p.get())
}

/// Runs `f` with the planted defect on, on this thread only.
#[cfg(test)]
pub(crate) fn with_planted_defect<R>(f: impl FnOnce() -> R) -> R {
    struct Off;
    impl Drop for Off {
        fn drop(&mut self) {
            PLANTED.with(|p| p.set(false));
        }
    }
    PLANTED.with(|p| p.set(true));
    let _off = Off;
    f()
}
