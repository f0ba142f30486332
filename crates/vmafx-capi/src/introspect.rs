//! What a context registered and which extractor computes a feature (VMAFx's context.h:
//! `vmafx_context_extractor_count`, `vmafx_context_extractor_info`, `vmafx_feature_resolve`).

use crate::c_export;
use std::ffi::c_char;

use vmafx::feature::registry;
use vmafx::Status;

use crate::abi::{MinSize, SubjectKind, VmafxFrameDesc};
use crate::context_handle::{get, VmafxContext};
use crate::error::{fail, CResult, WithKind};
use crate::ffi::c_str;
use crate::frame::frame_geometry;
use crate::options::VmafxOptions;
use crate::pooling::extractor_c_name;
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

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxExtractorInfo {
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

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxFeatureResolution {
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

c_export! {
    /// Number of registered feature extractors; 0 for NULL.
    ///
    /// # Safety
    /// `context` NULL or live.
    #[c = "Number of registered feature extractors; 0 for NULL."]
    pub unsafe fn vmafx_context_extractor_count(context: *const VmafxContext) -> u32 {
        // SAFETY: NULL or live (the caller's contract).
        unsafe { context.as_ref() }.map_or(0, |c| c.lock().ctx.features().len() as u32)
    }
}

c_export! {
    /// Describes registered extractor `index` (registration order); `VMAFX_E_NOTFOUND` naming
    /// `index` past the last one.
    ///
    /// # Safety
    /// `context` NULL or live; `out` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "Describes registered extractor `index` (registration order); VMAFX_E_NOTFOUND naming `index` past the last one."]
    pub unsafe fn vmafx_context_extractor_info(
        context: *const VmafxContext,
        index: u32,
        out: *mut VmafxExtractorInfo;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        let value = || {
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
        };
        // SAFETY: `out` is NULL or valid for its struct_size (this function's contract).
        unsafe { answer(out, value) }
    }
}

c_export! {
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
    #[c = "Which extractor would compute the CPU extractor `extractor` with `options` (may be NULL) on this context, for frames of `frame` (may be NULL: no geometry check). On the CPU it is the extractor itself. VMAFX_E_NOTFOUND names an unknown extractor; an option it does not take or a geometry no frame may have is refused as vmafx_context_use_feature() and vmafx_frame_create_host() refuse them."]
    pub unsafe fn vmafx_feature_resolve(
        context: *const VmafxContext,
        extractor: *const c_char,
        options: *const VmafxOptions,
        frame: *const VmafxFrameDesc,
        out: *mut VmafxFeatureResolution;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: `extractor` is NULL or NUL-terminated (this function's contract).
        let name = unsafe { c_str(extractor, "extractor") }?;
        let value = || {
            let info = registry::by_name(name).kind(SubjectKind::Extractor)?;
            // SAFETY: `options` is NULL or live (this function's contract).
            let pairs = unsafe { options.as_ref() }
                .map(|o| o.pairs())
                .unwrap_or_default();
            info.parse_options(&pairs).kind(SubjectKind::Option)?;
            if !frame.is_null() {
                // SAFETY: `frame` is NULL or readable for its struct_size (this function's contract).
                let (d, _) = unsafe { sized::read(frame, "frame") }?;
                frame_geometry(&d)?;
            }
            Ok(VmafxFeatureResolution {
                struct_size: 0,
                backend: c.lock().device().backend() as u32,
                extractor: extractor_c_name(info.name),
                unsupported_option: std::ptr::null(),
            })
        };
        // SAFETY: `out` is NULL or valid for its struct_size (this function's contract).
        unsafe { answer(out, value) }
    }
}

crate::c_named!(VmafxExtractorInfo, VmafxFeatureResolution);
