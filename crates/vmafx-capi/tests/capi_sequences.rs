//! The C ABI's call sequences (tests/sequence/capi_ops.rs, also the cargo-fuzz target
//! `capi_sequence`) over inputs from a seeded generator: a bounded count every test run.

use vmafx_capi as capi;

#[path = "sequence/capi_ops.rs"]
mod capi_ops;

/// xorshift64*: a fixed seed gives the same inputs every run.
fn inputs(seed: u64, count: usize) -> impl Iterator<Item = Vec<u8>> {
    let mut s = seed;
    let mut next = move || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        s.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    (0..count).map(move |_| {
        let len = (next() % 200) as usize;
        (0..len).map(|_| next() as u8).collect()
    })
}

#[test]
fn seeded_call_sequences_keep_the_c_contract() {
    let count = std::env::var("VMAFX_SEQUENCES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    for (i, data) in inputs(0xc0ff_ee17, count).enumerate() {
        let r = std::panic::catch_unwind(|| capi_ops::run(&data));
        assert!(r.is_ok(), "sequence {i} panicked; input {data:?}");
    }
}
