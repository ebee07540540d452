//! Keys and labels: strings that convert to numbers and bools when the
//! target asks (a map keyed by `u16` from `"8080" = ...`).

use super::value::{number_from_str, visit_int};
pub(crate) use crate::body::Str;
use crate::error::{Error, Result};
use hcl_grammar::{BlockLabel, Span};
use serde::de::{self, Visitor};
use serde::forward_to_deserialize_any;

/// A key, a label or any other bare string, with the span it came from.
pub(crate) struct KeyDeserializer<'a, 'de> {
    pub(crate) key: Str<'a, 'de>,
    pub(crate) span: Option<Span>,
}

impl<'a, 'de> KeyDeserializer<'a, 'de> {
    pub(crate) fn new(key: Str<'a, 'de>, span: Option<Span>) -> Self {
        KeyDeserializer { key, span }
    }

    fn number(&self, ty: &str) -> Result<crate::Number> {
        number_from_str(self.key.as_str(), ty).map_err(|e| self.at(e))
    }

    fn at(&self, e: Error) -> Error {
        match self.span {
            Some(s) => e.with_span(s),
            None => e,
        }
    }
}

macro_rules! key_int {
    ($($method:ident $visit:ident $ty:ty,)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
                let n = self.number(stringify!($ty))?;
                let span = self.span;
                visit_int::<$ty, V>(&n, v, stringify!($ty)).map_err(|e| match span {
                    Some(s) => e.with_span(s),
                    None => e,
                })
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for KeyDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.key.visit(v)
    }

    key_int! {
        deserialize_i8 visit_i8 i8,
        deserialize_i16 visit_i16 i16,
        deserialize_i32 visit_i32 i32,
        deserialize_i64 visit_i64 i64,
        deserialize_i128 visit_i128 i128,
        deserialize_u8 visit_u8 u8,
        deserialize_u16 visit_u16 u16,
        deserialize_u32 visit_u32 u32,
        deserialize_u64 visit_u64 u64,
        deserialize_u128 visit_u128 u128,
    }

    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let n = self.number("f32")?;
        v.visit_f32(n.as_f64() as f32)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let n = self.number("f64")?;
        v.visit_f64(n.as_f64())
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match crate::eval::convert::string_to_bool(self.key.as_str()) {
            Some(b) => v.visit_bool(b),
            None => self.key.visit(v),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        v.visit_enum(super::enums::EnumDeserializer::unit(self.key, self.span))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }

    forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier
    }
}

/// The labels for a `$labels` field: a sequence of strings.
pub(crate) struct LabelsDeserializer<'a, 'de> {
    pub(crate) labels: &'a [BlockLabel<'de>],
}

impl<'de> de::Deserializer<'de> for LabelsDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_seq(LabelsAccess {
            labels: self.labels.iter(),
        })
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_some(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct LabelsAccess<'a, 'de> {
    labels: std::slice::Iter<'a, BlockLabel<'de>>,
}

impl<'de> de::SeqAccess<'de> for LabelsAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        match self.labels.next() {
            Some(l) => seed
                .deserialize(KeyDeserializer::new(Str::from_label(l), Some(l.span())))
                .map(Some)
                .map_err(|e| e.with_span(l.span())),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.labels.len())
    }
}
