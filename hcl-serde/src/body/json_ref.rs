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
