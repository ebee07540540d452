//! A parser for JSON text, for HCL's JSON syntax (`.tf.json`,
//! `.hcl.json`): a flat, spanned document that borrows from its input.
//!
//! This is plain JSON (RFC 8259) with what HCL needs on top: every value
//! and property name has its byte [`Span`]; numbers keep their exact
//! source text; repeated property names are kept, in order (in HCL's JSON
//! syntax they mean repeated blocks); nesting is limited by
//! [`ParseOptions::max_depth`] and the input's length by
//! [`ParseOptions::max_input_len`]. What the tree means as HCL (which
//! properties are attributes and which are blocks) depends on the
//! application's schema and is decided by the `hcl` crate.
//!
//! [`ParseOptions::max_depth`]: crate::ParseOptions::max_depth
//! [`ParseOptions::max_input_len`]: crate::ParseOptions::max_input_len
//!
//! The parse returns a [`JsonDocument`], which holds every value in two
//! contiguous arenas (one of array elements, one of object properties):
//! an array or object value holds the place of its children there
//! ([`JsonArray`], [`JsonObject`]), and the document hands them out as
//! slices ([`JsonDocument::items`], [`JsonDocument::properties`]). The
//! nodes are small `Copy` data without drop glue: a string or a number
//! is read through the document ([`JsonDocument::str`],
//! [`JsonDocument::name`], [`JsonDocument::string`],
//! [`JsonDocument::number`]), which borrows it from the input. A string
//! value written with escapes is decoded when it is read (the parse only
//! checks its escapes: a string nobody reads is never copied, one that
//! is read is copied once, into the `String` it is handed over as); a
//! property name written with them is decoded as it is parsed, into the
//! one buffer of decoded names the document keeps, so that every name is
//! lent as a `&str`. A document costs a few allocations, whatever its size (a small
//! one none, once one like it was dropped on the same thread: each thread
//! keeps small buffers for the next parse), and its values lie in the
//! order they are read.
//!
//! The same parser builds other values too: [`build_json`] hands each
//! value to a [`JsonBuilder`] as it reads it (the document is one such
//! builder's), for a reader that makes its own values without a document
//! in between (one scanner of JSON, two outputs).
//!
//! Errors follow the reference implementation (hashicorp/hcl's `json`
//! package): trailing commas, comments, single quotes, raw control
//! characters in strings and anything after the value are syntax errors.
//! Invalid UTF-8 inside a string becomes U+FFFD, as in the reference; a
//! byte that cannot start a token is "Invalid start of value".
//!
//! ```
//! use hcl_grammar::json::{parse_json, JsonKind};
//! let doc = parse_json(r#"{"port": 8080, "tags": ["a", "b"]}"#, &Default::default()).unwrap();
//! let JsonKind::Object(object) = doc.root().kind else { panic!() };
//! let props = doc.properties(object);
//! assert_eq!(doc.name(&props[0]), "port");
//! assert_eq!(doc.number(&props[0].value), Some("8080"));
//! let JsonKind::Array(tags) = props[1].value.kind else { panic!() };
//! assert_eq!(doc.items(tags).len(), 2);
//! assert!(parse_json("{\"a\": 1,}", &Default::default()).is_err());
//! ```

mod build;
mod bytes;
mod lists;
mod parse;
mod unescape;

pub use build::{JsonBuilder, JsonText};
pub use parse::{build_json, parse_json};

use crate::Span;
use std::borrow::Cow;
use std::fmt;

/// A parsed JSON text: its root value and the arenas that hold every
/// array's elements and every object's properties (each container's
/// children side by side), over the text it borrows its strings and
/// numbers from.
///
/// ```
/// use hcl_grammar::json::{parse_json, JsonDocument, JsonKind, JsonValue};
///
/// /// The number of values in `v`, itself included.
/// fn count(doc: &JsonDocument<'_>, v: &JsonValue) -> usize {
///     1 + match v.kind {
///         JsonKind::Array(a) => doc.items(a).iter().map(|i| count(doc, i)).sum(),
///         JsonKind::Object(o) => doc.properties(o).iter().map(|p| count(doc, &p.value)).sum(),
///         _ => 0,
///     }
/// }
///
/// let doc = parse_json(r#"{"a": [1, {"b": null}], "c": "d"}"#, &Default::default()).unwrap();
/// assert_eq!(count(&doc, doc.root()), 6);
/// ```
#[derive(Clone, PartialEq)]
pub struct JsonDocument<'i> {
    /// The text parsed (the whole input: spans are offsets into it).
    src: &'i str,
    root: JsonValue,
    /// The arenas.
    room: lists::Room,
    /// Whether every string is ASCII.
    ascii: bool,
}

impl Drop for JsonDocument<'_> {
    /// Gives a small document's buffers to the thread's next parse.
    fn drop(&mut self) {
        lists::give_room(&mut self.room);
    }
}

impl fmt::Debug for JsonDocument<'_> {
    /// The nodes (not the input, which spans point into).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonDocument")
            .field("root", &self.root)
            .field("values", &self.room.values)
            .field("properties", &self.room.properties)
            .field("ascii", &self.ascii)
            .finish()
    }
}

impl<'i> JsonDocument<'i> {
    /// The value the text holds.
    pub fn root(&self) -> &JsonValue {
        &self.root
    }

    /// Whether every string of the document (property names included) is
    /// ASCII, so that no string needs Unicode normalization: a reader
    /// can skip checking them one by one.
    ///
    /// ```
    /// use hcl_grammar::json::parse_json;
    /// assert!(parse_json(r#"{"a": ["b"]}"#, &Default::default()).unwrap().is_ascii());
    /// assert!(!parse_json(r#"{"a": ["\u00e9"]}"#, &Default::default()).unwrap().is_ascii());
    /// assert!(!parse_json(r#"{"é": 1}"#, &Default::default()).unwrap().is_ascii());
    /// ```
    pub fn is_ascii(&self) -> bool {
        self.ascii
    }

    /// The text the document was parsed from (the whole input given to
    /// [`parse_json`], whose offsets the spans are).
    ///
    /// ```
    /// use hcl_grammar::json::parse_json;
    /// let doc = parse_json(" [1] ", &Default::default()).unwrap();
    /// assert_eq!(&doc.source()[doc.root().span.range()], "[1]");
    /// ```
    pub fn source(&self) -> &'i str {
        self.src
    }

    /// The elements of an array of this document, in order. (An array of
    /// another document gives some other slice, or an empty one.)
    pub fn items(&self, array: JsonArray) -> &[JsonValue] {
        self.room.values.get(array.range()).unwrap_or_default()
    }

    /// The properties of an object of this document, in order, repeated
    /// names kept. (An object of another document gives some other
    /// slice, or an empty one.)
    pub fn properties(&self, object: JsonObject) -> &[JsonProperty] {
        self.room.properties.get(object.range()).unwrap_or_default()
    }

    /// The text of the string `s` of this document whose span (quotes
    /// included) is `span`, escapes decoded: a string value's
    /// ([`JsonKind::String`] and [`JsonValue::span`]) or a property's
    /// name ([`JsonProperty::name`] and [`JsonProperty::name_span`]).
    /// Borrowed from the input when the string is written without
    /// escapes; from the document for a name written with them (names
    /// are decoded as they are parsed); decoded into a new `String`, on
    /// each call, for a string value written with them (values are
    /// decoded when they are read). (A string of another document gives
    /// some other text.)
    ///
    /// ```
    /// use hcl_grammar::json::{parse_json, JsonKind};
    /// use std::borrow::Cow;
    /// let doc = parse_json(r#"["a\tb", "c"]"#, &Default::default()).unwrap();
    /// let JsonKind::Array(a) = doc.root().kind else { panic!() };
    /// let [ab, c] = doc.items(a) else { panic!() };
    /// let (JsonKind::String(s), JsonKind::String(t)) = (ab.kind, c.kind) else { panic!() };
    /// assert_eq!(doc.str(s, ab.span), "a\tb");
    /// assert!(matches!(doc.str(t, c.span), Cow::Borrowed("c")));
    /// ```
    #[inline]
    pub fn str(&self, s: JsonStr, span: Span) -> Cow<'_, str> {
        build::string_text(self.src, &self.room.decoded, &self.room.ends, s, span)
    }

    /// [`JsonDocument::str`] when the string is written without escapes:
    /// its text is then the input's, between the quotes, and lives as
    /// long as the input. `None` for a string written with escapes.
    ///
    /// ```
    /// use hcl_grammar::json::{parse_json, JsonKind};
    /// let doc = parse_json(r#"{"a": 1, "\u0062": 2}"#, &Default::default()).unwrap();
    /// let JsonKind::Object(o) = doc.root().kind else { panic!() };
    /// let [a, b] = doc.properties(o) else { panic!() };
    /// assert_eq!(doc.source_str(a.name, a.name_span), Some("a"));
    /// assert_eq!(doc.source_str(b.name, b.name_span), None);
    /// assert_eq!(doc.name(b), "b");
    /// ```
    #[inline]
    pub fn source_str(&self, s: JsonStr, span: Span) -> Option<&'i str> {
        if s.is_escaped() {
            return None;
        }
        Some(build::between_quotes(self.src, span))
    }

    /// A property's name, escapes decoded (names are decoded as they are
    /// parsed, so a name is always lent).
    #[inline]
    pub fn name(&self, p: &JsonProperty) -> &str {
        match self.str(p.name, p.name_span) {
            Cow::Borrowed(name) => name,
            // A string value's node given as a name's: not a name of
            // this document.
            Cow::Owned(_) => "",
        }
    }

    /// The text of a string value, escapes decoded (see
    /// [`JsonDocument::str`]); `None` for a value of another kind.
    ///
    /// ```
    /// use hcl_grammar::json::parse_json;
    /// let doc = parse_json(r#""caf\u00e9""#, &Default::default()).unwrap();
    /// assert_eq!(doc.string(doc.root()).as_deref(), Some("café"));
    /// ```
    #[inline]
    pub fn string(&self, v: &JsonValue) -> Option<Cow<'_, str>> {
        match v.kind {
            JsonKind::String(s) => Some(self.str(s, v.span)),
            _ => None,
        }
    }

    /// The text of a number value, as written (`-0`, `1e400`, `0.1000`);
    /// `None` for a value of another kind.
    ///
    /// ```
    /// use hcl_grammar::json::parse_json;
    /// let doc = parse_json("[1e400]", &Default::default()).unwrap();
    /// assert_eq!(doc.number(doc.root()), None);
    /// let doc = parse_json(" -0.10 ", &Default::default()).unwrap();
    /// assert_eq!(doc.number(doc.root()), Some("-0.10"));
    /// ```
    #[inline]
    pub fn number(&self, v: &JsonValue) -> Option<&'i str> {
        match v.kind {
            JsonKind::Number => self.src.get(v.span.range()),
            _ => None,
        }
    }

    /// Removes the root object's properties for which `keep`, given each
    /// property and its name, returns `false`, keeping the others in
    /// order (as [`Vec::retain`]); nothing when the root is not an
    /// object. For a program that reads some properties itself and hands
    /// the rest of the document on.
    ///
    /// ```
    /// use hcl_grammar::json::{parse_json, JsonKind};
    /// let mut doc = parse_json(r#"{"a": 1, "b": 2, "c": 3}"#, &Default::default()).unwrap();
    /// doc.retain_root_properties(|_, name| name != "b");
    /// let JsonKind::Object(o) = doc.root().kind else { panic!() };
    /// let names: Vec<_> = doc.properties(o).iter().map(|p| doc.name(p)).collect();
    /// assert_eq!(names, ["a", "c"]);
    /// ```
    pub fn retain_root_properties(&mut self, mut keep: impl FnMut(&JsonProperty, &str) -> bool) {
        let JsonKind::Object(object) = self.root.kind else {
            return;
        };
        let mut kept = 0;
        for i in object.range() {
            let Some(&p) = self.room.properties.get(i) else {
                break;
            };
            if keep(&p, self.name(&p)) {
                if let Some(slot) = self.room.properties.get_mut(object.start as usize + kept) {
                    *slot = p;
                }
                kept += 1;
            }
        }
        // `kept` is at most the old length, a `u32`.
        let len = u32::try_from(kept).unwrap_or(object.len);
        self.root.kind = JsonKind::Object(JsonObject { len, ..object });
    }
}

/// A JSON value and its span (from its first to its last byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonValue {
    /// What the value is.
    pub kind: JsonKind,
    /// Where it is: for a string, the quotes included; for a number, its
    /// text.
    pub span: Span,
}

/// The kinds of JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number: its text, as written (`-0`, `1e400`, `0.1000`), is the
    /// value's span, [`JsonDocument::number`].
    Number,
    /// A string: its text, escapes decoded, is [`JsonDocument::str`]
    /// (or [`JsonDocument::string`] of the value).
    String(JsonStr),
    /// An array: its elements are [`JsonDocument::items`].
    Array(JsonArray),
    /// An object: its properties are [`JsonDocument::properties`].
    Object(JsonObject),
}

impl JsonKind {
    /// The JSON type's name, for messages (`"object"`, `"string"`...).
    pub fn type_name(&self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Bool(_) => "bool",
            JsonKind::Number => "number",
            JsonKind::String(_) => "string",
            JsonKind::Array(_) => "array",
            JsonKind::Object(_) => "object",
        }
    }
}

/// A string of a [`JsonDocument`] (a string value or a property name):
/// its text is [`JsonDocument::str`] of it and its span. Either the input
/// between the quotes, or, when it is written with escapes, that text
/// decoded: as it was parsed for a name, as it is read for a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonStr(u32);

impl JsonStr {
    /// A string written without escapes: its text is the input's.
    const SOURCE: JsonStr = JsonStr(0);
    /// A string value written with escapes: decoded when it is read.
    const LAZY: JsonStr = JsonStr(u32::MAX);

    /// The name written with escapes whose decoded text is the `n`th
    /// (from 1) the parse decoded.
    fn decoded(n: usize) -> JsonStr {
        JsonStr(u32::try_from(n).unwrap_or(u32::MAX - 1).min(u32::MAX - 1))
    }

    /// Which of the decoded names this is (from 1), if one.
    fn decoded_index(self) -> Option<usize> {
        match self.0 {
            0 | u32::MAX => None,
            n => Some(n as usize),
        }
    }

    /// Whether the string is written with escapes (its text is then
    /// decoded when it is read, not borrowed from the input).
    ///
    /// ```
    /// use hcl_grammar::json::{parse_json, JsonKind};
    /// let doc = parse_json(r#"["a", "\n"]"#, &Default::default()).unwrap();
    /// let JsonKind::Array(a) = doc.root().kind else { panic!() };
    /// let escaped: Vec<_> = doc.items(a).iter().map(|v| match v.kind {
    ///     JsonKind::String(s) => s.is_escaped(),
    ///     _ => unreachable!(),
    /// }).collect();
    /// assert_eq!(escaped, [false, true]);
    /// ```
    #[inline]
    pub fn is_escaped(self) -> bool {
        self.0 != 0
    }
}

/// Where an array's elements are in its [`JsonDocument`]: see
/// [`JsonDocument::items`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonArray {
    start: u32,
    len: u32,
}

/// Where an object's properties are in its [`JsonDocument`]: see
/// [`JsonDocument::properties`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonObject {
    start: u32,
    len: u32,
}

macro_rules! children {
    ($($ty:ident)*) => {
        $(
            impl $ty {
                /// The number of children.
                pub fn len(self) -> usize {
                    self.len as usize
                }

                /// Whether it has no children.
                pub fn is_empty(self) -> bool {
                    self.len == 0
                }

                fn range(self) -> std::ops::Range<usize> {
                    let start = self.start as usize;
                    start..start + self.len as usize
                }
            }
        )*
    };
}

children!(JsonArray JsonObject);

/// One `"name": value` property of an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonProperty {
    /// The name: its text, escapes decoded, is [`JsonDocument::name`] of
    /// the property.
    pub name: JsonStr,
    /// The name's span, quotes included.
    pub name_span: Span,
    /// The value.
    pub value: JsonValue,
}

#[cfg(test)]
mod tests {
    use super::{JsonProperty, JsonValue};

    /// The nodes stay small: the document is written by the parse and
    /// read by every walk over it.
    #[test]
    fn nodes_are_small() {
        assert_eq!(size_of::<JsonValue>(), 20);
        assert_eq!(size_of::<JsonProperty>(), 32);
        assert!(!std::mem::needs_drop::<JsonProperty>());
    }
}
