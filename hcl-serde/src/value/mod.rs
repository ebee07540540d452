//! The dynamic value of an evaluated HCL expression.
//!
//! A [`Value`] is what a whole file or any expression evaluates to, in
//! HCL's JSON shape (blocks become objects keyed by type and labels), and
//! what a program hands a configuration as variables. It follows
//! `serde_json::Value`'s conventions: indexing that reads `Null` for a
//! miss, `as_*`/`is_*` accessors, comparisons with Rust primitives, and
//! [`value!`](crate::value!) for literals.
//!
//! ```
//! use hcl::Value;
//!
//! let v: Value = hcl::from_str("name = \"web\"\nports = [80, 443]\nservice \"a\" { x = 1 }\n")?;
//! assert_eq!(v["name"], "web");
//! assert_eq!(v["ports"][1], 443);
//! assert_eq!(v["service"]["a"]["x"], 1);
//! assert_eq!(v["missing"], Value::Null);
//! assert_eq!(v["ports"].as_array().map(Vec::len), Some(2));
//! assert_eq!(v, hcl::value!({
//!     name: "web",
//!     ports: [80, 443],
//!     service: { a: { x: 1 } },
//! }));
//! # Ok::<(), hcl::Error>(())
//! ```

pub(crate) mod de;
mod from;
mod index;
mod macros;
pub mod map;
mod partial_eq;
mod ser;

/// NFC for every string value, as go-cty has them.
pub(crate) mod nfc;

pub use index::Index;
pub use map::Map;

pub(crate) mod types;

use self::types::Type;
use crate::Number;
use std::fmt;

/// Any HCL value, after evaluation.
///
/// The six kinds of JSON: HCL's lists, tuples and sets are all
/// [`Value::Array`]; maps and objects are both [`Value::Object`].
///
/// ```
/// use hcl::Value;
/// let v = Value::from(vec![1, 2, 3]);
/// assert_eq!(v.as_array().map(Vec::len), Some(3));
/// assert_eq!(v.to_string(), "[1, 2, 3]");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    /// `null`
    #[default]
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// A list, tuple or set.
    Array(Vec<Value>),
    /// A map or object.
    Object(Map<String, Value>),
    /// A value not known yet, of which only the type is known (go-cty's
    /// `cty.UnknownVal(t)`; [`Type::Any`] for any type): what an
    /// application declares for a variable it cannot know (Terraform's
    /// "known after apply"). Results that depend on it are unknown too
    /// (see [`Value::unknown`]). Rust's `==` compares representations, so
    /// two unknown values of one type are equal; HCL's `==` on them is
    /// unknown.
    Unknown(Box<Type>),
}

impl Value {
    /// An unknown value of type `t` (go-cty's `cty.UnknownVal(t)`;
    /// `Type::Any` for `cty.DynamicVal`).
    ///
    /// Declared as a variable, it makes every result that depends on it
    /// unknown, with the type go-cty would give it, instead of an error:
    ///
    /// ```
    /// use hcl::{eval::{eval_expr_str, Type}, Context, Value};
    ///
    /// let mut ctx = Context::new();
    /// ctx.declare_var("id", Value::unknown(Type::String));
    /// assert_eq!(eval_expr_str("\"i-${id}\"", &ctx)?, Value::unknown(Type::String));
    /// assert_eq!(eval_expr_str("id == \"x\" ? 1 : 2", &ctx)?, Value::unknown(Type::Number));
    /// // Collections built around it stay known, with an unknown element.
    /// let v = eval_expr_str("{ id = id, port = 80 }", &ctx)?;
    /// assert_eq!(v["port"], 80);
    /// assert!(v["id"].is_unknown() && !v.is_wholly_known());
    /// # Ok::<(), hcl::Error>(())
    /// ```
    pub fn unknown(t: Type) -> Value {
        Value::Unknown(Box::new(t))
    }

    /// Whether the value itself is unknown ([`Value::Unknown`]); a known
    /// collection holding an unknown element is not (see
    /// [`Value::is_wholly_known`]).
    pub fn is_unknown(&self) -> bool {
        matches!(self, Value::Unknown(_))
    }

    /// The type of an unknown value, if this is one.
    pub fn as_unknown(&self) -> Option<&Type> {
        match self {
            Value::Unknown(t) => Some(t),
            _ => None,
        }
    }

    /// Whether neither the value nor anything inside it is unknown.
    pub fn is_wholly_known(&self) -> bool {
        match self {
            Value::Unknown(_) => false,
            Value::Array(a) => a.iter().all(Value::is_wholly_known),
            Value::Object(o) => o.values().all(Value::is_wholly_known),
            _ => true,
        }
    }

    /// Whether the value is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// `Some(())` if the value is `null`, as serde_json's `as_null`.
    pub fn as_null(&self) -> Option<()> {
        self.is_null().then_some(())
    }

    /// Whether the value is a boolean.
    pub fn is_bool(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// Whether the value is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// Whether the value is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether the value is an array (an HCL list, tuple or set).
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// Whether the value is an object (an HCL map or object).
    ///
    /// ```
    /// let v: hcl::Value = hcl::from_str("a = { b = 1 }\nc = [true]\n")?;
    /// assert!(v.is_object() && v["a"].is_object() && v["c"].is_array());
    /// assert!(v["c"][0].is_bool() && v["a"]["b"].is_number());
    /// # Ok::<(), hcl::Error>(())
    /// ```
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// Whether the value is a number that [`Value::as_i64`] returns.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether the value is a number that [`Value::as_u64`] returns.
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The elements, mutably, if this is an array.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The entries, if this is an object.
    pub fn as_object(&self) -> Option<&Map<String, Value>> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The entries, mutably, if this is an object.
    pub fn as_object_mut(&mut self) -> Option<&mut Map<String, Value>> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The number as an `i64`, if this is an integer number in range.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    /// The number as a `u64`, if this is a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    /// The number as an `f64`, if this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().map(Number::as_f64)
    }

    /// The name of the value's kind, for messages: `"null"`, `"bool"`,
    /// `"number"`, `"string"`, `"array"`, `"object"`, `"unknown"`.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "bool",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
            Value::Unknown(_) => "unknown",
        }
    }

    /// Takes the value out, leaving `null`.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
}

impl fmt::Display for Value {
    /// Formats the value as an HCL expression: `null`, `true`, `1.5`,
    /// `"text"` (escaped), `[1, 2]`, `{ a = 1, "b c" = 2 }`. HCL has no
    /// syntax for an unknown value: it is written `unknown(TYPE)`, with
    /// the type in type-constraint syntax (`unknown(list(string))`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Number(n) => write!(f, "{n}"),
            Value::String(s) => write_quoted(f, s),
            Value::Array(a) => {
                f.write_str("[")?;
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Value::Object(o) => {
                if o.is_empty() {
                    return f.write_str("{}");
                }
                f.write_str("{ ")?;
                for (i, (k, v)) in o.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    crate::quote::write_key(f, k)?;
                    write!(f, " = {v}")?;
                }
                f.write_str(" }")
            }
            Value::Unknown(t) => write!(f, "unknown({t})"),
        }
    }
}

/// Writes `s` as a quoted HCL string (the serializer's escaper).
fn write_quoted(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    crate::quote::write_quoted(f, s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_stay_small() {
        // A Number is a Decimal or a box, tagged (24 bytes); a Map, a
        // String and a Vec are 24: a Value is one word more.
        assert_eq!(size_of::<Number>(), 24);
        assert_eq!(size_of::<Value>(), 32);
    }

    #[test]
    fn display_is_hcl() {
        let v = Value::from_iter([
            ("a", Value::from(1)),
            ("b c", Value::from(vec!["x${y}", "q\"\n"])),
        ]);
        assert_eq!(v.to_string(), r#"{ a = 1, "b c" = ["x$${y}", "q\"\n"] }"#);
    }
}
