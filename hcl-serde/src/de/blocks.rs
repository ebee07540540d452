//! Groups of blocks of one type: one block, a sequence, or a map keyed by
//! their next label.

use super::body::{header, BodyDeserializer};
use super::capture;
use super::expr::ExprDeserializer;
use super::key::{KeyDeserializer, Str};
use super::Shared;
use crate::error::{Error, Result};
use hcl_grammar::{Block, BlockLabel, Span};
use serde::de::{self, Visitor};

/// A block and its file (blocks of one type may come from several files,
/// see `files.rs`).
pub(crate) type Member<'a, 'de> = (&'a Block<'de>, &'a Shared<'a>);

/// The blocks of one type (and the same first `offset` labels).
pub(crate) struct BlocksDeserializer<'a, 'de> {
    name: &'de str,
    blocks: Vec<Member<'a, 'de>>,
    offset: usize,
    depth: usize,
}

impl<'a, 'de> BlocksDeserializer<'a, 'de> {
    pub(super) fn new(
        name: &'de str,
        blocks: Vec<Member<'a, 'de>>,
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

    /// The one block (and its file), or an error pointing at the second.
    fn single(self) -> Result<(BodyDeserializer<'a, 'de>, &'a Shared<'a>)> {
        match self.blocks.as_slice() {
            [(b, sh)] => Ok((BodyDeserializer::block(b, self.offset, sh, self.depth), sh)),
            [(first, fsh), (second, sh), ..] if self.offset > 0 => {
                // Grouped by label for a map: the label repeats.
                let label = second
                    .labels
                    .get(self.offset - 1)
                    .map_or("", BlockLabel::as_str);
                Err(sh.place(Error::data_at(
                    format!(
                        "duplicate `{}` block {label:?}: a map keyed by label takes one block per label, and {label:?} is already the label of the block at {}",
                        self.name,
                        crate::source::place(fsh.src, header(first), fsh.file)
                    ),
                    header(second),
                )))
            }
            [_, (second, sh), ..] => Err(sh.place(Error::data_at(
                format!(
                    "duplicate `{}` block: the target takes one (use a sequence such as Vec to accept several)",
                    self.name
                ),
                header(second),
            ))),
            [] => Err(Error::data(format!("no `{}` block", self.name))),
        }
    }

    /// Groups the blocks by their label at `offset`, in order of first
    /// appearance: `Ok(None)` when no block has a label there.
    #[allow(clippy::type_complexity)]
    fn by_label(&self) -> Result<Option<Vec<(&'a BlockLabel<'de>, Vec<Member<'a, 'de>>)>>> {
        let mut groups: Vec<(&'a BlockLabel<'de>, Vec<Member<'a, 'de>>)> = Vec::new();
        let mut index: Option<std::collections::HashMap<&'a str, usize>> = None;
        let mut unlabelled = None;
        for &(b, sh) in &self.blocks {
            let Some(label) = b.labels.get(self.offset) else {
                unlabelled.get_or_insert((b, sh));
                continue;
            };
            if index.is_none() && groups.len() > 16 {
                index = Some(
                    groups
                        .iter()
                        .enumerate()
                        .map(|(i, (l, _))| (l.as_str(), i))
                        .collect(),
                );
            }
            let found = match &index {
                Some(map) => map.get(label.as_str()).copied(),
                None => groups
                    .iter()
                    .position(|(l, _)| l.as_str() == label.as_str()),
            };
            match found.and_then(|i| groups.get_mut(i)) {
                Some((_, blocks)) => blocks.push((b, sh)),
                None => {
                    if let Some(map) = &mut index {
                        map.insert(label.as_str(), groups.len());
                    }
                    groups.push((label, vec![(b, sh)]));
                }
            }
        }
        match (unlabelled, groups.is_empty()) {
            (None, _) => Ok(Some(groups)),
            (Some(_), true) => Ok(None),
            (Some((b, sh)), false) => Err(sh.place(Error::data_at(
                format!(
                    "this `{}` block has {} label(s) where other `{}` blocks have more",
                    self.name, self.offset, self.name
                ),
                header(b),
            ))),
        }
    }

    fn check_depth(&self) -> Result<()> {
        match self.blocks.first() {
            Some(&(b, sh)) if self.depth >= sh.max_depth => Err(sh.place(sh.too_deep(header(b)))),
            _ => Ok(()),
        }
    }

    fn visit_by_label<V: Visitor<'de>>(
        self,
        groups: Vec<(&'a BlockLabel<'de>, Vec<Member<'a, 'de>>)>,
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
            blocks: self.blocks.into_iter(),
            index: 0,
            offset: self.offset,
            depth: self.depth + 1,
        })
    }
}

macro_rules! blocks_single {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
                let (body, sh) = self.single()?;
                body.$method(v).map_err(|e| sh.place(e))
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for BlocksDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.by_label()? {
            Some(groups) => self.visit_by_label(groups, v),
            None if self.blocks.len() == 1 => {
                let (body, sh) = self.single()?;
                body.deserialize_any(v).map_err(|e| sh.place(e))
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
                let name = self.name;
                let (body, sh) = self.single()?;
                // Read as a map keyed by label, but without one: a value
                // that must be a block's body says the label is missing.
                body.needing_label(name)
                    .deserialize_map(v)
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
            let span = self.blocks.first().map_or(Span::default(), |(b, _)| b.span);
            return v.visit_map(capture::SpannedAccess::new(span, self));
        }
        let (body, sh) = self.single()?;
        body.deserialize_struct(name, fields, v)
            .map_err(|e| sh.place(e))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        let (body, sh) = self.single()?;
        body.deserialize_enum(name, variants, v)
            .map_err(|e| sh.place(e))
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
        v.visit_newtype_struct(self)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        let (body, sh) = self.single()?;
        body.deserialize_unit_struct(name, v)
            .map_err(|e| sh.place(e))
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

/// The blocks of a group as a sequence.
struct BlocksAccess<'a, 'de> {
    blocks: std::vec::IntoIter<Member<'a, 'de>>,
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
        let Some((b, sh)) = self.blocks.next() else {
            return Ok(None);
        };
        let i = self.index;
        self.index += 1;
        seed.deserialize(BodyDeserializer::block(b, self.offset, sh, self.depth))
            .map(Some)
            .map_err(|e| sh.place(e.with_span(header(b))).prepend_index(i))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.blocks.len())
    }
}

/// A group of blocks as a map keyed by their next label.
struct LabelGroupsAccess<'a, 'de> {
    name: &'de str,
    groups: std::vec::IntoIter<(&'a BlockLabel<'de>, Vec<Member<'a, 'de>>)>,
    value: Option<(&'a BlockLabel<'de>, Vec<Member<'a, 'de>>)>,
    offset: usize,
    depth: usize,
}

impl<'de> de::MapAccess<'de> for LabelGroupsAccess<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((label, blocks)) = self.groups.next() else {
            return Ok(None);
        };
        let sh = blocks.first().map(|&(_, sh)| sh);
        self.value = Some((label, blocks));
        seed.deserialize(KeyDeserializer::new(
            Str::from_label(label),
            Some(label.span()),
        ))
        .map(Some)
        .map_err(|e| {
            let e = e.with_span(label.span()).prepend_key(label.as_str());
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
        let first = blocks.first().map(|&(b, sh)| (header(b), sh));
        let d = BlocksDeserializer::new(self.name, blocks, self.offset, self.depth);
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

/// An attribute of a block that has no label left but is read as a map
/// keyed by label: read as a struct, a value that is not an object means
/// the block was meant to have a label (`service { port = 1 }` into
/// `HashMap<String, Service>`), which the error says at the block.
pub(crate) struct NeedsLabel<'a, 'de> {
    inner: ExprDeserializer<'a, 'de>,
    block_type: &'de str,
    at: Span,
}

impl<'a, 'de> NeedsLabel<'a, 'de> {
    pub(super) fn new(inner: ExprDeserializer<'a, 'de>, block_type: &'de str, at: Span) -> Self {
        NeedsLabel {
            inner,
            block_type,
            at,
        }
    }

    fn missing(&self) -> Error {
        let t = self.block_type;
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
