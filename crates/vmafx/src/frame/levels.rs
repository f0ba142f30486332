//! Code values of a signal at a depth and range: the exact mapping of a sample from one
//! depth and range to another, rounded once.
//!
//! A component is `offset + scale * x`, `x` in 0..=1 for luma and R'G'B' (limited range
//! `16 + 219 x`, full range `(2^bpc - 1) x`) and in -0.5..=0.5 for chroma (limited
//! `128 + 224 x`, full `2^(bpc - 1) + (2^bpc - 1) x`), limited values scaled by
//! `2^(bpc - 8)`. Every offset and scale is an integer, so [`Levels::rescale`] computes in
//! integers: nothing is approximated but the one rounding (half up) of the result, which is
//! then clamped to the depth's code values.

/// The range of a signal's code values (`VmafxColorRange` without its "unknown").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    /// Studio swing: 16..=235 (luma, R'G'B'), 16..=240 (chroma), times `2^(bpc - 8)`.
    Limited,
    /// Full swing: 0..=2^bpc - 1.
    Full,
}

/// Which kind of component a sample is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Component {
    /// Luma, or an R'G'B' sample: 0 is black.
    Luma,
    /// Cb or Cr: the middle code value is no colour.
    Chroma,
}

/// A depth (8 to 16 bits) and a range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Levels {
    /// Bits per sample, 8 to 16.
    pub bpc: u32,
    /// Code-value range.
    pub range: Range,
}

impl Levels {
    /// `bpc` bits in `range`.
    pub fn new(bpc: u32, range: Range) -> Self {
        debug_assert!((8..=16).contains(&bpc));
        Levels { bpc, range }
    }

    /// Largest code value.
    pub fn max(self) -> i64 {
        (1i64 << self.bpc) - 1
    }

    /// `(offset, scale)` of component `c`.
    fn affine(self, c: Component) -> (i64, i64) {
        let k = 1i64 << (self.bpc - 8);
        match (self.range, c) {
            (Range::Limited, Component::Luma) => (16 * k, 219 * k),
            (Range::Limited, Component::Chroma) => (128 * k, 224 * k),
            (Range::Full, Component::Luma) => (0, self.max()),
            (Range::Full, Component::Chroma) => (1 << (self.bpc - 1), self.max()),
        }
    }

    /// Sample `v` of component `c` at these levels as a sample at `to`: exact, rounded
    /// half up once, clamped to `to`'s code values. A value above this depth's largest
    /// code value is read as that value.
    pub fn rescale(self, v: u32, to: Levels, c: Component) -> u16 {
        let v = i64::from(v).min(self.max());
        let (from_off, from_scale) = self.affine(c);
        let (to_off, to_scale) = to.affine(c);
        let num = (v - from_off) * to_scale;
        // round(num / from_scale), half up, for either sign of num.
        let q = (2 * num + from_scale).div_euclid(2 * from_scale);
        (to_off + q).clamp(0, to.max()) as u16
    }

    /// [`Levels::rescale`] of every code value of this depth, as a table.
    pub fn table(self, to: Levels, c: Component) -> Vec<u16> {
        (0..=self.max() as u32)
            .map(|v| self.rescale(v, to, c))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limited_depths_are_shifts_and_full_depths_are_scales() {
        let l8 = Levels::new(8, Range::Limited);
        let l10 = Levels::new(10, Range::Limited);
        let f8 = Levels::new(8, Range::Full);
        let f16 = Levels::new(16, Range::Full);
        for v in 0..=255u32 {
            assert_eq!(l8.rescale(v, l10, Component::Luma), (v << 2) as u16);
            assert_eq!(l8.rescale(v, l10, Component::Chroma), (v << 2) as u16);
            // 65535 / 255 = 257: full range widens exactly by byte replication.
            assert_eq!(f8.rescale(v, f16, Component::Luma), (v * 257) as u16);
            assert_eq!(f16.rescale(v * 257, f8, Component::Luma), v as u16);
        }
        // Down a depth, limited range rounds half up: 10-bit 2 is 8-bit 0.5 -> 1.
        assert_eq!(l10.rescale(2, l8, Component::Luma), 1);
        assert_eq!(l10.rescale(1, l8, Component::Luma), 0);
    }

    #[test]
    fn range_changes_keep_black_white_and_grey() {
        for bpc in 8..=16u32 {
            let (l, f) = (
                Levels::new(bpc, Range::Limited),
                Levels::new(bpc, Range::Full),
            );
            let k = 1u32 << (bpc - 8);
            assert_eq!(l.rescale(16 * k, f, Component::Luma), 0);
            assert_eq!(l.rescale(235 * k, f, Component::Luma) as i64, f.max());
            assert_eq!(l.rescale(128 * k, f, Component::Chroma), 1 << (bpc - 1));
            assert_eq!(f.rescale(0, l, Component::Luma), (16 * k) as u16);
            assert_eq!(
                f.rescale(f.max() as u32, l, Component::Luma),
                (235 * k) as u16
            );
            // Below black and above white clamp.
            assert_eq!(l.rescale(0, f, Component::Luma), 0);
            assert_eq!(
                l.rescale(l.max() as u32, f, Component::Luma) as i64,
                f.max()
            );
        }
        // 8-bit limited 126 is (126 - 16) * 255 / 219 = 128.08 -> 128 full.
        let (l, f) = (Levels::new(8, Range::Limited), Levels::new(8, Range::Full));
        assert_eq!(l.rescale(126, f, Component::Luma), 128);
        assert_eq!(l.table(f, Component::Luma)[126], 128);
    }
}
