//! Context options and defaults of context.h (ABI 0.1.6): `vmafx_context_set_option`
//! (`perceptual_weight`, `perceptual_weight_strength`, `check_sample_range`),
//! `vmafx_context_attach_sidedata` and `vmafx_context_set_default_color`, and the sample
//! range check `vmafx_submit()` runs while `check_sample_range` is on.
//!
//! Perceptual weighting weights each frame of a pooled score by `1 + strength * salience`,
//! the salience read from the frame's side data (a pre-processor's interop blob). This build
//! reads no such blob: `vmafx_context_attach_sidedata` is `VMAFX_E_NOTSUP` naming `data`, so
//! every frame keeps weight 1 and the two options, accepted and checked, change no score (as
//! in VMAFx for frames without side data).

use crate::c_export;
use std::ffi::{c_char, c_void};

use vmafx::frame::Samples;
use vmafx::{Frame, MemoryKind, Status};

use crate::abi::{SubjectKind, VmafxColor};
use crate::context_handle::{get, VmafxContext};
use crate::error::{fail, null, CResult, WithKind};
use crate::ffi::c_str;
use crate::session::ContextOptions;

/// Applies `key` = `value` to `options`; the failure names the key or the value.
fn set(options: &mut ContextOptions, key: &str, value: &str) -> CResult<()> {
    let switch = |v: &str| match v {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(fail(
            Status::Invalid,
            key,
            format!("'{v}' is not a switch value (0 or 1)"),
        ))
        .kind(SubjectKind::Option),
    };
    match key {
        "perceptual_weight" => options.perceptual_weight = switch(value)?,
        "check_sample_range" => options.check_sample_range = switch(value)?,
        "perceptual_weight_strength" => {
            let strength = value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| {
                    fail(
                        Status::Invalid,
                        key,
                        format!("'{value}' is not a finite number >= 0"),
                    )
                })
                .kind(SubjectKind::Option)?;
            options.perceptual_weight_strength = strength;
        }
        _ => {
            return Err(fail(
                Status::NotFound,
                key,
                "no context option has this name; the context options are perceptual_weight, \
                 perceptual_weight_strength and check_sample_range",
            ))
            .kind(SubjectKind::Option)
        }
    }
    Ok(())
}

c_export! {
    /// Sets a context option.
    ///
    /// # Safety
    /// `context` NULL or live; `key`, `value` NULL or NUL-terminated; `error` NULL or writable.
    #[c = "Sets a context option: `perceptual_weight` (`0` / `1`), `perceptual_weight_strength` (a finite number >= 0; default 1) or `check_sample_range` (`0` / `1`, off by default: vmafx_submit() refuses a pair with a sample of a 9- to 15-bit frame above 2^bpc - 1 with VMAFX_E_INVALID naming the input, its plane, row, column and value). VMAFX_E_NOTFOUND names an unknown key, VMAFX_E_INVALID a value the key refuses (both VMAFX_SUBJECT_OPTION). This build attaches no side data (vmafx_context_attach_sidedata()), so the perceptual options change no score."]
    pub unsafe fn vmafx_context_set_option(
        context: *mut VmafxContext,
        key: *const c_char,
        value: *const c_char;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: `key` is NULL or NUL-terminated (this function's contract).
        let key = unsafe { c_str(key, "key") }?;
        // SAFETY: `value` is NULL or NUL-terminated (this function's contract).
        let value = unsafe { c_str(value, "value") }?;
        set(&mut c.lock().options, key, value)?;
        Ok(Status::Ok)
    }
}

c_export! {
    /// Attaches perceptual side data to frame `index`: not read by this build.
    ///
    /// # Safety
    /// `context` NULL or live; `data` NULL or readable for `size` bytes; `error` NULL or
    /// writable.
    #[c = "Attaches the perceptual side data of frame `index` (a pre-processor's interop blob) for `perceptual_weight`. This build reads no side-data format: after the argument checks (NULL `context` or `data`, `size` 0: VMAFX_E_INVALID) it is VMAFX_E_NOTSUP naming `data`, and every frame keeps weight 1 in pooled scores."]
    pub unsafe fn vmafx_context_attach_sidedata(
        context: *mut VmafxContext,
        index: u64,
        data: *const c_void,
        size: usize;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        unsafe { get(context) }?;
        if data.is_null() {
            return Err(null("data"));
        }
        if size == 0 {
            return Err(fail(Status::Invalid, "size", "0 bytes of side data"));
        }
        Err(fail(
            Status::NotSup,
            "data",
            format!(
                "perceptual side data of frame {index} ({size} bytes): this build reads no \
                 side-data format, so frames are not perceptually weighted"
            ),
        ))
    }
}

/// Checks each member of `color` (named `name`) against its enumeration.
fn check_color(color: &VmafxColor, name: &str) -> CResult<()> {
    for (member, value, max, enum_name) in [
        ("range", color.range, 2, "VmafxColorRange"),
        ("primaries", color.primaries, 3, "VmafxColorPrimaries"),
        ("trc", color.trc, 5, "VmafxColorTransfer"),
        ("matrix", color.matrix, 5, "VmafxColorMatrix"),
    ] {
        if value > max {
            return Err(fail(
                Status::Invalid,
                &format!("{name}.{member}"),
                format!("{value} is not a {enum_name}"),
            ));
        }
    }
    Ok(())
}

c_export! {
    /// Sets the colour of submitted frames that carry none, per input.
    ///
    /// # Safety
    /// `context` NULL or live; `reference`, `distorted` NULL or readable; `error` NULL or
    /// writable.
    #[c = "The colour of the submitted frames that carry none, per input; NULL leaves that input's default as it is. Each member must be a value of its enumeration (else VMAFX_E_INVALID naming it, e.g. `reference.matrix`). Only a model with a `conversion_target` reads frame colour; no model of this build has one, so the defaults are kept and change no score."]
    pub unsafe fn vmafx_context_set_default_color(
        context: *mut VmafxContext,
        reference: *const VmafxColor,
        distorted: *const VmafxColor;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: each is NULL or readable (this function's contract).
        let (r, d) = unsafe { (reference.as_ref().copied(), distorted.as_ref().copied()) };
        if let Some(r) = &r {
            check_color(r, "reference")?;
        }
        if let Some(d) = &d {
            check_color(d, "distorted")?;
        }
        let mut inner = c.lock();
        let colors = &mut inner.options.default_color;
        colors[0] = r.or(colors[0]);
        colors[1] = d.or(colors[1]);
        Ok(Status::Ok)
    }
}

/// With `check_sample_range` on: the first sample of `frame` (the input `input`) above
/// 2^bpc - 1, refused naming the input, its plane, row, column and value. Frames of 8 and 16
/// bits cannot hold such a sample; a frame not in host memory cannot be scanned (NotSup).
pub(crate) fn check_sample_range(frame: &Frame, input: &str) -> CResult<()> {
    let bpc = frame.bpc();
    if !(9..=15).contains(&bpc) {
        return Ok(());
    }
    if frame.memory() != MemoryKind::Host {
        return Err(fail(
            Status::NotSup,
            input,
            "check_sample_range: a frame outside host memory cannot be scanned",
        ));
    }
    let max = (1u32 << bpc) - 1;
    for (p, plane) in frame.planes().iter().enumerate() {
        let Samples::U16(samples) = plane.samples() else {
            continue;
        };
        for y in 0..plane.height as usize {
            let row = &samples[y * plane.stride..][..plane.width as usize];
            if let Some(x) = row.iter().position(|&v| u32::from(v) > max) {
                return Err(fail(
                    Status::Invalid,
                    input,
                    format!(
                        "plane {p}, row {y}, column {x}: sample {} is above {max}, the largest \
                         {bpc}-bit value (check_sample_range)",
                        row[x]
                    ),
                ));
            }
        }
    }
    Ok(())
}
