//! The float kernels' x86-64 code: [`lanes`] abstracts the vector width, [`conv`] holds
//! the convolution's row kernels written once over it, and `avx2` / `avx512` instantiate
//! them as the tables `super::dispatch` lists; `abs_diff` is float_motion's row sums of
//! absolute differences (AVX2, in both tables).

mod abs_diff;
pub(super) mod avx2;
pub(super) mod avx512;
pub(crate) mod conv;
pub(crate) mod lanes;

/// Defines a safe table entry `$name` that runs `$generic::<$lanes>` compiled for
/// `$feature`. The table holding the entry must only be handed out where the processor
/// has that feature (the dispatch does so), which is what makes the call sound.
macro_rules! level_entry {
    ($feature:literal, $lanes:ty, $name:ident = $($generic:ident)::+, ($($arg:ident: $ty:ty),*) $(-> $ret:ty)?) => {
        fn $name($($arg: $ty),*) $(-> $ret)? {
            #[target_feature(enable = $feature)]
            unsafe fn inner($($arg: $ty),*) $(-> $ret)? {
                // SAFETY: `inner` runs with the level's instructions enabled, all the
                // generic kernel asks.
                unsafe { $($generic)::+::<$lanes>($($arg),*) }
            }
            // SAFETY: the table holding this entry is handed out only on processors
            // that have `$feature` (see `crate::cpu::dispatch`).
            unsafe { inner($($arg),*) }
        }
    };
}
pub(crate) use level_entry;
