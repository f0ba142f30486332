//! RFC 8785 (JSON Canonicalization Scheme) for the values a record holds: objects with
//! their members sorted by key (UTF-16 code units, as the RFC orders them), no whitespace,
//! strings escaped as the RFC does, integers as their decimal digits.

use serde_json::Value;

/// The canonical text of `v`.
pub fn canonical_json(v: &Value) -> String {
    let mut out = String::new();
    write(&mut out, v);
    out
}

fn write(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => number(out, n),
        Value::String(s) => string(out, s),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(out, x);
            }
            out.push(']');
        }
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(out, k);
                out.push(':');
                write(out, &m[k]);
            }
            out.push('}');
        }
    }
}

/// Integers as digits; a float as ECMAScript's shortest round-trip form (which Rust's
/// `Display` of `f64` matches for the integral and plain decimal cases a record never has).
fn number(out: &mut String, n: &serde_json::Number) {
    if let Some(i) = n.as_i64() {
        out.push_str(&i.to_string());
    } else if let Some(u) = n.as_u64() {
        out.push_str(&u.to_string());
    } else if let Some(f) = n.as_f64() {
        out.push_str(&f.to_string());
    }
}

/// A string as RFC 8785 escapes it: `"` and `\` escaped, the short escapes for backspace,
/// tab, newline, form feed and carriage return, `\u00xx` (lower-case) for the other
/// controls, every other character as itself.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}
