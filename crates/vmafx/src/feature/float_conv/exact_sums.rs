//! Integer sums that stand for libvmaf's running `double` sums over float pictures.
//!
//! libvmaf's `float_moment` and `float_psnr` add a term per sample into a `double`, one
//! after the other: the sample as a float, its square in `f32`, or the square of a
//! difference of two samples in `f32`. The float samples are the codes over a power of
//! two (1, 4, 16 or 256, see [`super::picture_to_float`]), so where every value squared
//! (a code or a difference of codes) is below 2^12 each term is exact, its square below
//! 2^24 units fitting `f32`'s significand. Every partial sum is then a whole number of
//! units, exact in a `double` while the total stays below 2^53 units, and the running
//! sum is the integer sum over the scale, whatever the order. Summing the integers is a
//! few times faster than the chain of dependent `double` additions; [`PlaneSums::exact`]
//! says whether the bounds held, and where they did not (most 16-bit pictures, samples out
//! of range) the caller sums the floats as libvmaf does.

use crate::frame::{Frame, Samples};

/// A value count of one chunk: its sums fit `u32` (256 squares below 2^24 each), so the
/// loop runs in 32-bit vector lanes.
const CHUNK: usize = 256;

/// Sums of one plane's values (codes, or differences of two planes' codes): the values,
/// their squares and the largest value. The squares' sum wraps once a value reaches
/// 2^12 (then [`PlaneSums::exact`] is false).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PlaneSums {
    /// The sum of the values.
    pub values: u64,
    /// The sum of the values' squares.
    pub squares: u64,
    /// The largest value.
    pub max: u32,
}

impl PlaneSums {
    /// The sums of plane 0's codes of `frame`.
    pub(crate) fn of_codes(frame: &Frame) -> Self {
        let mut sums = PlaneSums::default();
        for y in 0..frame.plane(0).height as usize {
            match row(frame, y) {
                Samples::U8(r) => sums.add_codes(r),
                Samples::U16(r) => sums.add_codes(r),
            }
        }
        sums
    }

    /// The sums of the absolute differences of plane 0's codes of `a` and `b`, frames of
    /// one geometry (as the extractors check; otherwise the sums are not exact).
    pub(crate) fn of_differences(a: &Frame, b: &Frame) -> Self {
        let mut sums = PlaneSums::default();
        let height = a.plane(0).height as usize;
        if b.plane(0).height as usize != height {
            sums.max = u32::MAX;
        }
        for y in 0..height.min(b.plane(0).height as usize) {
            match (row(a, y), row(b, y)) {
                (Samples::U8(r), Samples::U8(d)) if r.len() == d.len() => {
                    sums.add_differences(r, d)
                }
                (Samples::U16(r), Samples::U16(d)) if r.len() == d.len() => {
                    sums.add_differences(r, d)
                }
                _ => sums.max = u32::MAX,
            }
        }
        sums
    }

    /// Whether the sums are libvmaf's running `double` sums to the bit (see the module
    /// note): every value below 2^12 and both sums below 2^53.
    pub(crate) fn exact(&self) -> bool {
        const LIMIT: u64 = 1 << 53;
        self.max < 1 << 12 && self.values < LIMIT && self.squares < LIMIT
    }

    /// The two sums on libvmaf's float scale for `bpc`-bit codes, (values / scale,
    /// squares / scale²): libvmaf's running `double` sums, where [`PlaneSums::exact`]
    /// holds (both sums below 2^53 convert exactly, and the divisions are by powers of
    /// two); `None` otherwise.
    pub(crate) fn scaled(&self, bpc: u32) -> Option<(f64, f64)> {
        let scale = code_scale(bpc);
        self.exact().then(|| {
            (
                self.values as f64 / scale,
                self.squares as f64 / (scale * scale),
            )
        })
    }

    /// Adds the codes of one row.
    fn add_codes<T: Copy + Into<u32>>(&mut self, row: &[T]) {
        for c in row.chunks(CHUNK) {
            self.add_chunk(c.iter().map(|&v| v.into()));
        }
    }

    /// Adds the absolute differences of two rows' codes.
    fn add_differences<T: Copy + Into<u32>>(&mut self, a: &[T], b: &[T]) {
        for (x, y) in a.chunks(CHUNK).zip(b.chunks(CHUNK)) {
            self.add_chunk(x.iter().zip(y).map(|(&p, &q)| p.into().abs_diff(q.into())));
        }
    }

    /// Adds at most [`CHUNK`] values.
    #[inline]
    fn add_chunk(&mut self, values: impl Iterator<Item = u32>) {
        let (mut s, mut q, mut m) = (0u32, 0u32, 0u32);
        for v in values {
            s = s.wrapping_add(v);
            q = q.wrapping_add(v.wrapping_mul(v));
            m = m.max(v);
        }
        self.values += u64::from(s);
        self.squares = self.squares.wrapping_add(u64::from(q));
        self.max = self.max.max(m);
    }
}

/// The power of two libvmaf divides `bpc`-bit codes by on its 8-bit float scale.
pub(crate) fn code_scale(bpc: u32) -> f64 {
    match bpc {
        10 => 4.0,
        12 => 16.0,
        16 => 256.0,
        _ => 1.0,
    }
}

/// Row `y` of plane 0 of `frame` (its `width` samples).
fn row(frame: &Frame, y: usize) -> Samples<'_> {
    let plane = frame.plane(0);
    let (w, at) = (plane.width as usize, y * plane.stride);
    match plane.samples() {
        Samples::U8(s) => Samples::U8(&s[at..at + w]),
        Samples::U16(s) => Samples::U16(&s[at..at + w]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feature::float_psnr::testing::frame;

    /// The sums the slow way, in `u64`.
    fn naive(values: impl Iterator<Item = u32>) -> PlaneSums {
        values.fold(PlaneSums::default(), |s, v| PlaneSums {
            values: s.values + u64::from(v),
            squares: s.squares + u64::from(v) * u64::from(v),
            max: s.max.max(v),
        })
    }

    #[test]
    fn full_chunks_of_the_largest_exact_value_do_not_wrap() {
        // 600 columns: two full chunks and a part, every code 4095 (12-bit maximum).
        let f = frame(12, 600, 3, |_, _| 4095);
        let s = PlaneSums::of_codes(&f);
        assert_eq!(s, naive(std::iter::repeat_n(4095, 1800)));
        assert!(s.exact());
    }

    #[test]
    fn differences_are_absolute_and_summed_per_row_width() {
        let a = frame(10, 300, 4, |x, y| (x * 3 + y) as u16 % 1024);
        let b = frame(10, 300, 4, |x, y| (x * 7 + 2 * y) as u16 % 1024);
        let want = naive((0..4).flat_map(|y| {
            (0..300usize).map(move |x| ((x * 3 + y) % 1024).abs_diff((x * 7 + 2 * y) % 1024) as u32)
        }));
        assert_eq!(PlaneSums::of_differences(&a, &b), want);
    }

    #[test]
    fn a_value_from_2_to_the_12_is_not_exact() {
        let f = frame(16, 5, 5, |x, y| if (x, y) == (4, 4) { 4096 } else { 4095 });
        assert!(!PlaneSums::of_codes(&f).exact());
        let g = frame(16, 5, 5, |_, _| 0);
        assert!(!PlaneSums::of_differences(&f, &g).exact());
        assert!(PlaneSums::of_differences(&g, &g).exact());
    }

    #[test]
    fn frames_of_different_depths_are_not_exact() {
        let (a, b) = (frame(8, 4, 4, |_, _| 1), frame(10, 4, 4, |_, _| 1));
        assert!(!PlaneSums::of_differences(&a, &b).exact());
    }
}
