//! Prints every feature extractor's options, one a line, tab-separated: extractor, option,
//! type, default, least and greatest value (numbers; 0 for the others). What
//! `scripts/option_sweep.py` reads to try each option's values against libvmaf.
//!
//! `cargo run --example extractor_options`

use vmafx::feature::{registry, OptKind};

fn main() {
    for extractor in registry::all() {
        for o in extractor.options {
            let (kind, default) = match o.kind {
                OptKind::Bool(b) => ("bool", b.to_string()),
                OptKind::Int(i) => ("int", i.to_string()),
                OptKind::Double(d) => ("double", d.to_string()),
                OptKind::Str(s) => ("str", s.to_string()),
            };
            println!(
                "{}\t{}\t{kind}\t{default}\t{}\t{}",
                extractor.name, o.name, o.min, o.max
            );
        }
    }
}
