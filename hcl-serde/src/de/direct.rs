//! A [`Value`] target built directly from the native tree.
//!
//! `Value::deserialize` asks for the private newtype name
//! `VALUE_TARGET_NAME`; the native deserializers (`expr.rs`, `body.rs`,
//! `blocks.rs`) answer it by building the value here, from the tree, and
//! handing it to the visitor whole (`hand_over`), instead of a visit per
//! node, a key deserializer per key and a map access per object. What is
//! built is what the visits would build, node for node: the same grouping
//! of blocks (`group.rs`'s `Groups`), the same exact
//! numbers (an integer as `visit_i64`/`u64`/`i128`/`u128` gives it, any
//! other number through its exact text), the same private one-entry maps
//! (`object_value`), the same depth limit.
//!
//! An expression's value is built with the visits' errors (span, path).
//! A body's is built only in the common case (one native file, no
//! `dynamic` blocks, not inside a generated block); on any error it gives
//! up (`None`) and the body is read again through the visits, which
//! report the error as ever: an error costs a second evaluation of what
//! came before it, a valid file nothing.

use super::blocks::{BlocksDeserializer, Member};
use super::expr::ExprDeserializer;
use super::group::{Groups, Key};
use super::Shared;
use crate::error::{Error, Result};
use crate::value::de::{hand, object_value, NUMBER_KEY, UNKNOWN_KEY};
use crate::value::types::{type_from_value, type_to_value};
use crate::value::Map;
use crate::{Number, Value};
use hcl_grammar::{Block, BlockLabel, Body, Expr, ExprKind, ObjectKey, Span, Structure};
use serde::de::{self, Visitor};

/// Hands `value` to `v`, a `Value` visitor (which takes it whole in
/// `visit_newtype_struct`); any other visitor reads it through a
/// [`ValueDeserializer`](super::value::ValueDeserializer).
pub(super) fn hand_over<'de, V: Visitor<'de>>(value: Value, v: V) -> Result<V::Value> {
    hand(Some(value));
    let r = v.visit_newtype_struct(HandOver);
    // Whatever the visitor did not take.
    drop(hand(None));
    r
}

/// The deserializer [`hand_over`] gives a visitor that is not a `Value`'s.
struct HandOver;

impl<'de> de::Deserializer<'de> for HandOver {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match hand(None) {
            Some(value) => {
                de::Deserializer::deserialize_any(super::value::ValueDeserializer::new(value), v)
            }
            None => Err(Error::data("a value was read twice")),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// Whether values of this file can be built here: not inside a block
/// that a `dynamic` block generated (its attributes are unknown), no
/// `dynamic` blocks to expand, not one of several files.
pub(super) fn plain(sh: &Shared<'_>) -> bool {
    sh.dynamic.is_none() && !sh.unknown && !sh.merged
}

#[cfg(any(test, fuzzing))]
thread_local! {
    /// Off: every `Value` target takes the visits, for the tests (and
    /// the fuzz target) that compare the routes (`direct_tests.rs`).
    static ON: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
    /// Off: a JSON text is not built while it is parsed
    /// (`json_direct.rs`), but read into a document first (and built
    /// from it when [`ON`]).
    static JSON_BUILDER: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether `Value` targets are built here (always, outside tests).
#[inline]
pub(super) fn on() -> bool {
    #[cfg(any(test, fuzzing))]
    return ON.get();
    #[cfg(not(any(test, fuzzing)))]
    true
}

/// Whether a JSON text read into a `Value` is built while it is parsed
/// (when [`on`]; always, outside tests).
#[inline]
pub(super) fn json_builder_on() -> bool {
    #[cfg(any(test, fuzzing))]
    return ON.get() && JSON_BUILDER.get();
    #[cfg(not(any(test, fuzzing)))]
    true
}

/// Sets this thread's routes for `Value` targets: `direct`, values built
/// from the tree (else read through the visits); `json_builder`, a JSON
/// text built while it is parsed (else through its document). For the
/// tests and fuzz targets that compare them.
#[cfg(any(test, fuzzing))]
#[cfg_attr(not(fuzzing), allow(unreachable_pub))]
pub fn set_routes(direct: bool, json_builder: bool) {
    ON.set(direct);
    JSON_BUILDER.set(json_builder);
}

#[cfg(test)]
#[path = "direct_tests.rs"]
mod tests;

/// The value of a number as a `Value` target receives it
/// (`visit_number_exact`, then `ValueVisitor`).
pub(super) fn number_value(n: &Number) -> Value {
    if !n.is_negative_zero() && n.is_integer() {
        if let Some(i) = n.as_i64() {
            return Value::from(i);
        }
        if let Some(u) = n.as_u64() {
            return Value::from(u);
        }
        if let Some(i) = n.as_i128() {
            return Value::from(i);
        }
        if let Some(u) = n.as_u128() {
            return Value::from(u);
        }
    }
    let text = n.to_exact_text();
    match Number::from_exact_text(&text) {
        Some(m) => Value::Number(m),
        None => {
            let mut map = Map::with_capacity(1);
            map.insert(NUMBER_KEY.to_owned(), Value::String(text));
            Value::Object(map)
        }
    }
}

/// The value of `expr` (with `cached`, its value if already evaluated),
/// as `Value::deserialize` on its `ExprDeserializer` gives it, errors
/// included.
pub(super) fn expr_value(
    expr: &Expr<'_>,
    sh: &Shared<'_>,
    depth: usize,
    cached: Option<Value>,
) -> Result<Value> {
    let d = ExprDeserializer::new(expr, sh, depth);
    if let Some(n) = d.literal_number() {
        return Ok(number_value(&n));
    }
    match &expr.kind {
        ExprKind::Null => return Ok(Value::Null),
        ExprKind::Bool(b) => return Ok(Value::Bool(*b)),
        ExprKind::Tuple(items) => {
            d.check_depth()?;
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let v = expr_value(item, sh, depth + 1, None)
                    .map_err(|e| e.with_span(item.span).prepend_index(i))?;
                out.push(v);
            }
            return Ok(Value::Array(out));
        }
        _ => {}
    }
    if let Some(s) = d.literal_str() {
        return Ok(Value::String(s.as_str().to_owned()));
    }
    if let Some(items) = d.static_object() {
        d.check_depth()?;
        let mut map = Map::with_capacity(items.len());
        for item in items {
            let key = match &item.key {
                ObjectKey::Ident(i) => i.name,
                ObjectKey::Expr(e) => match &e.kind {
                    ExprKind::String(s) => s,
                    _ => return Err(Error::data_at("unexpected computed key", e.span)),
                },
            };
            let v = expr_value(&item.value, sh, depth + 1, None)
                .map_err(|e| e.with_span(item.value.span).prepend_key(key))?;
            map.insert(key.to_owned(), v);
        }
        return Ok(object_value(map));
    }
    let v = match cached {
        Some(v) => v,
        None => crate::eval::eval_expr(expr, sh.ctx)?,
    };
    evaluated(v, Some(expr.span), depth, sh.max_depth)
}

/// An evaluated value as a `Value` target receives it through a
/// `ValueDeserializer` at `depth` (numbers exact, unknowns through their
/// type, the depth limit), errors included.
fn evaluated(v: Value, span: Option<Span>, depth: usize, max: usize) -> Result<Value> {
    match v {
        Value::Number(n) => Ok(number_value(&n)),
        Value::Unknown(t) => {
            let ty = evaluated(type_to_value(&t), None, 0, super::DEFAULT_MAX_DEPTH)?;
            Ok(match type_from_value(&ty) {
                Some(t) => Value::unknown(t),
                None => {
                    let mut map = Map::with_capacity(1);
                    map.insert(UNKNOWN_KEY.to_owned(), ty);
                    Value::Object(map)
                }
            })
        }
        Value::Null | Value::Bool(_) | Value::String(_) => Ok(v),
        Value::Array(mut items) => {
            if depth >= max {
                return Err(super::too_deep(max, span));
            }
            for (i, item) in items.iter_mut().enumerate() {
                *item = evaluated(std::mem::take(item), span, depth + 1, max)
                    .map_err(|e| e.prepend_index(i))?;
            }
            Ok(Value::Array(items))
        }
        Value::Object(mut map) => {
            if depth >= max {
                return Err(super::too_deep(max, span));
            }
            for (k, item) in map.iter_mut() {
                *item = evaluated(std::mem::take(item), span, depth + 1, max)
                    .map_err(|e| e.prepend_key(k))?;
            }
            Ok(object_value(map))
        }
    }
}

/// The value of a native body with `labels` still to consume, at
/// `depth`, as `Value::deserialize` on its `BodyDeserializer` gives it;
/// `None` on any error (the caller reads it again through the visits).
pub(super) fn body_value(
    body: &Body<'_>,
    labels: &[BlockLabel<'_>],
    sh: &Shared<'_>,
    depth: usize,
) -> Option<Value> {
    if depth >= sh.max_depth {
        return None;
    }
    if let Some((first, rest)) = labels.split_first() {
        let inner = body_value(body, rest, sh, depth + 1)?;
        let mut map = Map::with_capacity(1);
        map.insert(first.as_str().to_owned(), inner);
        return Some(object_value(map));
    }
    // The grouping of the visits (`group.rs`): blocks by type, in order
    // of first appearance. Attributes are left out of it: a name both an
    // attribute's and a block type's meets itself in the map (`None`: the
    // visits report it).
    let items = &body.items;
    let groups = Groups::new(items, |item| match item {
        Structure::Block(b) => Key::Group(b.ident.name),
        Structure::Attribute(_) => Key::Skip,
    })
    .ok()?;
    let mut map = Map::with_capacity(items.len());
    let mut same = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item {
            Structure::Attribute(a) => {
                let v = expr_value(&a.expr, sh, depth + 1, None).ok()?;
                if map.insert(a.name.name.to_owned(), v).is_some() {
                    return None;
                }
            }
            Structure::Block(b) => {
                if groups.follows(i) {
                    continue;
                }
                let v = if groups.next(i).is_none() {
                    // One block of its type (most): its labels, then its
                    // body, as the group's map by label would give them.
                    body_value(&b.body, &b.labels, sh, depth + 1)?
                } else {
                    same.clear();
                    for j in groups.members(i) {
                        if let Some(Structure::Block(b)) = items.get(j) {
                            same.push(&**b);
                        }
                    }
                    group_value(&same, sh, 0, depth + 1)?
                };
                if map.insert(b.ident.name.to_owned(), v).is_some() {
                    return None;
                }
            }
        }
    }
    Some(object_value(map))
}

/// The value of native blocks of one type and file, whose first `offset`
/// labels are consumed, as `Value::deserialize` on their
/// `BlocksDeserializer` gives it: a map by their next label (grouped as
/// `BlocksDeserializer::by_label` groups them), one block's body, or a
/// sequence; `None` on any error.
fn group_value(
    blocks: &[&Block<'_>],
    sh: &Shared<'_>,
    offset: usize,
    depth: usize,
) -> Option<Value> {
    if let [b] = blocks {
        return body_value(
            &b.body,
            b.labels.get(offset..).unwrap_or_default(),
            sh,
            depth,
        );
    }
    // A map by label and a sequence both check the depth here.
    if depth >= sh.max_depth || blocks.is_empty() {
        return None;
    }
    fn label<'b>(b: &'b Block<'_>, offset: usize) -> Option<&'b str> {
        b.labels.get(offset).map(BlockLabel::as_str)
    }
    let labelled = blocks.iter().filter(|b| label(b, offset).is_some()).count();
    if labelled == 0 {
        let mut out = Vec::with_capacity(blocks.len());
        for b in blocks {
            out.push(body_value(&b.body, &[], sh, depth + 1)?);
        }
        return Some(Value::Array(out));
    }
    if labelled < blocks.len() {
        // Some blocks lack the label others have: an error.
        return None;
    }
    let groups = Groups::new(blocks, |b| label(b, offset).map_or(Key::Skip, Key::Group)).ok()?;
    let mut map = Map::with_capacity(blocks.len());
    let mut same = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        if groups.follows(i) {
            continue;
        }
        let l = label(b, offset)?;
        let v = if groups.next(i).is_none() {
            body_value(
                &b.body,
                b.labels.get(offset + 1..).unwrap_or_default(),
                sh,
                depth + 1,
            )?
        } else {
            same.clear();
            for j in groups.members(i) {
                if let Some(b) = blocks.get(j) {
                    same.push(*b);
                }
            }
            group_value(&same, sh, offset + 1, depth + 1)?
        };
        map.insert(l.to_owned(), v);
    }
    Some(object_value(map))
}

/// The value of a group of blocks, as `Value::deserialize` on its
/// `BlocksDeserializer` gives it; `None` on any error, or a member that
/// is not a native block of a plain file.
pub(super) fn blocks_value(group: &BlocksDeserializer<'_, '_>) -> Option<Value> {
    let members = group.blocks.as_slice();
    let sh = members.first()?.shared();
    let mut blocks = Vec::with_capacity(members.len());
    for m in members {
        match m {
            Member::Native(b, bsh) if plain(bsh) && std::ptr::eq(*bsh, sh) => blocks.push(*b),
            _ => return None,
        }
    }
    group_value(&blocks, sh, group.offset, group.depth)
}
