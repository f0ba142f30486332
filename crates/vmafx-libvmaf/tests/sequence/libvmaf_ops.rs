//! The libvmaf drop-in driven by a byte string read as a sequence of libvmaf 3.2 calls:
//! `vmaf_init` with random threads and subsampling, features and models registered (some
//! unknown), pictures of random format, depth and size allocated and read at random
//! indices (out of order, repeated, mismatched), the flush, scores read per index and
//! pooled over random ranges (bounds up to `UINT_MAX`), logs written in every format to a
//! scratch file, and models and the context released in random order.
//!
//! Shared by the cargo-fuzz target `libvmaf_sequence` and the seeded test
//! `tests/libvmaf_sequences.rs`. Every call must return 0 or a negative errno; a panic,
//! a crash or a leak is the failure. At most 24 pictures of at most 48x48 are allocated.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::ptr::null_mut;

use crate::libvmaf::context::{
    vmaf_close, vmaf_init, vmaf_read_pictures, vmaf_use_feature, vmaf_use_features_from_model,
    VmafContext,
};
use crate::libvmaf::ffi::{VmafConfiguration, VmafModelConfig, VmafPicture};
use crate::libvmaf::model::{vmaf_model_destroy, vmaf_model_load, VmafModel};
use crate::libvmaf::picture::{vmaf_picture_alloc, vmaf_picture_unref};

// The score and log functions live in private modules; their C symbols are the interface.
// Handles pass as `void *` here: only their addresses cross.
extern "C" {
    fn vmaf_score_at_index(
        vmaf: *mut c_void,
        model: *mut c_void,
        score: *mut f64,
        index: c_uint,
    ) -> c_int;
    fn vmaf_feature_score_at_index(
        vmaf: *mut c_void,
        name: *const c_char,
        score: *mut f64,
        index: c_uint,
    ) -> c_int;
    fn vmaf_score_pooled(
        vmaf: *mut c_void,
        model: *mut c_void,
        pool: c_uint,
        score: *mut f64,
        low: c_uint,
        high: c_uint,
    ) -> c_int;
    fn vmaf_feature_score_pooled(
        vmaf: *mut c_void,
        name: *const c_char,
        pool: c_uint,
        score: *mut f64,
        low: c_uint,
        high: c_uint,
    ) -> c_int;
    fn vmaf_write_output(vmaf: *mut c_void, path: *const c_char, fmt: c_uint) -> c_int;
}

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

    /// Mostly small numbers, sometimes the edges of 32 bits.
    pub fn u32(&mut self) -> u32 {
        match self.u8() % 8 {
            0 => u32::MAX,
            1 => u32::MAX - u32::from(self.u8()),
            2 => u32::from(self.u8()) << 24,
            _ => u32::from(self.u8() % 40),
        }
    }

    pub fn done(&self) -> bool {
        self.0.is_empty()
    }
}

const FEATURES: [&CStr; 5] = [c"psnr", c"float_ssim", c"motion", c"ciede", c"nosuch"];
const SCORES: [&CStr; 4] = [
    c"psnr_y",
    c"float_ssim",
    c"VMAF_integer_feature_motion2_score",
    c"nope",
];
const MODELS: [&CStr; 3] = [c"vmaf_v0.6.1", c"vmaf_v0.6.1neg", c"vmaf_v9"];
// libvmaf's VMAF_PIX_FMT_{UNKNOWN, YUV420P, YUV422P, YUV444P, YUV400P} and one past them.
const FORMATS: [c_uint; 6] = [1, 2, 3, 4, 0, 9];
const DEPTHS: [c_uint; 6] = [8, 10, 12, 16, 9, 17];

fn ok(code: c_int, what: &str) -> bool {
    assert!(code <= 0 && code > -4096, "{what}: {code}");
    code == 0
}

fn blank_picture() -> VmafPicture {
    // SAFETY: a #[repr(C)] struct of integers and pointers: all-zero is valid.
    unsafe { std::mem::zeroed() }
}

/// Runs the sequence the bytes describe; `scratch` is a file path logs may be written to.
pub fn run(data: &[u8], scratch: &CStr) {
    let mut b = Bytes(data);
    let cfg = VmafConfiguration {
        log_level: 0,
        n_threads: c_uint::from(b.u8() % 3),
        n_subsample: c_uint::from(b.u8() % 4),
        cpumask: 0,
        gpumask: 0,
    };
    let mut vmaf: *mut VmafContext = null_mut();
    // SAFETY: a valid out pointer.
    if !ok(unsafe { vmaf_init(&mut vmaf, cfg) }, "vmaf_init") {
        return;
    }
    let mut models: Vec<*mut VmafModel> = Vec::new();
    let mut pictures = 0;
    let mut closed = false;
    while !b.done() {
        match b.u8() % 11 {
            0 => {
                let name = FEATURES[usize::from(b.u8()) % FEATURES.len()];
                ok(
                    // SAFETY: live context, NUL-terminated name, no options.
                    unsafe { vmaf_use_feature(vmaf, name.as_ptr(), null_mut()) },
                    "use_feature",
                );
            }
            1 if models.len() < 3 => {
                let mut m: *mut VmafModel = null_mut();
                let mut mc = VmafModelConfig {
                    name: c"vmaf".as_ptr(),
                    flags: u64::from(b.u8() % 8),
                };
                let v = MODELS[usize::from(b.u8()) % MODELS.len()];
                if ok(
                    // SAFETY: valid out, config and version.
                    unsafe { vmaf_model_load(&mut m, &mut mc, v.as_ptr()) },
                    "model_load",
                ) {
                    ok(
                        // SAFETY: live context and model.
                        unsafe { vmaf_use_features_from_model(vmaf, m) },
                        "use_features_from_model",
                    );
                    models.push(m);
                }
            }
            2..=4 if pictures < 24 => {
                pictures += 2;
                let (fmt, bpc) = (
                    FORMATS[usize::from(b.u8()) % FORMATS.len()],
                    DEPTHS[usize::from(b.u8()) % DEPTHS.len()],
                );
                let (w, h) = (c_uint::from(b.u8() % 48), c_uint::from(b.u8() % 48));
                let (mut r, mut d) = (blank_picture(), blank_picture());
                let got_r = ok(
                    // SAFETY: writable pictures.
                    unsafe { vmaf_picture_alloc(&mut r, fmt, bpc, w, h) },
                    "picture_alloc",
                );
                let (dw, dh) = if b.u8() % 8 == 0 { (w + 2, h) } else { (w, h) };
                let got_d = ok(
                    // SAFETY: as above.
                    unsafe { vmaf_picture_alloc(&mut d, fmt, bpc, dw, dh) },
                    "picture_alloc",
                );
                if got_r && got_d {
                    let index = b.u32();
                    // SAFETY: live context and two allocated pictures.
                    let code = unsafe { vmaf_read_pictures(vmaf, &mut r, &mut d, index) };
                    ok(code, "read_pictures");
                }
                // Pictures not taken stay the caller's; a taken one is already released.
                for (got, p) in [(got_r, &mut r), (got_d, &mut d)] {
                    if got && !p.r#ref.is_null() {
                        // SAFETY: a picture this sequence allocated and still holds.
                        ok(unsafe { vmaf_picture_unref(p) }, "picture_unref");
                    }
                }
            }
            5 => {
                ok(
                    // SAFETY: live context; both NULL ends the input.
                    unsafe { vmaf_read_pictures(vmaf, null_mut(), null_mut(), 0) },
                    "flush",
                );
            }
            6 => {
                let mut score = 0.0;
                let index = b.u32();
                if models.is_empty() || b.u8() % 2 == 0 {
                    let name = SCORES[usize::from(b.u8()) % SCORES.len()];
                    ok(
                        // SAFETY: live context, NUL-terminated name, a writable score.
                        unsafe {
                            vmaf_feature_score_at_index(
                                vmaf.cast(),
                                name.as_ptr(),
                                &mut score,
                                index,
                            )
                        },
                        "feature_score_at_index",
                    );
                } else {
                    let m = models[usize::from(b.u8()) % models.len()];
                    ok(
                        // SAFETY: live context and model, a writable score.
                        unsafe { vmaf_score_at_index(vmaf.cast(), m.cast(), &mut score, index) },
                        "score_at_index",
                    );
                }
            }
            7 => {
                let mut score = 0.0;
                let (pool, low, high) = (c_uint::from(b.u8() % 6), b.u32(), b.u32());
                if models.is_empty() || b.u8() % 2 == 0 {
                    let name = SCORES[usize::from(b.u8()) % SCORES.len()];
                    ok(
                        // SAFETY: live context, NUL-terminated name, a writable score.
                        unsafe {
                            vmaf_feature_score_pooled(
                                vmaf.cast(),
                                name.as_ptr(),
                                pool,
                                &mut score,
                                low,
                                high,
                            )
                        },
                        "feature_score_pooled",
                    );
                } else {
                    let m = models[usize::from(b.u8()) % models.len()];
                    ok(
                        // SAFETY: live context and model, a writable score.
                        unsafe {
                            vmaf_score_pooled(vmaf.cast(), m.cast(), pool, &mut score, low, high)
                        },
                        "score_pooled",
                    );
                }
            }
            8 => {
                let fmt = c_uint::from(b.u8() % 6);
                ok(
                    // SAFETY: live context, NUL-terminated path.
                    unsafe { vmaf_write_output(vmaf.cast(), scratch.as_ptr(), fmt) },
                    "write_output",
                );
            }
            9 if b.u8() % 4 == 0 => {
                // SAFETY: the live context, closed once.
                ok(unsafe { vmaf_close(vmaf) }, "close");
                closed = true;
                break;
            }
            _ => {}
        }
    }
    if !closed {
        // SAFETY: the live context, closed once.
        ok(unsafe { vmaf_close(vmaf) }, "close");
    }
    for m in models {
        // SAFETY: a model this sequence loaded, destroyed once, after the context (libvmaf's order).
        unsafe { vmaf_model_destroy(m) };
    }
}
