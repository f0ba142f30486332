//! The CPU device: imports host memory, honours NONE and HOST fences (ADR-1929 item 7).
//!
//! It has no queue to put a wait on, so an acquire fence that is not signalled yet makes
//! the import `Busy` rather than block; the context's import rule waits and retries.

use crate::error::{Error, Result};
use crate::fence::FenceKind;
use crate::frame::import::FrameImport;
use crate::frame::{Frame, MemoryKind};

mod convert;
mod import;
mod rgb;
mod span;
mod wrap;

pub use import::import_host;
pub use wrap::wrap_host;

use super::backend::{sealed, Backend, DeviceDesc, DeviceImpl, DeviceInfo, DEVICE_PROFILING};

/// The host CPU as a device.
#[derive(Debug, Clone)]
pub struct CpuDevice {
    index: i32,
    flags: u32,
}

impl CpuDevice {
    /// The CPU device `index` (only 0 exists).
    pub fn new(index: i32) -> Self {
        CpuDevice { index, flags: 0 }
    }

    /// Creates the CPU device from a descriptor whose backend is the CPU.
    pub fn create(desc: &DeviceDesc) -> Result<Self> {
        if desc.flags & DEVICE_PROFILING != 0 {
            return Err(Error::not_supported(
                "desc.flags",
                "the cpu device has no kernel profiler (VMAFX_DEVICE_PROFILING)",
            ));
        }
        if desc.external != [0; 2] {
            return Err(Error::invalid(
                "desc.external",
                "the cpu device takes no external runtime objects",
            ));
        }
        if desc.index != 0 && desc.index != -1 {
            return Err(Error::not_found(
                "index",
                format!(
                    "the cpu backend has one device, index 0; not {}",
                    desc.index
                ),
            ));
        }
        Ok(CpuDevice {
            index: 0,
            flags: desc.flags,
        })
    }
}

impl sealed::Sealed for CpuDevice {}

impl DeviceImpl for CpuDevice {
    fn info(&self) -> DeviceInfo {
        DeviceInfo {
            backend: Backend::Cpu,
            index: self.index,
            flags: self.flags,
            memory_kinds: vec![MemoryKind::Host],
            fence_kinds: vec![FenceKind::None, FenceKind::Host],
            total_memory: 0,
            name: "cpu",
        }
    }

    unsafe fn import(&self, desc: &FrameImport) -> Result<Frame> {
        // SAFETY: the caller upholds `Device::import`'s contract, which is `import_host`'s.
        unsafe { import_host(desc, &self.info()) }
    }
}
