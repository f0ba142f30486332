//! The C spelling of each Rust type an export takes or returns, for the generated headers.
//!
//! An export declared with [`crate::c_export!`] names its parameter and return types once,
//! as Rust types; the header item is written from [`CType::c_name`] of each, so no C
//! signature is typed a second time. [`VmafxStatus`] is the one type that exists only for
//! this: a status is an `i32` in Rust, spelled `VmafxStatus` in C.

#[cfg(not(all(target_arch = "aarch64", not(target_vendor = "apple"))))]
use std::ffi::c_char;
use std::ffi::c_void;

/// A type that crosses the C boundary, with its C spelling.
pub trait CType {
    /// The Rust type the export passes (the type itself, except for [`VmafxStatus`]).
    type Rust;
    /// How C spells it (`uint32_t`, `const VmafxFrameDesc *`).
    fn c_name() -> String;
}

/// A type an export returns, with the value it returns when a panic was caught.
pub trait CReturn: CType {
    /// The value returned after a caught panic: `VMAFX_E_INTERNAL` for a status, NULL for a
    /// pointer, 0 (false) otherwise.
    fn fallback() -> Self::Rust;
}

/// `VmafxStatus`: a status code, an `i32` in Rust.
pub enum VmafxStatus {}

impl CType for VmafxStatus {
    type Rust = i32;
    fn c_name() -> String {
        "VmafxStatus".into()
    }
}

impl CReturn for VmafxStatus {
    fn fallback() -> i32 {
        vmafx::Status::Internal.code()
    }
}

impl CType for () {
    type Rust = ();
    fn c_name() -> String {
        "void".into()
    }
}

impl CReturn for () {
    fn fallback() {}
}

impl<T: CType> CType for *mut T {
    type Rust = *mut T::Rust;
    fn c_name() -> String {
        let inner = T::c_name();
        if inner.ends_with('*') {
            format!("{inner}*")
        } else {
            format!("{inner} *")
        }
    }
}

impl<T: CType> CReturn for *mut T {
    fn fallback() -> Self::Rust {
        std::ptr::null_mut()
    }
}

impl<T: CType> CType for *const T {
    type Rust = *const T::Rust;
    fn c_name() -> String {
        let inner = T::c_name();
        if inner.ends_with('*') {
            format!("{inner}const *")
        } else {
            format!("const {inner} *")
        }
    }
}

impl<T: CType> CReturn for *const T {
    fn fallback() -> Self::Rust {
        std::ptr::null()
    }
}

/// Scalars: `CType` and `CReturn` (fallback: the default, 0 or false).
macro_rules! scalars {
    ($($t:ty => $c:literal),* $(,)?) => {$(
        impl CType for $t {
            type Rust = $t;
            fn c_name() -> String {
                $c.into()
            }
        }
        impl CReturn for $t {
            fn fallback() -> $t {
                <$t>::default()
            }
        }
    )*};
}

scalars! {
    bool => "bool",
    u8 => "uint8_t",
    u32 => "uint32_t",
    u64 => "uint64_t",
    i32 => "int32_t",
    i64 => "int64_t",
    f64 => "double",
    usize => "size_t",
}

/// Types C spells by their own name (handles, structs); never returned by value.
macro_rules! named {
    ($($t:ty => $c:literal),* $(,)?) => {$(
        impl CType for $t {
            type Rust = $t;
            fn c_name() -> String {
                $c.into()
            }
        }
    )*};
}

named! {
    c_void => "void",
}

// `c_char` is `i8` on x86-64 but `u8` on Linux's aarch64, where `u8` already spells
// `uint8_t`: there a `char` parameter cannot be told from a `uint8_t` one by its type, and
// spells `uint8_t`. The spellings only make header items, and the headers are generated and
// drift-checked on x86-64 (the other builds check the exports, not the header text).
#[cfg(not(all(target_arch = "aarch64", not(target_vendor = "apple"))))]
named! {
    c_char => "char",
}

/// Implements [`CType`] for types C spells by their Rust name.
#[macro_export]
#[doc(hidden)]
macro_rules! c_named {
    ($($t:ident),* $(,)?) => {$(
        impl $crate::c_type::CType for $t {
            type Rust = $t;
            fn c_name() -> String {
                stringify!($t).into()
            }
        }
    )*};
}
