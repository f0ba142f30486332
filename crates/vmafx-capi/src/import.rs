//! `vmafx_frame_import()`: a `VmafxFrameImport` converted and handed to the device.

use vmafx::frame::import::{Acquire, FrameImport, ImportPlane};
use vmafx::frame::{MemoryKind, PixelFormat};
use vmafx::Status;

use crate::abi::{VmafxFrameImport, MEMORY_GL_TEXTURE};
use crate::device::{device_or_cpu, VmafxDevice};
use crate::error::{call, fail, null, CResult, ErrorOut, VmafxError};
use crate::frame::{into_handle, release_callback};
use crate::{fence, sized};

/// Converts the caller's descriptor (read up to `size` bytes) to the engine's.
pub(crate) fn convert(d: &VmafxFrameImport, size: usize) -> CResult<FrameImport> {
    if d.memory == MEMORY_GL_TEXTURE {
        return Err(fail(
            Status::NotSup,
            "desc.memory",
            "VMAFX_MEMORY_GL_TEXTURE is not imported by this build",
        ));
    }
    let acquire = if d.acquire.kind == 0 {
        Acquire::None
    } else {
        // Embedded by value: read as the caller's struct, its own size checked.
        match fence::resolve(&check_embedded(d)?, "desc.acquire") {
            Ok(Some(f)) => Acquire::Host(Some(f)),
            Ok(None) => Acquire::None,
            Err(e) if e.error.subject() == "desc.acquire.handle" => Acquire::Host(None),
            Err(e) if e.error.status() == Status::NotSup => {
                match vmafx::fence::FenceKind::from_u32(d.acquire.kind) {
                    Some(k) => Acquire::Other(k),
                    None => return Err(e),
                }
            }
            Err(e) => return Err(e),
        }
    };
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
    let with_release = size >= std::mem::size_of::<VmafxFrameImport>();
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
    })
}

fn check_embedded(d: &VmafxFrameImport) -> CResult<crate::abi::VmafxFence> {
    let f = d.acquire;
    if (f.struct_size as usize) < std::mem::size_of::<crate::abi::VmafxFence>() {
        return Err(fail(
            Status::Abi,
            "desc.acquire",
            format!("struct_size {} is below the fence's size", f.struct_size),
        ));
    }
    Ok(f)
}

/// A frame on memory the producer holds, without a host copy.
///
/// # Safety
/// `device` NULL or live; `desc` NULL or valid for its `struct_size`, its planes as the
/// header says (readable for their extent, unchanged until the release fence is
/// signalled); `out`, `error` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmafx_frame_import(
    device: *mut VmafxDevice,
    desc: *const VmafxFrameImport,
    out: *mut *mut crate::frame::VmafxFrame,
    error: *mut *mut VmafxError,
) -> i32 {
    // SAFETY: `error` is NULL or writable (this function's contract).
    let error = unsafe { ErrorOut::new(error) };
    call("vmafx_frame_import", error, || {
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
    })
}
