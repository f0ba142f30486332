//! Contexts of the C ABI: create / destroy, the device (ADR-1929 item 10), features,
//! admission (item 9), submit, flush and feature scores.
//!
//! A `VmafxContext*` wraps the engine [`Context`], which holds the device it scores on and
//! keeps the order rule of item 10 (a device first, once): `vmafx_context_use_device()`
//! after a feature is `VMAFX_E_INVALID` naming the context, a second one `VMAFX_E_BUSY`
//! naming the device.

use crate::c_export;
use crate::c_type::VmafxStatus;
use std::ffi::c_char;
use std::sync::{Arc, Mutex};

use vmafx::context::{Context, ContextConfig};
use vmafx::{Frame, Status};

use crate::abi::{SubjectKind, VmafxContextConfig};
use crate::device::VmafxDevice;
use crate::error::{call, fail, null, CResult, ErrorOut, VmafxError, WithKind};
use crate::ffi::{c_str, log_callback, log_level};
use crate::frame::VmafxFrame;
use crate::options::VmafxOptions;
use crate::sized;
use crate::window_live::Live;

use crate::context_handle::get;
pub use crate::context_handle::VmafxContext;
use crate::context_options::check_sample_range;
use crate::session::{Inner, Notes};
use std::time::Instant;

fn config_of(c: &VmafxContextConfig) -> CResult<ContextConfig> {
    let max = vmafx::context::config::MAX_IMPORT_RETRY_WAIT.as_nanos();
    if c.import_retry_wait_ns as u128 > max {
        return Err(fail(
            Status::Range,
            "config.import_retry_wait_ns",
            format!(
                "{} ns is above {max} ns (10 minutes); never clamped",
                c.import_retry_wait_ns
            ),
        ));
    }
    let config = ContextConfig {
        threads: c.n_threads as usize,
        subsample: c.n_subsample,
        log_level: log_level(c.log_level)?,
        log_callback: log_callback(c.log_callback, c.log_user),
        import_retry_wait_ns: c.import_retry_wait_ns,
        ..ContextConfig::default()
    };
    config.validate().map_err(|e| {
        vmafx::Error::new(e.status(), format!("config.{}", e.subject()), e.message())
    })?;
    Ok(config)
}

c_export! {
    /// Creates a context (`config` NULL: the defaults).
    ///
    /// # Safety
    /// `config` NULL or valid for its `struct_size`; `out`, `error` NULL or writable.
    #[c = "Creates a context (`config` NULL: defaults); `*out` is NULL on failure."]
    pub unsafe fn vmafx_context_create(
        config: *const VmafxContextConfig,
        out: *mut *mut VmafxContext;
        error
    ) -> VmafxStatus {
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        let (config, masks) = if config.is_null() {
            (ContextConfig::default(), (0, 0))
        } else {
            // SAFETY: `config` is NULL or readable for its struct_size (this function's contract).
            let c = unsafe { sized::read(config, "config") }?.0;
            (config_of(&c)?, (c.cpumask, c.gpumask))
        };
        let mut ctx = Context::new(config)?;
        let live = Arc::new(Live::default());
        let wake = live.clone();
        ctx.set_score_listener(Some(Arc::new(move || wake.signal())));
        let inner = Inner {
            ctx,
            models: Vec::new(),
            model_sets: Vec::new(),
            notes: Notes::with_masks(masks),
            tiny: Default::default(),
            options: Default::default(),
        };
        // SAFETY: `out` is non-NULL (checked above) and writable (this function's contract).
        unsafe {
            out.write(Box::into_raw(Box::new(VmafxContext {
                inner: Arc::new(Mutex::new(inner)),
                live,
            })))
        };
        Ok(Status::Ok)
    }
}

c_export! {
    /// Destroys a context (its device reference and frames go with it).
    ///
    /// # Safety
    /// `context` NULL or a live context, destroyed once; `error` NULL or writable.
    #[c = "Destroys a context with its device reference and frames."]
    pub unsafe fn vmafx_context_destroy(context: *mut VmafxContext; error) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // Completes every open window (the rest with VMAFX_E_INVALID), runs every callback
        // and stops the window threads.
        c.live.stop();
        // SAFETY: `context` is a live handle (checked non-NULL just above) made by `Box::into_raw`
        // in `vmafx_context_create`, destroyed once (this function's contract).
        drop(unsafe { Box::from_raw(context) });
        Ok(Status::Ok)
    }
}

c_export! {
    /// Scores on `device`; once, before any feature, model or frame.
    ///
    /// # Safety
    /// `context`, `device` NULL or live; `error` NULL or writable.
    #[c = "Scores on `device`, holding a reference until destroyed. Once (again: VMAFX_E_BUSY naming the device), before any feature, model or frame (after: VMAFX_E_INVALID naming the context)."]
    pub unsafe fn vmafx_context_use_device(
        context: *mut VmafxContext,
        device: *mut VmafxDevice;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: `device` is NULL or live (this function's contract).
        let d = unsafe { device.as_ref() }
            .ok_or_else(|| null("device"))
            .kind(SubjectKind::Parameter)?;
        c.lock().ctx.use_device(d.device.clone())?;
        Ok(Status::Ok)
    }
}

c_export! {
    /// Registers the extractor `extractor` with `options` (copied; may be NULL).
    ///
    /// # Safety
    /// `context` NULL or live; `extractor` NULL or NUL-terminated; `options` NULL or live;
    /// `error` NULL or writable.
    #[c = "Registers extractor `extractor` with `options` (copied; may be NULL)."]
    pub unsafe fn vmafx_context_use_feature(
        context: *mut VmafxContext,
        extractor: *const c_char,
        options: *const VmafxOptions;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: `extractor` is NULL or NUL-terminated (this function's contract).
        let name = unsafe { c_str(extractor, "extractor") }?;
        // SAFETY: `options` is NULL or live (this function's contract).
        let opts = unsafe { options.as_ref() }
            .map(|o| o.pairs())
            .unwrap_or_default();
        let mut inner = c.lock();
        inner
            .ctx
            .use_feature(name, &opts)
            .kind(SubjectKind::Feature)?;
        Ok(Status::Ok)
    }
}

c_export! {
    /// Whether every registered extractor reads `frame` where it lives.
    ///
    /// # Safety
    /// `context`, `frame` NULL or live; `error` NULL or writable.
    #[c = "Whether every registered extractor reads `frame` where it lives, without a host copy; VMAFX_E_NOTSUP names each refusing extractor."]
    pub unsafe fn vmafx_context_admit(
        context: *const VmafxContext,
        frame: *const VmafxFrame;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: `frame` is NULL or live (this function's contract).
        let f = unsafe { frame.as_ref() }.ok_or_else(|| null("frame"))?;
        let inner = c.lock();
        inner
            .ctx
            .admit(f.frame())
            .map_err(|e| inner.admission_failure(e))?;
        Ok(Status::Ok)
    }
}

c_export! {
    /// Scores frame `index`; consumes one reference of each frame on every path.
    ///
    /// # Safety
    /// `context` NULL or live; each frame NULL or live with a reference the caller gives up;
    /// `error` NULL or writable.
    #[c = "Scores frame `index`; consumes one reference of each frame on every path, failures included."]
    pub unsafe fn vmafx_submit(
        context: *mut VmafxContext,
        reference: *mut VmafxFrame,
        distorted: *mut VmafxFrame,
        index: u64,
        error: *mut *mut VmafxError,
    ) -> VmafxStatus {
        // SAFETY: `error` is NULL or writable (this function's contract).
        let error = unsafe { ErrorOut::new(error) };
        let take = |p: *mut VmafxFrame| -> Option<Frame> {
            // SAFETY: `p` is NULL or live (this function's contract).
            let f = unsafe { p.as_ref() }.map(|f| f.frame().clone());
            // SAFETY: `p` is NULL or live with a reference the caller gives up (this function's
            // contract); it is not used after this.
            unsafe { crate::frame::vmafx_frame_unref(p) };
            f
        };
        let (r, d) = (take(reference), take(distorted));
        call("vmafx_submit", error, || {
            // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
            let c = unsafe { get(context) }?;
            let r = r.ok_or_else(|| null("reference"))?;
            let d = d.ok_or_else(|| null("distorted"))?;
            // The planted defect of the fence tests: release signalled as submit returns.
            #[cfg(feature = "test-hooks")]
            let early = vmafx::hooks::switch(vmafx::hooks::EARLY_RELEASE)
                .then(|| [r.release_fence(), d.release_fence()]);
            #[cfg(not(feature = "test-hooks"))]
            let early: Option<[vmafx::Fence; 2]> = None;
            let mut inner = c.lock();
            if inner.options.check_sample_range {
                check_sample_range(&r, "reference")?;
                check_sample_range(&d, "distorted")?;
            }
            let submitted = inner.ctx.submit(r, d, index);
            if submitted.is_ok() {
                inner.notes.first_frame.get_or_insert_with(Instant::now);
            }
            for f in early.iter().flatten() {
                f.signal();
            }
            let result = submitted.map_err(|e| inner.admission_failure(e));
            drop(inner);
            c.live.signal();
            result?;
            Ok(Status::Ok)
        })
    }
}

c_export! {
    /// Finishes every submitted frame.
    ///
    /// # Safety
    /// `context` NULL or live; `error` NULL or writable.
    #[c = "Finishes every submitted frame; scores become final."]
    pub unsafe fn vmafx_flush(context: *mut VmafxContext; error) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        let flushed = {
            let mut inner = c.lock();
            let flushed = inner.ctx.flush();
            if flushed.is_ok() {
                inner.notes.flushed.get_or_insert_with(Instant::now);
            }
            flushed
        };
        c.live.signal();
        flushed?;
        Ok(Status::Ok)
    }
}

c_export! {
    /// The backend the context scores on; CPU for NULL.
    ///
    /// # Safety
    /// `context` NULL or live.
    #[c = "The VmafxBackend the context scores on; CPU for NULL."]
    pub unsafe fn vmafx_context_backend(context: *const VmafxContext) -> u32 {
        // SAFETY: NULL or live (the caller's contract).
        match unsafe { context.as_ref() } {
            Some(c) => c.lock().device().backend() as u32,
            None => 0,
        }
    }
}
