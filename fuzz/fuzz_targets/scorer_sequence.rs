//! The Rust `Scorer` driven through sequences of calls decoded from the input (create with
//! models and features, push pairs of random geometry and depth, finish or drop, read
//! frames and pooled scores at random indices and ranges, render and write logs). The
//! driver is shared with the seeded test `crates/vmafx/tests/scorer_sequences.rs`. Run with
//! `-rss_limit_mb=2048 -malloc_limit_mb=512`: the driver's runs are at most 24 frames of
//! 48x48, so no input may need more.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/vmafx/tests/sequence/scorer_ops.rs"]
mod scorer_ops;

fuzz_target!(|data: &[u8]| scorer_ops::run(data));
