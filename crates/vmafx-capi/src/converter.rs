//! Frame converters of the C ABI (ABI 0.1.6): `vmafx_frame_converter_create`,
//! `vmafx_frame_convert`, `vmafx_frame_converter_destroy` over the engine's
//! [`FrameConverter`] (depth and range conversions of planar host frames; see its docs for
//! what is refused).

use crate::c_export;
use vmafx::frame::converter::{Color, ConvertDesc, FrameConverter};
use vmafx::Status;

use crate::abi::{VmafxColor, VmafxConvertDesc};
use crate::error::null;
use crate::frame::{into_handle, VmafxFrame};
use crate::sized;

/// A converter handle.
#[derive(Debug)]
pub struct VmafxFrameConverter {
    converter: FrameConverter,
}

fn color(c: &VmafxColor) -> Color {
    Color {
        range: c.range,
        primaries: c.primaries,
        trc: c.trc,
        matrix: c.matrix,
    }
}

fn engine_desc(d: &VmafxConvertDesc) -> ConvertDesc {
    ConvertDesc {
        src_pix_fmt: d.src_pix_fmt,
        src_bpc: d.src_bpc,
        src_w: d.src_w,
        src_h: d.src_h,
        src_color: color(&d.src_color),
        dst_pix_fmt: d.dst_pix_fmt,
        dst_bpc: d.dst_bpc,
        dst_w: d.dst_w,
        dst_h: d.dst_h,
        dst_color: color(&d.dst_color),
        filter: d.filter,
    }
}

c_export! {
    /// A converter for frames `desc` describes; refusals name the field.
    ///
    /// # Safety
    /// `desc` NULL or valid for its `struct_size`; `out`, `error` NULL or writable.
    #[c = "A converter for planar host frames of `desc.src_*` (ABI 0.1.6). This build converts the bit depth and the range, each sample exactly and rounded once; another size, chroma layout, primaries, transfer or matrix is VMAFX_E_NOTSUP naming the field, a value that is none VMAFX_E_INVALID naming it."]
    pub unsafe fn vmafx_frame_converter_create(
        desc: *const VmafxConvertDesc,
        out: *mut *mut VmafxFrameConverter;
        error
    ) -> VmafxStatus {
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        // SAFETY: `desc` is NULL or readable for its struct_size (this function's contract).
        let (d, _) = unsafe { sized::read(desc, "desc") }?;
        let converter = FrameConverter::new(&engine_desc(&d))?;
        let handle = Box::into_raw(Box::new(VmafxFrameConverter { converter }));
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(handle) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// `src` (read only) converted into a new host frame with one reference the caller holds.
    ///
    /// # Safety
    /// `converter`, `src` NULL or live; `out`, `error` NULL or writable.
    #[c = "Converts host frame `src` (read only; the converter's geometry, else VMAFX_E_INVALID naming `src`) into a new host frame with one reference the caller holds (ABI 0.1.6)."]
    pub unsafe fn vmafx_frame_convert(
        converter: *mut VmafxFrameConverter,
        src: *const VmafxFrame,
        out: *mut *mut VmafxFrame;
        error
    ) -> VmafxStatus {
        if !out.is_null() {
            // SAFETY: `out` is non-NULL and writable (this function's contract).
            unsafe { out.write(std::ptr::null_mut()) };
        }
        // SAFETY: `converter` is NULL or live (this function's contract).
        let c = unsafe { converter.as_ref() }.ok_or_else(|| null("converter"))?;
        // SAFETY: `src` is NULL or live (this function's contract).
        let s = unsafe { src.as_ref() }.ok_or_else(|| null("src"))?;
        if out.is_null() {
            return Err(null("out"));
        }
        let frame = c.converter.convert(s.frame())?;
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(into_handle(frame)) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// Releases a converter; `VMAFX_E_INVALID` naming `converter` for NULL.
    ///
    /// # Safety
    /// `converter` is NULL or a live converter of this library, destroyed once; `error` NULL
    /// or writable.
    #[c = "Releases a converter; VMAFX_E_INVALID naming `converter` for NULL (ABI 0.1.6)."]
    pub unsafe fn vmafx_frame_converter_destroy(
        converter: *mut VmafxFrameConverter;
        error
    ) -> VmafxStatus {
        if converter.is_null() {
            return Err(null("converter"));
        }
        // SAFETY: a live converter from `Box::into_raw`, destroyed once (the contract).
        drop(unsafe { Box::from_raw(converter) });
        Ok(Status::Ok)
    }
}

crate::c_named!(VmafxFrameConverter);
