//! `dynamic` blocks through serde ([`Options::with_dynamic_blocks`](super::Options::with_dynamic_blocks)):
//! a `dynamic` block of a body being read becomes the blocks it
//! generates, members of their type's group. The expansion's rules and
//! messages are the body abstraction's (`body/dynamic.rs`, as the schema
//! API's `ext::dynblock`); here, each generated block keeps the context
//! that holds its iterator, and is read in it.

use super::blocks::Member;
use super::json_value::JsonDeserializer;
use super::key::Str;
use super::value::ValueDeserializer;
use super::Shared;
use crate::body::json_ref::{JsonRef, PropRef};
use crate::error::{Error, Result};
use crate::eval::{Context, Type};
use crate::Value;
use hcl_grammar::{Block, BlockLabel, Span};
use serde::de::{self, Visitor};
use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

/// A block that a `dynamic` block generated: its type and labels (the
/// `dynamic` block's label and `labels`), the `content` block's body, and
/// the context its attributes are evaluated in (the iterator on top of
/// the enclosing context).
pub(crate) struct Generated<'de> {
    pub(crate) block: Block<'de>,
    pub(crate) ctx: Arc<Context>,
    /// Generated for an unknown `for_each` (`body/dynamic.rs`): its
    /// attributes are unknown.
    pub(crate) unknown: bool,
}

/// The blocks that `b` generates, when `dynamic` blocks are expanded and
/// it is one: their type, and the members (`Ok(None)`: `b` is a block as
/// any other). The rules are the body abstraction's (`body/dynamic.rs`).
pub(crate) fn expand_dynamic<'a, 'de>(
    b: &'a Block<'de>,
    sh: &'a Shared<'a>,
) -> Result<Option<(&'de str, Vec<Member<'a, 'de>>)>> {
    let Some(ctx) = &sh.dynamic else {
        return Ok(None);
    };
    if b.ident.name != "dynamic" {
        return Ok(None);
    }
    let generated = crate::body::generate_native(sh.src, sh.file, b, ctx)?;
    let Some(content) = b.body.blocks().find(|c| c.ident.name == "content") else {
        return Ok(None);
    };
    let type_name: &'de str = match b.labels.first() {
        Some(BlockLabel::Ident(i)) => i.name,
        Some(BlockLabel::String(s)) => match &s.value {
            Cow::Borrowed(n) => n,
            Cow::Owned(_) => {
                return Err(Error::data_at(
                    "a `dynamic` block's type may not be written with escapes",
                    s.span,
                ))
            }
        },
        None => return Ok(None),
    };
    let type_span = b.labels.first().map_or(b.ident.span, BlockLabel::span);
    let mut out = Vec::with_capacity(generated.len());
    for g in generated {
        let Some(ctx) = g.body.dynamic.clone() else {
            continue;
        };
        let labels = g
            .labels
            .into_iter()
            .zip(g.label_spans)
            .map(|(value, span)| {
                BlockLabel::String(hcl_grammar::StrLit {
                    value: Cow::Owned(value),
                    span,
                })
            })
            .collect();
        let block = Block {
            ident: hcl_grammar::Ident {
                name: type_name,
                span: type_span,
            },
            labels,
            body: content.body.clone(),
            open_brace: content.open_brace,
            close_brace: content.close_brace,
            span: b.span,
        };
        let unknown = g.body.unknown;
        out.push(Member::Generated(
            Rc::new(Generated {
                block,
                ctx,
                unknown,
            }),
            sh,
        ));
    }
    Ok(Some((type_name, out)))
}

/// A JSON-syntax block that a `dynamic` block generated: its labels,
/// the `content` object, and its context (as [`Generated`]).
pub(crate) struct GenJson<'a, 'de> {
    pub(crate) labels: Vec<(String, Span)>,
    pub(crate) body: JsonRef<'a, 'de>,
    pub(crate) type_span: Span,
    pub(crate) ctx: Arc<Context>,
    /// As [`Generated::unknown`].
    pub(crate) unknown: bool,
}

/// The blocks that the JSON property `p` generates, when `dynamic` blocks
/// are expanded and it is a `dynamic` property: each with its type
/// (`Ok(None)`: `p` is a property as any other).
#[allow(clippy::type_complexity)]
pub(crate) fn expand_dynamic_json<'a, 'de>(
    p: PropRef<'a, 'de>,
    sh: &'a Shared<'a>,
) -> Result<Option<Vec<(PropRef<'a, 'de>, Member<'a, 'de>)>>> {
    let Some(ctx) = &sh.dynamic else {
        return Ok(None);
    };
    if !p.name_is("dynamic") {
        return Ok(None);
    }
    let Some(types) = p.value().object() else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for tp in types {
        let bodies: Vec<JsonRef<'a, 'de>> = match tp.value().array() {
            Some(items) => items.iter().collect(),
            None => vec![tp.value()],
        };
        for body in bodies {
            let generated =
                crate::body::generate_json(sh.src, sh.file, tp.name(), tp.name_span, body, ctx)?;
            let content = body
                .object()
                .and_then(|props| props.iter().find(|c| c.name() == "content"));
            let Some(content) = content else {
                continue;
            };
            for g in generated {
                let Some(gctx) = g.body.dynamic.clone() else {
                    continue;
                };
                let block = GenJson {
                    labels: g.labels.into_iter().zip(g.label_spans).collect(),
                    body: content.value(),
                    type_span: tp.name_span,
                    ctx: gctx,
                    unknown: g.body.unknown,
                };
                out.push((tp, Member::GenJson(Rc::new(block), sh)));
            }
        }
    }
    Ok(Some(out))
}

/// A generated JSON-syntax block, read in its own context: as a struct,
/// its labels then its body; any other way, its body.
pub(crate) struct GenJsonDeserializer<'x, 'de> {
    g: &'x GenJson<'x, 'de>,
    offset: usize,
    depth: usize,
    sh: &'x Shared<'x>,
}

impl<'x, 'de> GenJsonDeserializer<'x, 'de> {
    pub(crate) fn new(
        g: &'x GenJson<'x, 'de>,
        offset: usize,
        depth: usize,
        sh: &'x Shared<'x>,
    ) -> Self {
        GenJsonDeserializer {
            g,
            offset,
            depth,
            sh,
        }
    }

    fn body(&self) -> JsonDeserializer<'x, 'de> {
        JsonDeserializer::new(self.g.body, self.sh, self.depth)
    }

    /// The body read whole (into a `Value` or a map) by its entries when
    /// that differs from reading its JSON value: generated for an unknown
    /// `for_each` (every attribute unknown, as in the native syntax and as
    /// a struct reads it), or holding `dynamic` blocks of its own.
    fn visit_body<V: Visitor<'de>>(
        self,
        v: V,
        otherwise: impl FnOnce(JsonDeserializer<'x, 'de>, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        match super::json_seq::dynamic_access(self.g.body, self.sh, self.depth)? {
            Some(entries) => {
                let span = self.g.body.span;
                v.visit_map(entries).map_err(|e| e.with_span(span))
            }
            None => otherwise(self.body(), v),
        }
    }
}

macro_rules! gen_json_forward {
    ($($method:ident ( $($arg:ident : $ty:ty),* ))*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* v: V) -> Result<V::Value> {
                de::Deserializer::$method(self.body(), $($arg,)* v)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for GenJsonDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if super::capture::is_spanned(name, fields) || super::capture::is_capture(name) {
            return de::Deserializer::deserialize_struct(self.body(), name, fields, v);
        }
        let labels = self
            .g
            .labels
            .get(self.offset..)
            .unwrap_or_default()
            .iter()
            .map(|(l, s)| (Str::Transient(l.as_str()), *s))
            .collect();
        super::json_seq::visit_labelled(labels, self.g.body, fields, self.sh, self.depth, v)
    }

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.visit_body(v, |d, v| de::Deserializer::deserialize_any(d, v))
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.visit_body(v, |d, v| de::Deserializer::deserialize_map(d, v))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        if !crate::reserved::is_value_name(name) {
            return de::Deserializer::deserialize_newtype_struct(self.body(), name, v);
        }
        self.visit_body(v, |d, v| {
            de::Deserializer::deserialize_newtype_struct(d, name, v)
        })
    }

    gen_json_forward! {
        deserialize_bool()
        deserialize_i8() deserialize_i16() deserialize_i32() deserialize_i64() deserialize_i128()
        deserialize_u8() deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
        deserialize_f32() deserialize_f64()
        deserialize_char() deserialize_str() deserialize_string()
        deserialize_bytes() deserialize_byte_buf()
        deserialize_option() deserialize_unit()
        deserialize_unit_struct(name: &'static str)
        deserialize_seq()
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier()
        deserialize_ignored_any()
    }
}

/// An attribute of a block that a `dynamic` block with an unknown
/// `for_each` generated (or of a block inside one): its value is unknown,
/// of any type, as the reference's `unknownBody` makes it
/// (`body/dynamic.rs`). A capture (`RawExpression`) still takes the
/// expression; a JSON property read as blocks (a struct, a sequence or a
/// map) is read as blocks, whose own attributes are unknown in turn.
pub(crate) struct UnknownDeserializer<D> {
    inner: D,
    value: ValueDeserializer,
    json: bool,
}

impl<D> UnknownDeserializer<D> {
    /// `inner` read as unknown; `span`: its value's; `json`: a JSON
    /// property (it may be blocks).
    pub(crate) fn new(inner: D, span: Span, json: bool, sh: &Shared<'_>, depth: usize) -> Self {
        let unknown = Value::unknown(Type::Any);
        UnknownDeserializer {
            inner,
            value: ValueDeserializer::at(unknown, span, depth, sh.max_depth),
            json,
        }
    }
}

macro_rules! unknown_forward {
    ($($method:ident ( $($arg:ident : $ty:ty),* ))*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* v: V) -> Result<V::Value> {
                de::Deserializer::$method(self.value, $($arg,)* v)
            }
        )*
    };
}

impl<'de, D: de::Deserializer<'de, Error = Error>> de::Deserializer<'de>
    for UnknownDeserializer<D>
{
    type Error = Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if self.json || super::capture::is_capture(name) {
            return self.inner.deserialize_struct(name, fields, v);
        }
        self.value.deserialize_struct(name, fields, v)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        if self.json {
            return self.inner.deserialize_seq(v);
        }
        self.value.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        if self.json {
            return self.inner.deserialize_map(v);
        }
        self.value.deserialize_map(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_some(self)
    }

    unknown_forward! {
        deserialize_any()
        deserialize_bool()
        deserialize_i8() deserialize_i16() deserialize_i32() deserialize_i64() deserialize_i128()
        deserialize_u8() deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
        deserialize_f32() deserialize_f64()
        deserialize_char() deserialize_str() deserialize_string()
        deserialize_bytes() deserialize_byte_buf()
        deserialize_unit()
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier()
        deserialize_ignored_any()
    }
}
