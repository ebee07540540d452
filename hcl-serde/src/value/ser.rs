//! `Serialize` for [`Value`].

use super::Value;
use serde::ser::{Error, Serialize, SerializeMap, SerializeSeq, Serializer};

/// Serializes the value in serde's data model: `null` as unit, arrays as
/// sequences, objects as maps, numbers exactly where the format allows.
///
/// An unknown value ([`Value::Unknown`], at any depth) has no
/// representation in HCL, JSON or any other data format: serializing it
/// is an error that names its type.
///
/// ```
/// use hcl::{eval::Type, Value};
/// let v = Value::from_iter([("id", Value::unknown(Type::String))]);
/// let e = hcl::to_string(&v).unwrap_err();
/// assert!(e.to_string().contains("an unknown value (of type string) cannot be serialized"));
/// ```
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Containers in functions of their own: the scalars (most nodes)
        // are then a jump to the serializer's method, with no frame here.
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(v) => s.serialize_str(v),
            Value::Array(a) => serialize_array(a, s),
            Value::Object(o) => serialize_object(o, s),
            Value::Unknown(t) => Err(S::Error::custom(format!(
                "an unknown value (of type {t}) cannot be serialized: only its type is known"
            ))),
        }
    }
}

#[inline(never)]
fn serialize_array<S: Serializer>(a: &[Value], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(a.len()))?;
    for v in a {
        seq.serialize_element(v)?;
    }
    seq.end()
}

#[inline(never)]
fn serialize_object<S: Serializer>(o: &crate::Map<String, Value>, s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(o.len()))?;
    for (k, v) in o {
        map.serialize_entry(k, v)?;
    }
    map.end()
}
