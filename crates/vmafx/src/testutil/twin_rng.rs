//! A small deterministic generator for the SIMD-versus-scalar twin tests (test builds only).

/// SplitMix64: fast, seedable, good enough to draw sizes and samples. A generator made
/// for a checker trial ([`TwinRng::for_trial`]) also carries that trial's width sweep.
#[derive(Debug, Clone)]
pub(crate) struct TwinRng {
    /// SplitMix64's state.
    state: u64,
    /// The trial whose number the first [`TwinRng::size`] still owes (see
    /// [`TwinRng::for_trial`]); `None` once that call was made, or for a plain generator.
    sweep: Option<u64>,
}

impl TwinRng {
    /// A generator started from `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        TwinRng {
            state: seed,
            sweep: None,
        }
    }

    /// The generator of the checker's trial `trial`, started from `seed`: as
    /// [`TwinRng::new`], but its first [`TwinRng::size`]`(lo, hi)` returns `lo + trial`
    /// while that lies in `lo..=hi`. An entry draws its width first, so its first trials
    /// walk every width of its range once (every partial last vector step, every lane a
    /// width below one vector ends on) instead of leaving them to chance.
    pub(crate) fn for_trial(seed: u64, trial: u64) -> Self {
        TwinRng {
            sweep: Some(trial),
            ..TwinRng::new(seed)
        }
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `lo..=hi`.
    pub(crate) fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo + 1) as u64;
        lo + (self.next_u64() % span) as i64
    }

    /// A size in `lo..=hi`, biased towards the small end (below and around one vector);
    /// the swept width where this is a trial's first call (see [`TwinRng::for_trial`]).
    pub(crate) fn size(&mut self, lo: usize, hi: usize) -> usize {
        // Drawn even when swept, so that every later draw is the one `new` would give.
        let drawn = if self.next_u64().is_multiple_of(2) {
            self.range(lo as i64, (lo + 40).min(hi) as i64) as usize
        } else {
            self.range(lo as i64, hi as i64) as usize
        };
        match self.sweep.take() {
            Some(t) if t <= hi.saturating_sub(lo) as u64 => lo + t as usize,
            _ => drawn,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TwinRng;

    #[test]
    fn a_trials_first_size_walks_the_range_then_draws_as_new() {
        for seed in [0, 7, u64::MAX] {
            for trial in 0..30u64 {
                let (mut swept, mut plain) = (TwinRng::for_trial(seed, trial), TwinRng::new(seed));
                let (first, drawn) = (swept.size(3, 20), plain.size(3, 20));
                // Trials 0..=17 walk 3..=20 once each; later ones draw as a plain generator.
                let want = if trial <= 17 {
                    3 + trial as usize
                } else {
                    drawn
                };
                assert_eq!(first, want, "seed {seed}, trial {trial}");
                // Every later call is random, the draws of a plain generator.
                for _ in 0..8 {
                    assert_eq!(swept.size(3, 20), plain.size(3, 20));
                    assert_eq!(swept.next_u64(), plain.next_u64());
                }
            }
        }
        // The later calls of a swept trial are not the swept value again.
        let mut rng = TwinRng::for_trial(1, 5);
        assert_eq!(rng.size(0, 100), 5);
        let later: Vec<usize> = (0..16).map(|_| rng.size(0, 100)).collect();
        assert!(later.iter().any(|&s| s != 5), "{later:?}");
    }
}
