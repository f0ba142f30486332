//! Window scores of the C ABI (VMAFx's score.h, ABI 0.1.8): a pooled score over frames
//! `first..=last` asked for before the frames are final and read when they are, with
//! `vmafx_window_poll()`, `vmafx_window_wait()` or a callback.
//!
//! A window completes when every scored frame of its range is final (the engine's live
//! reads, [`vmafx::context::Context::final_score_rows`]), or at the flush over the frames
//! the stream had (flagged `VMAFX_WINDOW_PARTIAL` when it ended before `last`). Its values
//! are the synchronous pooled calls', computed by the same pooling code over the same
//! per-frame values. The threads are in `window_live.rs`.

use crate::c_export;
use std::sync::Arc;

use vmafx::Status;

use crate::abi::SubjectKind;
use crate::context_handle::{get, VmafxContext};
use crate::error::{fail, null, WithKind};
use crate::sized;
use crate::window_live::{Live, MAX_OPEN_WINDOWS};
use crate::window_state::{self, read_result, request_of};
pub use crate::window_state::{
    VmafxWindow, VmafxWindowCallback, VmafxWindowRequest, VmafxWindowResult, WINDOW_PARTIAL,
    WINDOW_TARGETS,
};

c_export! {
    /// Asks for a window and returns at once; see score.h.
    ///
    /// # Safety
    /// `context` NULL or live; `request` NULL or valid for its `struct_size` with its pointers
    /// NULL or live; `out`, `error` NULL or writable.
    #[c = "Asks for `request.target` pooled with every method of `request.pool_mask` over frames `first` to `last` and returns at once. The window completes when every scored frame of its range is final (motion2 of a frame, so every VMAF model, once the next frame is scored), or at vmafx_flush() over the frames the stream had (VMAFX_WINDOW_PARTIAL when it ended before `last`). The context's completion thread, started by its first window, finds completion when woken by a scored frame or a call. At most 1024 windows of a context are open; one more is VMAFX_E_BUSY naming `context`."]
    pub unsafe fn vmafx_window_submit(
        context: *mut VmafxContext,
        request: *const VmafxWindowRequest,
        out: *mut *mut VmafxWindow;
        error
    ) -> VmafxStatus {
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: non-NULL (checked above) and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        // SAFETY: `context` is NULL or a live handle of this library (this function's contract).
        let c = unsafe { get(context) }?;
        // SAFETY: `request` is NULL or readable for its struct_size (this function's contract).
        let (req, _) = unsafe { sized::read(request, "request") }?;
        let inner = c.lock();
        let (target, target_kind) = request_of(&inner, &req)?;
        let live = c.live();
        {
            let mut s = live.lock();
            if Live::open_count(&s) >= MAX_OPEN_WINDOWS {
                return Err(fail(
                    Status::Busy,
                    "context",
                    format!("{MAX_OPEN_WINDOWS} windows are open; release or complete one first"),
                ))
                .kind(SubjectKind::Context);
            }
            let w = Arc::new(VmafxWindow::new(target, target_kind, &req));
            s.open.push(w.clone());
            // SAFETY: `out` is non-NULL and writable (checked above).
            unsafe { out.write(Arc::into_raw(w) as *mut VmafxWindow) };
        }
        drop(inner);
        live.start(c.engine()).map_err(|e| {
            fail(
                Status::NoMem,
                "context",
                format!("cannot start the window threads: {e}"),
            )
        })?;
        live.signal();
        Ok(Status::Ok)
    }
}

c_export! {
    /// `VMAFX_OK` and the result once the window completed, `VMAFX_PENDING` before.
    ///
    /// # Safety
    /// `window` NULL or live; `out` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "VMAFX_OK and the result once the window completed, VMAFX_PENDING (no error, `out` untouched) before. Thread-safe."]
    pub unsafe fn vmafx_window_poll(
        window: *const VmafxWindow,
        out: *mut VmafxWindowResult;
        error
    ) -> VmafxStatus {
        // SAFETY: `window` is NULL or live (this function's contract).
        let w = unsafe { window_state::window(window) }?;
        // SAFETY: `out` is NULL or valid for its struct_size (this function's contract).
        unsafe { read_result(w, out, None) }
    }
}

c_export! {
    /// [`vmafx_window_poll`] after waiting up to `timeout_ns` (`UINT64_MAX`: no limit).
    ///
    /// # Safety
    /// As [`vmafx_window_poll`].
    #[c = "vmafx_window_poll() after waiting up to `timeout_ns` (UINT64_MAX: no limit) for the window to complete. Thread-safe."]
    pub unsafe fn vmafx_window_wait(
        window: *const VmafxWindow,
        timeout_ns: u64,
        out: *mut VmafxWindowResult;
        error
    ) -> VmafxStatus {
        // SAFETY: `window` is NULL or live (this function's contract).
        let w = unsafe { window_state::window(window) }?;
        // SAFETY: `out` is NULL or valid for its struct_size (this function's contract).
        unsafe { read_result(w, out, Some(timeout_ns)) }
    }
}

c_export! {
    /// Releases the caller's window; an open one is cancelled (its callback never runs), and a
    /// callback running on another thread is waited for. NULL is a no-op.
    ///
    /// # Safety
    /// `window` NULL or a live window, released once.
    #[c = "Releases the caller's window, completed or not. An open window is cancelled: its callback never runs. A callback of it running on the callback thread is waited for, unless this is called from that callback. NULL is a no-op."]
    pub unsafe fn vmafx_window_release(window: *mut VmafxWindow) {
        if window.is_null() {
            return;
        }
        // SAFETY: a live window made by `Arc::into_raw` in vmafx_window_submit, released
        // once (this function's contract): this takes back the caller's reference.
        let w = unsafe { Arc::from_raw(window as *const VmafxWindow) };
        w.release();
    }
}
