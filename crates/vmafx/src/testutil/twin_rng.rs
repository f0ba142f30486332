//! A small deterministic generator for the SIMD-versus-scalar twin tests (test builds only).

/// SplitMix64: fast, seedable, good enough to draw sizes and samples.
#[derive(Debug, Clone)]
pub(crate) struct TwinRng(u64);

impl TwinRng {
    /// A generator started from `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        TwinRng(seed)
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `lo..=hi`.
    pub(crate) fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo + 1) as u64;
        lo + (self.next_u64() % span) as i64
    }

    /// A size in `lo..=hi`, biased towards the small end (below and around one vector).
    pub(crate) fn size(&mut self, lo: usize, hi: usize) -> usize {
        if self.next_u64().is_multiple_of(2) {
            self.range(lo as i64, (lo + 40).min(hi) as i64) as usize
        } else {
            self.range(lo as i64, hi as i64) as usize
        }
    }
}
