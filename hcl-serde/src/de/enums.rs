//! Externally tagged enums: a variant name (a string, the one key of an
//! object or body, or a block's label) and its content.

use super::key::{KeyDeserializer, Str};
use super::value::ValueDeserializer;
use crate::error::{Error, Result};
use hcl_grammar::Span;
use serde::de::{self, Deserialize, Visitor};

/// A variant name and, unless it is a unit variant, its content.
pub(crate) struct EnumDeserializer<'a, 'de, D> {
    variant: Str<'a, 'de>,
    span: Option<Span>,
    content: Option<D>,
}

impl<'a, 'de> EnumDeserializer<'a, 'de, ValueDeserializer> {
    /// A unit variant named by a string.
    pub(crate) fn unit(variant: Str<'a, 'de>, span: Option<Span>) -> Self {
        EnumDeserializer {
            variant,
            span,
            content: None,
        }
    }
}

impl<'a, 'de, D> EnumDeserializer<'a, 'de, D> {
    /// The variant `variant` with `content`.
    pub(crate) fn new(variant: Str<'a, 'de>, span: Option<Span>, content: D) -> Self {
        EnumDeserializer {
            variant,
            span,
            content: Some(content),
        }
    }
}

impl<'de, D: de::Deserializer<'de, Error = Error>> de::EnumAccess<'de>
    for EnumDeserializer<'_, 'de, D>
{
    type Error = Error;
    type Variant = VariantDeserializer<D>;

    fn variant_seed<T: de::DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, VariantDeserializer<D>)> {
        let name = self.variant.as_str().to_owned();
        let span = self.span;
        let v = seed
            .deserialize(KeyDeserializer::new(self.variant, span))
            .map_err(|e| match span {
                Some(s) => e.with_span(s),
                None => e,
            })?;
        Ok((
            v,
            VariantDeserializer {
                name,
                span,
                content: self.content,
            },
        ))
    }
}

/// The content of a variant.
pub(crate) struct VariantDeserializer<D> {
    name: String,
    span: Option<Span>,
    content: Option<D>,
}

impl<D> VariantDeserializer<D> {
    fn content(self, what: &str) -> Result<(D, String)> {
        match self.content {
            Some(d) => Ok((d, self.name)),
            None => {
                let e = Error::data(format!(
                    "invalid type: unit variant `{}`, expected {what}",
                    self.name
                ));
                Err(match self.span {
                    Some(s) => e.with_span(s),
                    None => e,
                })
            }
        }
    }
}

impl<'de, D: de::Deserializer<'de, Error = Error>> de::VariantAccess<'de>
    for VariantDeserializer<D>
{
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        match self.content {
            None => Ok(()),
            Some(d) => <()>::deserialize(d).map_err(|e| e.prepend_key(&self.name)),
        }
    }

    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        let (d, name) = self.content("a newtype variant")?;
        seed.deserialize(d).map_err(|e| e.prepend_key(&name))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value> {
        let (d, name) = self.content("a tuple variant")?;
        d.deserialize_tuple(len, v)
            .map_err(|e| e.prepend_key(&name))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        let (d, name) = self.content("a struct variant")?;
        d.deserialize_struct("", fields, v)
            .map_err(|e| e.prepend_key(&name))
    }
}
