//! Writing a final score of a context into the caller's struct (`VMAFX_PENDING` before the
//! flush), for the score faces.

use vmafx::Status;

use crate::abi::MinSize;
use crate::context_handle::{get, VmafxContext};
use crate::error::CResult;
use crate::session::Inner;
use crate::sized;

/// Writes `score` into the caller's `out` (checked first); `VMAFX_PENDING` before flush.
///
/// # Safety
/// `context` NULL or live; `out` NULL or valid for its `struct_size`.
pub(crate) unsafe fn scored<T: MinSize>(
    context: *mut VmafxContext,
    out: *mut T,
    body: impl FnOnce(&mut Inner) -> CResult<T>,
) -> CResult {
    // SAFETY: forwarded contract.
    let c = unsafe { get(context) }?;
    // SAFETY: forwarded contract.
    let size = unsafe { sized::out_size(out, "out") }?;
    let mut inner = c.lock();
    if !inner.ctx.scores_final() {
        return Ok(Status::Pending);
    }
    let value = body(&mut inner)?;
    // SAFETY: `out` is writable for `size` bytes (checked above).
    unsafe { sized::write(out, size, &value) };
    Ok(Status::Ok)
}
