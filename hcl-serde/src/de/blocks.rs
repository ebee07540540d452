//! Groups of blocks of one type: one block, a sequence, or a map keyed by
//! their next label.

use super::body::{header, BodyDeserializer};
use super::capture;
use super::key::{KeyDeserializer, Str};
use super::Shared;
use crate::error::{Error, Result};
use hcl_grammar::{Block, BlockLabel, Span};
use serde::de::{self, Visitor};

/// The blocks of one type (and the same first `offset` labels).
pub(crate) struct BlocksDeserializer<'a, 'de> {
    name: &'de str,
    blocks: Vec<&'a Block<'de>>,
    offset: usize,
    sh: &'a Shared<'a>,
    depth: usize,
}

impl<'a, 'de> BlocksDeserializer<'a, 'de> {
    pub(super) fn new(
        name: &'de str,
        blocks: Vec<&'a Block<'de>>,
        offset: usize,
        sh: &'a Shared<'a>,
        depth: usize,
    ) -> Self {
        BlocksDeserializer {
            name,
            blocks,
            offset,
            sh,
            depth,
        }
    }

    /// The one block, or an error pointing at the second.
    fn single(self) -> Result<BodyDeserializer<'a, 'de>> {
        match self.blocks.as_slice() {
            [b] => Ok(BodyDeserializer::block(b, self.offset, self.sh, self.depth)),
            [_, second, ..] => Err(Error::data_at(
                format!(
                    "duplicate `{}` block: the target takes one (use a sequence such as Vec to accept several)",
                    self.name
                ),
                header(second),
            )),
            [] => Err(Error::data(format!("no `{}` block", self.name))),
        }
    }

    /// Groups the blocks by their label at `offset`, in order of first
    /// appearance: `Ok(None)` when no block has a label there.
    #[allow(clippy::type_complexity)]
    fn by_label(&self) -> Result<Option<Vec<(&'a BlockLabel<'de>, Vec<&'a Block<'de>>)>>> {
        let mut groups: Vec<(&'a BlockLabel<'de>, Vec<&'a Block<'de>>)> = Vec::new();
        let mut index: Option<std::collections::HashMap<&'a str, usize>> = None;
        let mut unlabelled = None;
        for &b in &self.blocks {
            let Some(label) = b.labels.get(self.offset) else {
                unlabelled.get_or_insert(b);
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
                Some((_, blocks)) => blocks.push(b),
                None => {
                    if let Some(map) = &mut index {
                        map.insert(label.as_str(), groups.len());
                    }
                    groups.push((label, vec![b]));
                }
            }
        }
        match (unlabelled, groups.is_empty()) {
            (None, _) => Ok(Some(groups)),
            (Some(_), true) => Ok(None),
            (Some(b), false) => Err(Error::data_at(
                format!(
                    "this `{}` block has {} label(s) where other `{}` blocks have more",
                    self.name, self.offset, self.name
                ),
                header(b),
            )),
        }
    }

    fn check_depth(&self) -> Result<()> {
        if self.depth >= self.sh.max_depth {
            let span = self.blocks.first().map_or(Span::default(), |b| header(b));
            Err(self.sh.too_deep(span))
        } else {
            Ok(())
        }
    }

    fn visit_by_label<V: Visitor<'de>>(
        self,
        groups: Vec<(&'a BlockLabel<'de>, Vec<&'a Block<'de>>)>,
        v: V,
    ) -> Result<V::Value> {
        self.check_depth()?;
        v.visit_map(LabelGroupsAccess {
            name: self.name,
            groups: groups.into_iter(),
            value: None,
            offset: self.offset + 1,
            sh: self.sh,
            depth: self.depth + 1,
        })
    }

    fn visit_seq_of_blocks<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.check_depth()?;
        v.visit_seq(BlocksAccess {
            blocks: self.blocks.into_iter(),
            index: 0,
            offset: self.offset,
            sh: self.sh,
            depth: self.depth + 1,
        })
    }
}

macro_rules! blocks_single {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
                self.single()?.$method(v)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for BlocksDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.by_label()? {
            Some(groups) => self.visit_by_label(groups, v),
            None if self.blocks.len() == 1 => self.single()?.deserialize_any(v),
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
            None => self.single()?.deserialize_map(v),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        if capture::is_spanned(name, fields) {
            let span = self.blocks.first().map_or(Span::default(), |b| b.span);
            return v.visit_map(capture::SpannedAccess::new(span, self));
        }
        self.single()?.deserialize_struct(name, fields, v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        self.single()?.deserialize_enum(name, variants, v)
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
        self.single()?.deserialize_unit_struct(name, v)
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
    blocks: std::vec::IntoIter<&'a Block<'de>>,
    index: usize,
    offset: usize,
    sh: &'a Shared<'a>,
    depth: usize,
}

impl<'de> de::SeqAccess<'de> for BlocksAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        let Some(b) = self.blocks.next() else {
            return Ok(None);
        };
        let i = self.index;
        self.index += 1;
        seed.deserialize(BodyDeserializer::block(b, self.offset, self.sh, self.depth))
            .map(Some)
            .map_err(|e| e.with_span(header(b)).prepend_index(i))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.blocks.len())
    }
}

/// A group of blocks as a map keyed by their next label.
struct LabelGroupsAccess<'a, 'de> {
    name: &'de str,
    groups: std::vec::IntoIter<(&'a BlockLabel<'de>, Vec<&'a Block<'de>>)>,
    value: Option<(&'a BlockLabel<'de>, Vec<&'a Block<'de>>)>,
    offset: usize,
    sh: &'a Shared<'a>,
    depth: usize,
}

impl<'de> de::MapAccess<'de> for LabelGroupsAccess<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((label, blocks)) = self.groups.next() else {
            return Ok(None);
        };
        self.value = Some((label, blocks));
        seed.deserialize(KeyDeserializer::new(
            Str::from_label(label),
            Some(label.span()),
        ))
        .map(Some)
        .map_err(|e| e.with_span(label.span()).prepend_key(label.as_str()))
    }

    fn next_value_seed<T: de::DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let Some((label, blocks)) = self.value.take() else {
            return Err(Error::data("a map value was requested before its key"));
        };
        let span = blocks.first().map(|b| header(b));
        let d = BlocksDeserializer::new(self.name, blocks, self.offset, self.sh, self.depth);
        seed.deserialize(d).map_err(|e| {
            let e = match span {
                Some(s) => e.with_span(s),
                None => e,
            };
            e.prepend_key(label.as_str())
        })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.groups.len())
    }
}
