//! Fences of the C ABI (ADR-1929 items 2-4).
//!
//! A HOST fence's `handle` is an id in the library's registry of live host fences, each
//! entry holding the engine [`Fence`] and the number of `VmafxFence`s returned for it;
//! `vmafx_fence_destroy()` drops one. Looking handles up in the registry (never
//! dereferencing them) makes a foreign or destroyed handle a named `VMAFX_E_INVALID`
//! rather than a crash.

use crate::c_export;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

#[cfg(not(feature = "test-hooks"))]
use vmafx::fence::MonotonicClock as TestClock;
use vmafx::fence::{FenceKind, WaitOutcome};
#[cfg(feature = "test-hooks")]
use vmafx::hooks::TestClock;
use vmafx::{Fence, Status};

use crate::abi::{extra_fence_name, SubjectKind, VmafxFence};
use crate::device::VmafxDevice;
use crate::error::{fail, null, CResult, WithKind};
use crate::sized;

struct Entry {
    fence: Fence,
    refs: usize,
}

fn registry() -> MutexGuard<'static, BTreeMap<usize, Entry>> {
    static REG: Mutex<BTreeMap<usize, Entry>> = Mutex::new(BTreeMap::new());
    REG.lock().unwrap_or_else(|p| p.into_inner())
}

static NEXT_HANDLE: AtomicUsize = AtomicUsize::new(1);

/// Registers `fence` with one reference and returns its handle.
pub fn register(fence: Fence) -> usize {
    let handle = NEXT_HANDLE.fetch_add(1, Ordering::Relaxed);
    registry().insert(handle, Entry { fence, refs: 1 });
    handle
}

/// One more reference to the entry `handle` if it is live and holds `fence`; else a new
/// entry. Returns the handle.
pub fn share(handle: Option<usize>, fence: &Fence) -> usize {
    if let Some(h) = handle {
        if let Some(e) = registry().get_mut(&h) {
            if e.fence.same_as(fence) {
                e.refs += 1;
                return h;
            }
        }
    }
    register(fence.clone())
}

/// The live host fence behind `handle`.
pub fn lookup(handle: usize) -> Option<Fence> {
    registry().get(&handle).map(|e| e.fence.clone())
}

fn release(handle: usize) -> bool {
    let mut reg = registry();
    match reg.get_mut(&handle) {
        Some(e) if e.refs > 1 => {
            e.refs -= 1;
            true
        }
        Some(_) => {
            reg.remove(&handle);
            true
        }
        None => false,
    }
}

/// A fence kind value as this build treats it: `Ok(Some)` for NONE and HOST, `Ok(None)`
/// for a declared kind of a backend lane, an `Invalid` naming `field` otherwise.
fn kind_of(value: u32, field: &str) -> CResult<Option<FenceKind>> {
    match FenceKind::from_u32(value) {
        Some(k @ (FenceKind::None | FenceKind::Host)) => Ok(Some(k)),
        Some(_) => Ok(None),
        None if extra_fence_name(value).is_some() => Ok(None),
        None => Err(fail(
            Status::Invalid,
            field,
            format!("{value} is not a fence kind"),
        )),
    }
    .kind(SubjectKind::Fence)
}

fn unsupported(value: u32, field: &str) -> crate::error::Failure {
    let name = FenceKind::from_u32(value)
        .map(|k| k.name())
        .or_else(|| extra_fence_name(value))
        .unwrap_or("unknown");
    let mut f = fail(
        Status::NotSup,
        field,
        format!("{name} fences are not supported by this build"),
    );
    f.kind = SubjectKind::Fence;
    f
}

/// The fence a caller's `VmafxFence` names: `None` for NONE.
///
/// `prefix` is the name errors give it (`fence`, `desc.acquire`).
///
/// # Safety
/// `ptr` is NULL or valid for reads of its `struct_size` bytes.
pub unsafe fn parse(ptr: *const VmafxFence, prefix: &str) -> CResult<Option<Fence>> {
    // SAFETY: forwarded contract.
    let (f, _) = unsafe { sized::read(ptr, prefix) }?;
    resolve(&f, prefix)
}

/// As [`parse`] for a fence already read.
pub fn resolve(f: &VmafxFence, prefix: &str) -> CResult<Option<Fence>> {
    let kind_field = format!("{prefix}.kind");
    match kind_of(f.kind, &kind_field)? {
        Some(FenceKind::None) => Ok(None),
        Some(_) => lookup(f.handle).map(Some).ok_or_else(|| {
            let mut e = fail(
                Status::Invalid,
                &format!("{prefix}.handle"),
                "not a live host fence of this library",
            );
            e.kind = SubjectKind::Fence;
            e
        }),
        None => Err(unsupported(f.kind, &kind_field)),
    }
}

/// Writes a HOST fence `handle` into the caller's `out`.
///
/// # Safety
/// `out` is valid for writes of `size` bytes (the size `sized::out_size` checked).
pub unsafe fn write_host(out: *mut VmafxFence, size: usize, handle: usize) {
    let v = VmafxFence {
        struct_size: 0,
        kind: FenceKind::Host as u32,
        handle,
        value: 0,
        fd: 0,
        reserved: 0,
    };
    // SAFETY: forwarded contract.
    unsafe { sized::write(out, size, &v) };
}

c_export! {
    /// A new, unsignalled fence of `kind` for a producer to signal.
    ///
    /// # Safety
    /// `device` is NULL or live; `out` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "A new, unsignalled HOST fence for a producer to signal; the caller destroys it."]
    pub unsafe fn vmafx_fence_create(
        device: *mut VmafxDevice,
        kind: u32,
        out: *mut VmafxFence;
        error
    ) -> VmafxStatus {
        let _ = device;
        // SAFETY: `out` is NULL or valid for its struct_size.
        // SAFETY: `out` is NULL or readable and writable for its struct_size (this function's contract).
        let size = unsafe { sized::out_size(out, "out") }?;
        match kind_of(kind, "kind")? {
            Some(FenceKind::Host) => {}
            Some(_) => {
                return Err(fail(
                    Status::Invalid,
                    "kind",
                    "a NONE fence has nothing to create",
                ))
                .kind(SubjectKind::Fence)
            }
            None => return Err(unsupported(kind, "fence.kind")),
        }
        // SAFETY: `out` passed `out_size` above: writable for `size` bytes.
        unsafe { write_host(out, size, register(Fence::new())) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// Signals a HOST fence from the host.
    ///
    /// # Safety
    /// `fence` is NULL or valid for its `struct_size`; `error` NULL or writable.
    #[c = "Signals a HOST fence; signalling twice is harmless."]
    pub unsafe fn vmafx_fence_signal(fence: *const VmafxFence; error) -> VmafxStatus {
        // SAFETY: `fence` is NULL or readable for its struct_size (this function's contract).
        match unsafe { parse(fence, "fence") }? {
            Some(f) => {
                f.signal();
                Ok(Status::Ok)
            }
            None => Err(fail(
                Status::Invalid,
                "fence.kind",
                "a NONE fence has nothing to signal",
            ))
            .kind(SubjectKind::Fence),
        }
    }
}

c_export! {
    /// Waits on the host: OK, PENDING for an unsignalled poll (`timeout_ns` 0, no error, no
    /// log), or TIMEOUT naming the fence. `UINT64_MAX` waits without a limit.
    ///
    /// # Safety
    /// `fence` is NULL or valid for its `struct_size`; `error` NULL or writable.
    #[c = "Waits on the host: VMAFX_OK, or VMAFX_E_TIMEOUT naming the fence after `timeout_ns` (UINT64_MAX: no limit). A timeout of 0 polls: unsignalled is VMAFX_PENDING, with no error and no log line. NONE is signalled."]
    pub unsafe fn vmafx_fence_wait(
        fence: *const VmafxFence,
        timeout_ns: u64;
        error
    ) -> VmafxStatus {
        // SAFETY: `fence` is NULL or readable for its struct_size (this function's contract).
        let Some(f) = unsafe { parse(fence, "fence") }? else {
            return Ok(Status::Ok);
        };
        let timeout = if timeout_ns == u64::MAX {
            Duration::MAX
        } else {
            Duration::from_nanos(timeout_ns)
        };
        match f.wait_with_clock(timeout, "fence", &TestClock) {
            Ok(WaitOutcome::Signalled) => Ok(Status::Ok),
            Ok(WaitOutcome::Pending) => Ok(Status::Pending),
            Err(e) => Err(e).kind(SubjectKind::Fence),
        }
    }
}

c_export! {
    /// Releases a fence the library returned (drops its reference); NONE is a no-op.
    ///
    /// # Safety
    /// `fence` is NULL or valid for its `struct_size`; `error` NULL or writable.
    #[c = "Drops the reference a returned fence carries; once per fence. NONE is a no-op."]
    pub unsafe fn vmafx_fence_destroy(fence: *const VmafxFence; error) -> VmafxStatus {
        if fence.is_null() {
            return Err(null("fence"));
        }
        // SAFETY: `fence` is non-NULL and readable.
        // SAFETY: `fence` is NULL or readable for its struct_size (this function's contract).
        let (f, _) = unsafe { sized::read(fence, "fence") }?;
        if resolve(&f, "fence")?.is_some() && !release(f.handle) {
            return Err(fail(Status::Invalid, "fence.handle", "already destroyed"))
                .kind(SubjectKind::Fence);
        }
        Ok(Status::Ok)
    }
}
