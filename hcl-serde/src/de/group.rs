//! The one grouping of the deserializer: a body's items (attributes, and
//! blocks by type) and a group's blocks (by their next label), for every
//! route (the visits of `body.rs` and `blocks.rs`, the `Value` built
//! directly in `direct.rs`), and a JSON-syntax body's properties (each
//! name once, blocks a `dynamic` property generated among their type's:
//! [`json_entries`], [`first_repeat`]).
//!
//! [`Groups`] links each item of a slice to the next one of its name, in
//! one pass, in order of first appearance. It costs nothing on the heap
//! for the common cases: up to 16 items, each name is compared with the
//! items before it (nearest first: blocks of one type mostly come
//! together) and the links are an inline array; above, the distinct
//! names are kept in an inline list (the last one found first) and in a
//! `HashMap` past 16 of them (so a large body is never quadratic), and
//! the links are a `Vec`, made only once a name repeats.

use super::access::key_span;
use super::blocks::{Member, Members};
use super::body::Entry;
use super::key::Str;
use super::Shared;
use crate::body::json_ref::PropRef;
use crate::error::{Error, Result};
use hcl_grammar::{Attribute, Span, Structure};
use std::collections::HashMap;

/// What an item is to the grouping.
#[derive(Clone, Copy)]
pub(super) enum Key<'k> {
    /// Grouped with the other items of this name (a block by its type
    /// or by its next label).
    Group(&'k str),
    /// On its own, under a name that no group may have (an attribute:
    /// attribute names are unique in a parsed body, the parser refuses a
    /// second definition).
    Alone(&'k str),
    /// Not grouped (a block without the label grouped on).
    Skip,
}

/// Up to this many items the links are inline; up to this many distinct
/// names they are compared in a list.
const SMALL: usize = 16;
/// A link's mark: the item follows an earlier one of its name.
const FOLLOWS: u32 = 1 << 31;
/// A link without a next item.
const END: u32 = FOLLOWS - 1;
/// The same in an inline link (a `u8`: at most [`SMALL`] items).
const FOLLOWS8: u8 = 1 << 7;
const END8: u8 = FOLLOWS8 - 1;

/// Items grouped by name: for each item, whether it follows an earlier
/// one of its name, and the next one of its name. (Indices are `u32`:
/// a body or a group has far fewer than 2^31 items, its source being
/// under 4 GiB.)
pub(super) struct Groups {
    links: Links,
}

enum Links {
    /// Every group has one item.
    Singles,
    /// Up to [`SMALL`] items.
    Inline([u8; SMALL]),
    /// More.
    Heap(Vec<u32>),
}

impl Groups {
    /// Groups `items` by `key`. `Err(i)`: item `i` is the first, in
    /// order, whose name is both an [`Key::Alone`] item's and a group's
    /// (an attribute after a block of its name, or the first block of a
    /// type after the attribute of that name).
    #[inline]
    pub(super) fn new<'s, T>(
        items: &'s [T],
        key: impl Fn(&'s T) -> Key<'s>,
    ) -> Result<Groups, usize> {
        if items.len() <= SMALL {
            Groups::small(items, key)
        } else {
            Groups::large(items, key)
        }
    }

    /// [`new`](Self::new) for at most [`SMALL`] items: each item's name
    /// compared with the items before it, nearest first (blocks of one
    /// type mostly come together); nothing on the heap.
    #[inline]
    fn small<'s, T>(items: &'s [T], key: impl Fn(&'s T) -> Key<'s>) -> Result<Groups, usize> {
        let n = items.len();
        let mut groups = Groups {
            links: Links::Singles,
        };
        let (mut alone, mut named) = (false, false);
        for (i, item) in items.iter().enumerate() {
            match key(item) {
                Key::Group(name) => {
                    named = true;
                    let before = items.get(..i).unwrap_or_default();
                    if let Some(last) = before
                        .iter()
                        .rposition(|e| matches!(key(e), Key::Group(k) if k == name))
                    {
                        groups.link(last, i, n);
                    }
                }
                Key::Alone(_) => alone = true,
                Key::Skip => {}
            }
        }
        if alone && named {
            // Each group's name against the items alone.
            let mut clash: Option<usize> = None;
            for (first, item) in items.iter().enumerate() {
                if clash.is_some_and(|c| c <= first) {
                    break;
                }
                let Key::Group(name) = key(item) else {
                    continue;
                };
                if groups.follows(first) {
                    continue;
                }
                if let Some(a) = items
                    .iter()
                    .position(|e| matches!(key(e), Key::Alone(k) if k == name))
                {
                    let c = first.max(a);
                    clash = Some(clash.map_or(c, |d| d.min(c)));
                }
            }
            if let Some(c) = clash {
                return Err(c);
            }
        }
        Ok(groups)
    }

    /// [`new`](Self::new) for more than [`SMALL`] items: the distinct
    /// names in a list, then a map ([`Names`]).
    fn large<'s, T>(items: &'s [T], key: impl Fn(&'s T) -> Key<'s>) -> Result<Groups, usize> {
        let n = items.len();
        let mut groups = Groups {
            links: Links::Singles,
        };
        let mut names = Names::default();
        let mut alone = false;
        for (i, item) in items.iter().enumerate() {
            let name = match key(item) {
                Key::Group(name) => name,
                Key::Alone(_) => {
                    alone = true;
                    continue;
                }
                Key::Skip => continue,
            };
            if let Some(last) = names.join(name, i) {
                groups.link(last, i, n);
            }
        }
        if alone && names.len > 0 {
            // The earliest item that clashes: an item alone after the
            // first of a group of its name, or that first after it.
            let mut clash: Option<usize> = None;
            for (i, item) in items.iter().enumerate() {
                if clash.is_some_and(|c| c <= i) {
                    break;
                }
                if let Key::Alone(name) = key(item) {
                    if let Some(first) = names.first(name) {
                        let c = first.max(i);
                        clash = Some(clash.map_or(c, |d| d.min(c)));
                    }
                }
            }
            if let Some(c) = clash {
                return Err(c);
            }
        }
        Ok(groups)
    }

    /// Links `i` after `last`, an earlier item of its name.
    fn link(&mut self, last: usize, i: usize, n: usize) {
        if matches!(self.links, Links::Singles) {
            self.links = if n <= SMALL {
                Links::Inline([END8; SMALL])
            } else {
                Links::Heap(vec![END; n])
            };
        }
        match &mut self.links {
            Links::Singles => {}
            Links::Inline(a) => {
                let next = u8::try_from(i).unwrap_or(END8).min(END8);
                if let Some(l) = a.get_mut(last) {
                    *l = (*l & FOLLOWS8) | next;
                }
                if let Some(l) = a.get_mut(i) {
                    *l |= FOLLOWS8;
                }
            }
            Links::Heap(v) => {
                let next = u32::try_from(i).unwrap_or(END).min(END);
                if let Some(l) = v.get_mut(last) {
                    *l = (*l & FOLLOWS) | next;
                }
                if let Some(l) = v.get_mut(i) {
                    *l |= FOLLOWS;
                }
            }
        }
    }

    /// Item `i`'s link: whether it follows an earlier item of its name,
    /// and the next one.
    #[inline]
    fn get(&self, i: usize) -> (bool, Option<usize>) {
        match &self.links {
            Links::Singles => (false, None),
            Links::Inline(a) => {
                let l = a.get(i).copied().unwrap_or(END8);
                let next = l & END8;
                (
                    l & FOLLOWS8 != 0,
                    (next != END8).then_some(usize::from(next)),
                )
            }
            Links::Heap(v) => {
                let l = v.get(i).copied().unwrap_or(END);
                let next = l & END;
                (
                    l & FOLLOWS != 0,
                    (next != END).then(|| usize::try_from(next).ok()).flatten(),
                )
            }
        }
    }

    /// Whether item `i` follows an earlier item of its name (its group
    /// was met there).
    #[inline]
    pub(super) fn follows(&self, i: usize) -> bool {
        self.get(i).0
    }

    /// The next item of `i`'s name.
    #[inline]
    pub(super) fn next(&self, i: usize) -> Option<usize> {
        self.get(i).1
    }

    /// The items of the group that `first` opens, in order.
    pub(super) fn members(&self, first: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(first), |&i| self.next(i))
    }
}

/// The distinct names met, each with its first and last item.
#[derive(Default)]
struct Names<'k> {
    list: [(&'k str, usize, usize); SMALL],
    len: usize,
    /// The index in `list` of the last name found.
    last: usize,
    /// The names, once there are more than [`SMALL`].
    map: Option<HashMap<&'k str, (usize, usize)>>,
}

impl<'k> Names<'k> {
    /// Records item `i` under `name`: the previous last item of that
    /// name, if any.
    #[inline]
    fn join(&mut self, name: &'k str, i: usize) -> Option<usize> {
        if let Some(map) = &mut self.map {
            return match map.entry(name) {
                std::collections::hash_map::Entry::Occupied(mut e) => {
                    Some(std::mem::replace(&mut e.get_mut().1, i))
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert((i, i));
                    None
                }
            };
        }
        let list = self.list.get_mut(..self.len).unwrap_or_default();
        if let Some((n, _, last)) = list.get_mut(self.last) {
            if *n == name {
                return Some(std::mem::replace(last, i));
            }
        }
        if let Some(k) = list.iter().position(|(n, _, _)| *n == name) {
            self.last = k;
            return list
                .get_mut(k)
                .map(|(_, _, last)| std::mem::replace(last, i));
        }
        if let Some(slot) = self.list.get_mut(self.len) {
            *slot = (name, i, i);
            self.last = self.len;
            self.len += 1;
        } else {
            let mut map: HashMap<&'k str, (usize, usize)> =
                self.list.iter().map(|&(n, f, l)| (n, (f, l))).collect();
            map.insert(name, (i, i));
            self.map = Some(map);
        }
        None
    }

    /// The first item of `name`.
    fn first(&self, name: &str) -> Option<usize> {
        match &self.map {
            Some(map) => map.get(name).map(|&(first, _)| first),
            None => self
                .list
                .get(..self.len)?
                .iter()
                .find(|(n, _, _)| *n == name)
                .map(|&(_, first, _)| first),
        }
    }
}

/// An item of a native body for [`entries`]: an attribute, or a block
/// (native, or one that a `dynamic` block generated) and its type.
pub(super) enum Item<'a, 'de> {
    /// An attribute (its name is alone).
    Attr(&'a Attribute<'de>),
    /// A block and its type (grouped by it).
    Block(&'de str, Member<'a, 'de>),
}

impl<'a, 'de> Item<'a, 'de> {
    /// A native body's item.
    #[inline]
    pub(super) fn native(s: &'a Structure<'de>, sh: &'a Shared<'a>) -> Self {
        match s {
            Structure::Attribute(a) => Item::Attr(a),
            Structure::Block(b) => Item::Block(b.ident.name, Member::Native(b, sh)),
        }
    }
}

/// The error of a name that is both an attribute and a block type.
fn conflict(name: &str, span: Span) -> Error {
    Error::data_at(
        format!("`{name}` is both an attribute and a block type in this body"),
        span,
    )
}

/// The entries of a native body (`item` gives each of `items` as an
/// [`Item`]), `sh` its file: attributes, and blocks grouped by type, in
/// order of first appearance. A name that is both an attribute and a
/// block type is an error at its second item.
pub(super) fn entries<'s, 'a, 'de: 's, T>(
    items: &'s [T],
    item: impl Fn(&'s T) -> Item<'a, 'de>,
    sh: &'a Shared<'a>,
) -> Result<Vec<Entry<'a, 'de>>> {
    let groups = Groups::new(items, |t| match item(t) {
        Item::Attr(a) => Key::Alone(a.name.name),
        Item::Block(name, _) => Key::Group(name),
    })
    .map_err(|c| match items.get(c).map(&item) {
        Some(Item::Attr(a)) => conflict(a.name.name, a.name.span),
        Some(Item::Block(name, m)) => conflict(name, key_span(&m)),
        None => Error::data("a body's item is missing"),
    })?;
    let mut out = Vec::with_capacity(items.len());
    for (i, t) in items.iter().enumerate() {
        match item(t) {
            Item::Attr(a) => out.push(Entry::Attr(a, sh)),
            Item::Block(name, m) if !groups.follows(i) => {
                let members = if groups.next(i).is_none() {
                    Members::One(m)
                } else {
                    let mut all = Vec::with_capacity(groups.members(i).count());
                    all.push(m);
                    for j in groups.members(i).skip(1) {
                        if let Some(Item::Block(_, m)) = items.get(j).map(&item) {
                            all.push(m);
                        }
                    }
                    Members::Many(all)
                };
                out.push(Entry::Blocks(Str::Borrowed(name), members));
            }
            Item::Block(..) => {}
        }
    }
    Ok(out)
}

/// The first item, in order, whose name an earlier item has, and the
/// first item of that name: `(repeat, first)` (for names that may appear
/// once).
pub(super) fn first_repeat<'s, T>(
    items: &'s [T],
    name: impl Fn(&'s T) -> &'s str,
) -> Option<(usize, usize)> {
    // Only groups: no clash.
    let groups = Groups::new(items, |t| Key::Group(name(t))).ok()?;
    (0..items.len())
        .filter(|&first| !groups.follows(first))
        .filter_map(|first| groups.next(first).map(|second| (second, first)))
        .min()
}

/// An item of a JSON-syntax body for [`json_entries`]: a property (`"//"`
/// comments left out), or a block that a `dynamic` property generated,
/// with the property of its type.
pub(super) enum JsonItem<'a, 'de> {
    Prop(PropRef<'a, 'de>),
    Generated(PropRef<'a, 'de>, Member<'a, 'de>),
}

impl<'a, 'de> JsonItem<'a, 'de> {
    /// The name it is grouped by: the property's, the block's type.
    fn name(&self) -> &'a str {
        match self {
            JsonItem::Prop(p) | JsonItem::Generated(p, _) => p.name(),
        }
    }
}

/// The error of a property whose name an earlier one (`first`) has.
pub(super) fn duplicate(p: PropRef<'_, '_>, first: impl std::fmt::Display) -> Error {
    Error::data_at(
        format!(
            "duplicate property `{}` (first defined at {first}): in this body each name may appear once; write repeated blocks as an array",
            p.name()
        ),
        p.name_span,
    )
}

/// The entries of a JSON-syntax body (`items`, in order; `sh` its file):
/// a name may appear once, an error at its second property ("first
/// defined at byte N"), except that blocks a `dynamic` property
/// generated make their type a group of blocks, which the type's
/// properties join (a property after one of its name, with no generated
/// block between, is still the error). A property alone is an attribute
/// or blocks as the target reads it ([`Entry::Json`]); a group with a
/// generated block is blocks ([`Entry::Blocks`], in order).
pub(super) fn json_entries<'a, 'de>(
    items: &[JsonItem<'a, 'de>],
    sh: &'a Shared<'a>,
) -> Result<Vec<Entry<'a, 'de>>> {
    let Ok(groups) = Groups::new(items, |t| Key::Group(t.name())) else {
        // Only groups: no clash.
        return Err(Error::data("a body's names clash"));
    };
    let prop = |i: usize| match items.get(i) {
        Some(JsonItem::Prop(p)) => Some(*p),
        _ => None,
    };
    // The earliest second property right after the first of its name.
    let repeat = (0..items.len())
        .filter(|&first| !groups.follows(first))
        .filter_map(|first| {
            let second = groups.next(first)?;
            prop(first)?;
            prop(second).map(|p| (second, p, first))
        })
        .min_by_key(|&(second, _, _)| second);
    if let Some((_, p, first)) = repeat {
        let at = prop(first).map_or(0, |q| q.name_span.start());
        return Err(duplicate(p, format_args!("byte {at}")));
    }
    let mut out = Vec::with_capacity(items.len());
    for (first, item) in items.iter().enumerate() {
        if groups.follows(first) {
            continue;
        }
        let member = |item: &JsonItem<'a, 'de>| match item {
            JsonItem::Prop(p) => Member::Json(p.value(), p.name_span, sh),
            JsonItem::Generated(_, m) => m.clone(),
        };
        out.push(match (item, groups.next(first)) {
            (JsonItem::Prop(p), None) => Entry::Json(*p, sh),
            (JsonItem::Prop(p) | JsonItem::Generated(p, _), next) => {
                let members = match next {
                    None => Members::One(member(item)),
                    Some(_) => Members::Many(
                        groups
                            .members(first)
                            .filter_map(|i| items.get(i).map(member))
                            .collect(),
                    ),
                };
                Entry::Blocks(p.name_str(), members)
            }
        });
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::unwrap_used)]
mod tests {
    use super::{Groups, Key, SMALL};

    /// What the grouping must find, by the definition: each item's next
    /// of its name, whether it follows one, and the first clash.
    fn group<'k>(k: &Key<'k>) -> Option<&'k str> {
        match k {
            Key::Group(n) => Some(n),
            _ => None,
        }
    }

    fn expected(keys: &[Key<'_>]) -> (Vec<(bool, Option<usize>)>, Option<usize>) {
        let links = (0..keys.len())
            .map(|i| {
                let Some(name) = group(&keys[i]) else {
                    return (false, None);
                };
                let follows = keys[..i].iter().any(|k| group(k) == Some(name));
                let next = (i + 1..keys.len()).find(|&j| group(&keys[j]) == Some(name));
                (follows, next)
            })
            .collect();
        let clash = (0..keys.len()).find(|&i| match keys[i] {
            Key::Alone(name) => keys[..i].iter().any(|k| group(k) == Some(name)),
            Key::Group(name) => {
                !keys[..i].iter().any(|k| group(k) == Some(name))
                    && keys[..i]
                        .iter()
                        .any(|k| matches!(k, Key::Alone(n) if *n == name))
            }
            Key::Skip => false,
        });
        (links, clash)
    }

    fn found(g: Result<Groups, usize>, n: usize) -> (Vec<(bool, Option<usize>)>, Option<usize>) {
        match g {
            Ok(g) => ((0..n).map(|i| (g.follows(i), g.next(i))).collect(), None),
            Err(c) => (Vec::new(), Some(c)),
        }
    }

    #[test]
    fn small_and_large_group_as_defined() {
        const NAMES: [&str; 40] = [
            "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q",
            "r", "s", "t", "u", "v", "w", "x", "y", "z", "aa", "bb", "cc", "dd", "ee", "ff", "gg",
            "hh", "ii", "jj", "kk", "ll", "mm", "nn",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            usize::try_from((seed >> 33) % m).unwrap()
        };
        for round in 0..4000 {
            let n = next(2 * SMALL as u64 + 8);
            // Few names (long groups), or many (past the inline list).
            let names = if round % 3 == 0 {
                40
            } else {
                1 + next(6) as u64
            };
            let alone_rate = if round % 2 == 0 {
                0
            } else {
                1 + next(4) as u64
            };
            let keys: Vec<Key<'_>> = (0..n)
                .map(|_| {
                    let name = NAMES[next(names)];
                    match next(10) {
                        0 => Key::Skip,
                        k if (k as u64) < alone_rate => Key::Alone(name),
                        _ => Key::Group(name),
                    }
                })
                .collect();
            let (links, clash) = expected(&keys);
            let want = match clash {
                Some(c) => (Vec::new(), Some(c)),
                None => (links, None),
            };
            let small = found(Groups::small(&keys, |k| *k), n);
            let large = found(Groups::large(&keys, |k| *k), n);
            assert_eq!(small, want, "small, round {round}");
            assert_eq!(large, want, "large, round {round}");
            if clash.is_none() {
                let g = Groups::new(&keys, |k| *k).unwrap();
                for i in (0..n).filter(|&i| !g.follows(i)) {
                    let members: Vec<usize> = g.members(i).collect();
                    assert!(members.windows(2).all(|w| w[0] < w[1]));
                }
            }
        }
    }
}
