//! Reading the module tree and the imports of each file, as text.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One source file of the module tree.
#[derive(Debug)]
pub struct File {
    /// Module path from the crate root (empty for `lib.rs`).
    pub module: Vec<String>,
    /// Whether the whole file is test code.
    pub test: bool,
    pub text: String,
}

/// An import found in a file: the module path it names and where it stands.
#[derive(Debug)]
pub struct Import {
    pub target: Vec<String>,
    pub test: bool,
    pub reexport: bool,
    pub line: usize,
}

pub fn read_tree(src: &Path) -> BTreeMap<PathBuf, File> {
    let mut files = BTreeMap::new();
    walk(&src.join("lib.rs"), Vec::new(), false, &mut files);
    files
}

fn walk(path: &Path, module: Vec<String>, test: bool, files: &mut BTreeMap<PathBuf, File>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let dir = path.parent().expect("a file has a folder");
    let is_dir_module = matches!(
        path.file_name().and_then(|n| n.to_str()),
        Some("mod.rs" | "lib.rs")
    );
    let children_dir = if is_dir_module {
        dir.to_path_buf()
    } else {
        dir.join(path.file_stem().expect("a .rs file"))
    };
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = mod_declaration(line) else {
            continue;
        };
        let attrs: Vec<&str> = lines[..i]
            .iter()
            .rev()
            .take_while(|l| l.trim_start().starts_with("#["))
            .copied()
            .collect();
        let child_test = test
            || attrs
                .iter()
                .any(|a| a.contains("cfg(test)") || a.contains("cfg(all(test"));
        let file = match attrs.iter().find_map(|a| quoted_after(a, "path = ")) {
            Some(p) => dir.join(p),
            None => {
                let flat = children_dir.join(format!("{name}.rs"));
                if flat.is_file() {
                    flat
                } else {
                    children_dir.join(name).join("mod.rs")
                }
            }
        };
        assert!(
            file.is_file(),
            "module {name} of {}: no file",
            path.display()
        );
        let mut child = module.clone();
        child.push(name.to_string());
        walk(&file, child, child_test, files);
    }
    files.insert(path.to_path_buf(), File { module, test, text });
}

/// `name` of a `mod name;` line (any visibility).
fn mod_declaration(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let t = if t.starts_with("pub") {
        t.split_once(' ')?.1
    } else {
        t
    };
    let name = t.strip_prefix("mod ")?.strip_suffix(';')?;
    name.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        .then_some(name)
}

fn quoted_after<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let rest = &s[s.find(key)? + key.len()..];
    let rest = rest.strip_prefix('"')?;
    Some(&rest[..rest.find('"')?])
}

/// Every import of `file`, with inline `#[cfg(test)] mod .. { }` blocks marked as test code.
/// A path through a name the file brought in with `use` (`use super::x86;` then
/// `x86::avx2::KERNELS`) names what that path reaches, as does a path through a child
/// module the file declares (`mod conv;` then `conv::run`).
pub fn imports(file: &File) -> Vec<Import> {
    let lines: Vec<&str> = file.text.lines().collect();
    let names = local_names(&lines, &file.module);
    let mut out = Vec::new();
    let mut test_depth: Option<i64> = None;
    // Inside an inline `mod name { }`, `super` and `self` are relative to `name`.
    let mut inner = file.module.clone();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if test_depth.is_none()
            && mod_block(t).is_some()
            && i > 0
            && lines[i - 1].trim_start().starts_with("#[cfg(test)]")
        {
            test_depth = Some(0);
            inner = file.module.clone();
            inner.extend(mod_block(t).map(str::to_string));
        }
        let module = if test_depth.is_some() {
            &inner
        } else {
            &file.module
        };
        let test = file.test || test_depth.is_some();
        if let Some(d) = test_depth.as_mut() {
            *d += line.matches('{').count() as i64 - line.matches('}').count() as i64;
            if *d <= 0 && line.contains('}') {
                test_depth = None;
            }
        }
        if t.starts_with("//") {
            continue;
        }
        // A visibility (`pub(in crate::a)`) names who may see an item, not what it uses.
        let t = &without_visibility_paths(t);
        let reexport = t.starts_with("pub use ") || t.starts_with("pub(crate) use ");
        let mut seen = BTreeSet::new();
        let through_names = if t.starts_with("use ") || reexport {
            Vec::new()
        } else {
            paths_through(t, &names, test)
        };
        for target in paths_in(t, module).into_iter().chain(through_names) {
            if !seen.insert(target.clone()) {
                continue;
            }
            out.push(Import {
                target,
                test,
                reexport,
                line: i + 1,
            });
        }
    }
    out
}

/// `name` of a `mod name {` line opening an inline module.
fn mod_block(t: &str) -> Option<&str> {
    let t = t.strip_prefix("pub(crate) ").unwrap_or(t);
    let t = t.strip_prefix("pub ").unwrap_or(t);
    t.strip_prefix("mod ")?.strip_suffix(" {")
}

/// The module paths a line names through `crate::`, `super::`, `self::` or, on a `use`
/// line, a child module (`use child::Item`). `a::{b, c::D}` names `a::b` and `a::c::D`.
fn paths_in(line: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    for start in ["crate::", "super::", "self::"]
        .iter()
        .flat_map(|k| line.match_indices(k).map(|(i, _)| i))
    {
        let boundary = start == 0
            || !(bytes[start - 1].is_ascii_alphanumeric()
                || bytes[start - 1] == b'_'
                || bytes[start - 1] == b':');
        if boundary {
            out.extend(expand(&line[start..], module));
        }
    }
    if let Some(rest) = line
        .strip_prefix("use ")
        .or_else(|| line.strip_prefix("pub use "))
    {
        let first = rest.split("::").next().unwrap_or("");
        let known = [
            "std",
            "core",
            "alloc",
            "crate",
            "super",
            "self",
            "serde",
            "serde_json",
            "thiserror",
        ];
        if rest.contains("::") && !known.contains(&first) {
            let mut relative = module.to_vec();
            relative.push(first.to_string());
            out.push(relative);
        }
    }
    out
}

/// The module paths of one path expression starting at `s` (`crate::a::{b, c}` ...).
/// A group left open on this line (a `use` over several lines) names its base.
fn expand(s: &str, module: &[String]) -> Vec<Vec<String>> {
    let head_len = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(s.len());
    let head = &s[..head_len];
    let group = (head.ends_with("::") && s[head_len..].starts_with('{')).then(|| {
        let rest = &s[head_len + 1..];
        &rest[..rest.find('}').unwrap_or(rest.len())]
    });
    let mut base: Vec<String> = Vec::new();
    for (k, seg) in head.split("::").filter(|p| !p.is_empty()).enumerate() {
        match (k, seg) {
            (0, "crate") => {}
            (0, "self") => base = module.to_vec(),
            (0, "super") => {
                base = module.to_vec();
                base.pop();
            }
            (_, "super") => {
                base.pop();
            }
            _ => base.push(seg.to_string()),
        }
    }
    let members: Vec<Vec<String>> = group
        .into_iter()
        .flat_map(|g| g.split(','))
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| {
            let mut p = base.clone();
            if m != "self" {
                p.extend(m.split("::").map(str::to_string));
            }
            p
        })
        .collect();
    if members.is_empty() {
        vec![base]
    } else {
        members
    }
}

/// A name a file binds to a module path: by `use` (what it names) or by `mod name;`.
struct LocalName {
    name: String,
    path: Vec<String>,
    /// Bound only inside test code.
    test: bool,
}

/// The names `lines` bind with `use` statements (over several lines too) that start at
/// `crate`, `super` or `self`, and the child modules they declare.
fn local_names(lines: &[&str], module: &[String]) -> Vec<LocalName> {
    let mut out = Vec::new();
    let mut test_depth: Option<i64> = None;
    let mut statement: Option<String> = None;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if test_depth.is_none()
            && (mod_block(t).is_some() || mod_declaration(t).is_some())
            && i > 0
            && lines[i - 1].trim_start().starts_with("#[cfg(test)]")
        {
            if mod_block(t).is_some() {
                test_depth = Some(0);
            }
        } else if let Some(name) = mod_declaration(t) {
            let mut path = module.to_vec();
            path.push(name.to_string());
            out.push(LocalName {
                name: name.to_string(),
                path,
                test: test_depth.is_some(),
            });
        }
        let test = test_depth.is_some();
        if let Some(d) = test_depth.as_mut() {
            *d += line.matches('{').count() as i64 - line.matches('}').count() as i64;
            if *d <= 0 && line.contains('}') {
                test_depth = None;
            }
        }
        if t.starts_with("//") {
            continue;
        }
        let body = t
            .strip_prefix("pub(crate) ")
            .or_else(|| t.strip_prefix("pub(super) "))
            .or_else(|| t.strip_prefix("pub "))
            .unwrap_or(t);
        let mut text = match statement.take() {
            Some(open) => open + " " + t,
            None => match body.strip_prefix("use ") {
                Some(rest) => rest.to_string(),
                None => continue,
            },
        };
        let Some(end) = text.find(';') else {
            statement = Some(text);
            continue;
        };
        text.truncate(end);
        let tree: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let tree = tree.replace("as", " as ");
        let root = tree.split("::").next().unwrap_or("");
        if !["crate", "super", "self"].contains(&root) {
            continue;
        }
        for (name, path) in use_tree(&tree) {
            let mut full = Vec::new();
            for (k, seg) in path.iter().enumerate() {
                match (k, seg.as_str()) {
                    (0, "crate") => {}
                    (0, "self") => full = module.to_vec(),
                    (0, "super") => {
                        full = module.to_vec();
                        full.pop();
                    }
                    (_, "super") => {
                        full.pop();
                    }
                    _ => full.push(seg.clone()),
                }
            }
            out.push(LocalName {
                name,
                path: full,
                test,
            });
        }
    }
    out
}

/// The `(bound name, path)` pairs of a `use` tree without spaces, such as
/// `super::{a, b::{self, C as D}}`.
fn use_tree(tree: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    walk_use(tree, &[], &mut out);
    out
}

fn walk_use(tree: &str, prefix: &[String], out: &mut Vec<(String, Vec<String>)>) {
    if let Some(open) = tree.find('{') {
        let mut base = prefix.to_vec();
        base.extend(
            tree[..open]
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        );
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        for member in split_top(inner) {
            walk_use(member, &base, out);
        }
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((p, a)) => (p, Some(a)),
        None => (tree, None),
    };
    let mut full = prefix.to_vec();
    full.extend(
        path.split("::")
            .filter(|s| !s.is_empty() && *s != "self")
            .map(str::to_string),
    );
    let name = alias
        .map(str::to_string)
        .or_else(|| full.last().cloned())
        .unwrap_or_default();
    if !name.is_empty() && name != "*" && name != "_" {
        out.push((name, full));
    }
}

/// The members of a `use` group, split at the commas outside nested groups.
fn split_top(group: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&group[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// The module paths `line` names through a bound name: `name::rest` for a bound `name`
/// (not itself preceded by `::` or part of a longer word).
fn paths_through(line: &str, names: &[LocalName], test: bool) -> Vec<Vec<String>> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    for local in names.iter().filter(|n| test || !n.test) {
        let key = format!("{}::", local.name);
        for (start, _) in line.match_indices(&key) {
            let boundary = start == 0
                || !(bytes[start - 1].is_ascii_alphanumeric()
                    || bytes[start - 1] == b'_'
                    || bytes[start - 1] == b':');
            if !boundary {
                continue;
            }
            let rest = &line[start + key.len()..];
            let len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            let mut path = local.path.clone();
            path.extend(
                rest[..len]
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            );
            out.push(path);
        }
    }
    out
}

/// `line` with every `pub(in path)` visibility cut down to `pub`.
fn without_visibility_paths(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find("pub(in ") {
        out.push_str(&rest[..i + 3]);
        rest = &rest[i..];
        rest = &rest[rest.find(')').map_or(rest.len(), |j| j + 1)..];
    }
    out.push_str(rest);
    out
}
