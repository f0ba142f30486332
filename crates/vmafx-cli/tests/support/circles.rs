//! A file-circle check for a crate's `src/`: which top-level modules import which (every
//! `crate::name` path, `use crate::{a, b}` groups included; comments skipped), and the
//! circles in that graph. Used by the command line's and the libvmaf drop-in's tests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level module a file under `src/` belongs to (`None` for the crate root).
fn module_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    let name = first.trim_end_matches(".rs").to_string();
    (!matches!(name.as_str(), "main" | "lib")).then_some(name)
}

/// The first path segments named after `crate::` in `text` (a `{a, b::c}` group gives
/// each item's first segment).
pub fn crate_refs(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let seg = item.trim().split("::").next().unwrap_or("").trim();
                    if !seg.is_empty() {
                        out.insert(seg.to_string());
                    }
                }
            } else {
                let seg: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !seg.is_empty() {
                    out.insert(seg);
                }
            }
        }
    }
    out
}

/// Top-level module → the top-level modules it imports, over every `.rs` file of `src`.
pub fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let Some(module) = module_of(f.strip_prefix(src).unwrap()) else {
            continue;
        };
        let text = std::fs::read_to_string(&f).unwrap();
        let refs = g.entry(module.clone()).or_default();
        refs.extend(crate_refs(&text).into_iter().filter(|r| *r != module));
    }
    // Only edges to modules of this crate (not `crate::name` items re-exported at the root).
    let known: BTreeSet<String> = g.keys().cloned().collect();
    for refs in g.values_mut() {
        refs.retain(|r| known.contains(r));
    }
    g
}

/// One circle of `g` as the modules along it (first repeated at the end), if any.
pub fn find_circle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == n) {
            let mut c = path[at..].to_vec();
            c.push(n.to_string());
            return Some(c);
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for next in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(next, g, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in g.keys() {
        if let Some(c) = visit(n, g, &mut Vec::new(), &mut done) {
            return Some(c);
        }
    }
    None
}

/// The check finds a planted circle through a `use crate::{..}` group, and none in a chain.
pub fn self_check() {
    let refs = crate_refs("use crate::{a, b::X}; // crate::c\nlet x = crate::d::f();");
    assert_eq!(refs.into_iter().collect::<Vec<_>>(), ["a", "b", "d"]);
    let edge = |pairs: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in pairs {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    let circle = find_circle(&edge(&[
        ("args", "merge"),
        ("merge", "partial"),
        ("partial", "args"),
    ]));
    assert_eq!(circle.map(|c| c.len()), Some(4));
    assert_eq!(
        find_circle(&edge(&[("a", "b"), ("b", "c"), ("a", "c")])),
        None
    );
}
