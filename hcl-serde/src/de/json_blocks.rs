//! The JSON spec's block forms, read where the target asks for blocks.
//!
//! In HCL's JSON syntax a property is a block only because the application
//! says so. Here the target type says so: an object read as a struct with
//! a `$label` or `$labels` field, or as a sequence of such structs, is a
//! group of blocks: one object level per label (`{"web": {...}}`), a body
//! that is an array for repeated blocks (`{"web": [{...}, {...}]}`), and
//! `null` for none. `$label` takes one level; `$labels` takes the levels
//! left, which JSON cannot count: a level is a label level while each of
//! its values is an object (or an array of them) and none of its names is
//! a field of the struct. Any other object read as a sequence is one block.

use super::expr::{ExprDeserializer, ExprMapAccess};
use super::key::{KeyDeserializer, Str};
use super::Shared;
use crate::error::{Error, Result};
use hcl_grammar::{Expr, ExprKind, ObjectItem, ObjectKey, Span};
use serde::de::{self, IntoDeserializer, Visitor};
use std::cell::RefCell;
use std::collections::VecDeque;

use super::body::{LABELS_FIELD, LABEL_FIELD};

/// Whether a struct with these fields takes labels.
pub(crate) fn wants_labels(fields: &[&str]) -> bool {
    fields.contains(&LABEL_FIELD) || fields.contains(&LABELS_FIELD)
}

/// One block found in a JSON value: its labels and its body (an object).
pub(crate) struct JsonBlock<'a, 'de> {
    labels: Vec<&'a ObjectItem<'de>>,
    body: &'a Expr<'de>,
}

/// The blocks of `expr` for a struct with `fields`, in order (depth first).
pub(crate) fn collect<'a, 'de>(
    expr: &'a Expr<'de>,
    fields: &[&str],
    sh: &Shared<'_>,
) -> Result<Vec<JsonBlock<'a, 'de>>> {
    let levels = if fields.contains(&LABEL_FIELD) { 1 } else { 0 };
    let rest = fields.contains(&LABELS_FIELD);
    let mut out = Vec::new();
    walk(expr, fields, levels, rest, &mut Vec::new(), &mut out, sh, 0)?;
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn walk<'a, 'de>(
    expr: &'a Expr<'de>,
    fields: &[&str],
    levels: usize,
    rest: bool,
    labels: &mut Vec<&'a ObjectItem<'de>>,
    out: &mut Vec<JsonBlock<'a, 'de>>,
    sh: &Shared<'_>,
    depth: usize,
) -> Result<()> {
    if depth > sh.max_depth {
        return Err(sh.too_deep(expr.span));
    }
    let at_label = levels > 0
        || (rest && matches!(&expr.kind, ExprKind::Object(items) if is_label_level(items, fields)));
    match &expr.kind {
        ExprKind::Null if !at_label || labels.is_empty() => Ok(()),
        // An array: repeated blocks at the body level, merged objects at a
        // label level (the reference's "deep attributes").
        ExprKind::Tuple(items) => {
            for item in items {
                walk(item, fields, levels, rest, labels, out, sh, depth + 1)?;
            }
            Ok(())
        }
        ExprKind::Object(items) if at_label => {
            if items.is_empty() && labels.is_empty() {
                return Ok(());
            }
            if items.is_empty() {
                return Err(Error::data_at(
                    "Missing block label: this object must have a property for the block's next label",
                    expr.span,
                ));
            }
            for item in items {
                labels.push(item);
                walk(
                    &item.value,
                    fields,
                    levels.saturating_sub(1),
                    rest,
                    labels,
                    out,
                    sh,
                    depth + 1,
                )?;
                labels.pop();
            }
            Ok(())
        }
        ExprKind::Object(_) => {
            out.push(JsonBlock {
                labels: labels.clone(),
                body: expr,
            });
            Ok(())
        }
        _ if at_label => Err(Error::data_at(
            "Missing block label: expected an object whose property names are the block's labels",
            expr.span,
        )),
        _ => Err(Error::data_at(
            "a block body must be a JSON object (or an array of objects, or null)",
            expr.span,
        )),
    }
}

/// Whether an object is a level of labels for `$labels`: each value an
/// object or an array of objects, and no name a field of the struct.
fn is_label_level(items: &[ObjectItem<'_>], fields: &[&str]) -> bool {
    !items.is_empty()
        && items.iter().all(|i| {
            let is_field = matches!(&i.key, ObjectKey::Ident(id) if fields.contains(&id.name));
            let nested = match &i.value.kind {
                ExprKind::Object(_) => true,
                ExprKind::Tuple(xs) => xs.iter().all(|x| matches!(x.kind, ExprKind::Object(_))),
                _ => false,
            };
            !is_field && nested
        })
}

/// The text of a label: a property name taken verbatim (labels are never
/// templates).
fn label_text<'a, 'de>(item: &'a ObjectItem<'de>, sh: &'a Shared<'a>) -> (Str<'a, 'de>, Span) {
    let span = item.key.span();
    match &item.key {
        ObjectKey::Ident(i) => (Str::Borrowed(i.name), span),
        ObjectKey::Expr(e) => match &e.kind {
            ExprKind::String(s) => (Str::from_cow(s), span),
            _ => {
                let inner = Span::new(span.start + 1, span.end.saturating_sub(1));
                (
                    Str::Transient(sh.src.get(inner.range()).unwrap_or_default()),
                    span,
                )
            }
        },
    }
}

/// Reads one block as a struct with `fields`.
pub(crate) fn visit_block<'a, 'de, V: Visitor<'de>>(
    block: JsonBlock<'a, 'de>,
    fields: &'static [&'static str],
    sh: &'a Shared<'a>,
    depth: usize,
    v: V,
) -> Result<V::Value> {
    let ExprKind::Object(items) = &block.body.kind else {
        return Err(Error::data_at(
            "a block body must be an object",
            block.body.span,
        ));
    };
    let mut labels = block.labels.into_iter();
    let mut head: VecDeque<Head<'a, 'de>> = VecDeque::new();
    if fields.contains(&LABEL_FIELD) {
        if let Some(first) = labels.next() {
            let (s, span) = label_text(first, sh);
            head.push_back(Head::One(s, span));
        }
    }
    if fields.contains(&LABELS_FIELD) {
        head.push_back(Head::Many(
            labels
                .by_ref()
                .map(|l| label_text(l, sh).0.as_str().to_owned())
                .collect(),
        ));
    }
    let span = block.body.span;
    v.visit_map(BlockAccess {
        head,
        current: None,
        body: ExprMapAccess::new(items, sh, depth + 1, true),
    })
    .map_err(|e| e.with_span(span))
}

enum Head<'a, 'de> {
    One(Str<'a, 'de>, Span),
    Many(Vec<String>),
}

/// A block body as a map: its labels first, then its properties.
struct BlockAccess<'a, 'de> {
    head: VecDeque<Head<'a, 'de>>,
    current: Option<Head<'a, 'de>>,
    body: ExprMapAccess<'a, 'de>,
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
        self.body.next_key_seed(seed)
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        match self.current.take() {
            Some(Head::One(s, span)) => seed.deserialize(KeyDeserializer::new(s, Some(span))),
            Some(Head::Many(ls)) => {
                seed.deserialize(de::value::SeqDeserializer::<_, Error>::new(ls.into_iter()))
            }
            None => self.body.next_value_seed(seed),
        }
    }
}

/// An object read as a sequence of blocks. The first element is read
/// before the element type is known: it learns it from the struct's
/// fields and leaves the other blocks in `rest`.
pub(crate) struct BlockSeq<'a, 'de> {
    expr: &'a Expr<'de>,
    sh: &'a Shared<'a>,
    depth: usize,
    started: bool,
    rest: RefCell<VecDeque<JsonBlock<'a, 'de>>>,
    index: usize,
}

impl<'a, 'de> BlockSeq<'a, 'de> {
    pub(crate) fn new(expr: &'a Expr<'de>, sh: &'a Shared<'a>, depth: usize) -> Self {
        BlockSeq {
            expr,
            sh,
            depth,
            started: false,
            rest: RefCell::new(VecDeque::new()),
            index: 0,
        }
    }
}

impl BlockSeq<'_, '_> {
    /// Whether every block has been read (so that a sequence chained after
    /// this one can go on without asking it, `files.rs`).
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
        let span = self.expr.span;
        if !self.started {
            self.started = true;
            let probe = Probe { seq: self };
            return seed
                .deserialize(probe)
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
            return ExprDeserializer::new(seq.expr, seq.sh, seq.depth)
                .deserialize_struct(name, fields, v);
        }
        let mut blocks: VecDeque<_> = collect(seq.expr, fields, seq.sh)?.into();
        let Some(first) = blocks.pop_front() else {
            return Err(Error::data_at(
                "Missing block label: expected an object whose property names are the block's labels",
                seq.expr.span,
            ));
        };
        *seq.rest.borrow_mut() = blocks;
        visit_block(first, fields, seq.sh, seq.depth, v)
    }

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(
            ExprDeserializer::new(self.seq.expr, self.seq.sh, self.seq.depth),
            v,
        )
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_newtype_struct(
            ExprDeserializer::new(self.seq.expr, self.seq.sh, self.seq.depth),
            name,
            v,
        )
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_some(self)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_map(
            ExprDeserializer::new(self.seq.expr, self.seq.sh, self.seq.depth),
            v,
        )
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
    block: JsonBlock<'a, 'de>,
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
        de::Deserializer::deserialize_any(
            ExprDeserializer::new(self.block.body, self.sh, self.depth),
            v,
        )
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
