//! A block read as a map keyed by a label it lacks.

use super::capture;
use super::expr::ExprDeserializer;
use super::key::Str;
use crate::error::{Error, Result};
use hcl_grammar::Span;
use serde::de::{self, Visitor};
use std::cell::Cell;

/// An attribute of a block that has no label left but is read as a map
/// keyed by label: read as a struct, a value that is not an object means
/// the block was meant to have a label (`service { port = 1 }` into
/// `HashMap<String, Service>`), which the error says at the block.
pub(crate) struct NeedsLabel<'a, 'de> {
    inner: ExprDeserializer<'a, 'de>,
    block_type: Str<'a, 'de>,
    at: Span,
    /// Set when the error is the missing label: an error about the block,
    /// whose path is the block's, not the attribute's.
    raised: &'a Cell<bool>,
}

impl<'a, 'de> NeedsLabel<'a, 'de> {
    pub(super) fn new(
        inner: ExprDeserializer<'a, 'de>,
        block_type: Str<'a, 'de>,
        at: Span,
        raised: &'a Cell<bool>,
    ) -> Self {
        NeedsLabel {
            inner,
            block_type,
            at,
            raised,
        }
    }

    fn missing(&self) -> Error {
        self.raised.set(true);
        let t = self.block_type.as_str();
        Error::data_at(
            format!(
                "Missing label for `{t}`: the target reads `{t}` blocks as a map keyed by their label, so this block needs one (`{t} \"NAME\" {{ ... }}`)"
            ),
            self.at,
        )
    }
}

macro_rules! needs_label_forward {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
                self.inner.$method(v)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for NeedsLabel<'_, 'de> {
    type Error = Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if capture::is_spanned(name, fields)
            || matches!(self.inner.expr.kind, hcl_grammar::ExprKind::Object(_))
        {
            return self.inner.deserialize_struct(name, fields, v);
        }
        Err(self.missing())
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        self.inner.deserialize_unit_struct(name, v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        self.inner.deserialize_newtype_struct(name, v)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value> {
        self.inner.deserialize_tuple(len, v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        v: V,
    ) -> Result<V::Value> {
        self.inner.deserialize_tuple_struct(name, len, v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        self.inner.deserialize_enum(name, variants, v)
    }

    needs_label_forward! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }
}
