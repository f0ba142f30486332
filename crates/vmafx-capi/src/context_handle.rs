//! The `VmafxContext` handle: the engine state ([`crate::session`]) behind a lock, shared
//! with the window threads, and the context's windows ([`crate::window_live`]); every C
//! face finds its context through [`get`].

use std::sync::{Arc, Mutex, MutexGuard};

use crate::abi::SubjectKind;
use crate::error::{null, CResult, WithKind};
use crate::session::Inner;
use crate::window_live::Live;

/// A context handle.
pub struct VmafxContext {
    pub(crate) inner: Arc<Mutex<Inner>>,
    /// Its windows and their threads ([`crate::window`]).
    pub(crate) live: Arc<Live>,
}

impl VmafxContext {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The engine, shared with the window completion thread.
    pub(crate) fn engine(&self) -> &Arc<Mutex<Inner>> {
        &self.inner
    }

    /// The context's windows.
    pub(crate) fn live(&self) -> &Arc<Live> {
        &self.live
    }
}

/// The context behind `ptr`.
///
/// # Safety
/// `ptr` is NULL or a live context of this library.
pub(crate) unsafe fn get<'a>(ptr: *const VmafxContext) -> CResult<&'a VmafxContext> {
    // SAFETY: NULL or live (the caller's contract).
    unsafe { ptr.as_ref() }
        .ok_or_else(|| null("context"))
        .kind(SubjectKind::Context)
}

crate::c_named!(VmafxContext);
