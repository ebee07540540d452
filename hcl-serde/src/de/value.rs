//! Deserializing an evaluated [`Value`], with HCL's conversions.

use super::capture;
use super::enums::EnumDeserializer;
use super::key::{KeyDeserializer, Str};
use crate::error::{Error, Result};
use crate::value::de::{NUMBER_KEY, UNKNOWN_KEY};
use crate::{Number, Value};
use hcl_grammar::Span;
use serde::de::{self, IntoDeserializer, Visitor};
use std::borrow::Cow;

/// A deserializer of a [`Value`], as used by [`from_value`](crate::from_value)
/// and for every expression the deserializer evaluates.
///
/// It applies HCL's conversions when the target asks for a type: a string
/// that holds a number into any number type, a number or bool into a
/// string, `"true"` / `"false"` into a bool.
///
/// ```
/// use serde::Deserialize;
/// let v = hcl::Value::from("8080");
/// let port = u16::deserialize(hcl::de::ValueDeserializer::new(v))?;
/// assert_eq!(port, 8080);
/// # Ok::<(), hcl::Error>(())
/// ```
pub struct ValueDeserializer {
    value: Value,
    span: Option<Span>,
    depth: usize,
    max_depth: usize,
}

impl ValueDeserializer {
    /// A deserializer of `value`.
    pub fn new(value: Value) -> ValueDeserializer {
        ValueDeserializer {
            value,
            span: None,
            depth: 0,
            max_depth: super::DEFAULT_MAX_DEPTH,
        }
    }

    pub(crate) fn at(value: Value, span: Span, depth: usize, max_depth: usize) -> Self {
        ValueDeserializer {
            value,
            span: Some(span),
            depth,
            max_depth,
        }
    }

    fn err(&self, e: Error) -> Error {
        match self.span {
            Some(s) => e.with_span(s),
            None => e,
        }
    }

    fn invalid_type(&self, exp: &dyn de::Expected) -> Error {
        if let Value::Unknown(t) = &self.value {
            return self.err(Error::data(format!(
                "the value is unknown (only its type, {t}, is known), so it cannot be read as {exp}"
            )));
        }
        self.err(de::Error::invalid_type(super::unexpected(&self.value), exp))
    }

    fn number(&self, ty: &str) -> Result<Number> {
        match &self.value {
            Value::Number(n) => Ok(n.clone()),
            Value::String(s) => number_from_str(s, ty).map_err(|e| self.err(e)),
            _ => Err(self.invalid_type(&ty)),
        }
    }

    fn check_depth(&self) -> Result<()> {
        if self.depth >= self.max_depth {
            Err(super::too_deep(self.max_depth, self.span))
        } else {
            Ok(())
        }
    }
}

impl<'de> IntoDeserializer<'de, Error> for Value {
    type Deserializer = ValueDeserializer;

    fn into_deserializer(self) -> ValueDeserializer {
        ValueDeserializer::new(self)
    }
}

/// Converts a string to a number as HCL does (`"8080"`, `"-1.5"`,
/// `"1e3"`; no surrounding space): evaluation's one definition.
use crate::eval::convert::parse_number;

pub(crate) fn number_from_str(s: &str, ty: &str) -> Result<Number> {
    parse_number(s).ok_or_else(|| {
        Error::data(format!(
            "cannot convert the string {s:?} to {ty}: it is not a number"
        ))
    })
}

/// Visits `n` as the integer type `T`, with a range error.
pub(crate) fn visit_int<'de, T, V>(n: &Number, v: V, ty: &str) -> Result<V::Value>
where
    T: TryFrom<i128> + TryFrom<u128> + VisitInt<'de, V>,
    V: Visitor<'de>,
{
    if !n.is_integer() {
        return Err(Error::data(format!(
            "invalid value: {n} is not an integer, expected {ty}"
        )));
    }
    let t = match n.as_i128() {
        Some(i) => T::try_from(i).ok(),
        None => n.as_u128().and_then(|u| T::try_from(u).ok()),
    };
    match t {
        Some(t) => t.visit(v),
        None => Err(Error::data(format!(
            "invalid value: {n} is out of range for {ty}"
        ))),
    }
}

/// Calls the visitor method of an integer type.
pub(crate) trait VisitInt<'de, V: Visitor<'de>> {
    fn visit(self, v: V) -> Result<V::Value>;
}

macro_rules! visit_int_impl {
    ($($ty:ty => $visit:ident,)*) => {
        $(
            impl<'de, V: Visitor<'de>> VisitInt<'de, V> for $ty {
                fn visit(self, v: V) -> Result<V::Value> {
                    v.$visit(self)
                }
            }
        )*
    };
}

visit_int_impl! {
    i8 => visit_i8, i16 => visit_i16, i32 => visit_i32, i64 => visit_i64, i128 => visit_i128,
    u8 => visit_u8, u16 => visit_u16, u32 => visit_u32, u64 => visit_u64, u128 => visit_u128,
}

/// Visits a number for a target that asks for any type: as `i64`/`u64`
/// when it is an integer that fits, as `f64` otherwise (an integer beyond
/// `u64` too: such targets, `serde_json::Value` among them, rarely take
/// 128-bit integers; a `u128`/`i128` field asks for its type and gets the
/// exact value).
pub(crate) fn visit_number<'de, V: Visitor<'de>>(n: &Number, v: V) -> Result<V::Value> {
    if let Some(i) = n.as_i64() {
        return v.visit_i64(i);
    }
    if let Some(u) = n.as_u64() {
        return v.visit_u64(u);
    }
    v.visit_f64(n.as_f64())
}

/// Visits a number for a [`Value`] target (which announced itself with
/// the private newtype name): integers exactly (as `i64`, `u64`, `i128`
/// or `u128`), any other
/// number (and `-0`) as the private one-entry map that carries its exact
/// text (see the `Deserialize` impl of `Value`).
pub(crate) fn visit_number_exact<'de, V: Visitor<'de>>(n: &Number, v: V) -> Result<V::Value> {
    let v = if n.is_negative_zero() {
        v
    } else {
        match visit_integer(n, v) {
            Ok(r) => return r,
            Err(v) => v,
        }
    };
    v.visit_map(ExactNumberAccess {
        text: Some(Cow::Owned(n.to_exact_text())),
    })
}

/// Visits an integer as the first of `i64`, `u64`, `i128`, `u128` that
/// holds it; hands the visitor back for any other number.
fn visit_integer<'de, V: Visitor<'de>>(
    n: &Number,
    v: V,
) -> std::result::Result<Result<V::Value>, V> {
    if n.is_integer() {
        if let Some(i) = n.as_i64() {
            return Ok(v.visit_i64(i));
        }
        if let Some(u) = n.as_u64() {
            return Ok(v.visit_u64(u));
        }
        if let Some(i) = n.as_i128() {
            return Ok(v.visit_i128(i));
        }
        if let Some(u) = n.as_u128() {
            return Ok(v.visit_u128(u));
        }
    }
    Err(v)
}

/// The map `{"$__hcl_private_Number": "<exact text>"}`: the text made
/// from a [`Number`], or lent from the input (a JSON number that is
/// exact as written).
pub(crate) struct ExactNumberAccess<'de> {
    pub(crate) text: Option<Cow<'de, str>>,
}

impl<'de> de::MapAccess<'de> for ExactNumberAccess<'de> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.text.is_none() {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(NUMBER_KEY))
            .map(Some)
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        match self.text.take() {
            Some(Cow::Borrowed(t)) => seed.deserialize(de::value::BorrowedStrDeserializer::new(t)),
            Some(Cow::Owned(t)) => seed.deserialize(de::value::StringDeserializer::new(t)),
            None => Err(Error::data("a map value was requested twice")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.text.is_some()))
    }
}

/// The map `{"$__hcl_private_Unknown": <type>}` that carries an unknown
/// value to a [`Value`] target, its type in go-cty's JSON type encoding.
struct UnknownAccess {
    ty: Option<Value>,
}

impl<'de> de::MapAccess<'de> for UnknownAccess {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.ty.is_none() {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(UNKNOWN_KEY))
            .map(Some)
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        match self.ty.take() {
            Some(t) => seed.deserialize(ValueDeserializer::new(t)),
            None => Err(Error::data("a map value was requested twice")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.ty.is_some()))
    }
}

/// `f64` to `f32` with a range error.
pub(crate) fn to_f32(n: &Number) -> Result<f32> {
    let f = n.as_f64();
    let g = f as f32;
    if g.is_finite() {
        Ok(g)
    } else {
        Err(Error::data(format!(
            "invalid value: {n} is out of range for f32"
        )))
    }
}

macro_rules! value_int {
    ($($method:ident $ty:ty,)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
                let n = self.number(stringify!($ty))?;
                visit_int::<$ty, V>(&n, v, stringify!($ty)).map_err(|e| self.err(e))
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for ValueDeserializer {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.value {
            Value::Null => v.visit_unit(),
            Value::Bool(b) => v.visit_bool(b),
            Value::Number(ref n) => visit_number(n, v).map_err(|e| self.err(e)),
            Value::String(s) => v.visit_string(s),
            Value::Array(_) => self.deserialize_seq(v),
            Value::Object(_) => self.deserialize_map(v),
            Value::Unknown(_) => Err(self.invalid_type(&v)),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.value {
            Value::Bool(b) => v.visit_bool(*b),
            Value::String(s) => match crate::eval::convert::string_to_bool(s) {
                Some(b) => v.visit_bool(b),
                None => Err(self.err(Error::data(format!(
                    "cannot convert the string {s:?} to bool: only \"true\" or \"false\" are allowed"
                )))),
            },
            _ => Err(self.invalid_type(&v)),
        }
    }

    value_int! {
        deserialize_i8 i8, deserialize_i16 i16, deserialize_i32 i32,
        deserialize_i64 i64, deserialize_i128 i128,
        deserialize_u8 u8, deserialize_u16 u16, deserialize_u32 u32,
        deserialize_u64 u64, deserialize_u128 u128,
    }

    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let n = self.number("f32")?;
        v.visit_f32(to_f32(&n).map_err(|e| self.err(e))?)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let n = self.number("f64")?;
        v.visit_f64(n.as_f64())
    }

    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_string(v)
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_string(v)
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.value {
            Value::String(s) => v.visit_string(s),
            Value::Number(n) => v.visit_string(n.to_string()),
            Value::Bool(b) => v.visit_borrowed_str(if b { "true" } else { "false" }),
            _ => Err(self.invalid_type(&v)),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.value {
            Value::String(s) => v.visit_byte_buf(s.into_bytes()),
            _ => self.deserialize_any(v),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_bytes(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.value {
            Value::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.value {
            Value::Null => v.visit_unit(),
            _ => Err(self.invalid_type(&v)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        if capture::is_capture(name) {
            return self.deserialize_struct(name, &[], v);
        }
        if crate::reserved::is_value_name(name) {
            // A `Value` target: its number arrives exactly.
            if let Value::Number(ref n) = self.value {
                return visit_number_exact(n, v).map_err(|e| self.err(e));
            }
            // And an unknown one as itself (the private map that carries
            // its type).
            if let Value::Unknown(ref t) = self.value {
                return v.visit_map(UnknownAccess {
                    ty: Some(crate::value::types::type_to_value(t)),
                });
            }
            return self.deserialize_any(v);
        }
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.check_depth()?;
        let span = self.span;
        match self.value {
            Value::Array(items) => {
                let mut access = ValueSeqAccess {
                    items: items.into_iter(),
                    index: 0,
                    span: self.span,
                    depth: self.depth + 1,
                    max_depth: self.max_depth,
                };
                let out = v.visit_seq(&mut access)?;
                if access.items.len() == 0 {
                    Ok(out)
                } else {
                    let e: Error = de::Error::invalid_length(
                        access.index + access.items.len(),
                        &"fewer elements",
                    );
                    Err(match span {
                        Some(s) => e.with_span(s),
                        None => e,
                    })
                }
            }
            _ => Err(self.invalid_type(&v)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.check_depth()?;
        match self.value {
            Value::Object(map) => v.visit_map(ValueMapAccess {
                entries: map.into_iter(),
                value: None,
                span: self.span,
                depth: self.depth + 1,
                max_depth: self.max_depth,
            }),
            _ => Err(self.invalid_type(&v)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if let Some(span) = self.span {
            if capture::is_spanned(name, fields) {
                return v.visit_map(capture::SpannedAccess::new(span, self));
            }
        } else if capture::is_spanned(name, fields) {
            return Err(Error::data(
                "a value built outside HCL text has no span for `Spanned`",
            ));
        }
        if name == capture::EXPRESSION_NAME {
            if let Value::Unknown(t) = &self.value {
                return Err(self.err(Error::data(format!(
                    "the value is unknown (only its type, {t}, is known): HCL has no expression for it"
                ))));
            }
            // An evaluated value is captured as the expression that
            // writes it, in HCL syntax.
            return v.visit_string(self.value.to_string());
        }
        if name == capture::BODY_NAME {
            return Err(self.err(Error::data(
                "a `hcl::RawBody` can only capture the body of a block, not a value",
            )));
        }
        self.deserialize_map(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        match self.value {
            Value::String(s) => v.visit_enum(EnumDeserializer::unit(Str::Owned(s), self.span)),
            Value::Object(m) => {
                let mut entries = m.into_iter();
                match (entries.next(), entries.next()) {
                    (Some((k, value)), None) => {
                        let content = ValueDeserializer {
                            value,
                            span: self.span,
                            depth: self.depth + 1,
                            max_depth: self.max_depth,
                        };
                        v.visit_enum(EnumDeserializer::new(Str::Owned(k), self.span, content))
                    }
                    _ => Err(not_variant(de::Unexpected::Map, self.span)),
                }
            }
            other => Err(not_variant(super::unexpected(&other), self.span)),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_string(v)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        drop(self);
        v.visit_unit()
    }
}

/// A value that cannot name an enum variant.
fn not_variant(found: de::Unexpected<'_>, span: Option<Span>) -> Error {
    let e = Error::data(format!(
        "invalid type: {found}, expected a string or an object with one key naming the variant"
    ));
    match span {
        Some(s) => e.with_span(s),
        None => e,
    }
}

struct ValueSeqAccess {
    items: std::vec::IntoIter<Value>,
    index: usize,
    span: Option<Span>,
    depth: usize,
    max_depth: usize,
}

impl<'de> de::SeqAccess<'de> for ValueSeqAccess {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        let Some(value) = self.items.next() else {
            return Ok(None);
        };
        let i = self.index;
        self.index += 1;
        let d = ValueDeserializer {
            value,
            span: self.span,
            depth: self.depth,
            max_depth: self.max_depth,
        };
        seed.deserialize(d)
            .map(Some)
            .map_err(|e| e.prepend_index(i))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct ValueMapAccess {
    entries: crate::value::map::IntoIter<String, Value>,
    value: Option<(String, Value)>,
    span: Option<Span>,
    depth: usize,
    max_depth: usize,
}

impl<'de> de::MapAccess<'de> for ValueMapAccess {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((k, v)) = self.entries.next() else {
            return Ok(None);
        };
        let key = seed
            .deserialize(KeyDeserializer::new(Str::Transient(&k), self.span))
            .map_err(|e| e.prepend_key(&k))?;
        self.value = Some((k, v));
        Ok(Some(key))
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let Some((k, value)) = self.value.take() else {
            return Err(Error::data("a map value was requested before its key"));
        };
        let d = ValueDeserializer {
            value,
            span: self.span,
            depth: self.depth,
            max_depth: self.max_depth,
        };
        seed.deserialize(d).map_err(|e| e.prepend_key(&k))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}
