//! libvmaf's number printing: `%.6f`, or `%.16f` for values with many leading fractional
//! zeros, with glibc's spelling of infinities and NaNs.

use std::fmt;

/// libvmaf's "leading zeros" of `x`: how many times its fractional part must be multiplied
/// by ten (in `f64`) to reach 1, i.e. the position of the first nonzero fractional digit
/// (1 for 0.5, 7 for 0.0000001); 0 for an integral, infinite or NaN value.
pub(crate) fn leading_fraction_zeros(x: f64) -> u32 {
    let x = x.abs();
    // C truncates with `(int)x`; out of `int`'s range that is undefined there and saturates
    // here, but either way the remainder is at least 1 and the count is 0.
    let mut frac = x - f64::from(x as i32);
    let mut zeros = 0;
    while frac < 1.0 && frac != 0.0 {
        frac *= 10.0;
        zeros += 1;
    }
    zeros
}

/// Writes a non-finite value as glibc's `printf` does (`inf`, `-inf`, `nan`, `-nan`);
/// `false` (nothing written) for a finite one.
fn write_non_finite(f: &mut fmt::Formatter<'_>, x: f64) -> Result<bool, fmt::Error> {
    if x.is_finite() {
        return Ok(false);
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let body = if x.is_nan() { "nan" } else { "inf" };
    write!(f, "{sign}{body}")?;
    Ok(true)
}

/// A score as libvmaf prints it: `%.6f` unless more than six zeros lead its fractional part,
/// then `%.16f`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Score(pub f64);

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if write_non_finite(f, x)? {
            return Ok(());
        }
        if leading_fraction_zeros(x) <= 6 {
            write!(f, "{x:.6}")
        } else {
            write!(f, "{x:.16}")
        }
    }
}

/// A JSON score: [`Score`] when finite, `null` otherwise.
#[derive(Debug, Clone, Copy)]
pub(crate) struct JsonScore(pub f64);

impl fmt::Display for JsonScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_finite() {
            Score(self.0).fmt(f)
        } else {
            f.write_str("null")
        }
    }
}

/// The fps reading as `%.2f`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fps(pub f64);

impl fmt::Display for Fps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if write_non_finite(f, self.0)? {
            return Ok(());
        }
        write!(f, "{:.2}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeros_are_counted_like_libvmaf() {
        assert_eq!(leading_fraction_zeros(0.0), 0);
        assert_eq!(leading_fraction_zeros(3.0), 0);
        assert_eq!(leading_fraction_zeros(0.5), 1);
        assert_eq!(leading_fraction_zeros(0.05), 2);
        assert_eq!(leading_fraction_zeros(0.000_001), 6);
        assert_eq!(leading_fraction_zeros(0.000_000_1), 7);
        assert_eq!(leading_fraction_zeros(-12.000_000_01), 8);
        assert_eq!(leading_fraction_zeros(f64::NAN), 0);
        assert_eq!(leading_fraction_zeros(f64::INFINITY), 0);
        assert_eq!(leading_fraction_zeros(1e300), 0);
        assert!(leading_fraction_zeros(f64::from_bits(1)) > 300);
    }

    #[test]
    fn scores_print_like_printf() {
        assert_eq!(Score(0.9252).to_string(), "0.925200");
        assert_eq!(Score(0.0078125).to_string(), "0.007812");
        assert_eq!(Score(-0.0).to_string(), "-0.000000");
        assert_eq!(Score(0.000_000_5).to_string(), "0.0000005000000000");
        assert_eq!(
            Score(1.000_000_894_550_872_7).to_string(),
            "1.0000008945508727"
        );
        assert_eq!(Score(f64::INFINITY).to_string(), "inf");
        assert_eq!(Score(f64::NEG_INFINITY).to_string(), "-inf");
        assert_eq!(Score(f64::NAN).to_string(), "nan");
        assert_eq!(Score(-f64::NAN).to_string(), "-nan");
        assert_eq!(JsonScore(f64::NAN).to_string(), "null");
        assert_eq!(JsonScore(2.5).to_string(), "2.500000");
        assert_eq!(Fps(229.419).to_string(), "229.42");
        assert_eq!(Fps(f64::INFINITY).to_string(), "inf");
    }
}
