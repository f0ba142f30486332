//! libvmaf's text form of numeric feature options: the value read as a C `float` and
//! printed with `%g` (`1.0` → `1`, `0.06` → `0.06`, `1080` → `1080`).

/// The normalised text of a numeric option value, or `None` when `text` is not a number
/// (libvmaf then keeps the text as written).
pub(crate) fn normalize_numeric(text: &str) -> Option<String> {
    let v: f32 = text.trim().parse().ok()?;
    Some(format_g(v as f64))
}

/// C's `printf("%g", v)`: six significant digits, trailing zeros dropped, exponent form
/// below 1e-4 or from 1e6.
pub(crate) fn format_g(v: f64) -> String {
    const PRECISION: i32 = 6;
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // The exponent after rounding to PRECISION significant digits.
    let sci = format!("{:.*e}", (PRECISION - 1) as usize, v);
    let (mantissa, exp) = sci.split_once('e').expect("Rust's {:e} has an exponent");
    let exp: i32 = exp.parse().expect("Rust's exponent is an integer");
    if (-4..PRECISION).contains(&exp) {
        let fixed = format!("{:.*}", (PRECISION - 1 - exp) as usize, v);
        strip_zeros(&fixed).to_string()
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip_zeros(mantissa), exp.abs())
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_c_percent_g() {
        for (v, want) in [
            (1.0, "1"),
            (1080.0, "1080"),
            (0.5, "0.5"),
            (100.0, "100"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (0.0001, "0.0001"),
            (0.00001234, "1.234e-05"),
            (-2.5, "-2.5"),
            (999999.5, "1e+06"),
        ] {
            assert_eq!(format_g(v), want, "{v}");
        }
        assert_eq!(normalize_numeric("0.06").as_deref(), Some("0.06"));
        assert_eq!(normalize_numeric("0.19").as_deref(), Some("0.19"));
        assert_eq!(normalize_numeric("17.0").as_deref(), Some("17"));
        assert_eq!(normalize_numeric("0.7").as_deref(), Some("0.7"));
        assert_eq!(normalize_numeric("true"), None);
    }
}
