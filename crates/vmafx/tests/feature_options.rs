//! Bad options, for every extractor the registry lists and every option in its table: an
//! unknown name is refused as not found, a number just outside a finite range as out of
//! range, and text that is not of the option's type as invalid; each refusal names the
//! extractor and the option. Values at the range's ends are accepted, so the checks bite
//! exactly at the bounds.

use vmafx::feature::registry;
use vmafx::feature::{ExtractorInfo, OptKind, OptSpec};
use vmafx::{Error, Status};

/// Largest bound magnitude for which one past it is still exact in an `f64` and an `i64`.
const EXACT: f64 = 9.0e15;

fn parse(info: &ExtractorInfo, name: &str, value: &str) -> Result<(), Error> {
    info.parse_options(&[(name.to_string(), value.to_string())])
        .map(|_| ())
}

/// Checks that setting `name=value` on `info` fails with `status` and names the option.
fn refused(info: &ExtractorInfo, name: &str, value: &str, status: Status) -> Result<(), String> {
    let case = format!("{}: {name}={value}", info.name);
    match parse(info, name, value) {
        Ok(()) => Err(format!("{case}: accepted, expected {status}")),
        Err(e) if e.status() != status => Err(format!(
            "{case}: refused with {}, expected {status} ({e})",
            e.status()
        )),
        Err(e) if !e.subject().contains(info.name) || !e.to_string().contains(name) => Err(
            format!("{case}: error does not name the extractor and option: {e}"),
        ),
        Err(_) => Ok(()),
    }
}

fn accepted(info: &ExtractorInfo, name: &str, value: &str) -> Result<(), String> {
    parse(info, name, value).map_err(|e| format!("{}: {name}={value}: refused: {e}", info.name))
}

/// A number just past `bound` on the side `dir` (-1 below, +1 above), as text that parses
/// back to exactly that number; `None` when the bound is infinite or too large to step.
fn past(bound: f64, dir: f64, integer: bool) -> Option<String> {
    if !bound.is_finite() || bound.abs() >= EXACT {
        return None;
    }
    if integer {
        // The nearest integer outside the (possibly fractional) bound.
        let b = if dir < 0.0 {
            bound.ceil() - 1.0
        } else {
            bound.floor() + 1.0
        };
        return Some(format!("{}", b as i64));
    }
    let step = bound.abs().max(1.0) * 1e-9;
    Some(format!("{}", bound + dir * step))
}

/// An in-range value at `bound` (rounded inwards for integers).
fn at(bound: f64, dir: f64, integer: bool) -> Option<String> {
    if !bound.is_finite() || bound.abs() >= EXACT {
        return None;
    }
    Some(if integer {
        let b = if dir < 0.0 {
            bound.ceil()
        } else {
            bound.floor()
        };
        format!("{}", b as i64)
    } else {
        format!("{bound}")
    })
}

/// Every check for one option; returns the number of checks made.
fn check_option(info: &ExtractorInfo, spec: &OptSpec, bad: &mut Vec<String>) -> usize {
    let mut n = 0;
    let mut record = |r: Result<(), String>| {
        n += 1;
        if let Err(m) = r {
            bad.push(m);
        }
    };
    let name = spec.name;
    match spec.kind {
        OptKind::Bool(_) => {
            record(accepted(info, name, "true"));
            record(accepted(info, name, "false"));
            record(refused(info, name, "maybe", Status::Invalid));
            record(refused(info, name, "2", Status::Invalid));
        }
        OptKind::Int(_) | OptKind::Double(_) => {
            let integer = matches!(spec.kind, OptKind::Int(_));
            record(refused(info, name, "not-a-number", Status::Invalid));
            record(refused(info, name, "", Status::Invalid));
            if integer {
                record(refused(info, name, "1.5", Status::Invalid));
            } else {
                record(refused(info, name, "nan", Status::Invalid));
                record(refused(info, name, "inf", Status::Invalid));
            }
            for (bound, dir) in [(spec.min, -1.0), (spec.max, 1.0)] {
                if let Some(v) = past(bound, dir, integer) {
                    record(refused(info, name, &v, Status::Range));
                }
                if let Some(v) = at(bound, dir, integer) {
                    record(accepted(info, name, &v));
                }
            }
        }
        // Strings take any text; the extractor checks them when it is made.
        OptKind::Str(_) => {}
    }
    n
}

#[test]
fn every_extractor_refuses_unknown_option_names() {
    let mut bad = Vec::new();
    let all = registry::all();
    assert!(!all.is_empty(), "the registry lists no extractor");
    for info in &all {
        for name in ["no_such_option", "Debug_", "x"] {
            if info.options.iter().any(|o| o.name == name) {
                continue;
            }
            if let Err(m) = refused(info, name, "1", Status::NotFound) {
                bad.push(m);
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} failures:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn every_option_refuses_bad_values_and_takes_its_bounds() {
    let mut bad = Vec::new();
    let (mut options, mut checks, mut ranged) = (0, 0, 0);
    for info in registry::all() {
        for spec in info.options {
            options += 1;
            checks += check_option(info, spec, &mut bad);
            let numeric = matches!(spec.kind, OptKind::Int(_) | OptKind::Double(_));
            if numeric && (spec.min.is_finite() || spec.max.is_finite()) {
                ranged += 1;
            }
        }
    }
    eprintln!("{options} options, {ranged} numeric with a finite bound, {checks} checks");
    assert!(options > 0 && ranged > 0, "no option was checked");
    assert!(
        bad.is_empty(),
        "{} failures:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn defaults_parse_and_every_extractor_is_made_from_them() {
    let mut bad = Vec::new();
    for info in registry::all() {
        match info.parse_options(&[]) {
            Ok(v) => {
                if let Err(e) = (info.create)(&v) {
                    bad.push(format!("{}: not made from its defaults: {e}", info.name));
                }
            }
            Err(e) => bad.push(format!("{}: defaults refused: {e}", info.name)),
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_checks_fail_on_wrong_expectations() {
    // Guards against checks that cannot fail: a value the parser takes is reported as
    // accepted, and a refusal with another status is reported as such.
    let info = registry::all()
        .into_iter()
        .find(|i| i.options.iter().any(|o| matches!(o.kind, OptKind::Int(_))))
        .expect("some extractor has an integer option");
    let spec = info
        .options
        .iter()
        .find(|o| matches!(o.kind, OptKind::Int(_)))
        .unwrap();
    let inside = at(spec.min, -1.0, true).unwrap();
    let e = refused(info, spec.name, &inside, Status::Range).unwrap_err();
    assert!(e.contains("accepted"), "{e}");
    let e = refused(info, spec.name, "abc", Status::Range).unwrap_err();
    assert!(e.contains("refused with"), "{e}");
    assert!(accepted(info, spec.name, "abc").is_err());
    assert_eq!(past(0.0, -1.0, true).as_deref(), Some("-1"));
    assert_eq!(past(1.5, 1.0, true).as_deref(), Some("2"));
    assert_eq!(past(f64::INFINITY, 1.0, false), None);
    let below: f64 = past(100.0, -1.0, false).unwrap().parse().unwrap();
    assert!(below < 100.0 && below > 99.999);
}
