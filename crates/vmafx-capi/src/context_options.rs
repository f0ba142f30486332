//! Context options and defaults of context.h (ABI 0.1.6): `vmafx_context_set_option`
//! (`perceptual_weight`, `perceptual_weight_strength`, `check_sample_range`),
//! `vmafx_context_attach_sidedata` and `vmafx_context_set_default_color`, and the sample
//! range check `vmafx_submit()` runs while `check_sample_range` is on.
//!
//! Perceptual weighting (VMAFx's ADR-1118) weights each frame of a pooled mean by
//! `1 + strength * salience`, the salience derived from the Pelorus blob attached to the frame
//! (`vmafx::score::pelorus`) and kept per frame index; the weights are applied by
//! `crate::pooling`. Frames without side data weigh 1, and without any (or with the option
//! off) pooling is libvmaf's, bit for bit.

use crate::c_export;
use std::ffi::{c_char, c_void};

use vmafx::frame::Samples;
use vmafx::score::pelorus;
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
    #[c = "Sets a context option: `perceptual_weight` (`0` / `1`), `perceptual_weight_strength` (a finite number >= 0; default 1) or `check_sample_range` (`0` / `1`, off by default: vmafx_submit() refuses a pair with a sample of a 9- to 15-bit frame above 2^bpc - 1 with VMAFX_E_INVALID naming the input, its plane, row, column and value). VMAFX_E_NOTFOUND names an unknown key, VMAFX_E_INVALID a value the key refuses (both VMAFX_SUBJECT_OPTION). With `perceptual_weight` on, frames given side data by vmafx_context_attach_sidedata() weigh 1 + strength * salience in pooled means."]
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
    /// Attaches a Pelorus side-data blob to frame `index`: its salience weights the frame
    /// in pooled means while `perceptual_weight` is on.
    ///
    /// # Safety
    /// `context` NULL or live; `data` NULL or readable for `size` bytes; `error` NULL or
    /// writable.
    #[c = "Attaches the perceptual side data of frame `index`: a Pelorus interop blob (the UUID-prefixed payload of an unregistered-user-data SEI). The blob is parsed and its salience (VMAFx's ADR-1118 formula: banding risk, modulated by variance and complexity) kept for the frame; the blob itself is not retained. While `perceptual_weight` is on, the pooled mean and harmonic mean (score, feature, model set and window) weight the frame by 1 + strength * salience; frames without side data weigh 1. Attaching again replaces the frame's salience. NULL `context` or `data`, `size` 0: VMAFX_E_INVALID; `index` above 2^32 - 1: VMAFX_E_RANGE; a buffer without the Pelorus UUID: VMAFX_E_NOTFOUND naming `data`; another layout major: VMAFX_E_ABI naming `data.abi_major`; a malformed blob: VMAFX_E_INVALID naming the field (`data.total_size`, `data.dir[0].offset`, ...). A refused blob leaves the frame as it was."]
    pub unsafe fn vmafx_context_attach_sidedata(
        context: *mut VmafxContext,
        index: u64,
        data: *const c_void,
        size: usize;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        if data.is_null() {
            return Err(null("data"));
        }
        if size == 0 || size > isize::MAX as usize {
            return Err(fail(
                Status::Invalid,
                "size",
                format!("{size} bytes of side data"),
            ));
        }
        if index > u64::from(u32::MAX) {
            return Err(fail(
                Status::Range,
                "index",
                format!("frame index {index} exceeds {}", u32::MAX),
            ))
            .kind(SubjectKind::Frame);
        }
        // SAFETY: `data` is non-NULL and readable for `size` bytes (this function's contract),
        // `size` is at most isize::MAX, and the bytes are only read during this call.
        let blob = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size) };
        let summary = pelorus::parse(blob).kind(SubjectKind::Parameter)?;
        let salience = pelorus::salience(&summary) as f32;
        c.lock().options.salience.insert(index, salience);
        Ok(Status::Ok)
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
