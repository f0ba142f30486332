//! `vmafx_frame_import()`: a `VmafxFrameImport` converted and handed to the device.

use crate::c_export;
use vmafx::frame::import::{Acquire, FrameImport, ImportPlane, RgbStatement};
use vmafx::frame::{MemoryKind, PixelFormat};
use vmafx::Status;

use crate::abi::{
    extra_fence_name, extra_memory_name, SubjectKind, VmafxFence, VmafxFrameImport,
    FRAME_IMPORT_SIZE_0_1_4,
};
use crate::device::{device_or_cpu, VmafxDevice};
use crate::error::{fail, null, CResult, WithKind};
use crate::frame::{into_handle, release_callback};
use crate::{fence, sized};

/// Converts the caller's descriptor (read up to `size` bytes) to the engine's.
pub(crate) fn convert(d: &VmafxFrameImport, size: usize) -> CResult<FrameImport> {
    if let Some(name) = extra_memory_name(d.memory) {
        return Err(fail(
            Status::NotSup,
            "desc.memory",
            format!("{name} is not imported by this build"),
        ));
    }
    let acquire = acquire_of(&d.acquire, "desc.acquire")?;
    let mut acquire_more = [Acquire::None, Acquire::None];
    for (i, (a, f)) in acquire_more.iter_mut().zip(&d.acquire_more).enumerate() {
        *a = further_acquire(f, i)?;
    }
    let mut planes = [ImportPlane::default(); 3];
    for (p, c) in planes.iter_mut().zip(d.plane.iter()) {
        *p = ImportPlane {
            handle: c.handle,
            fd: c.fd,
            plane_index: c.plane_index,
            offset: c.offset,
            pitch: c.pitch,
            modifier: c.modifier,
            size: c.size,
        };
    }
    // Fields past the caller's size were read as zero; `release` came with ABI 0.1.4.
    let with_release = size >= FRAME_IMPORT_SIZE_0_1_4;
    Ok(FrameImport {
        memory: MemoryKind::from_u32(d.memory),
        format: PixelFormat::from_u32(d.pix_fmt),
        bpc: d.bpc,
        width: d.w,
        height: d.h,
        n_planes: d.n_planes,
        planes,
        acquire,
        flags: d.flags,
        release: if with_release {
            release_callback(d.release, d.user)
        } else {
            None
        },
        acquire_more,
        rgb: RgbStatement {
            matrix: d.rgb_matrix,
            range: d.rgb_range,
            transfer: d.rgb_transfer,
            out_range: d.rgb_out_range,
        },
    })
}

/// The engine's view of the acquire fence `f`, named `name` in errors.
fn acquire_of(f: &VmafxFence, name: &str) -> CResult<Acquire> {
    if f.kind == 0 {
        return Ok(Acquire::None);
    }
    // Embedded by value: read as the caller's struct, its own size checked.
    match fence::resolve(&check_embedded(f, name)?, name) {
        Ok(Some(f)) => Ok(Acquire::Host(Some(f))),
        Ok(None) => Ok(Acquire::None),
        Err(e) if e.error.subject() == format!("{name}.handle") => Ok(Acquire::Host(None)),
        Err(e) if e.error.status() == Status::NotSup => {
            match vmafx::fence::FenceKind::from_u32(f.kind) {
                Some(k) => Ok(Acquire::Other(k)),
                None => Err(e),
            }
        }
        Err(e) => Err(e),
    }
}

/// Further acquire fence `i` (`desc.acquire_more[i]`): a kind the ABI declares goes to
/// the device, which says whether it waits on it; any other value is refused here.
fn further_acquire(f: &VmafxFence, i: usize) -> CResult<Acquire> {
    let name = format!("desc.acquire_more[{i}]");
    match vmafx::fence::FenceKind::from_u32(f.kind) {
        Some(vmafx::fence::FenceKind::None) => Ok(Acquire::None),
        Some(vmafx::fence::FenceKind::Host) => Ok(Acquire::Host(fence::lookup(f.handle))),
        Some(k) => Ok(Acquire::Other(k)),
        None => {
            let (status, why) = match extra_fence_name(f.kind) {
                Some(n) => (
                    Status::NotSup,
                    format!("{n} fences are not supported by this build"),
                ),
                None => (Status::Invalid, format!("{} is not a fence kind", f.kind)),
            };
            Err(fail(status, &name, why)).kind(SubjectKind::Fence)
        }
    }
}

fn check_embedded(f: &VmafxFence, name: &str) -> CResult<VmafxFence> {
    if (f.struct_size as usize) < std::mem::size_of::<VmafxFence>() {
        return Err(fail(
            Status::Abi,
            name,
            format!("struct_size {} is below the fence's size", f.struct_size),
        ));
    }
    Ok(*f)
}

c_export! {
    /// A frame on memory the producer holds, without a host copy.
    ///
    /// # Safety
    /// `device` NULL or live; `desc` NULL or valid for its `struct_size`, its planes as the
    /// header says (readable for their extent, unchanged until the release fence is
    /// signalled); `out`, `error` NULL or writable.
    #[c = "A frame on the producer's memory without a host copy. Refusals name the field (`desc.plane[1].pitch`); a memory kind the device does not bind is VMAFX_E_NOTSUP; an unsignalled acquire fence is VMAFX_E_BUSY. The memory stays valid and unchanged until the release fence is signalled. `*out` is NULL on failure."]
    pub unsafe fn vmafx_frame_import(
        device: *mut VmafxDevice,
        desc: *const VmafxFrameImport,
        out: *mut *mut crate::frame::VmafxFrame;
        error
    ) -> VmafxStatus {
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        // SAFETY: `desc` is NULL or readable for its struct_size (this function's contract).
        let (d, size) = unsafe { sized::read(desc, "desc") }?;
        let engine_desc = convert(&d, size)?;
        // SAFETY: `device` is NULL or a live device (this function's contract).
        let device = unsafe { device_or_cpu(device) };
        // SAFETY: the descriptor's planes are readable for their extents and stay unchanged
        // until its release runs (this function's contract, which is `Device::import`'s).
        let frame = unsafe { device.import(&engine_desc) }?;
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(into_handle(frame)) };
        Ok(Status::Ok)
    }
}
