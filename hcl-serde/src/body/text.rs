//! A string handed to a visitor with the lifetime it has: borrowed from
//! the input, borrowed from the tree, or computed. The body views of both
//! syntaxes (`json_ref.rs`) give their names and strings as one, and the
//! deserializers (`de/key.rs`) lend it on.

use crate::error::Result;
use hcl_grammar::BlockLabel;
use serde::de::Visitor;

/// A string that is either borrowed from the input (`'de`), borrowed from
/// the tree (`'a`) or owned.
#[derive(Clone)]
pub(crate) enum Str<'a, 'de> {
    /// Lent to the visitor as `&'de str`.
    Borrowed(&'de str),
    /// Only lives as long as the tree: copied by the visitor if needed.
    Transient(&'a str),
    /// Computed.
    Owned(String),
}

impl<'a, 'de> Str<'a, 'de> {
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Str::Borrowed(s) => s,
            Str::Transient(s) => s,
            Str::Owned(s) => s,
        }
    }

    pub(crate) fn from_cow(c: &'a std::borrow::Cow<'de, str>) -> Str<'a, 'de> {
        match c {
            std::borrow::Cow::Borrowed(s) => Str::Borrowed(s),
            std::borrow::Cow::Owned(s) => Str::Transient(s),
        }
    }

    pub(crate) fn from_label(l: &'a BlockLabel<'de>) -> Str<'a, 'de> {
        match l {
            BlockLabel::Ident(i) => Str::Borrowed(i.name),
            BlockLabel::String(s) => Str::from_cow(&s.value),
        }
    }

    pub(crate) fn visit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self {
            Str::Borrowed(s) => v.visit_borrowed_str(s),
            Str::Transient(s) => v.visit_str(s),
            Str::Owned(s) => v.visit_string(s),
        }
    }
}
