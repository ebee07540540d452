//! HCL's type system, as far as evaluation needs it (here, beside `Value`, because a
//! `Value` can be an unknown of a type; `hcl::eval::Type` is its public path).

use crate::value::{Map, Value};
use std::fmt;

/// The type of an HCL value, as the reference implementation (go-cty) sees
/// it.
///
/// [`Value`] has six JSON-like kinds; HCL distinguishes more: a list (all
/// elements of one type) from a tuple (each element its own type), a set
/// from both, a map (all values of one type) from an object. These
/// distinctions matter for function parameters (a `list(string)` parameter
/// converts `[1, 2]` into `["1", "2"]`), for conversions and for a few
/// errors. A [`Type`] is used:
///
/// - to declare function parameters and results ([`Param`](crate::eval::Param),
///   [`FuncDef::returns`](crate::eval::FuncDef::returns));
/// - inside the evaluator, which tags values only where the type is not the
///   one implied by the value ([`Type::of`]), so the common path stays
///   untyped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    /// Any type (`any`; go-cty's `DynamicPseudoType`). As a parameter type,
    /// accepts every value unchanged. Also the type of an untyped `null`.
    Any,
    /// `bool`
    Bool,
    /// `number`
    Number,
    /// `string`
    String,
    /// `list(T)`: a sequence whose elements all have type `T`.
    List(Box<Type>),
    /// `set(T)`: an unordered collection of distinct `T` values.
    Set(Box<Type>),
    /// `map(T)`: string keys, all values of type `T`.
    Map(Box<Type>),
    /// `tuple([T1, T2, ...])`: a sequence with one type per element.
    Tuple(Vec<Type>),
    /// `object({a = T1, ...})`: one type per attribute (keys sorted).
    Object(Map<String, Type>),
}

impl Type {
    /// `list(t)`.
    pub fn list(t: Type) -> Type {
        Type::List(Box::new(t))
    }

    /// `set(t)`.
    pub fn set(t: Type) -> Type {
        Type::Set(Box::new(t))
    }

    /// `map(t)`.
    pub fn map(t: Type) -> Type {
        Type::Map(Box::new(t))
    }

    /// The type a value has when nothing else is known about it: `null` is
    /// [`Type::Any`], arrays are tuples, objects are objects.
    ///
    /// ```
    /// use hcl::{eval::Type, Value};
    /// assert_eq!(Type::of(&Value::from(vec![1, 2])), Type::Tuple(vec![Type::Number, Type::Number]));
    /// ```
    pub fn of(v: &Value) -> Type {
        match v {
            Value::Null => Type::Any,
            Value::Bool(_) => Type::Bool,
            Value::Number(_) => Type::Number,
            Value::String(_) => Type::String,
            Value::Array(a) => Type::Tuple(a.iter().map(Type::of).collect()),
            Value::Object(o) => {
                let mut attrs: Map<String, Type> =
                    o.iter().map(|(k, v)| (k.clone(), Type::of(v))).collect();
                attrs.sort_keys();
                Type::Object(attrs)
            }
            Value::Unknown(t) => (**t).clone(),
        }
    }

    /// Whether the type is, or contains, [`Type::Any`].
    pub fn has_any(&self) -> bool {
        match self {
            Type::Any => true,
            Type::Bool | Type::Number | Type::String => false,
            Type::List(t) | Type::Set(t) | Type::Map(t) => t.has_any(),
            Type::Tuple(ts) => ts.iter().any(Type::has_any),
            Type::Object(attrs) => attrs.values().any(Type::has_any),
        }
    }

    /// Whether this is a primitive type (bool, number or string).
    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::Bool | Type::Number | Type::String)
    }

    /// The name the reference gives the type in messages: `string`,
    /// `list of number`, `tuple`, `object`...
    pub fn friendly_name(&self) -> String {
        match self {
            Type::Any => "dynamic".to_owned(),
            Type::Bool => "bool".to_owned(),
            Type::Number => "number".to_owned(),
            Type::String => "string".to_owned(),
            Type::List(t) => format!("list of {}", t.friendly_name()),
            Type::Set(t) => format!("set of {}", t.friendly_name()),
            Type::Map(t) => format!("map of {}", t.friendly_name()),
            Type::Tuple(_) => "tuple".to_owned(),
            Type::Object(_) => "object".to_owned(),
        }
    }
}

impl fmt::Display for Type {
    /// The type in HCL's type-constraint syntax: `list(string)`,
    /// `object({a=number})`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Any => f.write_str("any"),
            Type::Bool => f.write_str("bool"),
            Type::Number => f.write_str("number"),
            Type::String => f.write_str("string"),
            Type::List(t) => write!(f, "list({t})"),
            Type::Set(t) => write!(f, "set({t})"),
            Type::Map(t) => write!(f, "map({t})"),
            Type::Tuple(ts) => {
                f.write_str("tuple([")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str("])")
            }
            Type::Object(attrs) => {
                f.write_str("object({")?;
                for (i, (k, t)) in attrs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}={t}")?;
                }
                f.write_str("})")
            }
        }
    }
}

/// `t` in go-cty's JSON type encoding (`ctyjson.MarshalType`), as a
/// value: `"string"`, `"dynamic"`, `["list", T]`, `["tuple", [T, ...]]`,
/// `["object", {"k": T}]`. Carries an unknown value's type through serde
/// to a [`Value`] target.
pub(crate) fn type_to_value(t: &Type) -> Value {
    let pair = |kind: &str, inner: Value| Value::Array(vec![Value::from(kind), inner]);
    match t {
        Type::Any => Value::from("dynamic"),
        Type::Bool => Value::from("bool"),
        Type::Number => Value::from("number"),
        Type::String => Value::from("string"),
        Type::List(e) => pair("list", type_to_value(e)),
        Type::Set(e) => pair("set", type_to_value(e)),
        Type::Map(e) => pair("map", type_to_value(e)),
        Type::Tuple(ts) => pair(
            "tuple",
            Value::Array(ts.iter().map(type_to_value).collect()),
        ),
        Type::Object(attrs) => pair(
            "object",
            Value::Object(
                attrs
                    .iter()
                    .map(|(k, t)| (k.clone(), type_to_value(t)))
                    .collect(),
            ),
        ),
    }
}

/// The type [`type_to_value`] encoded; `None` for anything else.
pub(crate) fn type_from_value(v: &Value) -> Option<Type> {
    match v {
        Value::String(s) => match s.as_str() {
            "dynamic" => Some(Type::Any),
            "bool" => Some(Type::Bool),
            "number" => Some(Type::Number),
            "string" => Some(Type::String),
            _ => None,
        },
        Value::Array(pair) => match pair.as_slice() {
            [Value::String(kind), inner] => match (kind.as_str(), inner) {
                ("list", e) => type_from_value(e).map(Type::list),
                ("set", e) => type_from_value(e).map(Type::set),
                ("map", e) => type_from_value(e).map(Type::map),
                ("tuple", Value::Array(ts)) => ts
                    .iter()
                    .map(type_from_value)
                    .collect::<Option<Vec<_>>>()
                    .map(Type::Tuple),
                ("object", Value::Object(attrs)) => attrs
                    .iter()
                    .map(|(k, t)| Some((k.clone(), type_from_value(t)?)))
                    .collect::<Option<_>>()
                    .map(Type::Object),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}
