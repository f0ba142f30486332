//! Reading and writing the caller's size-prefixed structs.
//!
//! A struct is read up to the smaller of the caller's `struct_size` and ours, the rest
//! taken as zero; it is written only up to the caller's size, `struct_size` kept.

use vmafx::Status;

use crate::abi::MinSize;
use crate::error::{fail, null, CResult};

/// The caller's `struct_size` of the struct at `ptr`, checked against `T::MIN_SIZE`.
///
/// # Safety
/// `ptr` is NULL or valid for reads of its first 4 bytes.
unsafe fn checked_size<T: MinSize>(ptr: *const T, name: &str) -> CResult<usize> {
    if ptr.is_null() {
        return Err(null(name));
    }
    // SAFETY: non-NULL and readable for the leading u32 (the caller's contract).
    let size = unsafe { (ptr as *const u32).read_unaligned() } as usize;
    if size < T::MIN_SIZE {
        return Err(fail(
            Status::Abi,
            name,
            format!(
                "struct_size {size} is below {}, the size this struct was introduced with",
                T::MIN_SIZE
            ),
        ));
    }
    Ok(size)
}

/// Reads the caller's struct named `name`, zero past its size. Returns it and its size.
///
/// # Safety
/// `ptr` is NULL or valid for reads of `struct_size` bytes (at least the first 4).
pub unsafe fn read<T: MinSize>(ptr: *const T, name: &str) -> CResult<(T, usize)> {
    // SAFETY: forwarded contract.
    let size = unsafe { checked_size(ptr, name) }?;
    let mut out = std::mem::MaybeUninit::<T>::zeroed();
    let n = size.min(std::mem::size_of::<T>());
    // SAFETY: `ptr` is readable for `size >= n` bytes; `out` is writable for size_of::<T>()
    // >= n bytes; they do not overlap.
    unsafe { std::ptr::copy_nonoverlapping(ptr as *const u8, out.as_mut_ptr() as *mut u8, n) };
    // SAFETY: every ABI struct (integers, raw pointers, optional function pointers) is
    // valid all-zero, and the first `n` bytes are the caller's valid values.
    Ok((unsafe { out.assume_init() }, size))
}

/// The caller's out-struct `name` at `ptr`: checks it and returns its size.
///
/// # Safety
/// `ptr` is NULL or valid for reads and writes of `struct_size` bytes.
pub unsafe fn out_size<T: MinSize>(ptr: *mut T, name: &str) -> CResult<usize> {
    // SAFETY: forwarded contract.
    unsafe { checked_size(ptr as *const T, name) }
}

/// Writes `value` into the caller's struct at `ptr` of `size` bytes (from [`out_size`]),
/// up to its size, keeping the caller's `struct_size`.
///
/// # Safety
/// `ptr` is valid for writes of `size` bytes.
pub unsafe fn write<T: MinSize>(ptr: *mut T, size: usize, value: &T) {
    let n = size.min(std::mem::size_of::<T>());
    // SAFETY: `ptr` is writable for `size >= n` bytes, `value` readable for
    // size_of::<T>() >= n; skipping the leading 4 bytes keeps the caller's struct_size.
    unsafe {
        std::ptr::copy_nonoverlapping(
            (value as *const T as *const u8).add(4),
            (ptr as *mut u8).add(4),
            n - 4,
        )
    };
}
