//! Extractor options in libvmaf's style: a static table of typed options per extractor,
//! set from `name=value:name=value` strings, unknown names and out-of-range values refused.
//!
//! Options flagged `feature_param` change the extractor's output names when they are not at
//! their default (libvmaf appends `_alias_value`, see [`super::name`]).

use crate::error::{Error, Result};

/// The type and default of an option.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OptKind {
    /// `true`/`false` (libvmaf also takes `1`/`0`).
    Bool(bool),
    /// An integer with its default.
    Int(i64),
    /// A double with its default.
    Double(f64),
    /// A string with its default.
    Str(&'static str),
}

/// One option of an extractor.
#[derive(Debug, Clone, Copy)]
pub struct OptSpec {
    /// The option's name as users write it.
    pub name: &'static str,
    /// The short name used in feature names (libvmaf's alias), if any.
    pub alias: Option<&'static str>,
    /// Type and default.
    pub kind: OptKind,
    /// Smallest value (numbers only).
    pub min: f64,
    /// Largest value (numbers only).
    pub max: f64,
    /// Whether a non-default value changes the output feature names.
    pub feature_param: bool,
    /// One line of help.
    pub help: &'static str,
}

impl OptSpec {
    /// A boolean option that is not a feature parameter.
    pub const fn flag(name: &'static str, default: bool, help: &'static str) -> Self {
        OptSpec {
            name,
            alias: None,
            kind: OptKind::Bool(default),
            min: 0.0,
            max: 1.0,
            feature_param: false,
            help,
        }
    }

    /// A numeric or boolean option that is a feature parameter with a short alias (it shows
    /// in feature names when set away from its default, as libvmaf names them).
    pub const fn param(
        name: &'static str,
        alias: &'static str,
        kind: OptKind,
        min: f64,
        max: f64,
        help: &'static str,
    ) -> Self {
        OptSpec {
            name,
            alias: Some(alias),
            kind,
            min,
            max,
            feature_param: true,
            help,
        }
    }
}

/// A parsed option value.
#[derive(Debug, Clone, PartialEq)]
pub enum OptValue {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A double.
    Double(f64),
    /// A string.
    Str(String),
}

/// The values of an extractor's options, defaults filled in, in table order.
#[derive(Debug, Clone)]
pub struct OptValues {
    extractor: String,
    specs: &'static [OptSpec],
    values: Vec<OptValue>,
    set: Vec<bool>,
}

/// Splits `name=value:name=value` into pairs; an empty string gives none.
pub fn split_option_string(s: &str) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for part in s.split(':').filter(|p| !p.is_empty()) {
        let Some((k, v)) = part.split_once('=') else {
            return Err(Error::invalid(
                part,
                "option must be written name=value".to_string(),
            ));
        };
        out.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok(out)
}

fn default_value(kind: OptKind) -> OptValue {
    match kind {
        OptKind::Bool(b) => OptValue::Bool(b),
        OptKind::Int(i) => OptValue::Int(i),
        OptKind::Double(d) => OptValue::Double(d),
        OptKind::Str(s) => OptValue::Str(s.to_string()),
    }
}

impl OptValues {
    /// Defaults for every option of `specs`.
    pub fn defaults(extractor: &str, specs: &'static [OptSpec]) -> Self {
        OptValues {
            extractor: extractor.to_string(),
            specs,
            values: specs.iter().map(|s| default_value(s.kind)).collect(),
            set: vec![false; specs.len()],
        }
    }

    /// Parses `pairs` against `specs`, refusing unknown names and out-of-range values.
    pub fn parse(
        extractor: &str,
        specs: &'static [OptSpec],
        pairs: &[(String, String)],
    ) -> Result<Self> {
        let mut v = Self::defaults(extractor, specs);
        for (k, val) in pairs {
            v.set(k, val)?;
        }
        Ok(v)
    }

    /// Sets one option from its text.
    pub fn set(&mut self, name: &str, text: &str) -> Result<()> {
        let Some(i) = self.specs.iter().position(|s| s.name == name) else {
            let known: Vec<_> = self.specs.iter().map(|s| s.name).collect();
            return Err(Error::not_found(
                format!("{}:{name}", self.extractor),
                format!(
                    "unknown option '{name}' for feature '{}' (options: {})",
                    self.extractor,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
            ));
        };
        let spec = &self.specs[i];
        let subject = format!("{}:{name}", self.extractor);
        let bad = |what: &str| {
            Error::invalid(
                subject.clone(),
                format!(
                    "'{text}' is not {what} (option '{name}' of '{}')",
                    self.extractor
                ),
            )
        };
        let range = |x: f64| -> Result<()> {
            if x.is_nan() || x < spec.min || x > spec.max {
                return Err(Error::range(
                    subject.clone(),
                    format!(
                        "{text} is outside {}..={} (option '{name}' of '{}')",
                        spec.min, spec.max, self.extractor
                    ),
                ));
            }
            Ok(())
        };
        let value = match spec.kind {
            OptKind::Bool(_) => match text {
                "true" | "1" => OptValue::Bool(true),
                "false" | "0" => OptValue::Bool(false),
                _ => return Err(bad("a boolean (true or false)")),
            },
            OptKind::Int(_) => {
                let x: i64 = text.parse().map_err(|_| bad("an integer"))?;
                range(x as f64)?;
                OptValue::Int(x)
            }
            OptKind::Double(_) => {
                let x: f64 = text.parse().map_err(|_| bad("a number"))?;
                if !x.is_finite() {
                    return Err(bad("a finite number"));
                }
                range(x)?;
                OptValue::Double(x)
            }
            OptKind::Str(_) => OptValue::Str(text.to_string()),
        };
        self.values[i] = value;
        self.set[i] = true;
        Ok(())
    }

    fn index(&self, name: &str) -> usize {
        self.specs
            .iter()
            .position(|s| s.name == name)
            .unwrap_or_else(|| {
                panic!(
                    "option '{name}' is not in the table of '{}'",
                    self.extractor
                )
            })
    }

    /// A boolean option's value. Panics if `name` is not a boolean option of the table
    /// (a programming error in the extractor, caught by its tests).
    pub fn bool(&self, name: &str) -> bool {
        match &self.values[self.index(name)] {
            OptValue::Bool(b) => *b,
            v => panic!("option '{name}' is {v:?}, not a boolean"),
        }
    }

    /// An integer option's value.
    pub fn int(&self, name: &str) -> i64 {
        match &self.values[self.index(name)] {
            OptValue::Int(i) => *i,
            v => panic!("option '{name}' is {v:?}, not an integer"),
        }
    }

    /// A double option's value.
    pub fn double(&self, name: &str) -> f64 {
        match &self.values[self.index(name)] {
            OptValue::Double(d) => *d,
            v => panic!("option '{name}' is {v:?}, not a double"),
        }
    }

    /// A string option's value.
    pub fn string(&self, name: &str) -> &str {
        match &self.values[self.index(name)] {
            OptValue::Str(s) => s,
            v => panic!("option '{name}' is {v:?}, not a string"),
        }
    }

    /// Whether the caller set `name` explicitly.
    pub fn is_set(&self, name: &str) -> bool {
        self.set[self.index(name)]
    }

    /// The options the caller set, as (name, value text) in name order (a double as C's
    /// `%g` writes it).
    pub fn set_pairs(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .specs
            .iter()
            .zip(&self.values)
            .zip(&self.set)
            .filter(|(_, set)| **set)
            .map(|((spec, v), _)| {
                let text = match v {
                    OptValue::Bool(b) => b.to_string(),
                    OptValue::Int(i) => i.to_string(),
                    OptValue::Double(d) => format_g(*d),
                    OptValue::Str(s) => s.clone(),
                };
                (spec.name.to_string(), text)
            })
            .collect();
        out.sort();
        out
    }

    /// The feature parameters that differ from their default, as (key, value text, is
    /// boolean), for output names. Key is the alias if there is one. Values are written as
    /// C's `%g` writes them, the way libvmaf names features.
    pub fn non_default_params(&self) -> Vec<(String, String, bool)> {
        let mut out = Vec::new();
        for (spec, v) in self.specs.iter().zip(&self.values) {
            if !spec.feature_param || *v == default_value(spec.kind) {
                continue;
            }
            let key = spec.alias.unwrap_or(spec.name).to_string();
            let (text, is_bool) = match v {
                OptValue::Bool(b) => (b.to_string(), true),
                OptValue::Int(i) => (i.to_string(), false),
                OptValue::Double(d) => (format_g(*d), false),
                OptValue::Str(s) => (s.clone(), false),
            };
            out.push((spec.name.to_string(), key, text, is_bool));
        }
        // libvmaf sorts by option name before writing the suffixes.
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out.into_iter().map(|(_, k, t, b)| (k, t, b)).collect()
    }
}

/// Formats a double as C's `printf("%g")` does (6 significant digits, trailing zeros cut).
pub(crate) fn format_g(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let exp = x.abs().log10().floor() as i32;
    // Round to 6 significant digits first; the exponent may move (9.999995 -> 10).
    let sci = format!("{:.5e}", x);
    let (mant, e) = sci.split_once('e').unwrap();
    let e: i32 = e.parse().unwrap();
    let _ = exp;
    if !(-4..6).contains(&e) {
        let mant = trim_zeros(mant);
        let sign = if e < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", e.abs())
    } else {
        let decimals = (5 - e).max(0) as usize;
        trim_zeros(&format!("{:.*}", decimals, x)).to_string()
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static SPECS: &[OptSpec] = &[
        OptSpec::flag("debug", false, "debug output"),
        OptSpec {
            name: "vif_enhn_gain_limit",
            alias: Some("egl"),
            kind: OptKind::Double(100.0),
            min: 1.0,
            max: 100.0,
            feature_param: true,
            help: "",
        },
    ];

    #[test]
    fn parse_and_name_params() {
        let pairs = split_option_string("debug=true:vif_enhn_gain_limit=1.0").unwrap();
        let v = OptValues::parse("vif", SPECS, &pairs).unwrap();
        assert!(v.bool("debug"));
        assert_eq!(
            v.non_default_params(),
            vec![("egl".into(), "1".into(), false)]
        );
    }

    #[test]
    fn unknown_and_out_of_range_refused() {
        let e = OptValues::parse("vif", SPECS, &[("nope".into(), "1".into())]).unwrap_err();
        assert!(e.message().contains("unknown option 'nope'"), "{e}");
        let e = OptValues::parse(
            "vif",
            SPECS,
            &[("vif_enhn_gain_limit".into(), "0.5".into())],
        )
        .unwrap_err();
        assert_eq!(e.status(), crate::error::Status::Range);
        let e = OptValues::parse("vif", SPECS, &[("debug".into(), "maybe".into())]).unwrap_err();
        assert!(e.message().contains("not a boolean"), "{e}");
    }

    #[test]
    fn format_g_matches_c() {
        for (x, s) in [
            (1.0, "1"),
            (100.0, "100"),
            (0.5, "0.5"),
            (1.2345678, "1.23457"),
            (1e-5, "1e-05"),
            (1234567.0, "1.23457e+06"),
            (0.06, "0.06"),
            (3.0, "3"),
            (1080.0, "1080"),
            (0.0001, "0.0001"),
            (999999.5, "1e+06"),
        ] {
            assert_eq!(format_g(x), s, "{x}");
        }
    }
}
