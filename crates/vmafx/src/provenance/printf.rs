//! One double formatted by a C `printf` format of one conversion (`%.6f`, `%.17g`, `%e`),
//! the `score_format` of VMAFx's reports.

use crate::error::{Error, Result};

/// A parsed `%[flags][width][.precision]conv` with `conv` one of `f F e E g G`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreFormat {
    plus: bool,
    space: bool,
    left: bool,
    zero: bool,
    alt: bool,
    width: usize,
    precision: Option<usize>,
    conv: u8,
}

/// libvmaf's default: `%.6f`.
pub const DEFAULT_FORMAT: &str = "%.6f";

/// A format that writes every double so that it reads back to the same bits.
pub const LOSSLESS_FORMAT: &str = "%.17g";

impl ScoreFormat {
    /// Parses `text`: exactly one conversion of a double and nothing else; `Invalid` naming
    /// `score_format` otherwise.
    pub fn parse(text: &str) -> Result<ScoreFormat> {
        let bad = |why: &str| Error::invalid("score_format", format!("'{text}': {why}"));
        let rest = text
            .strip_prefix('%')
            .ok_or_else(|| bad("must be one printf conversion of a double, as %.6f"))?;
        let mut f = ScoreFormat {
            plus: false,
            space: false,
            left: false,
            zero: false,
            alt: false,
            width: 0,
            precision: None,
            conv: b'f',
        };
        let b = rest.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'+' => f.plus = true,
                b' ' => f.space = true,
                b'-' => f.left = true,
                b'0' => f.zero = true,
                b'#' => f.alt = true,
                _ => break,
            }
            i += 1;
        }
        let digits = |i: &mut usize| {
            let start = *i;
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
            rest[start..*i].parse::<usize>().ok()
        };
        f.width = digits(&mut i).unwrap_or(0);
        if i < b.len() && b[i] == b'.' {
            i += 1;
            f.precision = Some(digits(&mut i).unwrap_or(0));
        }
        if f.width > 64 || f.precision.is_some_and(|p| p > 64) {
            return Err(bad("width and precision are at most 64"));
        }
        if i < b.len() && b[i] == b'l' {
            i += 1;
        }
        match b.get(i) {
            Some(&c @ (b'f' | b'F' | b'e' | b'E' | b'g' | b'G')) if i + 1 == b.len() => {
                f.conv = c;
                Ok(f)
            }
            _ => Err(bad("must be one printf conversion of a double, as %.6f")),
        }
    }

    /// `x` as C's `printf` writes it with this format.
    pub fn format(&self, x: f64) -> String {
        let body = if x.is_nan() {
            "nan".to_string()
        } else if x.is_infinite() {
            "inf".to_string()
        } else {
            let p = self.precision.unwrap_or(6);
            match self.conv.to_ascii_lowercase() {
                b'f' => format!("{:.*}", p, x.abs()),
                b'e' => exp_form(x.abs(), p, self.alt),
                _ => g_form(x.abs(), p, self.alt),
            }
        };
        let body = if self.conv.is_ascii_uppercase() {
            body.to_ascii_uppercase()
        } else {
            body
        };
        let sign = if x.is_sign_negative() && !x.is_nan() {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        };
        let len = sign.len() + body.len();
        if len >= self.width {
            return format!("{sign}{body}");
        }
        let pad = self.width - len;
        if self.left {
            format!("{sign}{body}{}", " ".repeat(pad))
        } else if self.zero && x.is_finite() {
            format!("{sign}{}{body}", "0".repeat(pad))
        } else {
            format!("{}{sign}{body}", " ".repeat(pad))
        }
    }

    /// Whether every finite double written with this format reads back to the same bits.
    pub fn is_lossless(&self) -> bool {
        match self.conv.to_ascii_lowercase() {
            b'g' => self.precision.unwrap_or(6) >= 17,
            b'e' => self.precision.unwrap_or(6) >= 16,
            _ => false,
        }
    }
}

/// `%.{p}e` of a non-negative finite `x`: mantissa, `e`, sign and at least two exponent
/// digits.
fn exp_form(x: f64, p: usize, alt: bool) -> String {
    let s = format!("{:.*e}", p, x);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let mant = if alt && p == 0 {
        format!("{mant}.")
    } else {
        mant.to_string()
    };
    format!("{mant}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

/// `%.{p}g` of a non-negative finite `x`: `%e` or `%f` by the exponent, trailing zeros cut
/// unless `alt`.
fn g_form(x: f64, p: usize, alt: bool) -> String {
    let p = p.max(1);
    let e_text = format!("{:.*e}", p - 1, x);
    let exp: i32 = e_text
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let mut s = if exp < -4 || exp >= p as i32 {
        exp_form(x, p - 1, alt)
    } else {
        format!("{:.*}", (p as i32 - 1 - exp).max(0) as usize, x)
    };
    if !alt {
        let (mant, tail) = match s.find('e') {
            Some(at) => (s[..at].to_string(), s[at..].to_string()),
            None => (s.clone(), String::new()),
        };
        let mant = if mant.contains('.') {
            mant.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            mant
        };
        s = format!("{mant}{tail}");
    }
    s
}
