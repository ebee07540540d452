//! `Deserialize` for [`Value`]: any self-describing data becomes a value.

use super::{Map, Value};
use crate::Number;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

pub(crate) use crate::reserved::{NUMBER_KEY, UNKNOWN_KEY, VALUE_TARGET_NAME};
use std::cell::Cell;

/// Any self-describing data becomes a value; numbers from this crate's own
/// deserializers arrive exactly.
///
/// serde's data model has no exact decimal: a non-integer number can only
/// be visited as an `f64`, which would turn `0.1 + 0.2` (exactly `0.3` as
/// a [`Number`]) into the nearest binary float, and `1e-40` or `1 / 3`
/// into something else again. So, as `serde_json`'s `arbitrary_precision`
/// does, `Value` asks for a newtype struct with a private name
/// (`$__hcl_private_ValueTarget`). This crate's deserializers recognise the name
/// and, for that one value, hand a number that is not an `i64`, `u64`,
/// `i128` or `u128` integer (or is `-0`) as a map with the single key
/// `$__hcl_private_Number` and the number's exact text, which becomes the
/// same [`Number`] again (decimals, quotients, integers beyond `Decimal`
/// and `f64`s alike). Integers keep the direct `visit_i64` / `visit_u64`
/// paths. Nested values ask again, element by element.
///
/// Other formats ignore the name (they visit the newtype's content, or
/// call `deserialize_any`), so `serde_json` and `serde_json::Value` feed a
/// `Value` as before, with `f64` numbers. Targets that buffer the input
/// (`serde_json::Value`, untagged enums, `flatten`) never use the name
/// and get plain `f64`s from this crate too. An unknown value
/// ([`Value::Unknown`]) travels the same way, as the one-entry map
/// `$__hcl_private_Unknown` holding its type in go-cty's JSON type
/// encoding (`"string"`, `["list","number"]`); a target other than
/// `Value` gets an error that names the unknown value's place. A map from another format
/// that happens to have the private key and a valid number text as its
/// only entry reads as that number; anything else stays an object.
///
/// The native syntax's deserializer builds the value for this name
/// directly from the tree (the same value the visits would build) and
/// hands it over through a thread-local slot: no visit per node.
impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_newtype_struct(VALUE_TARGET_NAME, ValueVisitor)
    }
}

thread_local! {
    /// A value built whole by one of this crate's deserializers, for the
    /// `Value` visitor it calls next (`hand`).
    static HANDED: Cell<Option<Value>> = const { Cell::new(None) };
}

/// Puts `value` where the next `visit_newtype_struct` of a `Value`
/// visitor on this thread takes it (`Some`), or takes back what no visitor
/// took (`None`): the deserializer calls `hand(Some(v))`, then the
/// visitor's `visit_newtype_struct`, then `hand(None)`, so that nothing
/// stays behind.
pub(crate) fn hand(value: Option<Value>) -> Option<Value> {
    HANDED.replace(value)
}

/// The object of `map`, or what `ValueVisitor::visit_map` makes of a map
/// whose one entry is a private key (an exact number, an unknown value):
/// the same value as visiting `map` entry by entry.
pub(crate) fn object_value(map: Map) -> Value {
    if map.len() == 1 {
        let special = match map.first() {
            Some((k, Value::String(text))) if k == NUMBER_KEY => {
                Number::from_exact_text(text).map(Value::Number)
            }
            Some((k, t)) if k == UNKNOWN_KEY => {
                super::types::type_from_value(t).map(Value::unknown)
            }
            _ => None,
        };
        if let Some(v) = special {
            return v;
        }
    }
    Value::Object(map)
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any HCL value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_i128<E>(self, v: i128) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u128<E>(self, v: u128) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number must be finite"))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_char<E>(self, v: char) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        // A value built whole by this crate's native deserializer.
        if let Some(v) = hand(None) {
            return Ok(v);
        }
        // Not `Value::deserialize`: formats that answer
        // `deserialize_newtype_struct` with `visit_newtype_struct` would
        // call back here forever.
        d.deserialize_any(ValueVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let Some(first) = map.next_key::<String>()? else {
            return Ok(Value::Object(Map::new()));
        };
        let first_value: Value = map.next_value()?;
        let special = match (first.as_str(), &first_value) {
            (NUMBER_KEY, Value::String(text)) => Number::from_exact_text(text).map(Value::Number),
            (UNKNOWN_KEY, t) => super::types::type_from_value(t).map(Value::unknown),
            _ => None,
        };
        let second = map.next_key::<String>()?;
        if let (Some(v), None) = (special, &second) {
            return Ok(v);
        }
        let mut out = Map::with_capacity(map.size_hint().unwrap_or(0).saturating_add(2).min(4096));
        out.insert(first, first_value);
        if let Some(k) = second {
            let v = map.next_value()?;
            out.insert(k, v);
        }
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}
