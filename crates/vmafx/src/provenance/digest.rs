//! The SHA-256 digests a record carries: of bytes, of per-frame scores and of a record's
//! canonical JSON.

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::canonical::canonical_json;

/// `sha256:` and the SHA-256 of `bytes` in lower-case hex.
pub fn sha256_tag(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    let mut s = String::with_capacity(71);
    s.push_str("sha256:");
    for b in d {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// The digest of per-frame scores: `sha256:` over one line `<feature> <index> <16 hex digits
/// of the IEEE-754 bits>\n` per score, features in byte order of their names, frames in
/// index order. `scores` gives (name, index, value) in any order.
pub fn scores_digest(scores: impl IntoIterator<Item = (String, u64, f64)>) -> String {
    let mut all: Vec<(String, u64, f64)> = scores.into_iter().collect();
    all.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()).then(a.1.cmp(&b.1)));
    let mut text = String::new();
    for (name, index, value) in all {
        text.push_str(&format!("{name} {index} {:016x}\n", value.to_bits()));
    }
    sha256_tag(text.as_bytes())
}

/// The digest a record's JSON value should carry: the SHA-256 of its canonical form
/// without `digest` and `elapsed_ns`.
pub fn digest_of_value(record: &Value) -> String {
    let mut v = record.clone();
    if let Value::Object(m) = &mut v {
        m.remove("digest");
        m.remove("elapsed_ns");
    }
    sha256_tag(canonical_json(&v).as_bytes())
}
