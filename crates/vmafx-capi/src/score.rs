//! Scores of the C ABI (VMAFx's score.h and `vmafx_context_use_model()`): feature scores
//! at an index, model scores at an index, and both pooled over a range of frames.
//!
//! Before `vmafx_flush()` a score is not final and the answer is `VMAFX_PENDING` with no
//! error. Each score names what produced it: the backend, and the registered extractor
//! that declares the feature (NULL for model scores and option-decorated names).

use crate::c_export;
use std::ffi::c_char;

use vmafx::feature::registry;
use vmafx::Status;

use crate::abi::{MinSize, SubjectKind};
use crate::context_handle::{get, VmafxContext};
use crate::error::WithKind;
use crate::ffi::c_str;
use crate::model::{self, VmafxModel};
use crate::pooling::{engine, extractor_c_name, handle_of, perceptual_weights, pool_method};
use crate::score_out::scored;
use crate::session::Inner;

/// `VmafxScore`: one score and the extractor that produced it.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxScore {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// `VmafxBackend` of the producer.
    pub backend: u32,
    /// Frame index.
    pub index: u64,
    /// The score.
    pub value: f64,
    /// Feature name as requested (the model's name for model scores).
    pub feature: *const c_char,
    /// Registered extractor declaring the feature, or NULL.
    pub extractor: *const c_char,
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxScore {
    /// ABI 0.1.0: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxScore>();
}

/// `VmafxPooledScore`: a score pooled over frames `first..=last`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxPooledScore {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// The `VmafxPool`.
    pub pool: u32,
    /// First frame pooled.
    pub first: u64,
    /// Last frame pooled.
    pub last: u64,
    /// The pooled score.
    pub value: f64,
    /// Feature or model name.
    pub feature: *const c_char,
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxPooledScore {
    /// ABI 0.1.0: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxPooledScore>();
}

/// `VmafxPool` values: libvmaf's `enum VmafPoolingMethod` (0 to 4) and VMAFx's median and
/// percentiles (5 to 8).
pub const POOL_METHODS: [(&str, u32, &str); 9] = [
    (
        "VMAFX_POOL_NONE",
        0,
        "No pooling: one frame's score (refused by the pooled calls).",
    ),
    ("VMAFX_POOL_MIN", 1, "The smallest score."),
    ("VMAFX_POOL_MAX", 2, "The largest score."),
    ("VMAFX_POOL_MEAN", 3, "The arithmetic mean."),
    (
        "VMAFX_POOL_HARMONIC_MEAN",
        4,
        "The harmonic mean of score + 1, less one.",
    ),
    ("VMAFX_POOL_MEDIAN", 5, "The median (the 50th percentile)."),
    (
        "VMAFX_POOL_PERC5",
        6,
        "The 5th percentile, interpolated linearly between the two nearest ranks.",
    ),
    (
        "VMAFX_POOL_PERC10",
        7,
        "The 10th percentile, as VMAFX_POOL_PERC5.",
    ),
    (
        "VMAFX_POOL_PERC20",
        8,
        "The 20th percentile, as VMAFX_POOL_PERC5.",
    ),
];

/// The registered extractor that wrote `feature` (as the collector recorded it; else the
/// registered extractor declaring it), as a C string, or NULL (a model or imported score).
fn producer(inner: &Inner, feature: &str) -> *const c_char {
    match inner.ctx.writer_of(feature) {
        Some(vmafx::context::Writer::Extractor { name, .. }) => return extractor_c_name(name),
        Some(vmafx::context::Writer::Model(_) | vmafx::context::Writer::Imported) => {
            return std::ptr::null()
        }
        _ => {}
    }
    match registry::by_feature(feature) {
        Some(info) if inner.ctx.features().contains(&info.name) => extractor_c_name(info.name),
        _ => std::ptr::null(),
    }
}

c_export! {
    /// Scores with `model`: registers the features it reads; the context holds a reference.
    /// Before the first frame, like features.
    ///
    /// # Safety
    /// `context`, `model` NULL or live; `error` NULL or writable.
    #[c = "Scores with `model`: registers the features it reads and holds a reference until the context is destroyed. Before the first frame, like features; using the same model twice is harmless."]
    pub unsafe fn vmafx_context_use_model(
        context: *mut VmafxContext,
        model: *mut VmafxModel;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: `model` is NULL or a live handle of this library (this function's contract).
        let m = unsafe { model::get(model) }?;
        let mut inner = c.lock();
        if inner.models.iter().any(|(x, _)| std::ptr::eq(&**x, m)) {
            return Ok(Status::Ok);
        }
        let handle = inner
            .ctx
            .use_model(m.model.clone())
            .kind(SubjectKind::Model)?;
        // SAFETY: `model` is a live handle (checked by `model::get` above).
        inner
            .models
            .push((unsafe { VmafxModel::retain(model) }, handle));
        Ok(Status::Ok)
    }
}

c_export! {
    /// The score of `feature` at frame `index` with its producer; `VMAFX_PENDING` before
    /// flush.
    ///
    /// # Safety
    /// `context` NULL or live; `feature` NULL or NUL-terminated and alive while `out` is read;
    /// `out` NULL or valid for its `struct_size`; `error` NULL or writable.
    #[c = "Score of `feature` (collector key or printed alias) at frame `index` with its producer; VMAFX_PENDING while the frame is not final (before vmafx_flush()). VMAFX_E_RANGE naming `index` at or past the frames scored."]
    pub unsafe fn vmafx_feature_score(
        context: *mut VmafxContext,
        feature: *const c_char,
        index: u64,
        out: *mut VmafxScore;
        error
    ) -> VmafxStatus {
        // SAFETY: `feature` is NULL or NUL-terminated (this function's contract).
        let name = unsafe { c_str(feature, "feature") }?;
        let body = |inner: &mut Inner| {
            let value = engine(
                inner.ctx.feature_score_at_index(name, index),
                SubjectKind::Feature,
            )?;
            Ok(VmafxScore {
                struct_size: 0,
                backend: inner.device().backend() as u32,
                index,
                value,
                feature,
                extractor: producer(inner, name),
            })
        };
        // SAFETY: `context` is NULL or live and `out` NULL or valid for its struct_size
        // (this function's contract).
        unsafe { scored(context, out, body) }
    }
}

c_export! {
    /// The score of `model` at frame `index` (its first output: the bagged score of a set);
    /// `VMAFX_PENDING` before flush.
    ///
    /// # Safety
    /// `context`, `model` NULL or live; `out` NULL or valid for its `struct_size`; `error`
    /// NULL or writable.
    #[c = "Score of `model` (used by the context) at frame `index`; VMAFX_PENDING before vmafx_flush(). VMAFX_E_RANGE naming `index` at or past the frames scored."]
    pub unsafe fn vmafx_score_frame(
        context: *mut VmafxContext,
        model: *const VmafxModel,
        index: u64,
        out: *mut VmafxScore;
        error
    ) -> VmafxStatus {
        // SAFETY: `model` is NULL or a live handle of this library (this function's contract).
        let m = unsafe { model::get(model) }?;
        let body = |inner: &mut Inner| {
            let handle = handle_of(inner, model)?;
            let outputs = engine(inner.ctx.score_at_index(&handle, index), SubjectKind::Model)?;
            let value = outputs.first().map_or(f64::NAN, |o| o.1);
            Ok(VmafxScore {
                struct_size: 0,
                backend: inner.device().backend() as u32,
                index,
                value,
                feature: m.c_name(),
                extractor: std::ptr::null(),
            })
        };
        // SAFETY: `context` is NULL or live and `out` NULL or valid for its struct_size
        // (this function's contract).
        unsafe { scored(context, out, body) }
    }
}

c_export! {
    /// `model`'s score pooled with `pool` over frames `first..=last` (subsampled frames
    /// skipped); `VMAFX_PENDING` before flush.
    ///
    /// # Safety
    /// As [`vmafx_score_frame`].
    #[c = "`model`'s score pooled with `pool` over frames `first` to `last` (subsampled frames skipped), as libvmaf's vmaf_score_pooled(). VMAFX_E_RANGE naming `first` above `last`, or `last` at or past the frames scored (any `last` when none was), checked before any work."]
    pub unsafe fn vmafx_score_pooled(
        context: *mut VmafxContext,
        model: *const VmafxModel,
        pool: u32,
        first: u64,
        last: u64,
        out: *mut VmafxPooledScore;
        error
    ) -> VmafxStatus {
        // SAFETY: `model` is NULL or a live handle of this library (this function's contract).
        let m = unsafe { model::get(model) }?;
        let method = pool_method(pool)?;
        let body = |inner: &mut Inner| {
            let handle = handle_of(inner, model)?;
            let values = engine(
                inner.ctx.score_values(&handle, first, last),
                SubjectKind::Model,
            )?;
            let weights = perceptual_weights(inner, first, last);
            let value = method.apply_weighted(&values, weights.as_deref());
            Ok(VmafxPooledScore {
                struct_size: 0,
                pool,
                first,
                last,
                value,
                feature: m.c_name(),
            })
        };
        // SAFETY: `context` is NULL or live and `out` NULL or valid for its struct_size
        // (this function's contract).
        unsafe { scored(context, out, body) }
    }
}

c_export! {
    /// `feature` pooled with `pool` over frames `first..=last`; `VMAFX_PENDING` before flush.
    ///
    /// # Safety
    /// As [`vmafx_feature_score`].
    #[c = "`feature` pooled with `pool` over frames `first` to `last`; out-of-range `first` and `last` as vmafx_score_pooled()."]
    pub unsafe fn vmafx_feature_score_pooled(
        context: *mut VmafxContext,
        feature: *const c_char,
        pool: u32,
        first: u64,
        last: u64,
        out: *mut VmafxPooledScore;
        error
    ) -> VmafxStatus {
        // SAFETY: `feature` is NULL or NUL-terminated (this function's contract).
        let name = unsafe { c_str(feature, "feature") }?;
        let method = pool_method(pool)?;
        let body = |inner: &mut Inner| {
            let values = engine(
                inner.ctx.feature_values(name, first, last),
                SubjectKind::Feature,
            )?;
            let weights = perceptual_weights(inner, first, last);
            let value = method.apply_weighted(&values, weights.as_deref());
            Ok(VmafxPooledScore {
                struct_size: 0,
                pool,
                first,
                last,
                value,
                feature,
            })
        };
        // SAFETY: `context` is NULL or live and `out` NULL or valid for its struct_size
        // (this function's contract).
        unsafe { scored(context, out, body) }
    }
}

crate::c_named!(VmafxPooledScore, VmafxScore);
