//! A JSON document as the reference printed it: object members in document
//! order and every number as its exact source text.
//!
//! The expected documents are read with `serde_json` (not with our own
//! code). serde_json's `Value` would sort object keys and round numbers to
//! `f64` (the reference prints `1/3` with 155 digits); its
//! `arbitrary_precision` feature would keep them, but it changes serde_json
//! for every crate of a workspace build. So this module reads through
//! `RawValue` (the additive `raw_value` feature): each member is first
//! captured as raw text, numbers keep that text, and containers are read
//! again one level down.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number, as written (`0.333...`, `-0`, `1e400`).
    Number(String),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, members in document order.
    Object(Vec<(String, Json)>),
}

/// Deepest nesting accepted; the expected documents are far shallower.
const MAX_DEPTH: usize = 100;

/// Reads one JSON document.
pub fn parse(bytes: &[u8]) -> Result<Json, String> {
    let raw: Box<RawValue> = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    from_raw(&raw, 0)
}

fn from_raw(raw: &RawValue, depth: usize) -> Result<Json, String> {
    if depth > MAX_DEPTH {
        return Err(format!("JSON nested deeper than {MAX_DEPTH} levels"));
    }
    let text = raw.get();
    match text.as_bytes().first() {
        Some(b'{') => {
            let Members(members) = serde_json::from_str(text).map_err(|e| e.to_string())?;
            let mut out = Vec::with_capacity(members.len());
            for (k, v) in members {
                out.push((k, from_raw(&v, depth + 1)?));
            }
            Ok(Json::Object(out))
        }
        Some(b'[') => {
            let items: Vec<Box<RawValue>> =
                serde_json::from_str(text).map_err(|e| e.to_string())?;
            items
                .iter()
                .map(|v| from_raw(v, depth + 1))
                .collect::<Result<_, _>>()
                .map(Json::Array)
        }
        Some(b'"') => serde_json::from_str(text)
            .map(Json::String)
            .map_err(|e| e.to_string()),
        Some(b't') => Ok(Json::Bool(true)),
        Some(b'f') => Ok(Json::Bool(false)),
        Some(b'n') => Ok(Json::Null),
        // serde_json validated the document: what is left is a number.
        Some(_) => Ok(Json::Number(text.to_owned())),
        None => Err("empty JSON value".to_owned()),
    }
}

/// An object's members as raw values, in document order.
struct Members(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Members {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MembersVisitor;

        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
                let mut members = Vec::new();
                while let Some(entry) = map.next_entry::<String, Box<RawValue>>()? {
                    members.push(entry);
                }
                Ok(Members(members))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Members, A::Error> {
                Err(de::Error::invalid_type(de::Unexpected::Seq, &self))
            }
        }

        deserializer.deserialize_map(MembersVisitor)
    }
}

impl Json {
    /// The member `key` of an object (the first, if repeated).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&[(String, Json)]> {
        match self {
            Json::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The number as an unsigned integer, if it is one.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(n) => n.parse().ok(),
            _ => None,
        }
    }
}

/// Checks of this module itself, run before the conformance cases: a
/// broken reader would make every comparison meaningless.
pub fn self_test() -> Result<(), String> {
    let doc = parse(br#"{"z": 1, "a": [0.333333333333333333333333333333333333, -0, 1e400], "m": {"k": "v\u00e9"}, "t": true, "n": null}"#)?;
    let expected = Json::Object(vec![
        ("z".to_owned(), Json::Number("1".to_owned())),
        (
            "a".to_owned(),
            Json::Array(vec![
                Json::Number("0.333333333333333333333333333333333333".to_owned()),
                Json::Number("-0".to_owned()),
                Json::Number("1e400".to_owned()),
            ]),
        ),
        (
            "m".to_owned(),
            Json::Object(vec![("k".to_owned(), Json::String("vé".to_owned()))]),
        ),
        ("t".to_owned(), Json::Bool(true)),
        ("n".to_owned(), Json::Null),
    ]);
    if doc != expected {
        return Err(format!("JSON reader self-test: read {doc:?}"));
    }
    if parse(b"{\"a\": }").is_ok() {
        return Err("JSON reader self-test: accepted invalid JSON".to_owned());
    }
    Ok(())
}
