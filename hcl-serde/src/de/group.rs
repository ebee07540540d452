//! The entries of a native body (`body.rs`): its attributes, and its
//! blocks grouped by type.

use super::access::key_span;
use super::blocks::{Member, Members};
use super::body::Entry;
use super::key::Str;
use super::Shared;
use crate::error::{Error, Result};
use hcl_grammar::{Attribute, Span};
use std::collections::{HashMap, HashSet};

/// The entries of a native body as they are built: attributes, and
/// blocks grouped by type in order of first appearance.
///
/// Attribute names are unique in a parsed body (the parser refuses a
/// second definition), so only block types are looked up: the last group
/// found first (blocks of one type mostly come together), then the
/// groups (a map once there are more than 16). A name that is both an
/// attribute and a block type is an error at its second item.
pub(super) struct Grouper<'a, 'de> {
    pub(super) out: Vec<Entry<'a, 'de>>,
    sh: &'a Shared<'a>,
    /// Each block type and its entry in `out`.
    types: Vec<(&'de str, usize)>,
    /// The index in `types` of the last group found.
    last: usize,
    /// `types` by name, once there are more than 16.
    type_index: Option<HashMap<&'de str, usize>>,
    /// How many attributes `out` holds.
    attrs: usize,
    /// The attribute names, once a new block type has more than 16 to
    /// compare with.
    attr_index: Option<HashSet<&'de str>>,
}

impl<'a, 'de> Grouper<'a, 'de> {
    pub(super) fn new(capacity: usize, sh: &'a Shared<'a>) -> Self {
        Grouper {
            out: Vec::with_capacity(capacity),
            sh,
            types: Vec::new(),
            last: 0,
            type_index: None,
            attrs: 0,
            attr_index: None,
        }
    }

    /// The entry of the blocks of type `name`.
    #[inline]
    fn find_type(&mut self, name: &str) -> Option<usize> {
        if let Some(&(n, i)) = self.types.get(self.last) {
            if n == name {
                return Some(i);
            }
        }
        let k = match &self.type_index {
            Some(map) => map.get(name).copied(),
            None => self.types.iter().position(|(n, _)| *n == name),
        }?;
        self.last = k;
        self.types.get(k).map(|&(_, i)| i)
    }

    fn conflict(name: &str, span: Span) -> Error {
        Error::data_at(
            format!("`{name}` is both an attribute and a block type in this body"),
            span,
        )
    }

    pub(super) fn attr(&mut self, a: &'a Attribute<'de>) -> Result<()> {
        let name = a.name.name;
        if !self.types.is_empty() && self.find_type(name).is_some() {
            return Err(Self::conflict(name, a.name.span));
        }
        if let Some(set) = &mut self.attr_index {
            set.insert(name);
        }
        self.attrs += 1;
        self.out.push(Entry::Attr(a, self.sh));
        Ok(())
    }

    pub(super) fn block(&mut self, name: &'de str, m: Member<'a, 'de>) -> Result<()> {
        if let Some(i) = self.find_type(name) {
            if let Some(Entry::Blocks(_, blocks)) = self.out.get_mut(i) {
                blocks.push(m);
            }
            return Ok(());
        }
        // A new block type: an attribute of that name is a conflict.
        if self.attrs > 0 {
            let clash = if self.attrs <= 16 {
                self.out
                    .iter()
                    .any(|e| matches!(e, Entry::Attr(a, _) if a.name.name == name))
            } else {
                let out = &self.out;
                self.attr_index
                    .get_or_insert_with(|| {
                        out.iter()
                            .filter_map(|e| match e {
                                Entry::Attr(a, _) => Some(a.name.name),
                                _ => None,
                            })
                            .collect()
                    })
                    .contains(name)
            };
            if clash {
                return Err(Self::conflict(name, key_span(&m)));
            }
        }
        if self.type_index.is_none() && self.types.len() >= 16 {
            self.type_index = Some(
                self.types
                    .iter()
                    .enumerate()
                    .map(|(k, (n, _))| (*n, k))
                    .collect(),
            );
        }
        if let Some(map) = &mut self.type_index {
            map.insert(name, self.types.len());
        }
        self.last = self.types.len();
        self.types.push((name, self.out.len()));
        self.out
            .push(Entry::Blocks(Str::Borrowed(name), Members::One(m)));
        Ok(())
    }
}
