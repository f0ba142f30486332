//! Devices: where frames live and kernels run (ADR-1929 items 1, 7 and 12).
//!
//! A [`Device`] is a reference-counted handle (`Clone` is one more reference) over one
//! backend implementation behind the internal [`DeviceImpl`] trait. This build has the CPU
//! device ([`cpu`]); a backend lane adds a file here and implements the trait, without
//! changing [`Backend`], [`DeviceDesc`] or [`DeviceInfo`].

mod backend;
pub mod cpu;

pub use backend::{
    Backend, DeviceDesc, DeviceImpl, DeviceInfo, DEVICE_FLAGS_KNOWN, DEVICE_PROFILING,
};

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::frame::import::FrameImport;
use crate::frame::Frame;

impl Backend {
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

fn not_in_build(b: Backend) -> Error {
    Error::not_supported("backend", format!("this build has no {b} devices"))
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
    use crate::frame::MemoryKind;

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
