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
//! slices ([`JsonDocument::items`], [`JsonDocument::properties`]). A
//! document costs a few allocations, whatever its size, and its values
//! lie in the order they are read.
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
//! assert_eq!(props[0].name, "port");
//! assert!(matches!(props[0].value.kind, JsonKind::Number("8080")));
//! let JsonKind::Array(tags) = props[1].value.kind else { panic!() };
//! assert_eq!(doc.items(tags).len(), 2);
//! assert!(parse_json("{\"a\": 1,}", &Default::default()).is_err());
//! ```

mod parse;

pub use parse::parse_json;

use crate::Span;
use std::borrow::Cow;

/// A parsed JSON text: its root value, and the arenas that hold every
/// array's elements and every object's properties, each container's
/// children side by side.
///
/// ```
/// use hcl_grammar::json::{parse_json, JsonDocument, JsonKind, JsonValue};
///
/// /// The number of values in `v`, itself included.
/// fn count(doc: &JsonDocument<'_>, v: &JsonValue<'_>) -> usize {
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
#[derive(Debug, Clone, PartialEq)]
pub struct JsonDocument<'i> {
    root: JsonValue<'i>,
    /// The elements of every array.
    values: Vec<JsonValue<'i>>,
    /// The properties of every object.
    properties: Vec<JsonProperty<'i>>,
    /// Whether every string is ASCII.
    ascii: bool,
}

impl<'i> JsonDocument<'i> {
    /// The value the text holds.
    pub fn root(&self) -> &JsonValue<'i> {
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

    /// The elements of an array of this document, in order. (An array of
    /// another document gives some other slice, or an empty one.)
    pub fn items(&self, array: JsonArray) -> &[JsonValue<'i>] {
        self.values.get(array.range()).unwrap_or_default()
    }

    /// The properties of an object of this document, in order, repeated
    /// names kept. (An object of another document gives some other
    /// slice, or an empty one.)
    pub fn properties(&self, object: JsonObject) -> &[JsonProperty<'i>] {
        self.properties.get(object.range()).unwrap_or_default()
    }

    /// Removes the root object's properties for which `keep` returns
    /// `false`, keeping the others in order (as [`Vec::retain`]); nothing
    /// when the root is not an object. For a program that reads some
    /// properties itself and hands the rest of the document on.
    ///
    /// ```
    /// use hcl_grammar::json::{parse_json, JsonKind};
    /// let mut doc = parse_json(r#"{"a": 1, "b": 2, "c": 3}"#, &Default::default()).unwrap();
    /// doc.retain_root_properties(|p| p.name != "b");
    /// let JsonKind::Object(o) = doc.root().kind else { panic!() };
    /// let names: Vec<_> = doc.properties(o).iter().map(|p| p.name.as_ref()).collect();
    /// assert_eq!(names, ["a", "c"]);
    /// ```
    pub fn retain_root_properties(&mut self, mut keep: impl FnMut(&JsonProperty<'i>) -> bool) {
        let JsonKind::Object(object) = &mut self.root.kind else {
            return;
        };
        let Some(props) = self.properties.get_mut(object.range()) else {
            return;
        };
        let mut kept = 0;
        for i in 0..props.len() {
            if props.get(i).is_some_and(&mut keep) {
                props.swap(kept, i);
                kept += 1;
            }
        }
        // `kept` is at most the old length, a `u32`.
        object.len = u32::try_from(kept).unwrap_or(object.len);
    }
}

/// A JSON value and its span (from its first to its last byte).
#[derive(Debug, Clone, PartialEq)]
pub struct JsonValue<'i> {
    /// What the value is.
    pub kind: JsonKind<'i>,
    /// Where it is: for a string, the quotes included.
    pub span: Span,
}

/// The kinds of JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonKind<'i> {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number, as written (`-0`, `1e400`, `0.1000`).
    Number(&'i str),
    /// A string, escapes decoded; borrowed when it had none.
    String(Cow<'i, str>),
    /// An array: its elements are [`JsonDocument::items`].
    Array(JsonArray),
    /// An object: its properties are [`JsonDocument::properties`].
    Object(JsonObject),
}

impl JsonKind<'_> {
    /// The JSON type's name, for messages (`"object"`, `"string"`...).
    pub fn type_name(&self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Bool(_) => "bool",
            JsonKind::Number(_) => "number",
            JsonKind::String(_) => "string",
            JsonKind::Array(_) => "array",
            JsonKind::Object(_) => "object",
        }
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
#[derive(Debug, Clone, PartialEq)]
pub struct JsonProperty<'i> {
    /// The name, escapes decoded.
    pub name: Cow<'i, str>,
    /// The name's span, quotes included.
    pub name_span: Span,
    /// The value.
    pub value: JsonValue<'i>,
}

impl JsonValue<'_> {
    /// Whether the string (or name) at `span` of `src` was written without
    /// escapes, so that its text is the source between the quotes.
    #[doc(hidden)]
    pub fn is_raw_string(src: &str, span: Span) -> bool {
        src.get(span.start() + 1..span.end().saturating_sub(1))
            .is_some_and(|s| !s.contains('\\'))
    }
}
