//! `VmafContext`: configuration, feature registration and the pictures read into it.

use std::collections::{BTreeMap, HashMap};
use std::ffi::{c_char, c_int, c_uint};

use vmafx::context::{Context, ContextConfig, FeatureOrder, LogLevel, ModelHandle};

use crate::dictionary::{self, FeatureDictionary};
use crate::errno::EINVAL;
use crate::ffi::{VmafConfiguration, VmafPicture, VmafPictureConfiguration};
use crate::model::{VmafModel, VmafModelCollection};
use crate::picture::{alloc_into, check_picture, into_frame, pixel_format};
use crate::{code, errno_of, guard, text};

/// What a `VmafContext *` points to. It starts, as libvmaf's private `VmafContext` does,
/// with a copy of the `VmafConfiguration` given to `vmaf_init`; what follows is this
/// library's own.
#[repr(C)]
pub struct VmafContext {
    /// libvmaf's `cfg`: the configuration as given.
    pub(crate) cfg: VmafConfiguration,
    /// The engine context.
    pub(crate) ctx: Context,
    /// Models registered by `vmaf_use_features_from_model`, by the model's address.
    pub(crate) models: HashMap<usize, ModelHandle>,
    /// Collections registered by `vmaf_use_features_from_model_collection`.
    pub(crate) collections: HashMap<usize, ModelHandle>,
    /// Scores given by `vmaf_import_feature_score`: name → index → value.
    pub(crate) imported: BTreeMap<String, BTreeMap<u64, f64>>,
    /// Pictures read (libvmaf's `pic_cnt`).
    pub(crate) pic_count: u64,
    /// The process's CPU time when the first picture was read and when scores were last
    /// computed (extraction, flush, model predictions): libvmaf's collector timer, which
    /// reads `clock()` at its first and at each later score, and `fps` divides by.
    pub(crate) cpu_first: Option<f64>,
    pub(crate) cpu_last: Option<f64>,
    /// Whether `vmaf_read_pictures(NULL, NULL)` ended the input.
    pub(crate) flushed: bool,
    /// `n_subsample` as given.
    pub(crate) subsample: u32,
    /// The geometry `vmaf_preallocate_pictures` fixed, if called.
    pub(crate) pool: Option<VmafPictureConfiguration>,
}

impl VmafContext {
    /// Whether `vmaf_read_pictures(NULL, NULL)` ended the input.
    pub(crate) fn flushed(&self) -> bool {
        self.flushed
    }

    /// Records that scores are being computed now (the end of libvmaf's timer).
    pub(crate) fn note_scores(&mut self) {
        let now = cpu_seconds();
        self.cpu_first.get_or_insert(now);
        self.cpu_last = Some(now);
    }

    /// libvmaf's `fps`: pictures read over the CPU seconds between the first and the last
    /// score (infinite or NaN when no CPU time was measured, as libvmaf's division gives).
    pub(crate) fn fps(&self) -> f64 {
        let secs = match (self.cpu_first, self.cpu_last) {
            (Some(a), Some(b)) => b - a,
            _ => 0.0,
        };
        self.pic_count as f64 / secs
    }
}

/// CPU time of the whole process (every thread) in seconds: what C's `clock()` measures
/// on Linux, where glibc reads this same clock.
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the clock id is a constant Linux knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return 0.0;
    }
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// The context behind `vmaf`, or `None` for NULL.
///
/// # Safety
/// `vmaf` is NULL or from `vmaf_init` and not closed; no other reference to it is live.
pub(crate) unsafe fn context<'a>(vmaf: *mut VmafContext) -> Option<&'a mut VmafContext> {
    // SAFETY: NULL or a live, unaliased Box allocation by the contract above.
    unsafe { vmaf.as_mut() }
}

fn log_level(v: c_uint) -> LogLevel {
    match v {
        0 => LogLevel::None,
        1 => LogLevel::Error,
        2 => LogLevel::Warning,
        3 => LogLevel::Info,
        _ => LogLevel::Debug,
    }
}

/// Opens a context configured by `cfg` into `*vmaf`.
///
/// # Safety
/// `vmaf` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmaf_init(vmaf: *mut *mut VmafContext, cfg: VmafConfiguration) -> c_int {
    guard(|| {
        // SAFETY: NULL or writable by the contract above.
        let Some(out) = (unsafe { vmaf.as_mut() }) else {
            return -EINVAL;
        };
        let config = ContextConfig {
            threads: cfg.n_threads as usize,
            subsample: cfg.n_subsample,
            log_level: log_level(cfg.log_level),
            // libvmaf's collector receives features in another order with its pool.
            feature_order: FeatureOrder::for_libvmaf_threads(cfg.n_threads as usize),
            ..Default::default()
        };
        let ctx = match Context::new(config) {
            Ok(c) => c,
            Err(e) => return errno_of(&e),
        };
        if cfg.cpumask != 0 {
            vmafx::cpu::set_cpumask(cfg.cpumask as u32);
        }
        *out = Box::into_raw(Box::new(VmafContext {
            cfg,
            ctx,
            models: HashMap::new(),
            collections: HashMap::new(),
            imported: BTreeMap::new(),
            pic_count: 0,
            cpu_first: None,
            cpu_last: None,
            flushed: false,
            subsample: cfg.n_subsample,
            pool: None,
        }));
        0
    })
}

/// Closes a context, ending its workers and freeing its scores.
///
/// # Safety
/// `vmaf` is NULL or from `vmaf_init` and not yet closed.
#[no_mangle]
pub unsafe extern "C" fn vmaf_close(vmaf: *mut VmafContext) -> c_int {
    guard(|| {
        if vmaf.is_null() {
            return -EINVAL;
        }
        // SAFETY: made by Box::into_raw in vmaf_init, freed once.
        let mut boxed = unsafe { Box::from_raw(vmaf) };
        // Let running workers finish before the frames they hold go.
        let _ = boxed.ctx.flush();
        drop(boxed);
        0
    })
}

/// Registers extractor `feature_name` with the options of `opts_dict` (NULL: none); the
/// context takes the dictionary on success.
///
/// # Safety
/// `vmaf` as in the `context` module; `feature_name` NULL or NUL-terminated; `opts_dict` NULL or a
/// dictionary not yet taken.
#[no_mangle]
pub unsafe extern "C" fn vmaf_use_feature(
    vmaf: *mut VmafContext,
    feature_name: *const c_char,
    opts_dict: *mut FeatureDictionary,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(name)) = (unsafe { context(vmaf) }, unsafe { text(feature_name) })
        else {
            return -EINVAL;
        };
        // SAFETY: NULL or a live dictionary.
        let opts = unsafe { dictionary::peek(opts_dict) }
            .map(|d| d.entries.clone())
            .unwrap_or_default();
        match v.ctx.use_feature(name, &opts) {
            Ok(_) => {
                // SAFETY: live (or NULL) and taken once, here.
                drop(unsafe { dictionary::take(opts_dict) });
                0
            }
            Err(e) => {
                v.ctx.config().log(LogLevel::Error, &e.to_string());
                errno_of(&e)
            }
        }
    })
}

/// Registers the extractors `model` needs.
///
/// # Safety
/// `vmaf` as in the `context` module; `model` NULL or a live model.
#[no_mangle]
pub unsafe extern "C" fn vmaf_use_features_from_model(
    vmaf: *mut VmafContext,
    model: *mut VmafModel,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(m)) = (unsafe { context(vmaf) }, unsafe { model.as_ref() }) else {
            return -EINVAL;
        };
        match v.ctx.use_model(m.loaded.clone()) {
            Ok(h) => {
                v.models.insert(model as usize, h);
                0
            }
            Err(e) => errno_of(&e),
        }
    })
}

/// Registers the extractors `model_collection` needs.
///
/// # Safety
/// `vmaf` as in the `context` module; `model_collection` NULL or a live collection.
#[no_mangle]
pub unsafe extern "C" fn vmaf_use_features_from_model_collection(
    vmaf: *mut VmafContext,
    model_collection: *mut VmafModelCollection,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(c)) = (unsafe { context(vmaf) }, unsafe {
            model_collection.as_ref()
        }) else {
            return -EINVAL;
        };
        match v.ctx.use_model(c.loaded.clone()) {
            Ok(h) => {
                v.collections.insert(model_collection as usize, h);
                0
            }
            Err(e) => errno_of(&e),
        }
    })
}

/// Records an externally computed score of `feature_name` at `index`. It is readable with
/// the feature calls and written to the log; models do not read imported scores.
///
/// # Safety
/// `vmaf` as in the `context` module; `feature_name` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn vmaf_import_feature_score(
    vmaf: *mut VmafContext,
    feature_name: *const c_char,
    value: f64,
    index: c_uint,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(name)) = (unsafe { context(vmaf) }, unsafe { text(feature_name) })
        else {
            return -EINVAL;
        };
        let series = v.imported.entry(name.to_string()).or_default();
        match series.get(&u64::from(index)) {
            Some(old) if old.to_bits() != value.to_bits() => -EINVAL,
            _ => {
                series.insert(u64::from(index), value);
                v.note_scores();
                0
            }
        }
    })
}

/// Reads the pair at `index` (taking both pictures), or with both NULL ends the input.
///
/// # Safety
/// `vmaf` as in the `context` module; `ref_` and `dist` NULL or writable pictures.
#[no_mangle]
pub unsafe extern "C" fn vmaf_read_pictures(
    vmaf: *mut VmafContext,
    ref_: *mut VmafPicture,
    dist: *mut VmafPicture,
    index: c_uint,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let Some(v) = (unsafe { context(vmaf) }) else {
            return -EINVAL;
        };
        if v.flushed() {
            return -EINVAL;
        }
        if ref_.is_null() && dist.is_null() {
            let r = v.ctx.flush();
            v.flushed = true;
            v.note_scores();
            return code(r);
        }
        if ref_ == dist {
            return -EINVAL;
        }
        // SAFETY: distinct, non-NULL when Some, writable by the contract above.
        let (Some(r), Some(d)) = (unsafe { ref_.as_mut() }, unsafe { dist.as_mut() }) else {
            return -EINVAL;
        };
        if r.r#ref == d.r#ref
            || r.pix_fmt != d.pix_fmt
            || r.bpc != d.bpc
            || r.w != d.w
            || r.h != d.h
        {
            return -EINVAL;
        }
        // Both pictures are checked before either is taken, so a refused pair stays the
        // caller's.
        if let Err(e) = check_picture(r).and_then(|_| check_picture(d)) {
            return e;
        }
        // A picture unlike the first is refused before it is taken (the caller keeps it).
        if let Some(g) = v.ctx.geometry() {
            if pixel_format(r.pix_fmt) != Some(g.format)
                || r.bpc != g.bpc
                || r.w[0] != g.width
                || r.h[0] != g.height
            {
                return -EINVAL;
            }
        }
        let rf = match into_frame(r) {
            Ok(f) => f,
            Err(e) => return e,
        };
        let df = match into_frame(d) {
            Ok(f) => f,
            Err(e) => return e,
        };
        v.cpu_first.get_or_insert_with(cpu_seconds);
        match v.ctx.submit(rf, df, u64::from(index)) {
            Ok(()) => {
                v.note_scores();
                v.pic_count += 1;
                0
            }
            Err(e) => {
                v.ctx.config().log(LogLevel::Error, &e.to_string());
                errno_of(&e)
            }
        }
    })
}

/// Records the geometry of the pictures [`vmaf_fetch_preallocated_picture`] hands out.
/// Pictures are allocated on fetch (each frees its own buffer), so no memory is held here.
///
/// # Safety
/// `vmaf` as in the `context` module.
#[no_mangle]
pub unsafe extern "C" fn vmaf_preallocate_pictures(
    vmaf: *mut VmafContext,
    cfg: VmafPictureConfiguration,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let Some(v) = (unsafe { context(vmaf) }) else {
            return -EINVAL;
        };
        let p = cfg.pic_params;
        let Some(format) = pixel_format(p.pix_fmt) else {
            return -EINVAL;
        };
        if cfg.pic_cnt == 0 {
            return -EINVAL;
        }
        if let Err(e) = vmafx::frame::validate_geometry(format, p.bpc, p.w, p.h) {
            return errno_of(&e);
        }
        v.pool = Some(cfg);
        0
    })
}

/// A picture of the preallocated geometry; `-EINVAL` without [`vmaf_preallocate_pictures`].
///
/// # Safety
/// `vmaf` as in the `context` module; `pic` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmaf_fetch_preallocated_picture(
    vmaf: *mut VmafContext,
    pic: *mut VmafPicture,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(pic)) = (unsafe { context(vmaf) }, unsafe { pic.as_mut() }) else {
            return -EINVAL;
        };
        let Some(cfg) = v.pool else {
            return -EINVAL;
        };
        let p = cfg.pic_params;
        alloc_into(pic, p.pix_fmt, p.bpc, p.w, p.h)
    })
}
