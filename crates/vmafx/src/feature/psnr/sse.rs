//! Sums of squared differences between two planes, with libvmaf's integer widths.

/// The plane sum every level shares: `row` gives one row's sum (its own width: 32 bits
/// wrapping for 8-bit samples, as libvmaf's per-row accumulator, or 64), added in 64 bits.
/// Strides are in samples; the rows handed to `row` have `width` samples each.
pub(super) fn plane<T, S: Into<u64>>(
    row: impl Fn(&[T], &[T]) -> S,
    a: &[T],
    a_stride: usize,
    b: &[T],
    b_stride: usize,
    width: usize,
    height: usize,
) -> u64 {
    (0..height)
        .map(|y| row(&a[y * a_stride..][..width], &b[y * b_stride..][..width]).into())
        .sum()
}

/// SSE of two 8-bit planes of `width` x `height` (strides in samples). Each row is summed
/// in 32 bits, wrapping as libvmaf's per-row accumulator does, then added in 64 bits.
pub(super) fn sse_u8(
    a: &[u8],
    a_stride: usize,
    b: &[u8],
    b_stride: usize,
    width: usize,
    height: usize,
) -> u64 {
    let row = |ra: &[u8], rb: &[u8]| {
        ra.iter().zip(rb).fold(0u32, |s, (&x, &z)| {
            let e = x as i32 - z as i32;
            s.wrapping_add((e * e) as u32)
        })
    };
    plane(row, a, a_stride, b, b_stride, width, height)
}

/// SSE of two 9- to 16-bit planes: each squared difference fits 32 bits, the sum is 64.
pub(super) fn sse_u16(
    a: &[u16],
    a_stride: usize,
    b: &[u16],
    b_stride: usize,
    width: usize,
    height: usize,
) -> u64 {
    let row = |ra: &[u16], rb: &[u16]| {
        ra.iter()
            .zip(rb)
            .map(|(&x, &z)| {
                let e = x.abs_diff(z) as u32;
                (e * e) as u64
            })
            .sum::<u64>()
    };
    plane(row, a, a_stride, b, b_stride, width, height)
}
