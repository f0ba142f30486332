//! Scores: per picture and pooled, of models, collections and features.

use std::ffi::{c_char, c_int, c_uint};

use vmafx::score::{pool, PoolMethod};

use crate::context::{context, VmafContext};
use crate::errno::EINVAL;
use crate::ffi::{VmafModelCollectionScore, COLLECTION_SCORE_BOOTSTRAP};
use crate::model::{VmafModel, VmafModelCollection};
use crate::{errno_of, guard, text};

/// libvmaf's `enum VmafPoolingMethod` value as the engine's method.
fn pool_method(v: c_uint) -> Option<PoolMethod> {
    match v {
        1 => Some(PoolMethod::Min),
        2 => Some(PoolMethod::Max),
        3 => Some(PoolMethod::Mean),
        4 => Some(PoolMethod::HarmonicMean),
        _ => None,
    }
}

/// A pooling range must be ordered and inside the pictures read (so a huge `index_high`
/// fails at once, as libvmaf's first missing score does).
fn check_range(v: &VmafContext, low: c_uint, high: c_uint) -> Result<(), c_int> {
    if low > high || u64::from(high) >= v.pic_count {
        return Err(-EINVAL);
    }
    Ok(())
}

/// Writes `value` to `out`, or answers the error.
fn put(out: &mut f64, r: vmafx::Result<f64>) -> c_int {
    match r {
        Ok(x) => {
            *out = x;
            0
        }
        Err(e) => errno_of(&e),
    }
}

/// The score of `model` at picture `index` (after the flush).
///
/// # Safety
/// `vmaf` live or NULL; `model` NULL or a live model; `score` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmaf_score_at_index(
    vmaf: *mut VmafContext,
    model: *mut VmafModel,
    score: *mut f64,
    index: c_uint,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(out)) = (unsafe { context(vmaf) }, unsafe { score.as_mut() }) else {
            return -EINVAL;
        };
        let Some(h) = v.models.get(&(model as usize)).cloned() else {
            return -EINVAL;
        };
        v.note_scores();
        put(
            out,
            v.ctx
                .score_at_index(&h, u64::from(index))
                .map(|o| o.first().map_or(f64::NAN, |x| x.1)),
        )
    })
}

/// Fills `out` from a collection's named outputs (`<name>_bagging`, `_stddev`,
/// `_ci_p95_lo`, `_ci_p95_hi`) given by `get`.
fn collection_score(
    names: &[String],
    mut get: impl FnMut(&str) -> vmafx::Result<f64>,
) -> Result<VmafModelCollectionScore, c_int> {
    let mut stat = |suffix: &str| -> Result<f64, c_int> {
        let name = names.iter().find(|n| n.ends_with(suffix)).ok_or(-EINVAL)?;
        get(name).map_err(|e| errno_of(&e))
    };
    let mut s = VmafModelCollectionScore {
        r#type: COLLECTION_SCORE_BOOTSTRAP,
        ..Default::default()
    };
    s.bootstrap.bagging_score = stat("_bagging")?;
    s.bootstrap.stddev = stat("_stddev")?;
    s.bootstrap.ci_p95.lo = stat("_ci_p95_lo")?;
    s.bootstrap.ci_p95.hi = stat("_ci_p95_hi")?;
    Ok(s)
}

/// The bootstrap statistics of `model_collection` at picture `index`.
///
/// # Safety
/// `vmaf` live or NULL; `model_collection` NULL or live; `score` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmaf_score_at_index_model_collection(
    vmaf: *mut VmafContext,
    model_collection: *mut VmafModelCollection,
    score: *mut VmafModelCollectionScore,
    index: c_uint,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(out)) = (unsafe { context(vmaf) }, unsafe { score.as_mut() }) else {
            return -EINVAL;
        };
        let Some(h) = v.collections.get(&(model_collection as usize)).cloned() else {
            return -EINVAL;
        };
        v.note_scores();
        let outputs = match v.ctx.score_at_index(&h, u64::from(index)) {
            Ok(o) => o,
            Err(e) => return errno_of(&e),
        };
        let names: Vec<String> = outputs.iter().map(|o| o.0.clone()).collect();
        let value = |n: &str| Ok(outputs.iter().find(|o| o.0 == n).map_or(f64::NAN, |o| o.1));
        match collection_score(&names, value) {
            Ok(s) => {
                *out = s;
                0
            }
            Err(e) => e,
        }
    })
}

/// The score of feature `feature_name` at picture `index`: a collected score (by key or by
/// the alias logs print) or an imported one.
///
/// # Safety
/// `vmaf` live or NULL; `feature_name` NULL or NUL-terminated; `score` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn vmaf_feature_score_at_index(
    vmaf: *mut VmafContext,
    feature_name: *const c_char,
    score: *mut f64,
    index: c_uint,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(name), Some(out)) = (
            unsafe { context(vmaf) },
            unsafe { text(feature_name) },
            unsafe { score.as_mut() },
        ) else {
            return -EINVAL;
        };
        if let Some(x) = v.imported.get(name).and_then(|s| s.get(&u64::from(index))) {
            *out = *x;
            return 0;
        }
        put(out, v.ctx.feature_score_at_index(name, u64::from(index)))
    })
}

/// `model`'s score pooled over pictures `index_low..=index_high` with `pool_method`.
///
/// # Safety
/// As [`vmaf_score_at_index`].
#[no_mangle]
pub unsafe extern "C" fn vmaf_score_pooled(
    vmaf: *mut VmafContext,
    model: *mut VmafModel,
    pool_method: c_uint,
    score: *mut f64,
    index_low: c_uint,
    index_high: c_uint,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(out)) = (unsafe { context(vmaf) }, unsafe { score.as_mut() }) else {
            return -EINVAL;
        };
        let (Some(h), Some(method)) = (
            v.models.get(&(model as usize)).cloned(),
            self::pool_method(pool_method),
        ) else {
            return -EINVAL;
        };
        if let Err(e) = check_range(v, index_low, index_high) {
            return e;
        }
        v.note_scores();
        put(
            out,
            v.ctx
                .score_pooled(&h, method, u64::from(index_low), u64::from(index_high)),
        )
    })
}

/// The bootstrap statistics of `model_collection`, each pooled over the range.
///
/// # Safety
/// As [`vmaf_score_at_index_model_collection`].
#[no_mangle]
pub unsafe extern "C" fn vmaf_score_pooled_model_collection(
    vmaf: *mut VmafContext,
    model_collection: *mut VmafModelCollection,
    pool_method: c_uint,
    score: *mut VmafModelCollectionScore,
    index_low: c_uint,
    index_high: c_uint,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(out)) = (unsafe { context(vmaf) }, unsafe { score.as_mut() }) else {
            return -EINVAL;
        };
        let (Some(h), Some(method)) = (
            v.collections.get(&(model_collection as usize)).cloned(),
            self::pool_method(pool_method),
        ) else {
            return -EINVAL;
        };
        if let Err(e) = check_range(v, index_low, index_high) {
            return e;
        }
        let (low, high) = (u64::from(index_low), u64::from(index_high));
        v.note_scores();
        let rows = match v.ctx.score_rows(&h, low, high) {
            Ok(r) => r,
            Err(e) => return errno_of(&e),
        };
        let names = h.model().output_names();
        let column = |n: &str| {
            let j = names.iter().position(|x| x == n).unwrap_or(0);
            let values: Vec<f64> = rows
                .iter()
                .map(|r| r.get(j).copied().unwrap_or(f64::NAN))
                .collect();
            Ok(pool(&values, method))
        };
        match collection_score(&names, column) {
            Ok(s) => {
                *out = s;
                0
            }
            Err(e) => e,
        }
    })
}

/// Feature `feature_name` pooled over pictures `index_low..=index_high`.
///
/// # Safety
/// As [`vmaf_feature_score_at_index`].
#[no_mangle]
pub unsafe extern "C" fn vmaf_feature_score_pooled(
    vmaf: *mut VmafContext,
    feature_name: *const c_char,
    pool_method: c_uint,
    score: *mut f64,
    index_low: c_uint,
    index_high: c_uint,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        let (Some(v), Some(name), Some(out)) = (
            unsafe { context(vmaf) },
            unsafe { text(feature_name) },
            unsafe { score.as_mut() },
        ) else {
            return -EINVAL;
        };
        let Some(method) = self::pool_method(pool_method) else {
            return -EINVAL;
        };
        if index_low > index_high {
            return -EINVAL;
        }
        let (low, high) = (u64::from(index_low), u64::from(index_high));
        if let Some(series) = v.imported.get(name) {
            if high - low >= series.len() as u64 {
                return -EINVAL;
            }
            let values: Option<Vec<f64>> = (low..=high).map(|i| series.get(&i).copied()).collect();
            return match values {
                Some(vals) => {
                    *out = pool(&vals, method);
                    0
                }
                None => -EINVAL,
            };
        }
        if let Err(e) = check_range(v, index_low, index_high) {
            return e;
        }
        put(out, v.ctx.feature_score_pooled(name, method, low, high))
    })
}
