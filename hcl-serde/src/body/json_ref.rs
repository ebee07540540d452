//! A JSON value (or property) together with the document that holds it:
//! what the readers of the JSON syntax (`json.rs`, `de/json_value.rs`,
//! `de/json_seq.rs`...) pass around, since an array's elements and an
//! object's properties are reached through the document
//! (`hcl_grammar::json::JsonDocument`'s arenas).
//!
//! Both views are `Copy` and dereference to the node, so that `v.kind`,
//! `v.span` and `p.name_span` read as on the node itself; the text of a
//! string, a number or a name is read through the document
//! ([`JsonRef::string`], [`JsonRef::number`], [`PropRef::name`]).

use super::Str;
use hcl_grammar::json::{JsonDocument, JsonKind, JsonProperty, JsonStr, JsonValue};
use hcl_grammar::Span;
use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

/// A JSON value of a document.
#[derive(Clone, Copy)]
pub(crate) struct JsonRef<'a, 'i> {
    doc: &'a JsonDocument<'i>,
    v: &'a JsonValue,
}

/// A string of `doc` at `span`: borrowed from the input when written
/// without escapes, lent by the document for a name written with them,
/// decoded (owned) for a string value written with them.
#[inline]
fn str_of<'a, 'i>(doc: &'a JsonDocument<'i>, s: JsonStr, span: Span) -> Str<'a, 'i> {
    match doc.source_str(s, span) {
        Some(text) => Str::Borrowed(text),
        None => match doc.str(s, span) {
            Cow::Borrowed(text) => Str::Transient(text),
            Cow::Owned(text) => Str::Owned(text),
        },
    }
}

/// The bytes of the name of `p`, a property of `doc`: those of the input
/// when it is written without escapes (a slice, without the checks a
/// `str` slice makes for character boundaries), of the decoded name
/// otherwise. Equal names have equal bytes.
#[inline]
fn bytes_of<'a>(doc: &'a JsonDocument<'_>, p: &JsonProperty) -> &'a [u8] {
    if p.name.is_escaped() {
        return doc.name(p).as_bytes();
    }
    let span = p.name_span;
    doc.source()
        .as_bytes()
        .get(span.start() + 1..span.end().saturating_sub(1))
        .unwrap_or_default()
}

impl<'a, 'i> JsonRef<'a, 'i> {
    /// The document's root value.
    pub(crate) fn root(doc: &'a JsonDocument<'i>) -> Self {
        JsonRef { doc, v: doc.root() }
    }

    /// The node, with the document's lifetime.
    pub(crate) fn node(self) -> &'a JsonValue {
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

    /// The text of a string, escapes decoded (into a new `String` when
    /// it has them: see [`JsonRef::string_str`]).
    #[inline]
    pub(crate) fn string(self) -> Option<Cow<'a, str>> {
        self.doc.string(self.v)
    }

    /// [`JsonRef::string`], borrowed from the input when it can be.
    #[inline]
    pub(crate) fn string_str(self) -> Option<Str<'a, 'i>> {
        match self.v.kind {
            JsonKind::String(s) => Some(str_of(self.doc, s, self.v.span)),
            _ => None,
        }
    }

    /// The text of a number, as written.
    #[inline]
    pub(crate) fn number(self) -> Option<&'i str> {
        self.doc.number(self.v)
    }
}

impl<'i> Deref for JsonRef<'_, 'i> {
    type Target = JsonValue;

    fn deref(&self) -> &JsonValue {
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
    p: &'a JsonProperty,
}

impl<'a, 'i> PropRef<'a, 'i> {
    /// The property's value.
    pub(crate) fn value(self) -> JsonRef<'a, 'i> {
        JsonRef {
            doc: self.doc,
            v: &self.p.value,
        }
    }

    /// The name, escapes decoded.
    #[inline]
    pub(crate) fn name(self) -> &'a str {
        self.doc.name(self.p)
    }

    /// Whether the name is `name`: without looking the text up when the
    /// name is written without escapes and is of another length.
    #[inline]
    pub(crate) fn name_is(self, name: &str) -> bool {
        let p = self.p;
        if !p.name.is_escaped() && p.name_span.len() != name.len() + 2 {
            return false;
        }
        bytes_of(self.doc, p) == name.as_bytes()
    }

    /// [`PropRef::name`], borrowed from the input when it can be.
    #[inline]
    pub(crate) fn name_str(self) -> Str<'a, 'i> {
        str_of(self.doc, self.p.name, self.p.name_span)
    }
}

impl<'i> Deref for PropRef<'_, 'i> {
    type Target = JsonProperty;

    fn deref(&self) -> &JsonProperty {
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
    items: &'a [JsonValue],
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
    iter: std::slice::Iter<'a, JsonValue>,
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
    props: &'a [JsonProperty],
}

impl<'a, 'i> Props<'a, 'i> {
    pub(crate) fn len(self) -> usize {
        self.props.len()
    }

    pub(crate) fn is_empty(self) -> bool {
        self.props.is_empty()
    }

    /// Whether the names are distinct (compared as written): see
    /// [`distinct`].
    pub(crate) fn distinct_names(self) -> bool {
        let bytes = |p: &JsonProperty| bytes_of(self.doc, p);
        if self.props.len() > TINY {
            return distinct(self.props, bytes);
        }
        // Few names: compared pairwise, those written without escapes
        // first by the length of their spans (no text looked up); 0 for
        // a name with escapes (a span is at least two bytes long). Most
        // often their lengths differ, which one mask of them shows first.
        let mut lengths = 0u64;
        let all_differ = self.props.iter().all(|p| {
            let bit = 1u64 << (p.name_span.len() & 63);
            let fresh = !p.name.is_escaped() && lengths & bit == 0;
            lengths |= bit;
            fresh
        });
        if all_differ {
            return true;
        }
        let len = |p: &JsonProperty| {
            if p.name.is_escaped() {
                0
            } else {
                p.name_span.len()
            }
        };
        let mut rest = self.props;
        while let Some((a, later)) = rest.split_first() {
            let la = len(a);
            for b in later {
                let lb = len(b);
                if (la == lb || la == 0 || lb == 0) && bytes(a) == bytes(b) {
                    return false;
                }
            }
            rest = later;
        }
        true
    }

    /// Whether any name satisfies `f`.
    pub(crate) fn any_name(self, mut f: impl FnMut(&str) -> bool) -> bool {
        self.props.iter().any(|p| f(self.doc.name(p)))
    }

    /// The names, in order.
    pub(crate) fn names(self) -> impl Iterator<Item = &'a str> {
        self.props.iter().map(move |p| self.doc.name(p))
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
    iter: std::slice::Iter<'a, JsonProperty>,
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

/// The number of names [`distinct`] compares pairwise.
const TINY: usize = 6;

/// Whether the names of `items` are distinct (compared as written). Up to
/// six are compared pairwise (by length first); up to sixteen go into a
/// small open-addressing table by a key (length and
/// end bytes), names compared only when keys tie; many get a longer key
/// each, the keys go into a table of their own ([`distinct_keys`]), and
/// only when two keys tie are the names themselves sorted (`n log n`
/// comparisons at worst).
pub(crate) fn distinct<'n, T>(items: &'n [T], name: impl Fn(&'n T) -> &'n [u8]) -> bool {
    const SMALL: usize = 16;
    const SLOTS: usize = 2 * SMALL;
    if items.len() <= TINY {
        // Each name read once (a name may be text the document looks up).
        let mut names: [&[u8]; TINY] = [&[]; TINY];
        for (slot, t) in names.iter_mut().zip(items) {
            *slot = name(t);
        }
        let names = names.get(..items.len()).unwrap_or_default();
        return names.iter().enumerate().all(|(i, a)| {
            let later = names.get(i + 1..).unwrap_or_default();
            later.iter().all(|b| a.len() != b.len() || a != b)
        });
    }
    if items.len() <= SMALL {
        // Each slot: the key (never 0: the length is stored plus one)
        // and the index of its name.
        let mut table = [(0u64, 0usize); SLOTS];
        for (i, t) in items.iter().enumerate() {
            let b = name(t);
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
    if distinct_keys(items.iter().map(|t| name_key(name(t))), items.len()) {
        return true;
    }
    let mut all: Vec<&[u8]> = items.iter().map(name).collect();
    all.sort_unstable();
    all.windows(2).all(|w| w.first() != w.last())
}

/// Whether the `n` keys are distinct: each goes into an open-addressing
/// table of twice as many slots or more (one pass, no sort), where 0
/// marks a free slot (the key 0 is remembered apart).
fn distinct_keys(keys: impl Iterator<Item = u64>, n: usize) -> bool {
    let slots = (2 * n).next_power_of_two().max(64);
    let shift = 64 - slots.trailing_zeros();
    let mask = slots - 1;
    let mut table = vec![0u64; slots];
    let mut zero = false;
    for key in keys {
        if key == 0 {
            if zero {
                return false;
            }
            zero = true;
            continue;
        }
        let mut slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize;
        loop {
            match table.get_mut(slot) {
                Some(entry) if *entry == 0 => {
                    *entry = key;
                    break;
                }
                Some(entry) if *entry == key => return false,
                Some(_) => slot = (slot + 1) & mask,
                None => return false,
            }
        }
    }
    true
}

/// A name's key for [`distinct`]: equal names have equal keys; a name of
/// at most seven bytes has a key of its own.
#[inline]
fn name_key(b: &[u8]) -> u64 {
    let len = b.len() as u64;
    let word = |at: &[u8]| <[u8; 8]>::try_from(at).map_or(0, u64::from_le_bytes);
    match (b.get(..8), b.len().checked_sub(8).and_then(|i| b.get(i..))) {
        (Some(first), Some(last)) => word(first).rotate_left(29) ^ word(last) ^ len.rotate_right(8),
        _ => b.iter().fold(0, |k, &x| (k << 8) | u64::from(x)) | (len << 56),
    }
}

#[cfg(test)]
mod tests {
    use super::{distinct, JsonRef};

    /// A document's names compare as text, written with escapes or not,
    /// whether there are few of them or many.
    #[test]
    #[allow(clippy::unwrap_used)]
    fn document_names_compare_as_text() {
        for many in [0, 3, 12, 40] {
            let filler: String = (0..many).map(|i| format!(r#""n{i}": 0, "#)).collect();
            for (pair, same) in [
                (r#""ab": 1, "\u0061b": 2"#, true),
                (r#""ab": 1, "a\/": 2"#, false),
                (r#""a\/": 1, "a/": 2"#, true),
                (r#""ab": 1, "ba": 2"#, false),
                (r#""\n": 1, "\n": 2"#, true),
                (r#""\n": 1, "\t": 2"#, false),
            ] {
                let text = format!("{{{filler}{pair}}}");
                let doc = hcl_grammar::json::parse_json(&text, &Default::default()).unwrap();
                let props = JsonRef::root(&doc).object().unwrap();
                assert_eq!(props.distinct_names(), !same, "{text}");
            }
        }
    }

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
                    distinct(&names, |s| s.as_bytes()),
                    pairwise(&names),
                    "{names:?}"
                );
            }
        }
    }
}
