//! VMAFx's C ABI driven through sequences of calls decoded from the input (context, features,
//! models, host frames created, referenced, released and submitted at random indices,
//! flushes, per-frame and pooled score reads over random ranges, handles released in random
//! order), the C contract checked on every call. The driver is shared with the seeded test
//! `crates/vmafx-capi/tests/capi_sequences.rs`. Run with `-rss_limit_mb=2048
//! -malloc_limit_mb=512`: a sequence makes at most 24 frames of 48x48.
#![no_main]

// The driver names the C ABI crate as `crate::capi`.
extern crate capi;

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/vmafx-capi/tests/sequence/capi_ops.rs"]
mod capi_ops;

fuzz_target!(|data: &[u8]| capi_ops::run(data));
