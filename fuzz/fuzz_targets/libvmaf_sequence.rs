//! The libvmaf drop-in (`libvmaf.so.3`'s C API) driven through sequences of libvmaf 3.2
//! calls decoded from the input (init, features and models, pictures of random geometry
//! read at random indices, flush, per-index and pooled scores over random ranges, logs in
//! every format, release in random order). The driver is shared with the seeded test
//! `crates/vmafx-libvmaf/tests/libvmaf_sequences.rs`. Run with `-rss_limit_mb=2048
//! -malloc_limit_mb=512`: a sequence allocates at most 24 pictures of 48x48.
#![no_main]

// The driver names the drop-in crate as `crate::libvmaf`.
extern crate vmaf as libvmaf;

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/vmafx-libvmaf/tests/sequence/libvmaf_ops.rs"]
mod libvmaf_ops;

fuzz_target!(|data: &[u8]| {
    let scratch = std::env::temp_dir().join(format!("vmafx-fuzz-libvmaf-{}.log", std::process::id()));
    let scratch = std::ffi::CString::new(scratch.to_string_lossy().into_owned()).unwrap();
    libvmaf_ops::run(data, &scratch);
});
