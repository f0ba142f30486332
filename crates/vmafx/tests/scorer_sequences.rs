//! The Scorer's call sequences (tests/sequence/scorer_ops.rs, also the cargo-fuzz target
//! `scorer_sequence`) over inputs from a seeded generator: a bounded count in every test
//! run, so CI exercises the sequences that fuzzing explores at length.

#[path = "sequence/scorer_ops.rs"]
mod scorer_ops;

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
        let len = (next() % 160) as usize;
        (0..len).map(|_| next() as u8).collect()
    })
}

#[test]
fn seeded_call_sequences_return_values_or_errors() {
    let count = std::env::var("VMAFX_SEQUENCES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    for (i, data) in inputs(0x5eed_1717, count).enumerate() {
        let r = std::panic::catch_unwind(|| scorer_ops::run(&data));
        assert!(r.is_ok(), "sequence {i} panicked; input {data:?}");
    }
}

#[test]
fn pooling_over_the_whole_u64_range_is_an_error_not_a_crash() {
    use vmafx::{Feature, FrameBuilder, PixelFormat, PoolMethod, Scorer, ScorerConfig};
    // The reads that crashed a caller of the C ABI (pooled scores over 0..UINT64_MAX).
    let mut scorer = Scorer::new(ScorerConfig::new().feature(Feature::new("psnr"))).unwrap();
    for _ in 0..3 {
        let f = || {
            FrameBuilder::new(PixelFormat::Yuv420p, 8, 16, 16)
                .unwrap()
                .build()
        };
        scorer.push(f(), f()).unwrap();
    }
    let report = scorer.finish().unwrap();
    for method in PoolMethod::ALL {
        assert!(report.pooled("psnr_y", method, 0..u64::MAX).is_err());
        assert!(report.pooled("psnr_y", method, 0..=u64::MAX).is_err());
        assert!(report.pooled("psnr_y", method, u64::MAX..).is_err());
        assert!(report.pooled("psnr_y", method, 0..3).is_ok());
    }
    assert!(report.frame(u64::MAX).is_err());
}
