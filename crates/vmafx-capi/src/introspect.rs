//! What a context registered and which extractor computes a feature (VMAFx's context.h:
//! `vmafx_context_extractor_count`, `vmafx_context_extractor_info`, `vmafx_feature_resolve`).

use std::ffi::c_char;

use vmafx::feature::registry;
use vmafx::Status;

use crate::abi::{MinSize, SubjectKind, VmafxFrameDesc};
use crate::context::{get, VmafxContext};
use crate::error::{call, fail, CResult, VmafxError, WithKind};
use crate::ffi::c_str;
use crate::frame::frame_geometry;
use crate::options::VmafxOptions;
use crate::score::extractor_c_name;
use crate::sized;

/// `VmafxExtractorInfo`: one registered feature extractor.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxExtractorInfo {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// The `VmafxBackend` it runs on.
    pub backend: u32,
    /// Its name (`psnr`, `adm`), for the process lifetime.
    pub name: *const c_char,
}

impl MinSize for VmafxExtractorInfo {
    /// ABI 0.1.0: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxExtractorInfo>();
}

/// `VmafxFeatureResolution`: which extractor computes a feature on a context.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxFeatureResolution {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// The `VmafxBackend` of `extractor`.
    pub backend: u32,
    /// The extractor that computes it, for the process lifetime.
    pub extractor: *const c_char,
    /// The option a device twin cannot honour, or NULL (always NULL on the CPU).
    pub unsupported_option: *const c_char,
}

impl MinSize for VmafxFeatureResolution {
    /// ABI 0.1.0: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxFeatureResolution>();
}

/// Writes `value` into the caller's `out` (its `struct_size` checked first).
///
/// # Safety
/// `out` NULL or valid for its `struct_size`.
unsafe fn answer<T: MinSize>(out: *mut T, value: impl FnOnce() -> CResult<T>) -> CResult {
    // SAFETY: forwarded contract.
    let size = unsafe { sized::out_size(out, "out") }?;
    let v = value()?;
    // SAFETY: `out` is writable for `size` bytes (checked above).
    unsafe { sized::write(out, size, &v) };
    Ok(Status::Ok)
}

/// Number of registered feature extractors; 0 for NULL.
///
/// # Safety
/// `context` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn vmafx_context_extractor_count(context: *const VmafxContext) -> u32 {
    crate::error::guarded("vmafx_context_extractor_count", 0, || {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { context.as_ref() }.map_or(0, |c| c.lock().ctx.features().len() as u32)
    })
}

/// Describes registered extractor `index` (registration order); `VMAFX_E_NOTFOUND` naming
/// `index` past the last one.
///
/// # Safety
/// `context` NULL or live; `out` NULL or valid for its `struct_size`; `error` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn vmafx_context_extractor_info(
    context: *const VmafxContext,
    index: u32,
    out: *mut VmafxExtractorInfo,
    error: *mut *mut VmafxError,
) -> i32 {
    // SAFETY: every pointer is used under the caller's contract above.
    unsafe {
        call("vmafx_context_extractor_info", error, || {
            let c = get(context)?;
            answer(out, || {
                let inner = c.lock();
                let names = inner.ctx.features();
                let Some(name) = names.get(index as usize) else {
                    return Err(fail(
                        Status::NotFound,
                        "index",
                        format!("extractor {index} of {} registered", names.len()),
                    ))
                    .kind(SubjectKind::Parameter);
                };
                Ok(VmafxExtractorInfo {
                    struct_size: 0,
                    backend: inner.device().backend() as u32,
                    name: extractor_c_name(name),
                })
            })
        })
    }
}

/// Which extractor would compute the CPU extractor `extractor` with `options` (may be NULL)
/// on this context, for frames of `frame` (may be NULL: no geometry check): on the CPU the
/// extractor itself, under its registry name. `VMAFX_E_NOTFOUND` names
/// an unknown extractor; an option it does not take, or a geometry the frame may not have,
/// is refused as `vmafx_context_use_feature()` and `vmafx_frame_create_host()` refuse them.
///
/// # Safety
/// `context` NULL or live; `extractor` NULL or NUL-terminated; `options` NULL or live;
/// `frame` NULL or valid for its `struct_size`; `out` NULL or valid for its
/// `struct_size`; `error` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmafx_feature_resolve(
    context: *const VmafxContext,
    extractor: *const c_char,
    options: *const VmafxOptions,
    frame: *const VmafxFrameDesc,
    out: *mut VmafxFeatureResolution,
    error: *mut *mut VmafxError,
) -> i32 {
    // SAFETY: every pointer is used under the caller's contract above.
    unsafe {
        call("vmafx_feature_resolve", error, || {
            let c = get(context)?;
            let name = c_str(extractor, "extractor")?;
            answer(out, || {
                let info = registry::by_name(name).kind(SubjectKind::Extractor)?;
                let pairs = options.as_ref().map(|o| o.pairs()).unwrap_or_default();
                info.parse_options(&pairs).kind(SubjectKind::Option)?;
                if !frame.is_null() {
                    let (d, _) = sized::read(frame, "frame")?;
                    frame_geometry(&d)?;
                }
                Ok(VmafxFeatureResolution {
                    struct_size: 0,
                    backend: c.lock().device().backend() as u32,
                    extractor: extractor_c_name(info.name),
                    unsupported_option: std::ptr::null(),
                })
            })
        })
    }
}
