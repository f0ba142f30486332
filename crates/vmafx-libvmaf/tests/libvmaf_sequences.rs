//! The libvmaf drop-in's call sequences (tests/sequence/libvmaf_ops.rs, also the cargo-fuzz
//! target `libvmaf_sequence`) over inputs from a seeded generator: a bounded count every
//! test run.

use vmaf as libvmaf;

#[path = "sequence/libvmaf_ops.rs"]
mod libvmaf_ops;

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
fn seeded_call_sequences_answer_zero_or_an_errno() {
    let count = std::env::var("VMAFX_SEQUENCES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let scratch =
        std::env::temp_dir().join(format!("vmafx-libvmaf-seq-{}.log", std::process::id()));
    let scratch = std::ffi::CString::new(scratch.to_str().unwrap()).unwrap();
    for (i, data) in inputs(0x11b5_eed5, count).enumerate() {
        let r = std::panic::catch_unwind(|| libvmaf_ops::run(&data, &scratch));
        assert!(r.is_ok(), "sequence {i} panicked; input {data:?}");
    }
    let _ = std::fs::remove_file(scratch.to_str().unwrap());
}
