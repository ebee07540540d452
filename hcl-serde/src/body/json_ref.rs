//! A JSON value (or property) together with the document that holds it:
//! what the readers of the JSON syntax (`json.rs`, `de/json_value.rs`,
//! `de/json_seq.rs`...) pass around, since an array's elements and an
//! object's properties are reached through the document
//! (`hcl_grammar::json::JsonDocument`'s arenas).
//!
//! Both views are `Copy` and dereference to the node, so that `v.kind`,
//! `v.span`, `p.name` and `p.name_span` read as on the node itself.

use hcl_grammar::json::{JsonDocument, JsonKind, JsonProperty, JsonValue};
use std::fmt;
use std::ops::Deref;

/// A JSON value of a document.
#[derive(Clone, Copy)]
pub(crate) struct JsonRef<'a, 'i> {
    doc: &'a JsonDocument<'i>,
    v: &'a JsonValue<'i>,
}

impl<'a, 'i> JsonRef<'a, 'i> {
    /// The document's root value.
    pub(crate) fn root(doc: &'a JsonDocument<'i>) -> Self {
        JsonRef { doc, v: doc.root() }
    }

    /// The node, with the document's lifetime.
    pub(crate) fn node(self) -> &'a JsonValue<'i> {
        self.v
    }

    /// The elements, if this is an array.
    pub(crate) fn array(self) -> Option<Items<'a, 'i>> {
        match self.v.kind {
            JsonKind::Array(a) => Some(Items {
                doc: self.doc,
                items: self.doc.items(a),
            }),
            _ => None,
        }
    }

    /// The properties, if this is an object.
    pub(crate) fn object(self) -> Option<Props<'a, 'i>> {
        match self.v.kind {
            JsonKind::Object(o) => Some(Props {
                doc: self.doc,
                props: self.doc.properties(o),
            }),
            _ => None,
        }
    }

    /// Whether every string of the document is ASCII (so already NFC).
    pub(crate) fn ascii(self) -> bool {
        self.doc.is_ascii()
    }

    /// Whether this is an object.
    pub(crate) fn is_object(self) -> bool {
        matches!(self.v.kind, JsonKind::Object(_))
    }
}

impl<'i> Deref for JsonRef<'_, 'i> {
    type Target = JsonValue<'i>;

    fn deref(&self) -> &JsonValue<'i> {
        self.v
    }
}

impl fmt::Debug for JsonRef<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.fmt(f)
    }
}

/// A property of an object of a document.
#[derive(Clone, Copy)]
pub(crate) struct PropRef<'a, 'i> {
    doc: &'a JsonDocument<'i>,
    p: &'a JsonProperty<'i>,
}

impl<'a, 'i> PropRef<'a, 'i> {
    /// The property's value.
    pub(crate) fn value(self) -> JsonRef<'a, 'i> {
        JsonRef {
            doc: self.doc,
            v: &self.p.value,
        }
    }

    /// The node, with the document's lifetime.
    pub(crate) fn node(self) -> &'a JsonProperty<'i> {
        self.p
    }
}

impl<'i> Deref for PropRef<'_, 'i> {
    type Target = JsonProperty<'i>;

    fn deref(&self) -> &JsonProperty<'i> {
        self.p
    }
}

impl fmt::Debug for PropRef<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.p.fmt(f)
    }
}

/// The elements of an array.
#[derive(Clone, Copy)]
pub(crate) struct Items<'a, 'i> {
    doc: &'a JsonDocument<'i>,
    items: &'a [JsonValue<'i>],
}

impl<'a, 'i> Items<'a, 'i> {
    pub(crate) fn len(self) -> usize {
        self.items.len()
    }

    pub(crate) fn iter(self) -> ItemIter<'a, 'i> {
        ItemIter {
            doc: self.doc,
            iter: self.items.iter(),
        }
    }
}

impl<'a, 'i> IntoIterator for Items<'a, 'i> {
    type Item = JsonRef<'a, 'i>;
    type IntoIter = ItemIter<'a, 'i>;

    fn into_iter(self) -> ItemIter<'a, 'i> {
        self.iter()
    }
}

/// The elements of an array, one by one.
#[derive(Clone)]
pub(crate) struct ItemIter<'a, 'i> {
    doc: &'a JsonDocument<'i>,
    iter: std::slice::Iter<'a, JsonValue<'i>>,
}

impl<'a, 'i> Iterator for ItemIter<'a, 'i> {
    type Item = JsonRef<'a, 'i>;

    #[inline]
    fn next(&mut self) -> Option<JsonRef<'a, 'i>> {
        let v = self.iter.next()?;
        Some(JsonRef { doc: self.doc, v })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl ExactSizeIterator for ItemIter<'_, '_> {}

/// The properties of an object.
#[derive(Clone, Copy)]
pub(crate) struct Props<'a, 'i> {
    doc: &'a JsonDocument<'i>,
    props: &'a [JsonProperty<'i>],
}

impl<'a, 'i> Props<'a, 'i> {
    pub(crate) fn len(self) -> usize {
        self.props.len()
    }

    pub(crate) fn is_empty(self) -> bool {
        self.props.is_empty()
    }

    /// The nodes, for what needs no child of theirs.
    pub(crate) fn nodes(self) -> &'a [JsonProperty<'i>] {
        self.props
    }

    /// The one property, if there is exactly one.
    pub(crate) fn single(self) -> Option<PropRef<'a, 'i>> {
        match self.props {
            [p] => Some(PropRef { doc: self.doc, p }),
            _ => None,
        }
    }

    pub(crate) fn iter(self) -> PropIter<'a, 'i> {
        PropIter {
            doc: self.doc,
            iter: self.props.iter(),
        }
    }
}

impl<'a, 'i> IntoIterator for Props<'a, 'i> {
    type Item = PropRef<'a, 'i>;
    type IntoIter = PropIter<'a, 'i>;

    fn into_iter(self) -> PropIter<'a, 'i> {
        self.iter()
    }
}

/// The properties of an object, one by one.
#[derive(Clone)]
pub(crate) struct PropIter<'a, 'i> {
    doc: &'a JsonDocument<'i>,
    iter: std::slice::Iter<'a, JsonProperty<'i>>,
}

impl<'a, 'i> Iterator for PropIter<'a, 'i> {
    type Item = PropRef<'a, 'i>;

    #[inline]
    fn next(&mut self) -> Option<PropRef<'a, 'i>> {
        let p = self.iter.next()?;
        Some(PropRef { doc: self.doc, p })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl ExactSizeIterator for PropIter<'_, '_> {}

/// Whether the names of `items` are distinct (compared as written). Up to
/// six are compared pairwise (by length first); up to sixteen go into a
/// small open-addressing table by a key (length and
/// end bytes), names compared only when keys tie; many get a longer key
/// each, the keys are sorted, and only when two keys tie are the names
/// themselves sorted (`n log n` comparisons at worst).
pub(crate) fn distinct<T>(items: &[T], name: impl Fn(&T) -> &str) -> bool {
    const TINY: usize = 6;
    const SMALL: usize = 16;
    const SLOTS: usize = 2 * SMALL;
    if items.len() <= TINY {
        return items.iter().enumerate().all(|(i, a)| {
            let a = name(a);
            let later = items.get(i + 1..).unwrap_or_default();
            later.iter().all(|b| {
                let b = name(b);
                a.len() != b.len() || a != b
            })
        });
    }
    if items.len() <= SMALL {
        // Each slot: the key (never 0: the length is stored plus one)
        // and the index of its name.
        let mut table = [(0u64, 0usize); SLOTS];
        for (i, t) in items.iter().enumerate() {
            let b = name(t).as_bytes();
            let ends = match (b.first(), b.last()) {
                (Some(&f), Some(&l)) => u64::from(f) << 32 | u64::from(l) << 40,
                _ => 0,
            };
            let key = (b.len() as u64 + 1) | ends;
            let mut slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 59) as usize;
            loop {
                match table.get_mut(slot % SLOTS) {
                    Some(entry) if entry.0 == 0 => {
                        *entry = (key, i);
                        break;
                    }
                    Some(&mut (k, j)) if k == key => {
                        if items.get(j).map(&name) == Some(name(t)) {
                            return false;
                        }
                    }
                    Some(_) => {}
                    None => break,
                }
                slot += 1;
            }
        }
        return true;
    }
    let mut keys: Vec<u64> = items.iter().map(|t| name_key(name(t))).collect();
    keys.sort_unstable();
    if keys.windows(2).all(|w| w.first() != w.last()) {
        return true;
    }
    let mut all: Vec<&str> = items.iter().map(name).collect();
    all.sort_unstable();
    all.windows(2).all(|w| w.first() != w.last())
}

/// A name's key for [`distinct`]: equal names have equal keys; a name of
/// at most seven bytes has a key of its own.
#[inline]
fn name_key(name: &str) -> u64 {
    let b = name.as_bytes();
    let len = b.len() as u64;
    let word = |at: &[u8]| <[u8; 8]>::try_from(at).map_or(0, u64::from_le_bytes);
    match (b.get(..8), b.len().checked_sub(8).and_then(|i| b.get(i..))) {
        (Some(first), Some(last)) => word(first).rotate_left(29) ^ word(last) ^ len.rotate_right(8),
        _ => b.iter().fold(0, |k, &x| (k << 8) | u64::from(x)) | (len << 56),
    }
}

#[cfg(test)]
mod tests {
    use super::distinct;

    /// `distinct` agrees with comparing every pair, for few names and many,
    /// names whose keys tie included.
    #[test]
    fn distinct_is_every_pair_compared() {
        let pairwise = |names: &[String]| {
            names
                .iter()
                .enumerate()
                .all(|(i, a)| !names.get(i + 1..).unwrap_or_default().contains(a))
        };
        let pool: Vec<String> = [
            "",
            "a",
            "b",
            "ab",
            "ba",
            "abcdefg",
            "abcdefgh",
            "xabcdefgh",
            "yabcdefgh",
            "0123456789abcdef",
            "1123456789abcdef",
            "é",
            "e\u{301}",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain((0..40).map(|i| format!("name_{i}")))
        .chain((0..40).map(|i| format!("{i}_same_tail_bytes")))
        .collect();
        for len in [0, 1, 2, 5, 16, 17, 40, 93] {
            for repeat in [None, Some(0), Some(len / 2)] {
                let mut names: Vec<String> = pool.iter().take(len).cloned().collect();
                if let Some(again) = repeat.and_then(|r| names.get(r.min(len.saturating_sub(1)))) {
                    names.push(again.clone());
                }
                assert_eq!(
                    distinct(&names, String::as_str),
                    pairwise(&names),
                    "{names:?}"
                );
            }
        }
    }
}
