//! Devices of the C ABI (ADR-1929 item 12): create, ref / unref, count, info, describe.
//!
//! A `VmafxDevice*` is an `Arc` turned into a raw pointer: `vmafx_device_ref()` adds a
//! strong count and returns the same pointer, `vmafx_device_unref()` drops one.

use crate::c_export;
use std::collections::BTreeMap;
use std::ffi::{c_char, CString};
use std::sync::{Arc, Mutex};

use vmafx::device::{Backend, Device, DeviceDesc, DeviceInfo};
use vmafx::Status;

use crate::abi::{SubjectKind, VmafxDeviceDesc, VmafxDeviceInfo};
use crate::error::{fail, null, CResult, WithKind};
use crate::sized;

/// A device handle.
#[derive(Debug)]
pub struct VmafxDevice {
    /// The engine device.
    pub device: Device,
}

/// The engine device behind `ptr` (NULL: the CPU).
///
/// # Safety
/// `ptr` is NULL or a live device of this library.
pub unsafe fn device_or_cpu(ptr: *const VmafxDevice) -> Device {
    // SAFETY: NULL or live (the caller's contract).
    unsafe { ptr.as_ref() }.map_or_else(Device::cpu, |d| d.device.clone())
}

fn backend_of(value: u32, field: &str) -> CResult<Backend> {
    Backend::from_u32(value)
        .ok_or_else(|| fail(Status::Invalid, field, format!("{value} is not a backend")))
        .kind(SubjectKind::Backend)
}

/// A name that lives for the process, as C wants device names.
fn static_name(name: &'static str) -> *const c_char {
    static NAMES: Mutex<BTreeMap<&'static str, &'static std::ffi::CStr>> =
        Mutex::new(BTreeMap::new());
    let mut names = NAMES.lock().unwrap_or_else(|p| p.into_inner());
    names
        .entry(name)
        .or_insert_with(|| Box::leak(CString::new(name).unwrap_or_default().into_boxed_c_str()))
        .as_ptr()
}

fn info_struct(info: &DeviceInfo) -> VmafxDeviceInfo {
    VmafxDeviceInfo {
        struct_size: 0,
        backend: info.backend as u32,
        index: info.index,
        flags: info.flags,
        memory_kinds: info.memory_mask(),
        fence_kinds: info.fence_mask(),
        total_memory: info.total_memory,
        name: static_name(info.name),
        // No backend of this build reports a PCI location.
        pci: [u32::MAX; 4],
    }
}

c_export! {
    /// Creates a device (`desc` NULL: the CPU).
    ///
    /// # Safety
    /// `desc` NULL or valid for its `struct_size`; `out` NULL or writable; `error` NULL or
    /// writable.
    #[c = "Creates a device; `desc` NULL is the CPU. The caller holds one reference."]
    pub unsafe fn vmafx_device_create(
        desc: *const VmafxDeviceDesc,
        out: *mut *mut VmafxDevice;
        error
    ) -> VmafxStatus {
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        let d = if desc.is_null() {
            DeviceDesc::default()
        } else {
            // SAFETY: `desc` is NULL or readable for its struct_size (this function's contract).
            let (d, _) = unsafe { sized::read(desc, "desc") }?;
            DeviceDesc {
                backend: backend_of(d.backend, "desc.backend")?,
                index: d.index,
                flags: d.flags,
                external: d.external,
            }
        };
        let device = Device::create(&d)?;
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(Arc::into_raw(Arc::new(VmafxDevice { device })) as *mut VmafxDevice) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// One more reference; returns `device` (NULL for NULL).
    ///
    /// # Safety
    /// `device` is NULL or a live device of this library.
    #[c = "One more reference; returns `device` (NULL for NULL)."]
    pub unsafe fn vmafx_device_ref(device: *mut VmafxDevice) -> *mut VmafxDevice {
        if !device.is_null() {
            // SAFETY: a live pointer from `Arc::into_raw` (the caller's contract).
            unsafe { Arc::increment_strong_count(device as *const VmafxDevice) };
        }
        device
    }
}

c_export! {
    /// Drops one reference; NULL is a no-op.
    ///
    /// # Safety
    /// `device` is NULL or a live device of this library whose reference the caller gives up.
    #[c = "Drops one reference; NULL is a no-op."]
    pub unsafe fn vmafx_device_unref(device: *mut VmafxDevice) {
        if !device.is_null() {
            // SAFETY: one of the counts `Arc::into_raw` / `vmafx_device_ref` handed out.
            unsafe { Arc::decrement_strong_count(device as *const VmafxDevice) };
        }
    }
}

c_export! {
    /// The backend of a device; CPU for NULL.
    ///
    /// # Safety
    /// `device` is NULL or a live device of this library.
    #[c = "The device's VmafxBackend; the CPU for NULL."]
    pub unsafe fn vmafx_device_backend(device: *const VmafxDevice) -> u32 {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { device_or_cpu(device) }.backend() as u32
    }
}

c_export! {
    /// Number of devices of `backend` this build creates.
    ///
    /// # Safety
    /// `count` NULL or writable; `error` NULL or writable.
    #[c = "Devices of `backend` this build creates; a backend it lacks is VMAFX_E_NOTSUP, never a silent 0."]
    pub unsafe fn vmafx_device_count(backend: u32, count: *mut u32; error) -> VmafxStatus {
        if count.is_null() {
            return Err(null("count"));
        }
        // SAFETY: `count` is non-NULL (checked above) and writable (this function's contract).
        unsafe { count.write(0) };
        let n = backend_of(backend, "backend")?.device_count()?;
        // SAFETY: `count` is non-NULL (checked above) and writable (this function's contract).
        unsafe { count.write(n) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// Describes device `index` of `backend` without creating it.
    ///
    /// # Safety
    /// `out` NULL or valid for its `struct_size`; `error` NULL or writable.
    #[c = "Describes device `index` of `backend` without creating it."]
    pub unsafe fn vmafx_device_info(
        backend: u32,
        index: i32,
        out: *mut VmafxDeviceInfo;
        error
    ) -> VmafxStatus {
        // SAFETY: `out` is NULL or readable and writable for its struct_size (this function's contract).
        let size = unsafe { sized::out_size(out, "out") }?;
        let info = backend_of(backend, "backend")?.device_info(index)?;
        // SAFETY: `out` passed `out_size`: writable for that many bytes (this function's contract).
        unsafe { sized::write(out, size, &info_struct(&info)) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// Describes a created device, its creation flags included.
    ///
    /// # Safety
    /// `device` NULL or live; `out` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "Describes a created device, its flags included."]
    pub unsafe fn vmafx_device_describe(
        device: *const VmafxDevice,
        out: *mut VmafxDeviceInfo;
        error
    ) -> VmafxStatus {
        // SAFETY: `device` is NULL or live (this function's contract).
        let d = unsafe { device.as_ref() }.ok_or_else(|| null("device"))?;
        // SAFETY: `out` is NULL or readable and writable for its struct_size (this function's contract).
        let size = unsafe { sized::out_size(out, "out") }?;
        // SAFETY: `out` passed `out_size`: writable for that many bytes (this function's contract).
        unsafe { sized::write(out, size, &info_struct(&d.device.info())) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// Kernel timings of a profiling device; the CPU has none (`VMAFX_E_NOTSUP` naming it).
    ///
    /// # Safety
    /// `device` NULL or live; `out` NULL or writable; `error` NULL or writable.
    #[c = "Kernel timings of a profiling device; VMAFX_E_NOTSUP naming the device otherwise (the CPU)."]
    pub unsafe fn vmafx_device_profile(
        device: *mut VmafxDevice,
        out: *mut *const c_char;
        error
    ) -> VmafxStatus {
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null()) };
        // SAFETY: `device` is NULL or live (this function's contract).
        let d = unsafe { device.as_ref() }.ok_or_else(|| null("device"))?;
        Err(fail(
            Status::NotSup,
            "device",
            format!(
                "the {} device was not created with VMAFX_DEVICE_PROFILING",
                d.device.info().name
            ),
        ))
    }
}

crate::c_named!(VmafxDevice);
