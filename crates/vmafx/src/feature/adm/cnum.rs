//! C's numeric conversions as libvmaf's x86-64 build performs them.
//!
//! libvmaf converts doubles to unsigned integers in places where the value can be negative
//! or infinite (shift amounts of tiny bands, `pow(2, shift - 1)` with `shift == 0`). gcc on
//! x86-64 compiles `(uint32_t)d` as a truncation to a 64-bit signed integer
//! (`0x8000_0000_0000_0000` when out of range or NaN) whose low bits are kept; these helpers
//! do the same, so no input makes them panic or differ.

/// The 64-bit truncation x86-64's `cvttsd2si` performs.
fn trunc_i64(d: f64) -> i64 {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0; // 2^63
    if !(-LIMIT..LIMIT).contains(&d) {
        i64::MIN
    } else {
        d as i64
    }
}

/// `(uint32_t)d`.
pub(super) fn f64_to_u32(d: f64) -> u32 {
    trunc_i64(d) as u32
}

/// `(uint16_t)d`.
pub(super) fn f64_to_u16(d: f64) -> u16 {
    trunc_i64(d) as u16
}

/// `(uint32_t)pow(2, shift - 1)` with C's unsigned wrap of `shift - 1`.
pub(super) fn half_of_shift(shift: u32) -> u32 {
    f64_to_u32(2f64.powf(shift.wrapping_sub(1) as f64))
}

/// `(uint32_t)ceil(x)`.
pub(super) fn ceil_u32(x: f64) -> u32 {
    f64_to_u32(x.ceil())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_follow_x86_64() {
        assert_eq!(f64_to_u32(3.9), 3);
        assert_eq!(f64_to_u32(-1.0), u32::MAX);
        assert_eq!(f64_to_u32(f64::INFINITY), 0);
        assert_eq!(half_of_shift(5), 16);
        assert_eq!(half_of_shift(0), 0);
        assert_eq!(f64_to_u16(36453.7), 36453);
    }
}
