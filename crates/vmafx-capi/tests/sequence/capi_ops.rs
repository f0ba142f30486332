//! VMAFx's C ABI driven by a byte string read as a sequence of calls: a context created
//! with random threads and subsampling, features and models registered (some unknown),
//! host frames of random format, depth and size created, referenced, released and
//! submitted at random indices (out of order, repeated, far ahead), flushes, and scores
//! read per frame and pooled at random indices and ranges (bounds up to `u64::MAX`), the
//! handles released in random order.
//!
//! Shared by the cargo-fuzz target `capi_sequence` and the seeded test
//! `tests/capi_sequences.rs`. The C contract is checked on every call: a status in the
//! ABI's range, and on failure an error object (freed here). At most 24 frames of at most
//! 48x48 are created, so a sequence's memory is bounded by its input.

use std::ffi::CStr;
use std::ptr::{null, null_mut};

use crate::capi::abi::{VmafxContextConfig, VmafxFrameDesc};
use crate::capi::context::{
    vmafx_context_create, vmafx_context_destroy, vmafx_context_use_feature, vmafx_flush,
    vmafx_submit, VmafxContext,
};
use crate::capi::error::VmafxError;
use crate::capi::error_api::{vmafx_error_free, vmafx_error_status};
use crate::capi::frame::{vmafx_frame_create_host, vmafx_frame_ref, vmafx_frame_unref, VmafxFrame};
use crate::capi::model::{vmafx_model_load, vmafx_model_unref, VmafxModel};
use crate::capi::score::{
    vmafx_context_use_model, vmafx_feature_score, vmafx_feature_score_pooled, vmafx_score_frame,
    vmafx_score_pooled, VmafxPooledScore, VmafxScore,
};

/// Reads the input a byte at a time; zeros once it runs out.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    pub fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// Mostly small numbers, sometimes the edges of 64 bits.
    pub fn u64(&mut self) -> u64 {
        match self.u8() % 8 {
            0 => u64::MAX,
            1 => u64::MAX - u64::from(self.u8()),
            2 => u64::from(self.u8()) << 32,
            _ => u64::from(self.u8() % 40),
        }
    }

    pub fn done(&self) -> bool {
        self.0.is_empty()
    }
}

const FEATURES: [&CStr; 5] = [c"psnr", c"float_ssim", c"motion", c"cambi", c"nosuch"];
const SCORES: [&CStr; 5] = [
    c"psnr_y",
    c"float_ssim",
    c"VMAF_integer_feature_motion2_score",
    c"vmaf",
    c"",
];
const MODELS: [&CStr; 3] = [c"vmaf_v0.6.1", c"vmaf_v0.6.1neg", c"vmaf_v9"];
const FORMATS: [u32; 6] = [1, 2, 3, 4, 0, 16];
const DEPTHS: [u32; 6] = [8, 10, 12, 16, 9, 17];

/// Checks one call's status and error, and frees the error.
fn checked(status: i32, err: *mut VmafxError, what: &str) -> bool {
    assert!((-11..=1).contains(&status), "{what}: status {status}");
    if status < 0 {
        assert!(!err.is_null(), "{what}: failed without an error");
        // SAFETY: a live error from the library, freed once here.
        unsafe {
            assert_eq!(vmafx_error_status(err), status, "{what}");
            vmafx_error_free(err);
        }
        false
    } else {
        assert!(err.is_null(), "{what}: an error on success");
        true
    }
}

/// Runs the sequence the bytes describe.
pub fn run(data: &[u8]) {
    let mut b = Bytes(data);
    let config = VmafxContextConfig {
        struct_size: std::mem::size_of::<VmafxContextConfig>() as u32,
        log_level: 0,
        n_threads: u32::from(b.u8() % 3),
        n_subsample: u32::from(b.u8() % 4),
        cpumask: 0,
        gpumask: 0,
        log_callback: None,
        log_user: null_mut(),
        import_retry_wait_ns: 0,
    };
    let mut ctx: *mut VmafxContext = null_mut();
    let mut err: *mut VmafxError = null_mut();
    // SAFETY: valid config, out and error pointers.
    let s = unsafe { vmafx_context_create(&config, &mut ctx, &mut err) };
    if !checked(s, err, "context_create") {
        return;
    }
    let mut frames: Vec<*mut VmafxFrame> = Vec::new();
    let mut models: Vec<*mut VmafxModel> = Vec::new();
    let mut created = 0;
    let mut live_ctx = true;
    while !b.done() {
        let mut err: *mut VmafxError = null_mut();
        match b.u8() % 12 {
            0 => {
                let name = FEATURES[usize::from(b.u8()) % FEATURES.len()];
                // SAFETY: live context, NUL-terminated name, no options.
                let s = unsafe { vmafx_context_use_feature(ctx, name.as_ptr(), null(), &mut err) };
                checked(s, err, "use_feature");
            }
            1 if models.len() < 4 => {
                let mut m: *mut VmafxModel = null_mut();
                let v = MODELS[usize::from(b.u8()) % MODELS.len()];
                // SAFETY: no config, NUL-terminated version, valid out and error.
                let s = unsafe { vmafx_model_load(null(), v.as_ptr(), &mut m, &mut err) };
                if checked(s, err, "model_load") {
                    let mut e2: *mut VmafxError = null_mut();
                    // SAFETY: live context and model.
                    let s = unsafe { vmafx_context_use_model(ctx, m, &mut e2) };
                    checked(s, e2, "use_model");
                    models.push(m);
                }
            }
            2 | 3 if created < 24 => {
                created += 1;
                let desc = VmafxFrameDesc {
                    struct_size: std::mem::size_of::<VmafxFrameDesc>() as u32,
                    pix_fmt: FORMATS[usize::from(b.u8()) % FORMATS.len()],
                    bpc: DEPTHS[usize::from(b.u8()) % DEPTHS.len()],
                    w: u32::from(b.u8() % 48),
                    h: u32::from(b.u8() % 48),
                };
                let mut f: *mut VmafxFrame = null_mut();
                // SAFETY: no device, a valid descriptor, out and error.
                let s = unsafe { vmafx_frame_create_host(null_mut(), &desc, &mut f, &mut err) };
                if checked(s, err, "frame_create_host") {
                    frames.push(f);
                }
            }
            4 if !frames.is_empty() => {
                let f = frames[usize::from(b.u8()) % frames.len()];
                // SAFETY: a live frame; the new reference is one more entry of the list.
                frames.push(unsafe { vmafx_frame_ref(f) });
            }
            5 if !frames.is_empty() => {
                let f = frames.swap_remove(usize::from(b.u8()) % frames.len());
                // SAFETY: one reference this list holds, given up.
                unsafe { vmafx_frame_unref(f) };
            }
            6 | 7 if frames.len() >= 2 => {
                let r = frames.swap_remove(usize::from(b.u8()) % frames.len());
                let d = frames.swap_remove(usize::from(b.u8()) % frames.len());
                let index = b.u64();
                // SAFETY: live context; one reference of each frame, given up.
                let s = unsafe { vmafx_submit(ctx, r, d, index, &mut err) };
                checked(s, err, "submit");
            }
            8 => {
                // SAFETY: live context.
                let s = unsafe { vmafx_flush(ctx, &mut err) };
                checked(s, err, "flush");
            }
            9 => {
                let name = SCORES[usize::from(b.u8()) % SCORES.len()];
                let mut out = VmafxPooledScore {
                    struct_size: std::mem::size_of::<VmafxPooledScore>() as u32,
                    ..zeroed_pooled()
                };
                let (pool, first, last) = (u32::from(b.u8() % 8), b.u64(), b.u64());
                // SAFETY: live context, NUL-terminated name, valid out and error.
                let s = unsafe {
                    vmafx_feature_score_pooled(
                        ctx,
                        name.as_ptr(),
                        pool,
                        first,
                        last,
                        &mut out,
                        &mut err,
                    )
                };
                if checked(s, err, "feature_score_pooled") && s == 0 {
                    assert!(first <= last && out.first == first && out.last == last);
                }
            }
            10 => {
                let model = if models.is_empty() || b.u8() % 4 == 0 {
                    null()
                } else {
                    models[usize::from(b.u8()) % models.len()] as *const VmafxModel
                };
                let mut out = VmafxPooledScore {
                    struct_size: std::mem::size_of::<VmafxPooledScore>() as u32,
                    ..zeroed_pooled()
                };
                let (pool, first, last) = (u32::from(b.u8() % 8), b.u64(), b.u64());
                // SAFETY: live context, a live model or NULL, valid out and error.
                let s = unsafe {
                    vmafx_score_pooled(ctx, model, pool, first, last, &mut out, &mut err)
                };
                checked(s, err, "score_pooled");
            }
            11 => {
                let index = b.u64();
                let mut out = VmafxScore {
                    struct_size: std::mem::size_of::<VmafxScore>() as u32,
                    ..zeroed_score()
                };
                if b.u8() % 2 == 0 {
                    let name = SCORES[usize::from(b.u8()) % SCORES.len()];
                    // SAFETY: live context, NUL-terminated name, valid out and error.
                    let s = unsafe {
                        vmafx_feature_score(ctx, name.as_ptr(), index, &mut out, &mut err)
                    };
                    checked(s, err, "feature_score");
                } else {
                    let model = models.first().copied().unwrap_or(null_mut());
                    // SAFETY: live context, a live model or NULL, valid out and error.
                    let s = unsafe { vmafx_score_frame(ctx, model, index, &mut out, &mut err) };
                    checked(s, err, "score_frame");
                }
            }
            _ => {
                // Release a model early, or end the context before the frames and models.
                if !models.is_empty() && b.u8() % 2 == 0 {
                    let m = models.swap_remove(0);
                    // SAFETY: the reference this list holds.
                    unsafe { vmafx_model_unref(m) };
                } else if b.u8() % 4 == 0 {
                    // SAFETY: the live context, destroyed once.
                    let s = unsafe { vmafx_context_destroy(ctx, &mut err) };
                    checked(s, err, "context_destroy");
                    live_ctx = false;
                    break;
                }
            }
        }
    }
    if live_ctx {
        let mut err: *mut VmafxError = null_mut();
        // SAFETY: the live context, destroyed once.
        let s = unsafe { vmafx_context_destroy(ctx, &mut err) };
        checked(s, err, "context_destroy");
    }
    for f in frames {
        // SAFETY: each entry is one reference this list holds.
        unsafe { vmafx_frame_unref(f) };
    }
    for m in models {
        // SAFETY: the reference this list holds.
        unsafe { vmafx_model_unref(m) };
    }
}

fn zeroed_pooled() -> VmafxPooledScore {
    // SAFETY: a #[repr(C)] struct of integers, floats and pointers: all-zero is valid.
    unsafe { std::mem::zeroed() }
}

fn zeroed_score() -> VmafxScore {
    // SAFETY: a #[repr(C)] struct of integers, floats and pointers: all-zero is valid.
    unsafe { std::mem::zeroed() }
}
