//! Groups of blocks of one type: one block, a sequence, or a map keyed by
//! their next label. A group's members are native blocks, or values of
//! HCL's JSON syntax that hold blocks in the JSON spec's forms (a JSON
//! file's property, or a label level inside one), so that a block type
//! split between native and JSON files reads as a `Vec` or as a map.

use super::body::{header, BodyDeserializer};
use super::capture;
use super::dynamic::{GenJson, GenJsonDeserializer, Generated};
use super::group::{Groups, Key};
use super::json_seq::BlockSeq;
use super::json_value::JsonDeserializer;
use super::key::{KeyDeserializer, Str};
pub(crate) use super::members::{Member, Members};
use super::Shared;
use crate::body::json_ref::{ItemIter, JsonRef};
use crate::error::{Error, Result};
use hcl_grammar::json::JsonKind;
use hcl_grammar::Span;
use serde::de::{self, Visitor};
use std::borrow::Cow;
use std::rc::Rc;

/// The blocks of one type (native ones with the same first `offset`
/// labels).
pub(crate) struct BlocksDeserializer<'a, 'de> {
    pub(super) name: Str<'a, 'de>,
    pub(super) blocks: Members<'a, 'de>,
    /// How many labels of each member are consumed.
    pub(super) offset: usize,
    pub(super) depth: usize,
}

/// A group of members under one label.
type LabelGroup<'a, 'de> = (Str<'a, 'de>, Span, Members<'a, 'de>);

/// `items` grouped by their label's text (`key`; `None`: no label), in
/// order of first appearance (`group.rs`); `entry` gives an item's
/// label, its span and its member.
fn label_groups<'m, 'a: 'm, 'de: 'm, T>(
    items: &'m [T],
    key: impl Fn(&'m T) -> Option<&'m str>,
    entry: impl Fn(&'m T) -> Option<(Str<'a, 'de>, Span, &'m Member<'a, 'de>)>,
) -> Vec<LabelGroup<'a, 'de>> {
    // Labels are never alone: no clash.
    let Ok(groups) = Groups::new(items, |t| key(t).map_or(Key::Skip, Key::Group)) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, t) in items.iter().enumerate() {
        if groups.follows(i) {
            continue;
        }
        let Some((label, span, m)) = entry(t) else {
            continue;
        };
        let members = if groups.next(i).is_none() {
            Members::One(m.clone())
        } else {
            let mut all = Vec::with_capacity(groups.members(i).count());
            for j in groups.members(i) {
                if let Some((.., m)) = items.get(j).and_then(&entry) {
                    all.push(m.clone());
                }
            }
            Members::Many(all)
        };
        out.push((label, span, members));
    }
    out
}

impl<'a, 'de> BlocksDeserializer<'a, 'de> {
    pub(super) fn new(
        name: Str<'a, 'de>,
        blocks: Members<'a, 'de>,
        offset: usize,
        depth: usize,
    ) -> Self {
        BlocksDeserializer {
            name,
            blocks,
            offset,
            depth,
        }
    }

    /// The one member (and its file), or an error pointing at the second.
    fn single(self) -> Result<(One<'a, 'de>, &'a Shared<'a>)> {
        let name = self.name.as_str();
        match self.blocks.as_slice() {
            [Member::Native(b, sh)] => Ok((
                One::Native(BodyDeserializer::block(b, self.offset, sh, self.depth)),
                sh,
            )),
            [Member::Json(v, _, sh)] => Ok((One::Json(JsonDeserializer::new(*v, sh, self.depth)), sh)),
            [Member::Generated(g, sh)] => Ok((
                One::Generated(Rc::clone(g), self.offset, self.depth, sh),
                sh,
            )),
            [Member::GenJson(g, sh)] => Ok((
                One::GenJson(Rc::clone(g), self.offset, self.depth, sh),
                sh,
            )),
            [first, second, ..] if self.offset > 0 || matches!(second, Member::Json(..)) => {
                let sh = second.shared();
                let what = match second {
                    Member::Native(b, _) => b
                        .labels
                        .get(self.offset.saturating_sub(1))
                        .filter(|_| self.offset > 0)
                        .map(|l| format!(" {:?}", l.as_str()))
                        .unwrap_or_default(),
                    Member::Generated(g, _) => g
                        .block
                        .labels
                        .get(self.offset.saturating_sub(1))
                        .filter(|_| self.offset > 0)
                        .map(|l| format!(" {:?}", l.as_str()))
                        .unwrap_or_default(),
                    Member::GenJson(g, _) => g
                        .labels
                        .get(self.offset.saturating_sub(1))
                        .filter(|_| self.offset > 0)
                        .map(|(l, _)| format!(" {l:?}"))
                        .unwrap_or_default(),
                    Member::Json(..) => " this label".to_owned(),
                };
                let msg = if self.offset > 0 {
                    format!(
                        "duplicate `{name}` block{what}: a map keyed by label takes one block per label, and{what} is already the label of the block at {}",
                        first.place()
                    )
                } else {
                    format!(
                        "`{name}` is set in several files (also at {}): read it into a sequence (a `Vec`) or a map keyed by label",
                        first.place()
                    )
                };
                Err(sh.place(Error::data_at(msg, second.span())))
            }
            [_, second, ..] => Err(second.shared().place(Error::data_at(
                format!(
                    "duplicate `{name}` block: the target takes one (use a sequence such as Vec to accept several)"
                ),
                second.span(),
            ))),
            [] => Err(Error::data(format!("no `{name}` block"))),
        }
    }

    /// Groups the members by their label at `offset` (a JSON member: its
    /// object's names), in order of first appearance: `Ok(None)` when no
    /// member has a label there.
    pub(super) fn by_label(&self) -> Result<Option<Vec<LabelGroup<'a, 'de>>>> {
        if self.all_native() {
            return self.by_native_label();
        }
        // Each member's labels (a JSON member: one per property of its
        // objects), then grouped.
        let mut labelled: Vec<(Cow<'a, str>, Str<'a, 'de>, Span, Member<'a, 'de>)> = Vec::new();
        let mut unlabelled = None;
        for m in self.blocks.as_slice() {
            match m {
                Member::Native(b, _) => {
                    let Some(label) = b.labels.get(self.offset) else {
                        unlabelled.get_or_insert(m.clone());
                        continue;
                    };
                    labelled.push((
                        Cow::Borrowed(label.as_str()),
                        Str::from_label(label),
                        label.span(),
                        m.clone(),
                    ));
                }
                Member::Generated(g, _) => {
                    let Some(label) = g.block.labels.get(self.offset) else {
                        unlabelled.get_or_insert(m.clone());
                        continue;
                    };
                    let text = label.as_str().to_owned();
                    labelled.push((
                        Cow::Owned(text.clone()),
                        Str::Owned(text),
                        label.span(),
                        m.clone(),
                    ));
                }
                Member::GenJson(g, _) => {
                    let Some((label, span)) = g.labels.get(self.offset) else {
                        unlabelled.get_or_insert(m.clone());
                        continue;
                    };
                    labelled.push((
                        Cow::Owned(label.clone()),
                        Str::Owned(label.clone()),
                        *span,
                        m.clone(),
                    ));
                }
                Member::Json(v, _, sh) => {
                    let objects: Vec<JsonRef<'a, 'de>> = match (&v.kind, v.array()) {
                        (JsonKind::Null, _) => Vec::new(),
                        (_, Some(items)) => items.iter().collect(),
                        _ => vec![*v],
                    };
                    for o in objects {
                        let Some(props) = o.object() else {
                            return Err(sh.place(Error::data_at(
                                format!(
                                    "Missing block label: `{}` is read as a map keyed by label, so this must be an object whose property names are the labels",
                                    self.name.as_str()
                                ),
                                o.span,
                            )));
                        };
                        for p in props {
                            labelled.push((
                                Cow::Borrowed(p.name()),
                                p.name_str(),
                                p.name_span,
                                Member::Json(p.value(), p.name_span, sh),
                            ));
                        }
                    }
                }
            }
        }
        let groups = label_groups(
            &labelled,
            |(key, ..)| Some(&**key),
            |(_, label, span, m)| Some((label.clone(), *span, m)),
        );
        self.labelled(groups, unlabelled.as_ref())
    }

    /// [`by_label`](Self::by_label) for native blocks alone (the common
    /// case): labels borrowed from the tree, no copies.
    fn by_native_label(&self) -> Result<Option<Vec<LabelGroup<'a, 'de>>>> {
        let members = self.blocks.as_slice();
        let offset = self.offset;
        let unlabelled = members.iter().find(|m| match m {
            Member::Native(b, _) => b.labels.get(offset).is_none(),
            _ => false,
        });
        let label = |m: &Member<'a, 'de>| match m {
            Member::Native(b, _) => b.labels.get(offset),
            _ => None,
        };
        let groups = label_groups(
            members,
            |m| label(m).map(|l| l.as_str()),
            |m| label(m).map(|l| (Str::from_label(l), l.span(), m)),
        );
        self.labelled(groups, unlabelled)
    }

    /// The groups by label, unless a member has no label at `offset`:
    /// then `None` when no member has one, else an error at it.
    fn labelled(
        &self,
        groups: Vec<LabelGroup<'a, 'de>>,
        unlabelled: Option<&Member<'a, 'de>>,
    ) -> Result<Option<Vec<LabelGroup<'a, 'de>>>> {
        match (unlabelled, groups.is_empty()) {
            (None, _) => Ok(Some(groups)),
            (Some(_), true) => Ok(None),
            (Some(m), false) => Err(m.shared().place(Error::data_at(
                format!(
                    "this `{}` block has {} label(s) where other `{}` blocks have more",
                    self.name.as_str(),
                    self.offset,
                    self.name.as_str()
                ),
                m.span(),
            ))),
        }
    }

    fn check_depth(&self) -> Result<()> {
        match self.blocks.first() {
            Some(m) if self.depth >= m.shared().max_depth => {
                let sh = m.shared();
                Err(sh.place(sh.too_deep(m.span())))
            }
            _ => Ok(()),
        }
    }

    fn all_native(&self) -> bool {
        self.blocks
            .as_slice()
            .iter()
            .all(|m| matches!(m, Member::Native(..)))
    }

    fn visit_by_label<V: Visitor<'de>>(
        self,
        groups: Vec<LabelGroup<'a, 'de>>,
        v: V,
    ) -> Result<V::Value> {
        self.check_depth()?;
        v.visit_map(LabelGroupsAccess {
            name: self.name,
            groups: groups.into_iter(),
            value: None,
            offset: self.offset + 1,
            depth: self.depth + 1,
        })
    }

    fn visit_seq_of_blocks<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.check_depth()?;
        v.visit_seq(BlocksAccess {
            blocks: self.blocks.into_vec().into_iter(),
            current: None,
            index: 0,
            offset: self.offset,
            depth: self.depth + 1,
        })
    }
}

/// The one member of a group, read as the target asks.
enum One<'a, 'de> {
    Native(BodyDeserializer<'a, 'de>),
    Json(JsonDeserializer<'a, 'de>),
    /// A generated block, read in its own context (made when read).
    Generated(Rc<Generated<'de>>, usize, usize, &'a Shared<'a>),
    /// A generated JSON-syntax block, likewise.
    GenJson(Rc<GenJson<'a, 'de>>, usize, usize, &'a Shared<'a>),
}

macro_rules! one_forward {
    ($($method:ident ( $($arg:ident : $ty:ty),* ))*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* v: V) -> Result<V::Value> {
                match self {
                    One::Native(d) => de::Deserializer::$method(d, $($arg,)* v),
                    One::Json(d) => de::Deserializer::$method(d, $($arg,)* v),
                    One::Generated(g, offset, depth, sh) => {
                        let local = sh.generated(&g.ctx, g.unknown);
                        let d = BodyDeserializer::block(&g.block, offset, &local, depth);
                        de::Deserializer::$method(d, $($arg,)* v)
                    }
                    One::GenJson(g, offset, depth, sh) => {
                        let local = sh.generated(&g.ctx, g.unknown);
                        let d = GenJsonDeserializer::new(&g, offset, depth, &local);
                        de::Deserializer::$method(d, $($arg,)* v)
                    }
                }
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for One<'_, 'de> {
    type Error = Error;

    one_forward! {
        deserialize_any()
        deserialize_bool()
        deserialize_i8() deserialize_i16() deserialize_i32() deserialize_i64() deserialize_i128()
        deserialize_u8() deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
        deserialize_f32() deserialize_f64()
        deserialize_char() deserialize_str() deserialize_string()
        deserialize_bytes() deserialize_byte_buf()
        deserialize_option() deserialize_unit()
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_seq()
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_map()
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier()
        deserialize_ignored_any()
    }
}

macro_rules! blocks_single {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
                let (one, sh) = self.single()?;
                de::Deserializer::$method(one, v).map_err(|e| sh.place(e))
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for BlocksDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        if self.blocks.len() == 1 && !self.all_native() {
            let (one, sh) = self.single()?;
            return de::Deserializer::deserialize_any(one, v).map_err(|e| sh.place(e));
        }
        match self.by_label()? {
            Some(groups) => self.visit_by_label(groups, v),
            None if self.blocks.len() == 1 => {
                let (one, sh) = self.single()?;
                de::Deserializer::deserialize_any(one, v).map_err(|e| sh.place(e))
            }
            None => self.visit_seq_of_blocks(v),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.visit_seq_of_blocks(v)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value> {
        self.visit_seq_of_blocks(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value> {
        self.visit_seq_of_blocks(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.by_label()? {
            Some(groups) => self.visit_by_label(groups, v),
            None => {
                let name = self.name.clone();
                let (one, sh) = self.single()?;
                match one {
                    // Read as a map keyed by label, but without one: a
                    // value that must be a block's body says the label is
                    // missing.
                    One::Native(body) => body.needing_label(name).deserialize_map(v),
                    One::Generated(g, offset, depth, gsh) => {
                        let local = gsh.generated(&g.ctx, g.unknown);
                        BodyDeserializer::block(&g.block, offset, &local, depth)
                            .needing_label(name)
                            .deserialize_map(v)
                    }
                    One::Json(d) => de::Deserializer::deserialize_map(d, v),
                    g @ One::GenJson(..) => de::Deserializer::deserialize_map(g, v),
                }
                .map_err(|e| sh.place(e))
            }
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if capture::is_spanned(name, fields) {
            let span = match self.blocks.first() {
                Some(Member::Native(b, _)) => b.span,
                Some(Member::Generated(g, _)) => g.block.span,
                Some(Member::GenJson(g, _)) => g.body.span,
                Some(Member::Json(j, _, _)) => j.span,
                None => Span::default(),
            };
            return v.visit_map(capture::SpannedAccess::new(span, self));
        }
        let (one, sh) = self.single()?;
        de::Deserializer::deserialize_struct(one, name, fields, v).map_err(|e| sh.place(e))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        let (one, sh) = self.single()?;
        de::Deserializer::deserialize_enum(one, name, variants, v).map_err(|e| sh.place(e))
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        if capture::is_capture(name) {
            return self.deserialize_struct(name, &[], v);
        }
        if crate::reserved::is_value_target(name) && super::direct::on() {
            // A `Value` target: built whole when it can be (`direct.rs`).
            if let Some(value) = super::direct::blocks_value(&self) {
                return super::direct::hand_over(value, v);
            }
        }
        v.visit_newtype_struct(self)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        let (one, sh) = self.single()?;
        de::Deserializer::deserialize_unit_struct(one, name, v).map_err(|e| sh.place(e))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }

    blocks_single! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_identifier
    }
}

/// The JSON member being read by a [`BlocksAccess`].
enum Current<'a, 'de> {
    /// A JSON object: its blocks.
    Object(BlockSeq<'a, 'de>, &'a Shared<'a>, Span),
    /// A JSON array: one block per element.
    Items(ItemIter<'a, 'de>, &'a Shared<'a>),
}

/// The blocks of every member, in order.
struct BlocksAccess<'a, 'de> {
    blocks: std::vec::IntoIter<Member<'a, 'de>>,
    current: Option<Current<'a, 'de>>,
    index: usize,
    offset: usize,
    depth: usize,
}

impl<'de> de::SeqAccess<'de> for BlocksAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        let depth = self.depth;
        loop {
            let i = self.index;
            match &mut self.current {
                Some(Current::Object(seq, sh, span)) if !seq.is_done() => {
                    let (sh, span) = (*sh, *span);
                    self.index += 1;
                    return de::SeqAccess::next_element_seed(seq, seed)
                        .map_err(|e| sh.place(e.with_span(span)));
                }
                Some(Current::Items(items, sh)) => {
                    let sh = *sh;
                    if let Some(item) = items.next() {
                        self.index += 1;
                        return seed
                            .deserialize(JsonDeserializer::new(item, sh, depth))
                            .map(Some)
                            .map_err(|e| sh.place(e.with_span(item.span)).prepend_index(i));
                    }
                }
                _ => {}
            }
            self.current = None;
            match self.blocks.next() {
                None => return Ok(None),
                Some(Member::Native(b, sh)) => {
                    self.index += 1;
                    return seed
                        .deserialize(BodyDeserializer::block(b, self.offset, sh, depth))
                        .map(Some)
                        .map_err(|e| sh.place(e.with_span(header(b))).prepend_index(i));
                }
                Some(Member::Generated(g, sh)) => {
                    self.index += 1;
                    let local = sh.generated(&g.ctx, g.unknown);
                    return seed
                        .deserialize(BodyDeserializer::block(
                            &g.block,
                            self.offset,
                            &local,
                            depth,
                        ))
                        .map(Some)
                        .map_err(|e| sh.place(e.with_span(header(&g.block))).prepend_index(i));
                }
                Some(Member::GenJson(g, sh)) => {
                    self.index += 1;
                    let span = g.type_span;
                    let one = One::GenJson(g, self.offset, depth, sh);
                    return seed
                        .deserialize(one)
                        .map(Some)
                        .map_err(|e| sh.place(e.with_span(span)).prepend_index(i));
                }
                Some(Member::Json(v, _, sh)) => match &v.kind {
                    JsonKind::Object(_) => {
                        let seq = BlockSeq::new(v, sh, depth).numbered_from(i);
                        self.current = Some(Current::Object(seq, sh, v.span));
                    }
                    JsonKind::Array(_) => {
                        self.current = v.array().map(|items| Current::Items(items.iter(), sh));
                    }
                    // `null`: no blocks.
                    JsonKind::Null => {}
                    _ => {
                        self.index += 1;
                        return seed
                            .deserialize(JsonDeserializer::new(v, sh, depth))
                            .map(Some)
                            .map_err(|e| sh.place(e.with_span(v.span)).prepend_index(i));
                    }
                },
            }
        }
    }

    fn size_hint(&self) -> Option<usize> {
        match self.current {
            None if self
                .blocks
                .as_slice()
                .iter()
                .all(|m| matches!(m, Member::Native(..))) =>
            {
                Some(self.blocks.len())
            }
            _ => None,
        }
    }
}

/// A group of blocks as a map keyed by their next label.
struct LabelGroupsAccess<'a, 'de> {
    name: Str<'a, 'de>,
    groups: std::vec::IntoIter<LabelGroup<'a, 'de>>,
    value: Option<(Str<'a, 'de>, Members<'a, 'de>)>,
    offset: usize,
    depth: usize,
}

impl<'de> de::MapAccess<'de> for LabelGroupsAccess<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((label, span, blocks)) = self.groups.next() else {
            return Ok(None);
        };
        let sh = blocks.first().map(Member::shared);
        self.value = Some((label.clone(), blocks));
        seed.deserialize(KeyDeserializer::new(label.clone(), Some(span)))
            .map(Some)
            .map_err(|e| {
                let e = e.with_span(span).prepend_key(label.as_str());
                match sh {
                    Some(sh) => sh.place(e),
                    None => e,
                }
            })
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let Some((label, blocks)) = self.value.take() else {
            return Err(Error::data("a map value was requested before its key"));
        };
        let first = blocks.first().map(|m| (m.span(), m.shared()));
        let d = BlocksDeserializer::new(self.name.clone(), blocks, self.offset, self.depth);
        seed.deserialize(d).map_err(|e| {
            let e = match first {
                Some((s, sh)) => sh.place(e.with_span(s)),
                None => e,
            };
            e.prepend_key(label.as_str())
        })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.groups.len())
    }
}
