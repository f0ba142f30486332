//! What every backend shares: the backends' C ABI values, what a device is asked to be
//! and what it says it is, and the trait a backend implements. A leaf: the backends
//! (`cpu/`) and the [`super::Device`] handle both build on it.

use crate::error::Result;
use crate::fence::FenceKind;
use crate::frame::import::FrameImport;
use crate::frame::{Frame, MemoryKind};

/// Compute backends, with VMAFx's C ABI values (5 is reserved).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Backend {
    /// The host CPU.
    Cpu = 0,
    /// NVIDIA CUDA.
    Cuda = 1,
    /// SYCL (oneAPI).
    Sycl = 2,
    /// Apple Metal.
    Metal = 3,
    /// AMD HIP.
    Hip = 4,
}

impl Backend {
    /// Every backend, in value order.
    pub const ALL: [Backend; 5] = [
        Backend::Cpu,
        Backend::Cuda,
        Backend::Sycl,
        Backend::Metal,
        Backend::Hip,
    ];

    /// The backend for a C ABI value, if the value names one.
    pub fn from_u32(v: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|b| *b as u32 == v)
    }

    /// A short lower-case name (`cpu`, `cuda`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
            Backend::Cuda => "cuda",
            Backend::Sycl => "sycl",
            Backend::Metal => "metal",
            Backend::Hip => "hip",
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Device creation flag: time every kernel (refused by the CPU, which has no profiler).
pub const DEVICE_PROFILING: u32 = 1 << 0;
/// Every device creation flag this ABI knows.
pub const DEVICE_FLAGS_KNOWN: u32 = DEVICE_PROFILING;

/// Which device to create.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceDesc {
    /// The backend.
    pub backend: Backend,
    /// Index within the backend; -1 is any device of it.
    pub index: i32,
    /// Creation flags ([`DEVICE_PROFILING`]).
    pub flags: u32,
    /// The caller's runtime objects (0: none). The CPU takes none.
    pub external: [usize; 2],
}

impl Default for DeviceDesc {
    /// The CPU device.
    fn default() -> Self {
        DeviceDesc {
            backend: Backend::Cpu,
            index: 0,
            flags: 0,
            external: [0; 2],
        }
    }
}

/// What a device is and what it imports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// The backend.
    pub backend: Backend,
    /// Index within the backend; -1 for a device made from external handles.
    pub index: i32,
    /// Flags the device was created with (0 for an enumerated device).
    pub flags: u32,
    /// Memory kinds the device imports.
    pub memory_kinds: Vec<MemoryKind>,
    /// Fence kinds the device waits on and returns as release fences.
    pub fence_kinds: Vec<FenceKind>,
    /// Bytes of device memory; 0 when not reported (the CPU).
    pub total_memory: u64,
    /// The name its runtime reports (`cpu` for the CPU).
    pub name: &'static str,
}

impl DeviceInfo {
    /// Bit `1 << k` for each memory kind `k` imported (the C ABI's mask).
    pub fn memory_mask(&self) -> u32 {
        self.memory_kinds.iter().fold(0, |m, k| m | 1 << *k as u32)
    }

    /// Bit `1 << k` for each fence kind `k` honoured (the C ABI's mask).
    pub fn fence_mask(&self) -> u32 {
        self.fence_kinds.iter().fold(0, |m, k| m | 1 << *k as u32)
    }
}

/// Keeps [`DeviceImpl`] sealed: only this crate's backend lanes implement it.
pub(crate) mod sealed {
    /// The supertrait outside crates cannot name.
    pub trait Sealed {}
}

/// What a backend implements. Sealed: backend lanes of this crate add implementations; a
/// caller holds a [`Device`](super::Device) and never implements a device itself.
pub trait DeviceImpl: sealed::Sealed + Send + Sync + std::fmt::Debug {
    /// The device's description.
    fn info(&self) -> DeviceInfo;

    /// Makes a frame over the producer's memory (see [`Device::import`](super::Device::import)).
    ///
    /// # Safety
    /// As [`Device::import`](super::Device::import).
    unsafe fn import(&self, desc: &FrameImport) -> Result<Frame>;
}
