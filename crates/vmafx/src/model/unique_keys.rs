//! Refusing JSON objects that repeat a key. serde_json keeps the last of duplicates silently
//! and libvmaf's streaming reader handles them inconsistently (a second `feature_names`
//! appends), so a model that repeats a key is ambiguous and is refused, naming the key.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// Walks a JSON document, failing on the first object that repeats a key.
struct UniqueKeys;

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UniqueKeysVisitor)
    }
}

struct UniqueKeysVisitor;

impl<'de> Visitor<'de> for UniqueKeysVisitor {
    type Value = UniqueKeys;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_i64<E>(self, _: i64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_u64<E>(self, _: u64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_f64<E>(self, _: f64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_str<E>(self, _: &str) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_unit<E>(self) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<UniqueKeys, A::Error> {
        while seq.next_element::<UniqueKeys>()?.is_some() {}
        Ok(UniqueKeys)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format_args!("duplicate key '{key}'")));
            }
            map.next_value::<UniqueKeys>()?;
        }
        Ok(UniqueKeys)
    }
}

/// `Err` with serde_json's description (key and position) if some object in `text` repeats a
/// key; `Ok` otherwise, including for text that is not JSON (the real parse reports that).
pub(crate) fn check(text: &str) -> Result<(), String> {
    match serde_json::from_str::<UniqueKeys>(text) {
        Err(e) if e.to_string().starts_with("duplicate key") => Err(e.to_string()),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn repeated_keys_are_found_at_any_depth() {
        assert!(check(r#"{"a": 1, "b": [{"c": 2}, {"c": 3}]}"#).is_ok());
        let e = check(r#"{"a": {"b": [1, {"c": 2, "c": 2}]}}"#).unwrap_err();
        assert!(e.starts_with("duplicate key 'c' at line 1"), "{e}");
        assert!(check("not json").is_ok());
    }
}
