//! HCL's JSON syntax through serde: a JSON value read directly, as the
//! target asks (the syntax's rules, block forms included, are
//! `body/json.rs`'s; this file is the serde plumbing).
//!
//! A value read as a scalar, a sequence or a map is an expression: strings
//! are literal (NFC) text, or templates when the run has a context and
//! they hold `${` or `%{`, evaluated only when read, with positions in the
//! JSON text. A value read as a struct with `$label` or `$labels`, or as
//! a sequence of such structs, is a group of blocks in the JSON spec's
//! forms; any other object read as a struct is one block body, whose
//! `"//"` properties are comments.

use super::body::Entry;
use super::capture;
use super::enums::EnumDeserializer;
use super::group::{self, JsonItem};
use super::json_seq::{visit_block, BlockSeq};
use super::key::{KeyDeserializer, Str};
use super::value::{
    to_f32, visit_int, visit_number, visit_number_exact, ExactNumberAccess, ValueDeserializer,
};
use super::Shared;
use crate::body::json::{self, COMMENT};
use crate::body::json_ref::{distinct, ItemIter, Items, JsonRef, PropIter, PropRef, Props};
use crate::error::{Error, Result};
use crate::{Number, Value};
use hcl_grammar::json::JsonKind;
use serde::de::{self, Visitor};
use std::borrow::Cow;

use super::body::{LABELS_FIELD, LABEL_FIELD};

/// The text of a literal string or name (as written, borrowed when it
/// can be), normalized (NFC).
pub(crate) fn text<'a, 'de>(s: Str<'a, 'de>) -> Str<'a, 'de> {
    if s.as_str().is_ascii() {
        // Already NFC.
        return s;
    }
    match json::normalized(s.as_str()) {
        None => s,
        Some(n) => Str::Owned(n),
    }
}

/// [`text`] of a string of `v`'s document: as written when every string
/// of the document is ASCII.
#[inline]
pub(super) fn text_of<'a, 'de>(s: Str<'a, 'de>, v: JsonRef<'_, '_>) -> Str<'a, 'de> {
    if v.ascii() {
        s
    } else {
        text(s)
    }
}

/// The deserializer of one JSON value.
pub(crate) struct JsonDeserializer<'a, 'de> {
    pub(crate) v: JsonRef<'a, 'de>,
    pub(crate) sh: &'a Shared<'a>,
    pub(crate) depth: usize,
}

impl<'a, 'de> JsonDeserializer<'a, 'de> {
    pub(crate) fn new(v: JsonRef<'a, 'de>, sh: &'a Shared<'a>, depth: usize) -> Self {
        JsonDeserializer { v, sh, depth }
    }

    fn eval(&self) -> Result<Value> {
        json::evaluate(self.v, self.sh.templates.then_some(self.sh.ctx), 0)
    }

    fn value(self) -> Result<ValueDeserializer> {
        let v = self.eval()?;
        Ok(ValueDeserializer::at(
            v,
            self.v.span,
            self.depth,
            self.sh.max_depth,
        ))
    }

    fn number(&self) -> Option<Number> {
        json::number(self.v.number()?)
    }

    /// `json::small_int` of a number.
    fn small_int(&self) -> Option<i64> {
        json::small_int(self.v.number()?)
    }

    fn literal_str(&self) -> Option<Str<'a, 'de>> {
        let s = self.v.string_str()?;
        if json::is_template(s.as_str(), self.sh.templates) {
            return None;
        }
        Some(text_of(s, self.v))
    }

    /// Whether this is a string read as a template (only with a context:
    /// the text is not looked at without one).
    #[inline]
    fn is_template(&self) -> bool {
        self.sh.templates && self.v.string().is_some_and(|s| json::is_template(&s, true))
    }

    /// The properties of an object whose keys are all literal and
    /// distinct, so that it can be visited without evaluation; otherwise
    /// it is evaluated (`body/json.rs`'s rules: a repeated key is an
    /// error at the second). A body's names are compared as written, an
    /// object value's keys as strings (NFC): `"é"` and `"e\u0301"` are
    /// one key of an object, two properties of a body.
    pub(super) fn static_object(&self, body: bool) -> Option<Props<'a, 'de>> {
        let all = self.v.object()?;
        if self.sh.templates && all.any_name(|n| json::is_template(n, true)) {
            return None;
        }
        // Names that normalization leaves as they are (a body's, or ASCII
        // ones) are compared in place.
        let distinct = if body || self.v.ascii() || !all.any_name(|n| !n.is_ascii()) {
            all.distinct_names()
        } else {
            let keys: Vec<Cow<'_, str>> = all
                .names()
                .map(|n| json::normalized(n).map_or(Cow::Borrowed(n), Cow::Owned))
                .collect();
            distinct(&keys, |k| k.as_bytes())
        };
        distinct.then_some(all)
    }

    fn check_depth(&self) -> Result<()> {
        if self.depth >= self.sh.max_depth {
            Err(self.sh.too_deep(self.v.span))
        } else {
            Ok(())
        }
    }

    fn visit_array<V: Visitor<'de>>(self, items: Items<'a, 'de>, v: V) -> Result<V::Value> {
        self.check_depth()?;
        let mut access = SeqAccess {
            items: items.iter(),
            index: 0,
            sh: self.sh,
            depth: self.depth + 1,
        };
        let out = v.visit_seq(&mut access)?;
        match access.items.len() {
            0 => Ok(out),
            rest => Err(de::Error::invalid_length(
                access.index + rest,
                &"fewer elements",
            )),
        }
    }

    fn visit_object<V: Visitor<'de>>(
        self,
        props: Props<'a, 'de>,
        body: bool,
        v: V,
    ) -> Result<V::Value> {
        self.check_depth()?;
        v.visit_map(MapAccess::new(props, self.sh, self.depth + 1, body))
    }

    /// An object read as a struct: one block, its labels taken from nested
    /// objects when the struct has `$label` / `$labels`.
    fn visit_block_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        self.check_depth()?;
        // The reserved fields all start with `$`: most structs have none.
        let reserved = fields.iter().any(|f| f.starts_with('$'));
        if !reserved || !wants_labels(fields) {
            if reserved && fields.contains(&super::remain::REMAIN_FIELD) {
                let span = self.v.span;
                return v
                    .visit_map(super::json_seq::remain_access(
                        self.v, fields, self.sh, self.depth,
                    )?)
                    .map_err(|e| e.with_span(span));
            }
            if let Some(entries) = super::json_seq::dynamic_access(self.v, self.sh, self.depth)? {
                let span = self.v.span;
                return v.visit_map(entries).map_err(|e| e.with_span(span));
            }
            return match self.static_object(true) {
                Some(props) => self.visit_object(props, true, v),
                None => de::Deserializer::deserialize_struct(self.value()?, name, fields, v),
            };
        }
        let mut blocks = json::blocks_for_fields(self.v, fields, self.sh.max_depth)?;
        if blocks.len() > 1 {
            return Err(Error::data_at(
                format!(
                    "expected one block, found {}: read this property into a `Vec` or a map",
                    blocks.len()
                ),
                self.v.span,
            ));
        }
        let Some(block) = blocks.pop() else {
            return Err(Error::data_at(
                "Missing block label: expected an object whose property names are the block's labels",
                self.v.span,
            ));
        };
        visit_block(block, fields, self.sh, self.depth, v)
    }
}

/// Whether a struct with these fields takes labels.
pub(crate) fn wants_labels(fields: &[&str]) -> bool {
    fields.contains(&LABEL_FIELD) || fields.contains(&LABELS_FIELD)
}

macro_rules! json_int {
    ($($method:ident $ty:ty,)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
                match self.number() {
                    Some(n) => visit_int::<$ty, V>(&n, v, stringify!($ty))
                        .map_err(|e| e.with_span(self.v.span)),
                    None => self.value()?.$method(v),
                }
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for JsonDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.v.kind {
            JsonKind::Null => v.visit_unit(),
            JsonKind::Bool(b) => v.visit_bool(*b),
            JsonKind::Array(_) => match self.v.array() {
                Some(items) => self.visit_array(items, v),
                None => v.visit_unit(),
            },
            _ => {
                if let Some(i) = self.small_int() {
                    return v.visit_i64(i);
                }
                if let Some(n) = self.number() {
                    return visit_number(&n, v);
                }
                if let Some(s) = self.literal_str() {
                    return s.visit(v);
                }
                if let Some(props) = self.static_object(false) {
                    return self.visit_object(props, false, v);
                }
                self.value()?.deserialize_any(v)
            }
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.v.kind {
            JsonKind::Bool(b) => v.visit_bool(*b),
            _ => self.value()?.deserialize_bool(v),
        }
    }

    json_int! {
        deserialize_i8 i8, deserialize_i16 i16, deserialize_i32 i32,
        deserialize_i64 i64, deserialize_i128 i128,
        deserialize_u8 u8, deserialize_u16 u16, deserialize_u32 u32,
        deserialize_u64 u64, deserialize_u128 u128,
    }

    literal_scalars!(number, v);

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.v.kind {
            JsonKind::Null => v.visit_none(),
            JsonKind::String(_) if self.is_template() => match self.eval() {
                Ok(Value::Null) => v.visit_none(),
                _ => v.visit_some(self),
            },
            _ => v.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match &self.v.kind {
            JsonKind::Null => v.visit_unit(),
            _ => self.value()?.deserialize_unit(v),
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
            // A `Value` target: a number arrives exactly; anything
            // evaluated goes through `ValueDeserializer` (unknown values
            // included).
            let literal = match &self.v.node().kind {
                JsonKind::Number => {
                    let t = self.v.number().unwrap_or_default();
                    if let Some(i) = json::small_int(t) {
                        return v.visit_i64(i);
                    }
                    if json::exact_as_written(t) {
                        return v.visit_map(ExactNumberAccess {
                            text: Some(Cow::Borrowed(t)),
                        });
                    }
                    if let Some(n) = json::number(t) {
                        return visit_number_exact(&n, v).map_err(|e| e.with_span(self.v.span));
                    }
                    false
                }
                JsonKind::String(_) => !self.is_template(),
                JsonKind::Array(_) => {
                    if let Some(value) = self.plain_target(name) {
                        return super::direct::hand_over(value, v);
                    }
                    return self.deserialize_any(v);
                }
                JsonKind::Null | JsonKind::Bool(_) => {
                    return self.deserialize_any(v);
                }
                JsonKind::Object(_) => {
                    if let Some(value) = self.plain_target(name) {
                        return super::direct::hand_over(value, v);
                    }
                    if let Some(props) = self.static_object(false) {
                        return self.visit_object(props, false, v);
                    }
                    false
                }
            };
            if literal {
                if let Some(s) = self.v.string_str() {
                    return text_of(s, self.v).visit(v);
                }
            }
            return de::Deserializer::deserialize_newtype_struct(self.value()?, name, v);
        }
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        if let Some(items) = self.v.array() {
            return self.visit_array(items, v);
        }
        match &self.v.kind {
            // An object read as a sequence is a group of blocks (one, or
            // one per label path).
            JsonKind::Object(_) => {
                self.check_depth()?;
                v.visit_seq(BlockSeq::new(self.v, self.sh, self.depth + 1))
            }
            _ => self.value()?.deserialize_seq(v),
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
        // A struct with `#[serde(flatten)]` asks for a map: a block body,
        // whose values serde buffers (so evaluates), and whose labels it
        // cannot take (the JSON syntax needs the struct's fields to find
        // them).
        if super::remain::expects_struct(&v) {
            let whole = self.v.span;
            return match self.static_object(true) {
                Some(props) => self.visit_object(props, true, v),
                None => self.value()?.deserialize_map(v),
            }
            .map_err(|e| {
                if e.message().starts_with("missing field `$label") {
                    let span = e.span().unwrap_or(whole);
                    Error::data_at(
                        format!(
                            "{}: in the JSON syntax a struct with `#[serde(flatten)]` cannot take its labels (serde does not tell the deserializer its fields, and JSON labels are found by them); use a `#[serde(rename = \"$remain\")]` field instead of the flattened one",
                            e.message()
                        ),
                        span,
                    )
                } else {
                    super::remain::flatten_note(e)
                }
            });
        }
        match self.static_object(false) {
            Some(props) => self.visit_object(props, false, v),
            None => self.value()?.deserialize_map(v),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if capture::is_spanned(name, fields) {
            let span = self.v.span;
            return v.visit_map(capture::SpannedAccess::new(span, self));
        }
        if name == capture::EXPRESSION_NAME {
            return v.visit_map(capture::CaptureAccess::json(self.sh, self.v.span));
        }
        if name == capture::BODY_NAME {
            if !matches!(self.v.kind, JsonKind::Object(_)) {
                return Err(Error::data_at(
                    "a `hcl::RawBody` captures a block's body, a JSON object, but this is not one",
                    self.v.span,
                ));
            }
            return v.visit_map(capture::CaptureAccess::json(self.sh, self.v.span));
        }
        if let JsonKind::Object(_) = &self.v.kind {
            return self.visit_block_struct(name, fields, v);
        }
        de::Deserializer::deserialize_struct(self.value()?, name, fields, v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if let Some(s) = self.literal_str() {
            return v.visit_enum(EnumDeserializer::unit(s, Some(self.v.span)));
        }
        if let Some(p) = self.static_object(false).and_then(Props::single) {
            let content = JsonDeserializer::new(p.value(), self.sh, self.depth + 1);
            return v.visit_enum(EnumDeserializer::new(
                text(p.name_str()),
                Some(p.name_span),
                content,
            ));
        }
        self.value()?.deserialize_enum(name, variants, v)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }
}

struct SeqAccess<'a, 'de> {
    items: ItemIter<'a, 'de>,
    index: usize,
    sh: &'a Shared<'a>,
    depth: usize,
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        let i = self.index;
        self.index += 1;
        seed.deserialize(JsonDeserializer::new(item, self.sh, self.depth))
            .map(Some)
            .map_err(|e| e.with_span(item.span).prepend_index(i))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// An object's properties as a map; in a block body, `"//"` properties
/// are comments.
pub(crate) struct MapAccess<'a, 'de> {
    props: PropIter<'a, 'de>,
    value: Option<PropRef<'a, 'de>>,
    sh: &'a Shared<'a>,
    depth: usize,
    body: bool,
}

impl<'a, 'de> MapAccess<'a, 'de> {
    pub(crate) fn new(props: Props<'a, 'de>, sh: &'a Shared<'a>, depth: usize, body: bool) -> Self {
        MapAccess {
            props: props.iter(),
            value: None,
            sh,
            depth,
            body,
        }
    }
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let (p, name) = loop {
            let Some(p) = self.props.next() else {
                return Ok(None);
            };
            let name = p.name_str();
            if !(self.body && name.as_str() == COMMENT) {
                break (p, name);
            }
        };
        self.value = Some(p);
        let span = p.name_span;
        // A body's names are names, as written; an object's keys are
        // strings (NFC).
        let key = if self.body {
            name
        } else {
            text_of(name, p.value())
        };
        seed.deserialize(KeyDeserializer::new(key, Some(span)))
            .map(Some)
            .map_err(|e| e.with_span(span).prepend_key(p.name()))
    }

    #[inline]
    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let Some(p) = self.value.take() else {
            return Err(Error::data("a map value was requested before its key"));
        };
        seed.deserialize(JsonDeserializer::new(p.value(), self.sh, self.depth))
            .map_err(|e| e.with_span(p.value.span).prepend_key(p.name()))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.props.len())
    }
}

/// The entries of a JSON-syntax body: its properties, `"//"` comments left
/// out; a name may appear once; with `dynamic` blocks expanded, the
/// blocks a `dynamic` property generates among their type's (the
/// grouping is `group.rs`'s, [`group::json_entries`]).
pub(crate) fn body_entries<'a, 'de>(
    v: JsonRef<'a, 'de>,
    sh: &'a Shared<'a>,
) -> Result<Vec<Entry<'a, 'de>>> {
    let props = json::body_props(v);
    let mut items = Vec::with_capacity(props.len());
    for p in props {
        match super::dynamic::expand_dynamic_json(p, sh) {
            Ok(None) => items.push(JsonItem::Prop(p)),
            Ok(Some(generated)) => items.extend(
                generated
                    .into_iter()
                    .map(|(tp, m)| JsonItem::Generated(tp, m)),
            ),
            Err(e) => {
                // A repeated name before this property is the error met
                // first.
                group::json_entries(&items, sh)?;
                return Err(e);
            }
        }
    }
    group::json_entries(&items, sh)
}
