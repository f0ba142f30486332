//! The processor's instruction-set level and the kernel tables picked by it: [`level`]
//! says which level the kernels run at (detected, then lowered by `--cpumask`,
//! `VMAFX_CPU` or a thread's cap), and a feature's `Dispatch` hands out its best table at
//! or below that level.

pub(crate) mod dispatch;
mod level;
#[cfg(target_arch = "x86_64")]
pub(crate) mod vnni;
#[cfg(target_arch = "x86_64")]
pub(crate) mod widen;

pub(crate) use dispatch::kernel_tables;
pub(crate) use dispatch::{Dispatch, KernelTable};
pub use level::*;
