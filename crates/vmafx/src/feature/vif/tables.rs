//! VIF's fixed-point constants: the four Gaussian filters (taps sum to 65536) and the
//! log2 look-up that turns the information ratios into integer sums.

use std::sync::OnceLock;

/// Taps of the filter used at each scale (also by the down-sampler that makes that scale).
pub(super) const TAPS: [&[u16]; 4] = [
    &[
        489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640,
        935, 489,
    ],
    &[1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244],
    &[3571, 16004, 26386, 16004, 3571],
    &[10904, 43728, 10904],
];

/// Half the width of the filter of `scale` (the taps on each side of the centre).
pub(super) const fn half_width(scale: usize) -> usize {
    TAPS[scale].len() / 2
}

/// Taps `first` and `first + 1` of `taps` as the low and high words of one 32-bit lane (0
/// for a tap outside the filter): the constant of a 16-bit dot product over a word pair,
/// as every SIMD filter of this feature broadcasts it.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) fn tap_pair(taps: &[u16], first: isize) -> i32 {
    let c = |k: isize| {
        usize::try_from(k)
            .ok()
            .and_then(|k| taps.get(k))
            .map_or(0, |&c| c as u32)
    };
    (c(first) | c(first + 1) << 16) as i32
}

/// The widest half filter: how far rows and columns are mirrored at most.
pub(super) const MAX_HALF: usize = half_width(0);

/// Noise variance of the model in the fixed-point domain (2.0 in 16.16).
pub(super) const SIGMA_NSQ: i32 = 65536 << 1;

/// `round(log2f(i) * 2048)` for `i` in 32767..=65535 (zero below, never read), built once.
pub(super) fn log2_table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![0u16; 65536];
        for (i, v) in t.iter_mut().enumerate().skip(32767) {
            // Single-precision log2 as libvmaf takes it; scaling by 2048 is exact.
            *v = ((i as f32).log2() * 2048.0).round() as u16;
        }
        t
    })
}

/// log2(x) * 2048 from the top 16 significant bits of `x`; `x` must be at least 2^15.
#[inline]
pub(super) fn log2_u32(table: &[u16], x: u32) -> i32 {
    let k = 16 - x.leading_zeros() as i32;
    table[(x >> k) as usize] as i32 + 2048 * k
}

/// log2(x) * 2048 from the top 16 significant bits of `x`; `x` must be at least 2^17.
#[inline]
pub(super) fn log2_u64(table: &[u16], x: u64) -> i32 {
    let k = 48 - x.leading_zeros() as i32;
    table[(x >> k) as usize] as i32 + 2048 * k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taps_sum_to_one_in_16_16() {
        for t in TAPS {
            assert_eq!(t.iter().map(|&c| c as u32).sum::<u32>(), 65536);
            assert_eq!(t.len() % 2, 1);
        }
    }

    #[test]
    fn tap_pairs_are_two_words_with_zeros_outside_the_filter() {
        let t = TAPS[2];
        assert_eq!(tap_pair(t, 0), 3571 | 16004 << 16);
        assert_eq!(tap_pair(t, -1), 3571 << 16);
        assert_eq!(tap_pair(t, 4), 3571);
        assert_eq!(tap_pair(t, 5), 0);
        assert_eq!(tap_pair(TAPS[3], 1), 43728 | 10904 << 16);
    }

    #[test]
    fn log2_is_exact_on_powers_of_two() {
        let t = log2_table();
        assert_eq!(log2_u32(t, 1 << 18), 18 * 2048);
        assert_eq!(log2_u64(t, 1 << 40), 40 * 2048);
        assert_eq!(log2_u32(t, 65535 << 16), t[65535] as i32 + 16 * 2048);
    }
}
