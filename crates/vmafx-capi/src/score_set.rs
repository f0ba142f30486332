//! Model-set scores (VMAFx's score.h): a context using a set, its bootstrap score per frame
//! and pooled over frames.

use crate::c_export;
use vmafx::Status;

use crate::abi::{MinSize, SubjectKind};
use crate::context_handle::{get, VmafxContext};
use crate::error::{fail, WithKind};
use crate::model_set::{self, VmafxModelSet};
use crate::pooling::{engine, perceptual_weights, pool_method, set_handle_of, stats};
use crate::score_out::scored;
use crate::session::Inner;

/// `VmafxModelSetScore`: the bootstrap score of a set at one frame or pooled over frames.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxModelSetScore {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// The `VmafxPool`; `VMAFX_POOL_NONE` for one frame's score.
    pub pool: u32,
    /// First frame (the frame of a per-frame score).
    pub first: u64,
    /// Last frame (inclusive).
    pub last: u64,
    /// Mean of the member models' scores.
    pub bagging: f64,
    /// Standard deviation of the members' scores (scaled by the transform's slope).
    pub stddev: f64,
    /// Lower bound of the 95% interval.
    pub ci95_lo: f64,
    /// Upper bound of the 95% interval.
    pub ci95_hi: f64,
    /// The set's name; lives as long as the set.
    pub name: *const std::ffi::c_char,
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers and pointers only
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxModelSetScore {
    /// ABI 0.1.0: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxModelSetScore>();
}

fn score_of(
    set: &VmafxModelSet,
    pool: u32,
    first: u64,
    last: u64,
    s: [f64; 4],
) -> VmafxModelSetScore {
    VmafxModelSetScore {
        struct_size: 0,
        pool,
        first,
        last,
        bagging: s[0],
        stddev: s[1],
        ci95_lo: s[2],
        ci95_hi: s[3],
        name: set.c_name(),
    }
}

c_export! {
    /// Scores with every model of `set`: registers their features and mounts the set; the
    /// context holds a reference until destroyed. Before the first frame, like features.
    ///
    /// # Safety
    /// `context`, `set` NULL or live; `error` NULL or writable.
    #[c = "Scores with every model of `set`: registers their features and holds a reference to the set until the context is destroyed. Its lead then scores through vmafx_score_frame() too."]
    pub unsafe fn vmafx_context_use_model_set(
        context: *mut VmafxContext,
        set: *mut VmafxModelSet;
        error
    ) -> VmafxStatus {
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: `set` is NULL or a live handle of this library (this function's contract).
        let s = unsafe { model_set::get(set) }?;
        let mut inner = c.lock();
        if inner.model_sets.iter().any(|(x, _)| std::ptr::eq(&**x, s)) {
            return Ok(Status::Ok);
        }
        let handle = inner
            .ctx
            .use_model(s.set.clone())
            .kind(SubjectKind::Model)?;
        // SAFETY: `set` is a live handle (checked by `model_set::get` above).
        inner
            .model_sets
            .push((unsafe { VmafxModelSet::retain(set) }, handle));
        Ok(Status::Ok)
    }
}

c_export! {
    /// The bootstrap score of `set` at frame `index`; `VMAFX_PENDING` before flush.
    ///
    /// # Safety
    /// `context`, `set` NULL or live; `out` NULL or valid for its `struct_size`; `error` NULL
    /// or writable.
    #[c = "Bootstrap score of `set` (used by the context) at frame `index`; VMAFX_PENDING before vmafx_flush(). VMAFX_E_RANGE naming `index` at or past the frames scored."]
    pub unsafe fn vmafx_score_frame_model_set(
        context: *mut VmafxContext,
        set: *const VmafxModelSet,
        index: u64,
        out: *mut VmafxModelSetScore;
        error
    ) -> VmafxStatus {
        // SAFETY: `set` is NULL or a live handle of this library (this function's contract).
        let s = unsafe { model_set::get(set) }?;
        let body = |inner: &mut Inner| {
            let handle = set_handle_of(inner, set)?;
            engine(inner.ctx.checked_index(index), SubjectKind::Parameter)?;
            let row = engine(
                inner.ctx.score_rows(&handle, index, index),
                SubjectKind::Model,
            )?;
            let Some(row) = row.first() else {
                return Err(fail(
                    Status::NotFound,
                    "index",
                    format!("frame {index} is not scored (subsampling skips it)"),
                ))
                .kind(SubjectKind::Frame);
            };
            Ok(score_of(s, 0, index, index, stats(row)))
        };
        // SAFETY: `context` is NULL or live and `out` NULL or valid for its struct_size
        // (this function's contract).
        unsafe { scored(context, out, body) }
    }
}

c_export! {
    /// The bootstrap score of `set` with each of its four values pooled with `pool` over frames
    /// `first..=last` (subsampled frames skipped); `VMAFX_PENDING` before flush.
    ///
    /// # Safety
    /// As [`vmafx_score_frame_model_set`].
    #[c = "Bootstrap score of `set` with each of its four values pooled with `pool` over frames `first` to `last` (subsampled frames skipped); out-of-range `first` and `last` as vmafx_score_pooled()."]
    pub unsafe fn vmafx_score_pooled_model_set(
        context: *mut VmafxContext,
        set: *const VmafxModelSet,
        pool: u32,
        first: u64,
        last: u64,
        out: *mut VmafxModelSetScore;
        error
    ) -> VmafxStatus {
        // SAFETY: `set` is NULL or a live handle of this library (this function's contract).
        let s = unsafe { model_set::get(set) }?;
        let method = pool_method(pool)?;
        let body = |inner: &mut Inner| {
            let handle = set_handle_of(inner, set)?;
            let rows = engine(
                inner.ctx.score_rows(&handle, first, last),
                SubjectKind::Model,
            )?;
            let weights = perceptual_weights(inner, first, last);
            let mut pooled = [0.0; 4];
            for (k, p) in pooled.iter_mut().enumerate() {
                let column: Vec<f64> = rows.iter().map(|r| stats(r)[k]).collect();
                *p = method.apply_weighted(&column, weights.as_deref());
            }
            Ok(score_of(s, pool, first, last, pooled))
        };
        // SAFETY: `context` is NULL or live and `out` NULL or valid for its struct_size
        // (this function's contract).
        unsafe { scored(context, out, body) }
    }
}

crate::c_named!(VmafxModelSetScore);
