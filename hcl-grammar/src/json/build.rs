//! What the JSON parser builds: the one scanner of JSON (`parse.rs`)
//! hands each value it reads to a [`JsonBuilder`], monomorphized (no
//! dynamic dispatch). The crate's own builder makes the spanned
//! [`JsonDocument`] of [`parse_json`](super::parse_json)
//! ([`DocBuilder`]); a reader that wants its own values (the `hcl`
//! crate's `Value`) builds them while the text is read, with no document
//! in between, through [`build_json`](super::build_json).

use super::lists::Lists;
use super::unescape::unescape;
use super::{JsonArray, JsonKind, JsonObject, JsonProperty, JsonStr, JsonValue};
use crate::{Error, Span};
use std::borrow::Cow;

/// What a JSON parse builds, value by value, as [`build_json`] reads the
/// text: scalars when they are read, containers as they open, fill and
/// close. The parser checks the syntax, the depth and the input's length
/// (a syntax error becomes [`JsonBuilder::Error`] through its `From`);
/// the builder may stop the parse itself by returning an error.
///
/// `depth` is the depth of the container being read: 1 for the root's.
///
/// [`build_json`]: super::build_json
///
/// ```
/// use hcl_grammar::json::{build_json, JsonBuilder, JsonKind, JsonStr, JsonText, JsonValue};
/// use hcl_grammar::Span;
///
/// /// Sums the numbers of a text; stops at the first string.
/// struct Sum;
/// #[derive(Debug)]
/// struct Stop;
/// impl From<hcl_grammar::Error> for Stop {
///     fn from(_: hcl_grammar::Error) -> Stop {
///         Stop
///     }
/// }
/// impl<'i> JsonBuilder<'i> for Sum {
///     type Value = f64;
///     type Array = f64;
///     type Object = f64;
///     type Error = Stop;
///     fn scalar(&mut self, v: JsonValue, text: &JsonText<'_, 'i>) -> Result<f64, Stop> {
///         match v.kind {
///             JsonKind::Number => Ok(text.number(v.span).parse().unwrap_or(0.0)),
///             JsonKind::String(_) => Err(Stop),
///             _ => Ok(0.0),
///         }
///     }
///     fn array(&mut self, _: usize) -> f64 { 0.0 }
///     fn item(&mut self, a: &mut f64, _: usize, v: f64) -> Result<(), Stop> { *a += v; Ok(()) }
///     fn end_array(&mut self, a: f64, _: usize, _: Span) -> Result<f64, Stop> { Ok(a) }
///     fn object(&mut self, _: usize) -> f64 { 0.0 }
///     fn property(
///         &mut self, o: &mut f64, _: usize, _: JsonStr, _: Span, v: f64, _: &JsonText<'_, 'i>,
///     ) -> Result<(), Stop> {
///         *o += v;
///         Ok(())
///     }
///     fn end_object(&mut self, o: f64, _: usize, _: Span) -> Result<f64, Stop> { Ok(o) }
/// }
///
/// let options = Default::default();
/// assert_eq!(build_json(r#"{"a": [1, 2.5], "b": {"c": 3}}"#, &options, &mut Sum).unwrap(), 6.5);
/// assert!(build_json(r#"[1, "x"]"#, &options, &mut Sum).is_err());
/// assert!(build_json("[1,]", &options, &mut Sum).is_err());
/// ```
pub trait JsonBuilder<'i> {
    /// What a value becomes.
    type Value;
    /// An array being read: its elements so far.
    type Array;
    /// An object being read: its properties so far.
    type Object;
    /// Why a parse failed: a syntax error (converted), or the builder's
    /// own reason to stop.
    type Error: From<Error>;

    /// A scalar (null, a bool, a number or a string) at `v.span`, whose
    /// text `text` gives.
    ///
    /// # Errors
    ///
    /// The builder's, to stop the parse.
    fn scalar(&mut self, v: JsonValue, text: &JsonText<'_, 'i>)
        -> Result<Self::Value, Self::Error>;

    /// An array opens at `depth`.
    fn array(&mut self, depth: usize) -> Self::Array;

    /// The next element of `array`.
    ///
    /// # Errors
    ///
    /// The builder's, to stop the parse.
    fn item(
        &mut self,
        array: &mut Self::Array,
        depth: usize,
        item: Self::Value,
    ) -> Result<(), Self::Error>;

    /// `array` closes; `span` is its text, brackets included.
    ///
    /// # Errors
    ///
    /// The builder's, to stop the parse.
    fn end_array(
        &mut self,
        array: Self::Array,
        depth: usize,
        span: Span,
    ) -> Result<Self::Value, Self::Error>;

    /// An object opens at `depth`.
    fn object(&mut self, depth: usize) -> Self::Object;

    /// The next property of `object`: its name (its text is
    /// [`JsonText::str`] of `name` and `name_span`, quotes included) and
    /// its value.
    ///
    /// # Errors
    ///
    /// The builder's, to stop the parse.
    fn property(
        &mut self,
        object: &mut Self::Object,
        depth: usize,
        name: JsonStr,
        name_span: Span,
        value: Self::Value,
        text: &JsonText<'_, 'i>,
    ) -> Result<(), Self::Error>;

    /// `object` closes; `span` is its text, braces included.
    ///
    /// # Errors
    ///
    /// The builder's, to stop the parse.
    fn end_object(
        &mut self,
        object: Self::Object,
        depth: usize,
        span: Span,
    ) -> Result<Self::Value, Self::Error>;
}

/// The text of the strings and numbers read so far, for a
/// [`JsonBuilder`]: the input, and the property names written with
/// escapes, decoded (a string value written with them is decoded when it
/// is read).
pub struct JsonText<'a, 'i> {
    pub(super) src: &'i str,
    pub(super) decoded: &'a str,
    pub(super) ends: &'a [u32],
    pub(super) ascii: bool,
}

impl<'a, 'i> JsonText<'a, 'i> {
    /// The text of the string `s` at `span` (quotes included), escapes
    /// decoded: borrowed from the input when it is written without them
    /// ([`JsonStr::is_escaped`]), from the names decoded so far for a
    /// property's name, and decoded into a new `String` for a string
    /// value.
    #[inline]
    pub fn str(&self, s: JsonStr, span: Span) -> Cow<'a, str>
    where
        'i: 'a,
    {
        string_text(self.src, self.decoded, self.ends, s, span)
    }

    /// The text of the number at `span`, as written.
    #[inline]
    pub fn number(&self, span: Span) -> &'i str {
        self.src.get(span.range()).unwrap_or_default()
    }

    /// Whether every string read so far (the last one included) is
    /// ASCII, so that none needs Unicode normalization. (`false` may
    /// also mean that a byte read past a string was not.)
    #[inline]
    pub fn is_ascii(&self) -> bool {
        self.ascii
    }
}

/// The text of the string `s` of `src` at `span` (quotes included):
/// between the quotes when written without escapes; a name's decoded
/// text, the `n`th of `decoded`, which ends at `ends[n - 1]` (and starts
/// where the one before ends); a string value's decoded now.
#[inline(always)]
pub(super) fn string_text<'a>(
    src: &'a str,
    decoded: &'a str,
    ends: &[u32],
    s: JsonStr,
    span: Span,
) -> Cow<'a, str> {
    let content = between_quotes(src, span);
    if s.is_escaped() {
        escaped_text(content, decoded, ends, s)
    } else {
        Cow::Borrowed(content)
    }
}

/// The text of `src` between the quotes of the string at `span`.
#[inline(always)]
pub(super) fn between_quotes(src: &str, span: Span) -> &str {
    src.get(span.start() + 1..span.end().saturating_sub(1))
        .unwrap_or_default()
}

/// [`string_text`] of a string written with escapes, whose text between
/// the quotes is `content`.
#[inline(never)]
fn escaped_text<'a>(content: &str, decoded: &'a str, ends: &[u32], s: JsonStr) -> Cow<'a, str> {
    let Some(i) = s.decoded_index() else {
        return Cow::Owned(unescape(content));
    };
    let start = match i.checked_sub(2) {
        Some(before) => ends.get(before).map_or(0, |&e| e as usize),
        None => 0,
    };
    let end = ends.get(i.wrapping_sub(1)).map_or(start, |&e| e as usize);
    Cow::Borrowed(decoded.get(start..end).unwrap_or_default())
}

/// The builder of a [`JsonDocument`](super::JsonDocument): each
/// container's children gathered on scratch lists, one per depth (at most
/// one container is open at each), and moved into the document's arenas
/// in one copy as the container closes, so that they lie side by side.
pub(super) struct DocBuilder<'s> {
    /// The elements of the arrays being read: an array moves its own
    /// into `values` when it closes and leaves the list empty (its room
    /// kept) for the next container at that depth.
    pub(super) items: &'s mut Lists<JsonValue>,
    /// The same for the properties of objects, into `properties`.
    pub(super) props: &'s mut Lists<JsonProperty>,
    /// The elements of the arrays read so far, each array's side by side.
    pub(super) values: Vec<JsonValue>,
    /// The properties of the objects read so far.
    pub(super) properties: Vec<JsonProperty>,
}

impl<'i> JsonBuilder<'i> for DocBuilder<'_> {
    type Value = JsonValue;
    type Array = ();
    type Object = ();
    type Error = Error;

    #[inline(always)]
    fn scalar(&mut self, v: JsonValue, _: &JsonText<'_, 'i>) -> Result<JsonValue, Error> {
        Ok(v)
    }

    #[inline(always)]
    fn array(&mut self, _: usize) {}

    #[inline(always)]
    fn item(&mut self, (): &mut (), depth: usize, item: JsonValue) -> Result<(), Error> {
        if let Some(items) = self.items.at(depth) {
            items.push(item);
        }
        Ok(())
    }

    #[inline]
    fn end_array(&mut self, (): (), depth: usize, span: Span) -> Result<JsonValue, Error> {
        let at = self.values.len();
        self.items.close(depth, &mut self.values);
        let array = JsonArray {
            start: index(at),
            len: index(self.values.len() - at),
        };
        Ok(JsonValue {
            kind: JsonKind::Array(array),
            span,
        })
    }

    #[inline(always)]
    fn object(&mut self, _: usize) {}

    #[inline(always)]
    fn property(
        &mut self,
        (): &mut (),
        depth: usize,
        name: JsonStr,
        name_span: Span,
        value: JsonValue,
        _: &JsonText<'_, 'i>,
    ) -> Result<(), Error> {
        if let Some(props) = self.props.at(depth) {
            props.push(JsonProperty {
                name,
                name_span,
                value,
            });
        }
        Ok(())
    }

    #[inline]
    fn end_object(&mut self, (): (), depth: usize, span: Span) -> Result<JsonValue, Error> {
        let at = self.properties.len();
        self.props.close(depth, &mut self.properties);
        let object = JsonObject {
            start: index(at),
            len: index(self.properties.len() - at),
        };
        Ok(JsonValue {
            kind: JsonKind::Object(object),
            span,
        })
    }
}

/// An arena index: there are fewer values than input bytes, and the
/// input is at most [`Span::MAX_OFFSET`] bytes long (checked first).
pub(super) fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}
