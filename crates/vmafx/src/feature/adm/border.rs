//! The parts of a band that ADM scores: libvmaf discards 10% of each side.

/// Fraction of each side left out of the scores.
const BORDER_FACTOR: f64 = 0.1;

/// A rectangle of band positions, `top..bottom` by `left..right`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Region {
    /// First row.
    pub top: usize,
    /// One past the last row.
    pub bottom: usize,
    /// First column.
    pub left: usize,
    /// One past the last column.
    pub right: usize,
}

impl Region {
    /// Number of positions.
    pub(super) fn area(&self) -> i32 {
        ((self.bottom - self.top) * (self.right - self.left)) as i32
    }
}

/// The scored region of a `w` x `h` band (denominator and masking sums).
pub(super) fn scored(w: usize, h: usize) -> Region {
    // C truncates toward zero; the value is never below -0.5, so never negative after it.
    let left = (w as f64 * BORDER_FACTOR - 0.5) as i32;
    let top = (h as f64 * BORDER_FACTOR - 0.5) as i32;
    let (left, top) = (left.max(0) as usize, top.max(0) as usize);
    Region {
        top,
        bottom: h - top.min(h),
        left,
        right: w - left.min(w),
    }
}

/// The scored region widened by the masking filter's taps (one before, two after), where
/// decoupling and CSF weighting are computed.
pub(super) fn with_taps(w: usize, h: usize) -> Region {
    let left = (w as f64 * BORDER_FACTOR - 0.5 - 1.0) as i32;
    let top = (h as f64 * BORDER_FACTOR - 0.5 - 1.0) as i32;
    let right = w as i32 - left + 2;
    let bottom = h as i32 - top + 2;
    Region {
        top: top.max(0) as usize,
        bottom: bottom.clamp(0, h as i32) as usize,
        left: left.max(0) as usize,
        right: right.clamp(0, w as i32) as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_of_a_176_by_144_band() {
        // 352x288 luma gives a 176x144 scale-0 band.
        let s = scored(176, 144);
        assert_eq!((s.left, s.right, s.top, s.bottom), (17, 159, 13, 131));
        let t = with_taps(176, 144);
        assert_eq!((t.left, t.right, t.top, t.bottom), (16, 162, 12, 134));
        let tiny = scored(3, 3);
        assert_eq!((tiny.left, tiny.right), (0, 3));
    }
}
