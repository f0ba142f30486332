//! Renders a [`Header`] as C text, checking each struct's C layout against Rust's.

use std::fmt::Write;

use crate::header_items::{Field, Header, Item};

/// Size and alignment of a C type on the LP64 targets this library builds for.
fn c_size(ctype: &str) -> usize {
    match ctype {
        "uint32_t" | "int32_t" | "VmafxStatus" => 4,
        "uint64_t" | "int64_t" => 8,
        _ => std::mem::size_of::<usize>(), // pointers, uintptr_t, function pointers
    }
}

/// Checks that the C layout of `fields` puts every field at its Rust offset and that the
/// C struct has the Rust struct's size; panics naming the field otherwise.
pub fn check_layout(
    name: &str,
    fields: &[Field],
    rust_size: usize,
    embedded: &[(&str, usize, usize)],
) {
    let mut at = 0usize;
    let mut align = 1usize;
    for f in fields {
        let (size, a) = match embedded.iter().find(|(n, ..)| *n == f.ctype) {
            Some((_, s, a)) => (*s, *a),
            None => (c_size(f.ctype), c_size(f.ctype)),
        };
        at = at.div_ceil(a) * a;
        assert_eq!(
            at, f.rust_offset,
            "{name}.{}: C offset {at}, Rust offset {}",
            f.name, f.rust_offset
        );
        at += size * f.array.max(1);
        align = align.max(a);
    }
    let total = at.div_ceil(align) * align;
    assert_eq!(
        total, rust_size,
        "{name}: C size {total}, Rust size {rust_size}"
    );
}

fn doc(out: &mut String, indent: &str, text: &str) {
    if text.is_empty() {
        return;
    }
    let line = format!("{indent}/** {text} */");
    if line.len() <= 100 {
        let _ = writeln!(out, "{line}");
        return;
    }
    let _ = writeln!(out, "{indent}/**");
    let mut cur = String::new();
    for word in text.split(' ') {
        if !cur.is_empty() && indent.len() + 3 + cur.len() + 1 + word.len() > 100 {
            let _ = writeln!(out, "{indent} * {cur}");
            cur.clear();
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        let _ = writeln!(out, "{indent} * {cur}");
    }
    let _ = writeln!(out, "{indent} */");
}

/// Sizes and alignments of the structs a header embeds by value, for the layout check.
const EMBEDDED: &[(&str, usize, usize)] = &[
    ("VmafxImportPlane", 48, 8),
    ("VmafxFence", 32, 8),
    ("VmafxColor", 16, 4),
];

/// The C text of `h`.
pub fn render(h: &Header) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "/*\n * vmafx: VMAFx's C ABI, implemented in Rust.\n *");
    let _ = writeln!(
        o,
        " * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;"
    );
    let _ = writeln!(
        o,
        " * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`."
    );
    let _ = writeln!(o, " */\n");
    doc(&mut o, "", h.brief);
    let _ = writeln!(o, "\n#ifndef {0}\n#define {0}\n", h.guard);
    for inc in &h.includes {
        let _ = writeln!(o, "#include {inc}");
    }
    let _ = writeln!(o, "\n#ifdef __cplusplus\nextern \"C\" {{\n#endif");
    for item in &h.items {
        o.push('\n');
        render_item(&mut o, item);
    }
    let _ = writeln!(
        o,
        "\n#ifdef __cplusplus\n}}\n#endif\n\n#endif /* {} */",
        h.guard
    );
    o
}

fn render_item(o: &mut String, item: &Item) {
    match item {
        Item::Enum {
            name,
            doc: d,
            typedef,
            values,
        } => {
            doc(o, "", d);
            let _ = writeln!(
                o,
                "{}enum {name} {{",
                if *typedef { "typedef " } else { "" }
            );
            for (n, v, vd) in values {
                doc(o, "    ", vd);
                let _ = writeln!(o, "    {n} = {v},");
            }
            if *typedef {
                let _ = writeln!(o, "}} {name};");
            } else {
                let _ = writeln!(o, "}};");
            }
        }
        Item::Define {
            name,
            value,
            doc: d,
        } => {
            doc(o, "", d);
            let _ = writeln!(o, "#define {name} {value}");
        }
        Item::Opaque { name, doc: d } => {
            doc(o, "", d);
            let _ = writeln!(o, "typedef struct {name} {name};");
        }
        Item::Struct {
            name,
            doc: d,
            fields,
            rust_size,
            init,
            init_extra,
        } => {
            check_layout(name, fields, *rust_size, EMBEDDED);
            doc(o, "", d);
            let _ = writeln!(o, "struct {name} {{");
            for f in fields {
                doc(o, "    ", f.doc);
                let sep = if f.ctype.ends_with('*') { "" } else { " " };
                let arr = if f.array > 0 {
                    format!("[{}]", f.array)
                } else {
                    String::new()
                };
                let _ = writeln!(o, "    {}{sep}{}{arr};", f.ctype, f.name);
            }
            let _ = writeln!(o, "}};");
            if !init.is_empty() {
                o.push('\n');
                doc(
                    o,
                    "",
                    "Initialiser: sets `struct_size`, zeroes every other field.",
                );
                let _ = writeln!(
                    o,
                    "#define {init} {{.struct_size = sizeof({name}){init_extra}}}"
                );
            }
        }
        Item::Raw(text) => {
            let _ = writeln!(o, "{text}");
        }
        Item::Func {
            ret,
            name,
            params,
            doc: d,
            export,
        } => {
            doc(o, "", d);
            let export = if *export { "VMAFX_EXPORT " } else { "" };
            let sep = if ret.ends_with('*') { "" } else { " " };
            let head = format!("{export}{ret}{sep}{name}(");
            let _ = writeln!(o, "{head}{});", wrap_params(head.len(), params));
        }
    }
}

/// A parameter list after an opening parenthesis at column `indent`: as many parameters a
/// line as fit in 100 columns (the closing `);` included), continuation lines aligned under
/// the first parameter; `void` for none.
fn wrap_params(indent: usize, params: &[String]) -> String {
    if params.is_empty() {
        return "void".into();
    }
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (i, p) in params.iter().enumerate() {
        let tail = if i + 1 < params.len() { "," } else { ");" };
        let grown = if cur.is_empty() {
            format!("{p}{tail}")
        } else {
            format!("{cur} {p}{tail}")
        };
        if !cur.is_empty() && indent + grown.len() > 100 {
            lines.push(std::mem::take(&mut cur));
            cur = format!("{p}{tail}");
        } else {
            cur = grown;
        }
    }
    cur.truncate(cur.len() - 2);
    lines.push(cur);
    lines.join(&format!("\n{}", " ".repeat(indent)))
}
