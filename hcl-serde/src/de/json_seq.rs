//! HCL's JSON syntax through serde: a value read as blocks, one (a
//! struct with `$label` / `$labels`) or a sequence of them, in the JSON
//! spec's block forms (found by `body/json.rs`'s rules).

use super::json_value::{wants_labels, JsonDeserializer, MapAccess};
use super::key::{KeyDeserializer, Str};
use super::Shared;
use crate::body::json::{self, FoundBlock};
use crate::error::{Error, Result};
use hcl_grammar::json::{JsonKind, JsonValue};
use hcl_grammar::Span;
use serde::de::{self, IntoDeserializer, Visitor};
use std::cell::RefCell;
use std::collections::VecDeque;

use super::body::{BodyAccess, Entry, LABELS_FIELD, LABEL_FIELD};
use super::remain::{Capture, RemainDeserializer, REMAIN_FIELD};

/// Reads one block as a struct with `fields`: its labels, then its body.
pub(crate) fn visit_block<'a, 'de, V: Visitor<'de>>(
    block: FoundBlock<'a, 'de>,
    fields: &'static [&'static str],
    sh: &'a Shared<'a>,
    depth: usize,
    v: V,
) -> Result<V::Value> {
    let JsonKind::Object(props) = &block.body.kind else {
        return Err(Error::data_at(
            "a block body must be an object",
            block.body.span,
        ));
    };
    let mut labels = block.labels.into_iter();
    let mut head: VecDeque<Head<'a, 'de>> = VecDeque::new();
    if fields.contains(&LABEL_FIELD) {
        if let Some(first) = labels.next() {
            head.push_back(Head::One(Str::from_cow(&first.name), first.name_span));
        }
    }
    if fields.contains(&LABELS_FIELD) {
        head.push_back(Head::Many(
            labels
                .by_ref()
                .map(|l| l.name.as_ref().to_owned())
                .collect(),
        ));
    }
    let span = block.body.span;
    let body = if fields.contains(&REMAIN_FIELD) {
        Rest::Remain(remain_access(block.body, fields, sh, depth))
    } else {
        Rest::Props(MapAccess::new(props, sh, depth + 1, true))
    };
    v.visit_map(BlockAccess {
        head,
        current: None,
        body,
    })
    .map_err(|e| e.with_span(span))
}

/// A JSON block body for a struct with a `$remain` field: the struct's
/// names, then the rest (`remain.rs`).
pub(crate) fn remain_access<'a, 'de>(
    body: &'a JsonValue<'de>,
    fields: &'static [&'static str],
    sh: &'a Shared<'a>,
    depth: usize,
) -> BodyAccess<'a, 'de> {
    let (mut named, rest): (Vec<_>, Vec<_>) = json::body_props(body)
        .into_iter()
        .map(|p| Entry::Json(p, sh))
        .partition(|e| matches!(e, Entry::Json(p, _) if fields.contains(&p.name.as_ref())));
    named.push(Entry::Remain(Box::new(RemainDeserializer {
        entries: rest,
        capture: Some(Capture {
            sh,
            line_from: body.span,
            frag: body.span,
            json: true,
            hidden: fields
                .iter()
                .filter(|f| !f.starts_with('$'))
                .map(|f| (*f).to_owned())
                .collect(),
        }),
        span: body.span,
        depth: depth + 1,
    })));
    BodyAccess::new(named, depth + 1)
}

/// The properties of a block body: all of them, or for a struct with a
/// `$remain` field its own and the rest.
enum Rest<'a, 'de> {
    Props(MapAccess<'a, 'de>),
    Remain(BodyAccess<'a, 'de>),
}

enum Head<'a, 'de> {
    One(Str<'a, 'de>, Span),
    Many(Vec<String>),
}

/// A block body as a map: its labels first, then its properties.
struct BlockAccess<'a, 'de> {
    head: VecDeque<Head<'a, 'de>>,
    current: Option<Head<'a, 'de>>,
    body: Rest<'a, 'de>,
}

impl<'de> de::MapAccess<'de> for BlockAccess<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if let Some(h) = self.head.pop_front() {
            let name = match h {
                Head::One(..) => LABEL_FIELD,
                Head::Many(_) => LABELS_FIELD,
            };
            self.current = Some(h);
            return seed.deserialize(name.into_deserializer()).map(Some);
        }
        match &mut self.body {
            Rest::Props(m) => m.next_key_seed(seed),
            Rest::Remain(m) => m.next_key_seed(seed),
        }
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        match self.current.take() {
            Some(Head::One(s, span)) => seed.deserialize(KeyDeserializer::new(s, Some(span))),
            Some(Head::Many(ls)) => {
                seed.deserialize(de::value::SeqDeserializer::<_, Error>::new(ls.into_iter()))
            }
            None => match &mut self.body {
                Rest::Props(m) => m.next_value_seed(seed),
                Rest::Remain(m) => m.next_value_seed(seed),
            },
        }
    }
}

/// An object read as a sequence of blocks. The first element is read
/// before the element type is known: it learns it from the struct's
/// fields and leaves the other blocks in `rest`.
pub(crate) struct BlockSeq<'a, 'de> {
    v: &'a JsonValue<'de>,
    sh: &'a Shared<'a>,
    depth: usize,
    started: bool,
    rest: RefCell<VecDeque<FoundBlock<'a, 'de>>>,
    index: usize,
}

impl<'a, 'de> BlockSeq<'a, 'de> {
    pub(crate) fn new(v: &'a JsonValue<'de>, sh: &'a Shared<'a>, depth: usize) -> Self {
        BlockSeq {
            v,
            sh,
            depth,
            started: false,
            rest: RefCell::new(VecDeque::new()),
            index: 0,
        }
    }

    /// Whether every block has been read (so that a sequence chained after
    /// this one can go on without asking it).
    pub(crate) fn is_done(&self) -> bool {
        self.started && self.rest.borrow().is_empty()
    }

    /// Numbers its elements (in error paths) from `index`, for a sequence
    /// chained after others.
    pub(crate) fn numbered_from(mut self, index: usize) -> Self {
        self.index = index;
        self
    }
}

impl<'de> de::SeqAccess<'de> for BlockSeq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        let i = self.index;
        self.index += 1;
        let span = self.v.span;
        if !self.started {
            self.started = true;
            return seed
                .deserialize(Probe { seq: self })
                .map(Some)
                .map_err(|e| e.with_span(span).prepend_index(i));
        }
        let Some(block) = self.rest.borrow_mut().pop_front() else {
            return Ok(None);
        };
        let body_span = block.body.span;
        seed.deserialize(OneBlock {
            block,
            sh: self.sh,
            depth: self.depth,
        })
        .map(Some)
        .map_err(|e| e.with_span(body_span).prepend_index(i))
    }
}

/// The first element of a [`BlockSeq`].
struct Probe<'s, 'a, 'de> {
    seq: &'s BlockSeq<'a, 'de>,
}

impl<'a, 'de> Probe<'_, 'a, 'de> {
    fn whole(&self) -> JsonDeserializer<'a, 'de> {
        JsonDeserializer::new(self.seq.v, self.seq.sh, self.seq.depth)
    }
}

impl<'de> de::Deserializer<'de> for Probe<'_, '_, 'de> {
    type Error = Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        let seq = self.seq;
        if !wants_labels(fields) {
            return self.whole().deserialize_struct(name, fields, v);
        }
        let mut blocks: VecDeque<_> =
            json::blocks_for_fields(seq.v, fields, seq.sh.max_depth)?.into();
        let Some(first) = blocks.pop_front() else {
            return Err(Error::data_at(
                "Missing block label: expected an object whose property names are the block's labels",
                seq.v.span,
            ));
        };
        *seq.rest.borrow_mut() = blocks;
        visit_block(first, fields, seq.sh, seq.depth, v)
    }

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.whole().deserialize_any(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        self.whole().deserialize_newtype_struct(name, v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_some(self)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.whole().deserialize_map(v)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct enum identifier
    }
}

/// A block after the first of a [`BlockSeq`].
struct OneBlock<'a, 'de> {
    block: FoundBlock<'a, 'de>,
    sh: &'a Shared<'a>,
    depth: usize,
}

impl<'de> de::Deserializer<'de> for OneBlock<'_, 'de> {
    type Error = Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        visit_block(self.block, fields, self.sh, self.depth, v)
    }

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        JsonDeserializer::new(self.block.body, self.sh, self.depth).deserialize_any(v)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier
    }
}
