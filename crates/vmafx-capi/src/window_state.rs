//! Windows: what a window pools, its handle and result, and how it completes over the
//! engine's final scores. Below the window face ([`crate::window`]) and the window threads
//! ([`crate::window_live`]).

use std::ffi::{c_char, c_void, CString};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use vmafx::Status;

use crate::abi::{MinSize, SubjectKind};
use crate::error::{fail, null, CResult, WithKind};
use crate::ffi::c_str;
use crate::model::{self, VmafxModel};
use crate::model_set::{self, VmafxModelSet};
use crate::pooling::{handle_of, perceptual_weights, pool_method, set_handle_of, stats, Pooling};
use crate::session::Inner;
use crate::sized;

/// `VmafxWindowTarget`: what a window pools.
pub const WINDOW_TARGETS: [(&str, u32, &str); 4] = [
    (
        "VMAFX_WINDOW_TARGET_NONE",
        0,
        "Not set; refused by vmafx_window_submit().",
    ),
    (
        "VMAFX_WINDOW_TARGET_MODEL",
        1,
        "The scores of `model`, as vmafx_score_pooled() pools them.",
    ),
    (
        "VMAFX_WINDOW_TARGET_MODEL_SET",
        2,
        "The bootstrap scores of `model_set`, as vmafx_score_pooled_model_set() pools them.",
    ),
    (
        "VMAFX_WINDOW_TARGET_FEATURE",
        3,
        "The scores of `feature`, as vmafx_feature_score_pooled() pools them.",
    ),
];

/// `VMAFX_WINDOW_PARTIAL`: the stream ended inside the window.
pub const WINDOW_PARTIAL: u32 = 1;

/// The window's callback.
pub type VmafxWindowCallback =
    Option<unsafe extern "C" fn(*mut VmafxWindow, *const VmafxWindowResult, *mut c_void)>;

/// `VmafxWindowRequest`: a window to pool.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxWindowRequest {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// A `VmafxWindowTarget`.
    pub target: u32,
    /// `VMAFX_POOL_MASK_*` bits, at least one.
    pub pool_mask: u32,
    /// First frame (inclusive).
    pub first: u64,
    /// Last frame (inclusive).
    pub last: u64,
    /// The model of a MODEL window.
    pub model: *const VmafxModel,
    /// The model set of a MODEL_SET window.
    pub model_set: *const VmafxModelSet,
    /// The feature of a FEATURE window (copied).
    pub feature: *const c_char,
    /// Called once when the window completes, on the context's callback thread.
    pub on_complete: VmafxWindowCallback,
    /// Passed to `on_complete`.
    pub user: *mut c_void,
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers, pointers and an optional
// function pointer (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxWindowRequest {
    /// ABI 0.1.8: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxWindowRequest>();
}

/// `VmafxWindowResult`: the scores of a completed window.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxWindowResult {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// `VMAFX_OK`, or why the window has no values.
    pub status: i32,
    /// `VMAFX_WINDOW_PARTIAL` when the stream ended before `last`.
    pub flags: u32,
    /// The `VmafxWindowTarget` pooled.
    pub target: u32,
    /// The requested methods.
    pub pool_mask: u32,
    /// First frame, as requested.
    pub first: u64,
    /// Last frame, as requested.
    pub last: u64,
    /// Frames pooled over, from `first`.
    pub n_frames: u64,
    /// Those the context scored (subsampling skips the others).
    pub n_scored: u64,
    /// Pooled score per `VmafxPool` (a model set's bagging score).
    pub value: [f64; 9],
    /// A model set's pooled standard deviation per method.
    pub stddev: [f64; 9],
    /// A model set's pooled lower 95% bound per method.
    pub ci95_lo: [f64; 9],
    /// A model set's pooled upper 95% bound per method.
    pub ci95_hi: [f64; 9],
    /// The model's, set's or feature's name; lives as long as the window.
    pub name: *const c_char,
}

// SAFETY: a `#[repr(C)]` struct led by `struct_size`, of integers, floats and a pointer
// (valid all-zero); its MIN_SIZE is a prefix of it.
unsafe impl MinSize for VmafxWindowResult {
    /// ABI 0.1.8: every field.
    const MIN_SIZE: usize = std::mem::size_of::<VmafxWindowResult>();
}

/// What a window pools, resolved.
pub(crate) enum Target {
    Model(Arc<VmafxModel>),
    Set(Arc<VmafxModelSet>),
    Feature(CString),
}

/// A caller's pointer passed back to its callback.
struct User(*mut c_void);
// SAFETY: the pointer is only handed back to the caller's callback, which the caller wrote
// to run on the library's callback thread (score.h's contract).
unsafe impl Send for User {}
// SAFETY: as above; the library never dereferences it.
unsafe impl Sync for User {}

#[derive(Default)]
struct Cell {
    result: Option<VmafxWindowResult>,
    released: bool,
    /// The thread running the callback now.
    in_callback: Option<ThreadId>,
}

/// `VmafxWindow`: a window handle (an `Arc` given to the caller).
pub struct VmafxWindow {
    target: Target,
    target_kind: u32,
    mask: u32,
    first: u64,
    last: u64,
    callback: VmafxWindowCallback,
    user: User,
    cell: Mutex<Cell>,
    changed: Condvar,
}

// SAFETY: the raw pointers a window holds (its result's `name`, the caller's `user`) point
// to strings its own target keeps alive and to caller data handed back only to the
// caller's callback; everything else is behind its mutex.
unsafe impl Send for VmafxWindow {}
// SAFETY: as above.
unsafe impl Sync for VmafxWindow {}

impl VmafxWindow {
    fn cell(&self) -> MutexGuard<'_, Cell> {
        self.cell.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn is_released(&self) -> bool {
        self.cell().released
    }

    pub(crate) fn has_callback(&self) -> bool {
        self.callback.is_some()
    }

    fn name(&self) -> *const c_char {
        match &self.target {
            Target::Model(m) => m.c_name(),
            Target::Set(s) => s.c_name(),
            Target::Feature(f) => f.as_ptr(),
        }
    }

    /// A result with the request's facts and no values.
    pub(crate) fn empty_result(&self) -> VmafxWindowResult {
        VmafxWindowResult {
            struct_size: 0,
            status: Status::Ok.code(),
            flags: 0,
            target: self.target_kind,
            pool_mask: self.mask,
            first: self.first,
            last: self.last,
            n_frames: 0,
            n_scored: 0,
            value: [0.0; 9],
            stddev: [0.0; 9],
            ci95_lo: [0.0; 9],
            ci95_hi: [0.0; 9],
            name: self.name(),
        }
    }

    /// Stores the result (once) and wakes the waiters.
    pub(crate) fn finish(&self, result: VmafxWindowResult) {
        let mut c = self.cell();
        c.result.get_or_insert(result);
        drop(c);
        self.changed.notify_all();
    }

    /// Runs the callback on this (the callback) thread unless the window was released.
    pub(crate) fn run_callback(self: &Arc<Self>) {
        let (Some(cb), result) = ({
            let mut c = self.cell();
            if c.released {
                return;
            }
            c.in_callback = Some(std::thread::current().id());
            (self.callback, c.result)
        }) else {
            return;
        };
        if let Some(r) = result {
            let ptr = Arc::as_ptr(self) as *mut VmafxWindow;
            // SAFETY: the caller's callback (score.h's contract); `ptr` and `&r` are valid
            // during the call: this thread holds a reference of the window.
            let _ = std::panic::catch_unwind(|| unsafe { cb(ptr, &r, self.user.0) });
        }
        self.cell().in_callback = None;
        self.changed.notify_all();
    }
}

/// The window's result if it is complete now: its values once every scored frame is final,
/// or its failure. `None` while it waits for frames.
pub(crate) fn complete(inner: &mut Inner, w: &VmafxWindow) -> Option<VmafxWindowResult> {
    let mut r = w.empty_result();
    let mut last = w.last;
    if inner.ctx.scores_final() {
        let n = inner.ctx.frames_scored().unwrap_or(0);
        if w.first >= n {
            r.status = Status::Range.code();
            return Some(r);
        }
        if last >= n {
            last = n - 1;
            r.flags |= WINDOW_PARTIAL;
        }
    }
    r.n_frames = last - w.first + 1;
    let rows: vmafx::Result<Option<Vec<Vec<f64>>>> = match &w.target {
        Target::Model(m) => match handle_of(inner, Arc::as_ptr(m)) {
            Ok(h) => inner.ctx.final_score_rows(&h, w.first, last),
            Err(f) => Err(f.error),
        },
        Target::Set(s) => match set_handle_of(inner, Arc::as_ptr(s)) {
            Ok(h) => inner.ctx.final_score_rows(&h, w.first, last),
            Err(f) => Err(f.error),
        },
        Target::Feature(f) => inner
            .ctx
            .final_feature_values(&f.to_string_lossy(), w.first, last)
            .map(|v| v.map(|v| v.into_iter().map(|x| vec![x]).collect())),
    };
    let rows = match rows {
        Ok(Some(rows)) => rows,
        Ok(None) => return None,
        Err(e) => {
            r.status = e.status().code();
            return Some(r);
        }
    };
    r.n_scored = rows.len() as u64;
    // The columns pooled: the first output, or a set's four statistics.
    let columns: Vec<Vec<f64>> = match &w.target {
        Target::Set(_) => (0..4)
            .map(|k| rows.iter().map(|row| stats(row)[k]).collect())
            .collect(),
        _ => vec![rows.iter().map(|row| row[0]).collect()],
    };
    let weights = perceptual_weights(inner, w.first, last);
    for p in 1..9u32 {
        if w.mask & (1 << p) == 0 {
            continue;
        }
        let Ok(method) = pool_method(p) else { continue };
        let pooled: Vec<f64> = columns
            .iter()
            .map(|c| Pooling::apply_weighted(method, c, weights.as_deref()))
            .collect();
        let p = p as usize;
        r.value[p] = pooled[0];
        if let [_, sd, lo, hi] = pooled[..] {
            (r.stddev[p], r.ci95_lo[p], r.ci95_hi[p]) = (sd, lo, hi);
        }
    }
    Some(r)
}

/// The window behind `ptr`.
///
/// # Safety
/// `ptr` is NULL or a live window of this library.
pub(crate) unsafe fn window<'a>(ptr: *const VmafxWindow) -> CResult<&'a VmafxWindow> {
    // SAFETY: NULL or live (the caller's contract).
    unsafe { ptr.as_ref() }
        .ok_or_else(|| null("window"))
        .kind(SubjectKind::Parameter)
}

pub(crate) fn request_of(inner: &Inner, req: &VmafxWindowRequest) -> CResult<(Target, u32)> {
    if req.pool_mask & !0x1fe != 0 || req.pool_mask == 0 {
        return Err(fail(
            Status::Invalid,
            "request.pool_mask",
            format!(
                "{:#x} is not a set of pooling methods (VMAFX_POOL_MASK_MIN .. _PERC20)",
                req.pool_mask
            ),
        ))
        .kind(SubjectKind::Parameter);
    }
    if req.first > req.last {
        return Err(fail(
            Status::Range,
            "request.first",
            format!("first frame {} is above last frame {}", req.first, req.last),
        ))
        .kind(SubjectKind::Parameter);
    }
    let target = match req.target {
        1 => {
            // SAFETY: `model` is NULL or live (vmafx_window_submit's contract).
            unsafe { model::get(req.model) }?;
            handle_of(inner, req.model)?;
            // SAFETY: live (checked just above).
            Target::Model(unsafe { VmafxModel::retain(req.model) })
        }
        2 => {
            // SAFETY: `model_set` is NULL or live (vmafx_window_submit's contract).
            unsafe { model_set::get(req.model_set) }?;
            set_handle_of(inner, req.model_set)?;
            // SAFETY: live (checked just above).
            Target::Set(unsafe { VmafxModelSet::retain(req.model_set) })
        }
        3 => {
            // SAFETY: `feature` is NULL or NUL-terminated (vmafx_window_submit's contract).
            let name = unsafe { c_str(req.feature, "request.feature") }?;
            Target::Feature(CString::new(name).unwrap_or_default())
        }
        t => {
            return Err(fail(
                Status::Invalid,
                "request.target",
                format!("{t} is not a window target (VMAFX_WINDOW_TARGET_MODEL .. _FEATURE)"),
            ))
            .kind(SubjectKind::Parameter)
        }
    };
    Ok((target, req.target))
}

/// Writes the window's result to `out` when it completed: `VMAFX_PENDING` otherwise.
///
/// # Safety
/// `out` valid for its `struct_size` (checked non-NULL).
pub(crate) unsafe fn read_result(
    w: &VmafxWindow,
    out: *mut VmafxWindowResult,
    wait: Option<u64>,
) -> CResult {
    // SAFETY: forwarded contract.
    let size = unsafe { sized::out_size(out, "out") }?;
    let deadline = wait.and_then(|ns| Instant::now().checked_add(Duration::from_nanos(ns)));
    let mut c = w.cell();
    loop {
        if let Some(r) = c.result {
            // SAFETY: `out` is writable for `size` bytes (checked above).
            unsafe { sized::write(out, size, &r) };
            return Ok(Status::Ok);
        }
        match (wait, deadline) {
            (None, _) | (Some(0), _) => return Ok(Status::Pending),
            (Some(_), None) => c = w.changed.wait(c).unwrap_or_else(|p| p.into_inner()),
            (Some(_), Some(d)) => {
                let now = Instant::now();
                if now >= d {
                    return Ok(Status::Pending);
                }
                c = w
                    .changed
                    .wait_timeout(c, d - now)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
        }
    }
}

impl VmafxWindow {
    /// A new open window pooling `target` as `req` asks.
    pub(crate) fn new(target: Target, target_kind: u32, req: &VmafxWindowRequest) -> Self {
        VmafxWindow {
            target,
            target_kind,
            mask: req.pool_mask,
            first: req.first,
            last: req.last,
            callback: req.on_complete,
            user: User(req.user),
            cell: Mutex::new(Cell::default()),
            changed: Condvar::new(),
        }
    }

    /// Marks the window released (its callback never runs from now) and waits for a
    /// callback of it running on another thread.
    pub(crate) fn release(&self) {
        let me = std::thread::current().id();
        let mut c = self.cell();
        c.released = true;
        while c.in_callback.is_some_and(|t| t != me) {
            c = self.changed.wait(c).unwrap_or_else(|p| p.into_inner());
        }
    }
}

crate::c_named!(VmafxWindow, VmafxWindowRequest, VmafxWindowResult);
