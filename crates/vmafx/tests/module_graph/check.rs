//! The two rules over a read tree: layers and circles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::scan::{imports, File};
use crate::{LAYERS, TEST_ONLY};

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The names `lib.rs` re-exports at the root and the module each comes from.
fn root_names(files: &BTreeMap<PathBuf, File>) -> BTreeMap<String, String> {
    let lib = files
        .values()
        .find(|f| f.module.is_empty())
        .expect("lib.rs");
    let mut names = BTreeMap::new();
    for line in lib.text.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let (module, items) = rest.split_once("::").unwrap_or((rest, ""));
        for item in items.trim_matches(|c| "{};".contains(c)).split(',') {
            let name = item.split(" as ").last().unwrap_or("").trim();
            names.insert(name.to_string(), module.to_string());
        }
    }
    names
}

/// Every import that breaks the layers, as `file:line: what`.
pub fn layer_violations(src: &Path, files: &BTreeMap<PathBuf, File>) -> Vec<String> {
    let roots = root_names(files);
    let mut bad = Vec::new();
    for (path, file) in files {
        let Some(own) = file.module.first() else {
            continue;
        };
        if TEST_ONLY.contains(&own.as_str()) {
            continue;
        }
        let Some(own_layer) = layer_of(own) else {
            bad.push(format!(
                "{}: module `{own}` has no layer in LAYERS",
                rel(src, path)
            ));
            continue;
        };
        for imp in imports(file) {
            let Some(first) = imp.target.first() else {
                continue;
            };
            let target = roots.get(first).unwrap_or(first);
            if target == own || (imp.test && TEST_ONLY.contains(&target.as_str())) {
                continue;
            }
            match layer_of(target) {
                Some(l) if l < own_layer => {}
                Some(_) => bad.push(format!(
                    "{}:{}: `{own}` imports `{target}`, which is not below it",
                    rel(src, path),
                    imp.line
                )),
                // Root items that are no module (constants) sit below everything.
                None if first.chars().next().is_some_and(|c| c.is_ascii_uppercase()) => {}
                None => bad.push(format!(
                    "{}:{}: `{own}` imports `{target}`, which has no layer",
                    rel(src, path),
                    imp.line
                )),
            }
        }
    }
    bad
}

/// Circles between runtime files, each as the sorted list of its files, in order.
pub fn file_circles(src: &Path, files: &BTreeMap<PathBuf, File>) -> Vec<Vec<String>> {
    let by_module: BTreeMap<&[String], &PathBuf> = files
        .iter()
        .map(|(p, f)| (f.module.as_slice(), p))
        .collect();
    let mut edges: BTreeMap<&PathBuf, BTreeSet<&PathBuf>> = BTreeMap::new();
    for (path, file) in files.iter().filter(|(_, f)| !f.test) {
        for imp in imports(file).into_iter().filter(|i| !i.test && !i.reexport) {
            let to = (0..=imp.target.len())
                .rev()
                .find_map(|k| by_module.get(&imp.target[..k]));
            if let Some(&to) = to {
                if to != path && !files[to].test {
                    edges.entry(path).or_default().insert(to);
                }
            }
        }
    }
    // Strongly connected components (Tarjan), iteratively small enough to recurse.
    let nodes: Vec<&PathBuf> = files.keys().collect();
    let mut state = Tarjan::default();
    for n in &nodes {
        if !state.index.contains_key(n) {
            state.visit(n, &edges);
        }
    }
    let mut circles: Vec<Vec<String>> = state
        .components
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut names: Vec<String> = c.iter().map(|p| rel(src, p)).collect();
            names.sort();
            names
        })
        .collect();
    circles.sort();
    circles
}

#[derive(Default)]
struct Tarjan<'a> {
    index: BTreeMap<&'a PathBuf, usize>,
    low: BTreeMap<&'a PathBuf, usize>,
    stack: Vec<&'a PathBuf>,
    on_stack: BTreeSet<&'a PathBuf>,
    components: Vec<Vec<&'a PathBuf>>,
}

impl<'a> Tarjan<'a> {
    fn visit(&mut self, v: &'a PathBuf, edges: &BTreeMap<&'a PathBuf, BTreeSet<&'a PathBuf>>) {
        let i = self.index.len();
        self.index.insert(v, i);
        self.low.insert(v, i);
        self.stack.push(v);
        self.on_stack.insert(v);
        for &w in edges.get(v).into_iter().flatten() {
            if !self.index.contains_key(w) {
                self.visit(w, edges);
                let lw = self.low[w];
                self.low.entry(v).and_modify(|l| *l = (*l).min(lw));
            } else if self.on_stack.contains(w) {
                let iw = self.index[w];
                self.low.entry(v).and_modify(|l| *l = (*l).min(iw));
            }
        }
        if self.low[v] == self.index[v] {
            let mut component = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack.remove(w);
                component.push(w);
                if w == v {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}

fn rel(src: &Path, p: &Path) -> String {
    p.strip_prefix(src).unwrap_or(p).display().to_string()
}
