//! What the score faces share: the pooling methods, the engine handle of a model or model
//! set a context uses, a set's statistics, and extractor names as C strings. Below the score
//! and window faces and the window threads.

use std::ffi::{c_char, CStr, CString};
use std::sync::{Mutex, OnceLock};

use vmafx::model::STAT_SUFFIXES;
use vmafx::score::{percentile, pool, pool_weighted, PoolMethod};
use vmafx::Status;

use crate::abi::SubjectKind;
use crate::error::{fail, CResult, WithKind};
use crate::model::VmafxModel;
use crate::model_set::VmafxModelSet;
use crate::session::Inner;

/// How a pooled call combines the scores of its frames.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Pooling {
    /// One of libvmaf's methods.
    Libvmaf(PoolMethod),
    /// A percentile (0 to 100) by linear interpolation.
    Percentile(f64),
}

impl Pooling {
    pub(crate) fn apply(self, values: &[f64]) -> f64 {
        match self {
            Pooling::Libvmaf(m) => pool(values, m),
            Pooling::Percentile(p) => percentile(values, p),
        }
    }

    /// [`Pooling::apply`] with the frames' perceptual weights ([`perceptual_weights`]): the
    /// mean and harmonic mean weighted as VMAFx weights them; min, max and the percentiles,
    /// and every method without weights, as [`Pooling::apply`].
    pub(crate) fn apply_weighted(self, values: &[f64], weights: Option<&[f64]>) -> f64 {
        match (self, weights) {
            (Pooling::Libvmaf(m), Some(w)) if w.len() == values.len() => {
                pool_weighted(values, w, m)
            }
            _ => self.apply(values),
        }
    }
}

/// The perceptual weight `1 + strength * salience` of every frame of `first..=last` that
/// subsampling keeps (the frames a pooled call pools, in order), 1 for a frame without side
/// data; `None`, so that pooling stays libvmaf's exactly, unless `perceptual_weight` is on,
/// the strength above 0 and some frame of the context has side data (VMAFx's rule).
pub(crate) fn perceptual_weights(inner: &Inner, first: u64, last: u64) -> Option<Vec<f64>> {
    let o = &inner.options;
    let strength = o.perceptual_weight_strength;
    if !o.perceptual_weight || strength <= 0.0 || o.salience.is_empty() || first > last {
        return None;
    }
    let every = u64::from(inner.ctx.config().subsample.max(1));
    let weight = |i: u64| {
        o.salience.get(&i).map_or(1.0, |&s| {
            let w = 1.0 + strength * f64::from(s);
            if w.is_finite() && w > 0.0 {
                w
            } else {
                1.0
            }
        })
    };
    Some(
        (first..=last)
            .filter(|i| i % every == 0)
            .map(weight)
            .collect(),
    )
}

pub(crate) fn pool_method(v: u32) -> CResult<Pooling> {
    let method = match v {
        1 => Pooling::Libvmaf(PoolMethod::Min),
        2 => Pooling::Libvmaf(PoolMethod::Max),
        3 => Pooling::Libvmaf(PoolMethod::Mean),
        4 => Pooling::Libvmaf(PoolMethod::HarmonicMean),
        5 => Pooling::Percentile(50.0),
        6 => Pooling::Percentile(5.0),
        7 => Pooling::Percentile(10.0),
        8 => Pooling::Percentile(20.0),
        _ => {
            return Err(fail(
                Status::Invalid,
                "pool",
                format!("{v} is not a pooling method (VMAFX_POOL_MIN .. VMAFX_POOL_PERC20)"),
            ))
            .kind(SubjectKind::Parameter)
        }
    };
    Ok(method)
}

/// `r` with `kind` as its failure's subject kind, except a range refused by the engine
/// (`first`, `last` or `index` past the frames scored), which names the caller's parameter.
pub(crate) fn engine<T>(r: vmafx::Result<T>, kind: SubjectKind) -> CResult<T> {
    match r {
        Err(e) if e.status() == Status::Range => Err(e).kind(SubjectKind::Parameter),
        r => r.kind(kind),
    }
}

/// The extractor name as a C string that lives as long as the process (one per extractor).
pub(crate) fn extractor_c_name(name: &'static str) -> *const c_char {
    static NAMES: OnceLock<Mutex<Vec<(&'static str, &'static CStr)>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some((_, c)) = names.iter().find(|(n, _)| *n == name) {
        return c.as_ptr();
    }
    let c: &'static CStr = Box::leak(CString::new(name).unwrap_or_default().into_boxed_c_str());
    names.push((name, c));
    c.as_ptr()
}

/// The engine handle of `model` in this context: `VMAFX_E_INVALID` naming `model` when
/// the context does not use it.
pub(crate) fn handle_of(
    inner: &Inner,
    model: *const VmafxModel,
) -> CResult<vmafx::context::ModelHandle> {
    inner
        .models
        .iter()
        .find(|(m, _)| std::ptr::eq(&**m, model))
        .map(|(_, h)| h.clone())
        // A used set's lead scores as the set's first output, the lead's own score.
        .or_else(|| {
            inner
                .model_sets
                .iter()
                .find(|(s, _)| std::ptr::eq(&*s.lead, model))
                .map(|(_, h)| h.clone())
        })
        .ok_or_else(|| {
            fail(
                Status::Invalid,
                "model",
                "this context does not use the model (vmafx_context_use_model)",
            )
        })
        .kind(SubjectKind::Model)
}

/// The engine handle of `set` in this context: `VMAFX_E_INVALID` naming `set` when the
/// context does not use it.
pub(crate) fn set_handle_of(
    inner: &Inner,
    set: *const VmafxModelSet,
) -> CResult<vmafx::context::ModelHandle> {
    inner
        .model_sets
        .iter()
        .find(|(s, _)| std::ptr::eq(&**s, set))
        .map(|(_, h)| h.clone())
        .ok_or_else(|| {
            fail(
                Status::Invalid,
                "set",
                "this context does not use the model set (vmafx_context_use_model_set)",
            )
        })
        .kind(SubjectKind::Model)
}

/// The four statistics (bagging, stddev, 95% interval) of one output row: its last four.
pub(crate) fn stats(row: &[f64]) -> [f64; 4] {
    let at = row.len() - STAT_SUFFIXES.len();
    [row[at], row[at + 1], row[at + 2], row[at + 3]]
}
