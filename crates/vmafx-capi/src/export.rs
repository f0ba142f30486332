//! [`c_export!`](crate::c_export): one declaration per C export.
//!
//! ```text
//! c_export! {
//!     /// Rust documentation, with its `# Safety` section.
//!     #[c = "The C header's documentation."]
//!     pub unsafe fn vmafx_flush(context: *mut VmafxContext; error) -> VmafxStatus {
//!         // returns CResult: Ok(Status::Ok) or a Failure naming what failed
//!     }
//!
//!     /// ...
//!     #[c = "..."]
//!     pub unsafe fn vmafx_context_backend(context: *const VmafxContext) -> u32 {
//!         // returns the value itself
//!     }
//! }
//! ```
//!
//! Each declaration becomes the `#[no_mangle] extern "C"` function and, in a module of the
//! same name, `item()`: its header prototype, with the C type of each parameter and of the
//! return from [`CType`](crate::c_type::CType). A header lists the export with
//! `func!(module::name)`. The body never unwinds into C:
//! - `(...; error) -> VmafxStatus`: the export takes a last `VmafxError **error`; the body
//!   returns a `CResult` and runs under [`call`](crate::error::call), which turns a failure
//!   into its status and `*error`, and a panic into `VMAFX_E_INTERNAL` naming the function;
//! - any other return (none is `void`): the body runs under
//!   [`guarded`](crate::error::guarded), and a caught panic returns
//!   [`CReturn::fallback`](crate::c_type::CReturn::fallback) (NULL, 0, `VMAFX_E_INTERNAL`).

/// Declares C exports; see [the module](crate::export).
#[macro_export]
macro_rules! c_export {
    () => {};
    (
        $(#[doc = $d:literal])* #[c = $c:literal]
        pub unsafe fn $name:ident($($p:ident : $t:ty),* ; error) -> VmafxStatus $body:block
        $($rest:tt)*
    ) => {
        $crate::c_export!(@status [unsafe] [$($d)*] $c $name [$($p : $t),*] $body);
        $crate::c_export!($($rest)*);
    };
    (
        $(#[doc = $d:literal])* #[c = $c:literal]
        pub unsafe fn $name:ident($($p:ident : $t:ty),* $(,)?) -> $r:ty $body:block
        $($rest:tt)*
    ) => {
        $crate::c_export!(@value [unsafe] [$($d)*] $c $name [$($p : $t),*] $r, $body);
        $crate::c_export!($($rest)*);
    };
    (
        $(#[doc = $d:literal])* #[c = $c:literal]
        pub unsafe fn $name:ident($($p:ident : $t:ty),* $(,)?) $body:block
        $($rest:tt)*
    ) => {
        $crate::c_export!(@value [unsafe] [$($d)*] $c $name [$($p : $t),*] (), $body);
        $crate::c_export!($($rest)*);
    };
    (
        $(#[doc = $d:literal])* #[c = $c:literal]
        pub fn $name:ident($($p:ident : $t:ty),* ; error) -> VmafxStatus $body:block
        $($rest:tt)*
    ) => {
        $crate::c_export!(@status [] [$($d)*] $c $name [$($p : $t),*] $body);
        $crate::c_export!($($rest)*);
    };
    (
        $(#[doc = $d:literal])* #[c = $c:literal]
        pub fn $name:ident($($p:ident : $t:ty),* $(,)?) -> $r:ty $body:block
        $($rest:tt)*
    ) => {
        $crate::c_export!(@value [] [$($d)*] $c $name [$($p : $t),*] $r, $body);
        $crate::c_export!($($rest)*);
    };
    (
        $(#[doc = $d:literal])* #[c = $c:literal]
        pub fn $name:ident($($p:ident : $t:ty),* $(,)?) $body:block
        $($rest:tt)*
    ) => {
        $crate::c_export!(@value [] [$($d)*] $c $name [$($p : $t),*] (), $body);
        $crate::c_export!($($rest)*);
    };
    (@status [$($q:tt)*] [$($d:literal)*] $c:literal $name:ident [$($p:ident : $t:ty),*] $body:block) => {
        $(#[doc = $d])*
        #[no_mangle]
        pub $($q)* extern "C" fn $name(
            $($p: <$t as $crate::c_type::CType>::Rust,)*
            error: *mut *mut $crate::error::VmafxError,
        ) -> i32 {
            // SAFETY: `error` is NULL or writable (this function's contract).
            let error = unsafe { $crate::error::ErrorOut::new(error) };
            $crate::error::call(stringify!($name), error, || $body)
        }
        $crate::c_export!(@item $c $name [$($p : $t,)* error : *mut *mut $crate::error::VmafxError] $crate::c_type::VmafxStatus);
    };
    (@value [$($q:tt)*] [$($d:literal)*] $c:literal $name:ident [$($p:ident : $t:ty),*] $r:ty, $body:block) => {
        $(#[doc = $d])*
        #[no_mangle]
        pub $($q)* extern "C" fn $name(
            $($p: <$t as $crate::c_type::CType>::Rust),*
        ) -> <$r as $crate::c_type::CType>::Rust {
            $crate::error::guarded(
                stringify!($name),
                <$r as $crate::c_type::CReturn>::fallback(),
                || $body,
            )
        }
        $crate::c_export!(@item $c $name [$($p : $t),*] $r);
    };
    (@item $c:literal $name:ident [$($p:ident : $t:ty),*] $r:ty) => {
        /// The header prototype of the export of the same name.
        #[doc(hidden)]
        pub mod $name {
            #[allow(unused_imports)]
            use super::*;
            /// The prototype.
            pub fn item() -> $crate::header_items::Item {
                $crate::header_items::Item::Func {
                    ret: <$r as $crate::c_type::CType>::c_name(),
                    name: stringify!($name),
                    params: vec![$(
                        format!(
                            "{}{}{}",
                            <$t as $crate::c_type::CType>::c_name(),
                            if <$t as $crate::c_type::CType>::c_name().ends_with('*') { "" } else { " " },
                            stringify!($p),
                        ),
                    )*],
                    doc: $c,
                    export: true,
                }
            }
        }
    };
}
