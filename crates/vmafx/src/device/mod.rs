//! Devices: where frames live and kernels run (ADR-1929 items 1, 7 and 12).
//!
//! A [`Device`] is a reference-counted handle (`Clone` is one more reference) over one
//! backend implementation behind the internal [`DeviceImpl`] trait. This build has the CPU
//! device ([`cpu`]); a backend lane adds a file here and implements the trait, without
//! changing [`Backend`], [`DeviceDesc`] or [`DeviceInfo`].

pub mod cpu;

use std::sync::Arc;

use crate::error::{Error, Result};
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

    /// Number of devices of this backend this build can create; a backend the build has
    /// no devices for is `NotSup` naming `backend` (never a silent 0).
    pub fn device_count(self) -> Result<u32> {
        match self {
            Backend::Cpu => Ok(1),
            other => Err(not_in_build(other)),
        }
    }

    /// Describes device `index` of this backend without creating it.
    pub fn device_info(self, index: i32) -> Result<DeviceInfo> {
        match self {
            Backend::Cpu => {
                if index != 0 {
                    return Err(Error::not_found(
                        "index",
                        format!("the cpu backend has one device, index 0; not {index}"),
                    ));
                }
                Ok(cpu::CpuDevice::new(0).info())
            }
            other => Err(not_in_build(other)),
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

fn not_in_build(b: Backend) -> Error {
    Error::not_supported("backend", format!("this build has no {b} devices"))
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
/// caller holds a [`Device`] and never implements a device itself.
pub trait DeviceImpl: sealed::Sealed + Send + Sync + std::fmt::Debug {
    /// The device's description.
    fn info(&self) -> DeviceInfo;

    /// Makes a frame over the producer's memory (see [`Device::import`]).
    ///
    /// # Safety
    /// As [`Device::import`].
    unsafe fn import(&self, desc: &FrameImport) -> Result<Frame>;
}

/// A compute device; `Clone` is one more reference, the last dropped releases it.
#[derive(Debug, Clone)]
pub struct Device {
    inner: Arc<dyn DeviceImpl>,
}

impl Device {
    /// Creates the device `desc` names.
    ///
    /// A backend this build has no devices for is `NotSup` naming `backend`; an index it
    /// lacks is `NotFound` naming `index`; an unknown flag is `Invalid` and a flag the device
    /// cannot honour `NotSup`, both naming `desc.flags`; external handles given to the CPU
    /// are `Invalid` naming `desc.external`.
    pub fn create(desc: &DeviceDesc) -> Result<Device> {
        desc.backend.device_count()?;
        if desc.flags & !DEVICE_FLAGS_KNOWN != 0 {
            return Err(Error::invalid(
                "desc.flags",
                format!(
                    "unknown device flags 0x{:x}",
                    desc.flags & !DEVICE_FLAGS_KNOWN
                ),
            ));
        }
        match desc.backend {
            Backend::Cpu => cpu::CpuDevice::create(desc).map(Device::from_impl),
            other => Err(not_in_build(other)),
        }
    }

    /// The CPU device.
    pub fn cpu() -> Device {
        Device::from_impl(cpu::CpuDevice::new(0))
    }

    /// Wraps a backend implementation.
    pub fn from_impl(imp: impl DeviceImpl + 'static) -> Device {
        Device {
            inner: Arc::new(imp),
        }
    }

    /// The device's description.
    pub fn info(&self) -> DeviceInfo {
        self.inner.info()
    }

    /// The backend.
    pub fn backend(&self) -> Backend {
        self.info().backend
    }

    /// Whether two handles are one device.
    pub fn same_as(&self, other: &Device) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// References held on this device.
    pub fn ref_count(&self) -> usize {
        Arc::strong_count(&self.inner)
    }

    /// Imports a frame from memory the producer holds, without a host copy (ADR-1929
    /// items 1, 5-7); see [`crate::frame::import`] for the rules and refusals.
    ///
    /// # Safety
    /// For `Host` memory each plane's `handle + offset` must be readable for the extent the
    /// descriptor gives (`pitch * (rows - 1) + row bytes`), and stay valid and unchanged
    /// until the descriptor's release callback runs (or, without one, until the frame's
    /// release fence is signalled). A descriptor that fails validation is never read.
    pub unsafe fn import(&self, desc: &FrameImport) -> Result<Frame> {
        // SAFETY: the caller's contract is the implementation's.
        unsafe { self.inner.import(desc) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Status;

    #[test]
    fn only_the_cpu_is_in_this_build() {
        assert_eq!(Backend::Cpu.device_count().unwrap(), 1);
        let e = Backend::Cuda.device_count().unwrap_err();
        assert_eq!((e.status(), e.subject()), (Status::NotSup, "backend"));
        assert_eq!(Backend::from_u32(5), None);
        assert_eq!(Backend::from_u32(4), Some(Backend::Hip));
    }

    #[test]
    fn cpu_info_names_what_it_imports() {
        let info = Backend::Cpu.device_info(0).unwrap();
        assert_eq!(info.name, "cpu");
        assert_eq!(info.memory_mask(), 1 << MemoryKind::Host as u32);
        assert_eq!(info.fence_mask(), 0b11);
        let e = Backend::Cpu.device_info(1).unwrap_err();
        assert_eq!((e.status(), e.subject()), (Status::NotFound, "index"));
    }

    #[test]
    fn creation_refusals_name_the_field() {
        let mut d = DeviceDesc {
            flags: DEVICE_PROFILING,
            ..DeviceDesc::default()
        };
        let e = Device::create(&d).unwrap_err();
        assert_eq!((e.status(), e.subject()), (Status::NotSup, "desc.flags"));
        d.flags = 1 << 7;
        let e = Device::create(&d).unwrap_err();
        assert_eq!((e.status(), e.subject()), (Status::Invalid, "desc.flags"));
        d.flags = 0;
        d.external[1] = 1;
        let e = Device::create(&d).unwrap_err();
        assert_eq!(
            (e.status(), e.subject()),
            (Status::Invalid, "desc.external")
        );
        d.external = [0; 2];
        d.index = -1;
        let dev = Device::create(&d).unwrap();
        let two = dev.clone();
        assert!(two.same_as(&dev) && dev.ref_count() == 2);
        assert_eq!(dev.info().index, 0);
    }
}
